import { Hono } from 'hono';
import { getDatabase } from '../db/client.ts';
import { notReadyReason } from './lifecycle.ts';
import type { Check } from '../auth/identity.ts';
import { sharedRateLimitStore, type RateLimitStore } from '../middleware/rate-limit-store.ts';

/** The innermost cause's message: "connect ECONNREFUSED …" says more than "Failed query: select 1". */
export function rootCause(error: unknown): string {
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

/**
 * A probe's answer: ready, failing (the instance should get no traffic), degraded (it serves, with
 * something weaker than usual: a reason to look, not to take it out of rotation), or undefined when
 * the dependency is not configured here.
 */
export type ProbeResult = Check | { ok: true; degraded: string } | undefined;

type Probe = () => Promise<ProbeResult> | ProbeResult;

/**
 * The shared rate-limit store: degraded while Redis is configured but unreachable (limits are then
 * counted per process); not reported without Redis.
 */
export function checkRateLimits(store: RateLimitStore = sharedRateLimitStore()): ProbeResult {
  if (store.sharedCountingProblem === undefined) return undefined;
  const problem = store.sharedCountingProblem();
  return problem === undefined
    ? { ok: true }
    : { ok: true, degraded: `rate limits: ${problem}; counting in this process until it is back` };
}

function verdict(result: Exclude<ProbeResult, undefined>): 'ok' | 'degraded' | 'failing' {
  if (!result.ok) return 'failing';
  return 'degraded' in result ? 'degraded' : 'ok';
}

/**
 * Liveness and readiness for load balancers: livez never touches dependencies, readyz says an instance
 * that is starting or draining is not ready (lifecycle.ts) and names the first dependency that fails, so
 * an operator knows where to look.
 */
export function healthRoutes(probes: Record<string, Probe>) {
  return new Hono()
    .get('/livez', (c) => c.json({ status: 'ok' }))
    .get('/readyz', async (c) => {
      c.header('Cache-Control', 'no-store');
      const lifecycle = notReadyReason();
      if (lifecycle !== undefined) {
        return c.json({ status: 'unavailable', reason: lifecycle, checks: { lifecycle: 'failing' } }, 503);
      }
      const answered = await Promise.all(
        Object.entries(probes).map(async ([name, probe]) => [name, await probe()] as const),
      );
      const results = answered.flatMap(([name, r]) => (r === undefined ? [] : [[name, r] as const]));
      const checks = Object.fromEntries(results.map(([name, r]) => [name, verdict(r)]));
      for (const [, r] of results) {
        if (!r.ok) return c.json({ status: 'unavailable', reason: r.reason, checks }, 503);
      }
      for (const [, r] of results) {
        if ('degraded' in r) return c.json({ status: 'degraded', reason: r.degraded, checks });
      }
      return c.json({ status: 'ok', checks });
    });
}
