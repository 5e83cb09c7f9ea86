import { Hono } from 'hono';
import { statusMonitor, type StatusMonitor } from '../status/monitor.ts';

/**
 * GET /api/status: the live state of every component and endpoint group with 90 days of uptime (the
 * status page reads it). Mounted before the database middleware, like the health checks: it must
 * answer while the database is down, from the last probe round kept in memory.
 */
export function statusRoutes(monitor: () => StatusMonitor = statusMonitor) {
  return new Hono().get('/status', async (c) => {
    const answer = await monitor().answer();
    c.header('Cache-Control', 'no-store');
    return c.json(answer);
  });
}
