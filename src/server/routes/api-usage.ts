import { Hono } from 'hono';
import { z } from 'zod';
import type { AccountsEnv } from '../app/context.ts';
import { requireUser } from '../middleware/caller.ts';
import { noStore } from '../middleware/security-headers.ts';
import { queryParams } from '../middleware/validate.ts';
import { MAX_USAGE_DAYS, recentDays, usageForUser } from '../services/api-usage.ts';

const usageQuery = z.strictObject({
  days: z.coerce
    .number({ error: 'days must be a whole number' })
    .int('days must be a whole number')
    .min(1, 'days must be at least 1')
    .max(MAX_USAGE_DAYS, `days must be at most ${MAX_USAGE_DAYS}`)
    .default(30),
});

/**
 * GET /api/portal/user/api-usage?days=30: the signed-in user's data API calls and bytes per day and
 * endpoint (every key the account has had), for the dashboard's usage chart.
 */
export const apiUsageRoutes = new Hono<AccountsEnv>().get(
  '/user/api-usage',
  noStore(),
  requireUser(),
  queryParams(usageQuery),
  async (c) => {
    const { db, caller } = c.var;
    if (caller.kind !== 'user') throw new Error('requireUser let a non-user through');
    const range = recentDays(c.req.valid('query').days);
    const rows = await usageForUser(db, caller.userId, range);
    return c.json({ ...range, usage: rows });
  },
);
