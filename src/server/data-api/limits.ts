import { MemoryStore, type RateLimitResult, type RateLimitStore } from '../middleware/rate-limit-store.ts';
import type { CallLimits } from './access.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface LimitVerdict {
  allowed: boolean;
  /** RateLimit-Policy and RateLimit (IETF httpapi draft), plus Retry-After on a refusal. */
  headers: Record<string, string>;
  /** Set on a refusal: which budget ran out and when a call fits again. */
  refusal?: { policy: 'minute' | 'day'; limit: number; retryAfterSeconds: number };
}

interface Policy {
  name: 'minute' | 'day';
  limit: number;
  windowMs: number;
}

interface Policies extends CallLimits {
  list: Policy[];
  /** The RateLimit-Policy header, the same for every call under these limits. */
  header: string;
}

// A handful of plans: their policies and header text are built once. Callers pass the same limits
// object for every call of a key while its check is cached, so that object finds them first.
const policyCache = new Map<string, Policies>();
const policiesByLimits = new WeakMap<CallLimits, Policies>();

function policiesOf(limits: CallLimits): Policies {
  const seen = policiesByLimits.get(limits);
  if (seen?.perMinute === limits.perMinute && seen.perDay === limits.perDay) return seen;
  const policies = policiesFor(limits);
  policiesByLimits.set(limits, policies);
  return policies;
}

function policiesFor(limits: CallLimits): Policies {
  const id = `${String(limits.perMinute)}|${String(limits.perDay)}`;
  const known = policyCache.get(id);
  if (known !== undefined) return known;
  const list: Policy[] = [];
  if (limits.perMinute !== null) list.push({ name: 'minute', limit: limits.perMinute, windowMs: MINUTE_MS });
  if (limits.perDay !== null) list.push({ name: 'day', limit: limits.perDay, windowMs: DAY_MS });
  const header = list
    .map((policy) => `"${policy.name}";q=${policy.limit};w=${policy.windowMs / 1000}`)
    .join(', ');
  const policies = { list, header, perMinute: limits.perMinute, perDay: limits.perDay };
  if (policyCache.size < 1000) policyCache.set(id, policies);
  return policies;
}

/**
 * Counts one call against the caller's per-minute and per-day budgets (sliding windows, in the shared
 * store: memory, or Redis when several instances serve). The day budget is only charged when the
 * minute budget let the call through, so a burst that is refused costs nothing; it is still reported,
 * so a 429 carries every window.
 */
export async function countCall(
  store: RateLimitStore,
  subject: string,
  limits: CallLimits,
  weight = 1,
): Promise<LimitVerdict> {
  if (store instanceof MemoryStore) return countCallNow(store, subject, limits, weight);
  const known = policiesOf(limits);
  const results: { policy: Policy; result: RateLimitResult }[] = [];
  let refused = false;
  for (const policy of known.list) {
    const key = `data-${policy.name}:${subject}`;
    // Once one budget refuses, the others are only reported, so the 429 carries every window.
    const result = refused
      ? await store.peek(key, policy.windowMs, policy.limit, weight)
      : await store.hit(key, policy.windowMs, policy.limit, weight);
    results.push({ policy, result });
    if (!result.allowed) refused = true;
  }
  return verdictOf(known, results);
}

/**
 * {@link countCall} for a store in this process, which answers at once: no promise on the hot path.
 * A call of `weight` (a bulk file) counts as that many calls and fits only if all of them do.
 */
export function countCallNow(
  store: MemoryStore,
  subject: string,
  limits: CallLimits,
  weight = 1,
): LimitVerdict {
  const known = policiesOf(limits);
  const results: { policy: Policy; result: RateLimitResult }[] = [];
  let refused = false;
  for (const policy of known.list) {
    const result = store.hitNow(
      `data-${policy.name}:${subject}`,
      policy.windowMs,
      policy.limit,
      !refused,
      weight,
    );
    results.push({ policy, result });
    if (!result.allowed) refused = true;
  }
  return verdictOf(known, results);
}

/**
 * Takes back a call that {@link countCall} let through but that was then refused (plan, parameters,
 * unknown symbol): only answered calls use up a budget.
 */
export async function releaseCall(
  store: RateLimitStore,
  subject: string,
  limits: CallLimits,
  weight = 1,
): Promise<void> {
  for (const policy of policiesOf(limits).list) await store.release(`data-${policy.name}:${subject}`, weight);
}

function verdictOf(
  { list: policies, header }: Policies,
  results: { policy: Policy; result: RateLimitResult }[],
): LimitVerdict {
  const headers: Record<string, string> = {};
  if (policies.length > 0) {
    headers['RateLimit-Policy'] = header;
    headers.RateLimit = results
      .map(({ policy, result }) => `"${policy.name}";r=${result.remaining};t=${resetSeconds(result)}`)
      .join(', ');
  }
  // When several budgets are spent, the call fits again only once the last of them frees a slot.
  const refused = results
    .filter(({ result }) => !result.allowed)
    .reduce<(typeof results)[number] | undefined>(
      (latest, entry) =>
        latest === undefined || entry.result.resetMs > latest.result.resetMs ? entry : latest,
      undefined,
    );
  if (refused === undefined) return { allowed: true, headers };
  const retryAfterSeconds = resetSeconds(refused.result);
  headers['Retry-After'] = String(retryAfterSeconds);
  return {
    allowed: false,
    headers,
    refusal: { policy: refused.policy.name, limit: refused.policy.limit, retryAfterSeconds },
  };
}

function resetSeconds(result: RateLimitResult): number {
  return Math.max(1, Math.ceil(result.resetMs / 1000));
}

/** The 429 text: which budget, how long to wait, and where more calls come from. */
export function limitMessage(refusal: NonNullable<LimitVerdict['refusal']>, planName: string): string {
  const wait = refusal.retryAfterSeconds;
  const when = wait < 120 ? `${wait} seconds` : `${Math.ceil(wait / 60)} minutes`;
  const budget =
    refusal.policy === 'minute' ? `${refusal.limit} calls per minute` : `${refusal.limit} calls per day`;
  return `Limit reached: the ${planName} plan allows ${budget}. Try again in ${when}, or upgrade your plan for higher limits.`;
}
