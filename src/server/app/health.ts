import { Hono } from 'hono';
import { getDatabase } from '../db/client.ts';
import type { Check } from '../auth/identity.ts';

/** The innermost cause's message: "connect ECONNREFUSED …" says more than "Failed query: select 1". */
function rootCause(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : 'unavailable';
}

/** Whether the database answers a trivial query within the time limit. */
export async function checkDatabase(timeoutMs = 2000): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Check>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, reason: `database: no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const probe = getDatabase()
    .then((database) => database.ping())
    .then((): Check => ({ ok: true }))
    .catch((error: unknown): Check => ({
      ok: false,
      reason: `database: ${rootCause(error)}`,
    }));
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type Probe = () => Promise<Check>;

/**
 * Liveness and readiness for load balancers: livez never touches dependencies, readyz names the
 * first dependency that fails so an operator knows where to look.
 */
export function healthRoutes(probes: Record<string, Probe>) {
  return new Hono()
    .get('/livez', (c) => c.json({ status: 'ok' }))
    .get('/readyz', async (c) => {
      const results = await Promise.all(
        Object.entries(probes).map(async ([name, probe]) => [name, await probe()] as const),
      );
      const checks = Object.fromEntries(results.map(([name, r]) => [name, r.ok ? 'ok' : 'failing']));
      const failed = results.map(([, r]) => r).find((r) => !r.ok);
      c.header('Cache-Control', 'no-store');
      if (failed) return c.json({ status: 'unavailable', reason: failed.reason, checks }, 503);
      return c.json({ status: 'ok', checks });
    });
}
