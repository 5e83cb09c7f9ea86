import { Hono } from 'hono';
import { z } from 'zod';
import type { AccountsEnv } from '../app/context.ts';
import { USAGE_ALERT_CHOICES } from '../../lib/dashboard-data.ts';
import { requireUser } from '../middleware/caller.ts';
import { noStore } from '../middleware/security-headers.ts';
import { jsonBody } from '../middleware/validate.ts';
import { setUsageAlerts, usageAlertsOf } from '../services/usage-alerts.ts';

const choices = USAGE_ALERT_CHOICES.join(', ');
const alertsBody = z.object({
  thresholds: z
    .array(
      z
        .number({ error: `each threshold must be one of ${choices}` })
        .refine((value) => (USAGE_ALERT_CHOICES as readonly number[]).includes(value), {
          error: `each threshold must be one of ${choices}`,
        }),
      { error: 'thresholds must be a list of percentages' },
    )
    .max(USAGE_ALERT_CHOICES.length, 'thresholds has too many entries'),
});

/**
 * The signed-in owner's usage alerts: GET the chosen percentages with today's calls and the alerts
 * reached today (the dashboard's banner), PUT a new choice.
 */
export const usageAlertRoutes = new Hono<AccountsEnv>()
  .get('/user/usage-alerts', noStore(), requireUser(), async (c) => {
    const { db, caller } = c.var;
    if (caller.kind !== 'user') throw new Error('requireUser let a non-user through');
    return c.json(await usageAlertsOf(db, caller.userId));
  })
  .put('/user/usage-alerts', noStore(), requireUser(), jsonBody(alertsBody), async (c) => {
    const { db, caller } = c.var;
    if (caller.kind !== 'user') throw new Error('requireUser let a non-user through');
    await setUsageAlerts(db, caller.userId, c.req.valid('json').thresholds);
    return c.json(await usageAlertsOf(db, caller.userId));
  });
