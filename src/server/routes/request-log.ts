import { Hono } from 'hono';
import { z } from 'zod';
import type { AccountsEnv } from '../app/context.ts';
import { requireUser } from '../middleware/caller.ts';
import { noStore } from '../middleware/security-headers.ts';
import { queryParams } from '../middleware/validate.ts';
import { listRequestLog, loggedEndpoints, REQUEST_LOG_MAX_PAGE } from '../services/request-log.ts';

const moment = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  error: 'must be a date (YYYY-MM-DD) or a time (ISO 8601)',
});

const logQuery = z.strictObject({
  status: z
    .string()
    .regex(/^([1-5]xx|[1-5]\d\d)$/, 'status must be a class such as 4xx or a status such as 429')
    .optional(),
  endpoint: z.string().max(120, 'endpoint is too long').optional(),
  key: z.uuid('key must be the id of one of your keys').optional(),
  from: moment.optional(),
  to: moment.optional(),
  before: z
    .string()
    .regex(/^\d+\.\d+$/, 'before must be the nextBefore of an earlier page')
    .optional(),
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(REQUEST_LOG_MAX_PAGE, `limit must be at most ${String(REQUEST_LOG_MAX_PAGE)}`)
    .optional(),
});

/** A day's start for `from`, its end for `to`; a full time as given. */
function momentOf(value: string | undefined, end: boolean): Date | undefined {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value))
    return new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`);
  return new Date(value);
}

/**
 * GET /api/portal/user/request-log: the signed-in owner's data API requests, newest first, filtered
 * by status class or status, endpoint, key and time range, a page at a time (`before` is the
 * previous page's `nextBefore`), with the endpoints the account has called for the filter.
 */
export const requestLogRoutes = new Hono<AccountsEnv>().get(
  '/user/request-log',
  noStore(),
  requireUser(),
  queryParams(logQuery),
  async (c) => {
    const { db, caller } = c.var;
    if (caller.kind !== 'user') throw new Error('requireUser let a non-user through');
    const query = c.req.valid('query');
    const [page, endpoints] = await Promise.all([
      listRequestLog(db, caller.userId, {
        status: query.status,
        endpoint: query.endpoint,
        keyId: query.key,
        from: momentOf(query.from, false),
        to: momentOf(query.to, true),
        before: query.before,
        limit: query.limit,
      }),
      loggedEndpoints(db, caller.userId),
    ]);
    return c.json({ ...page, endpoints });
  },
);
