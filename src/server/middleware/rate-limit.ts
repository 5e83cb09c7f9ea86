import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { Context, Env, Input, MiddlewareHandler } from 'hono';
import type { BlankInput } from 'hono/types';
import { apiError } from '../app/errors.ts';
import { sharedRateLimitStore, type RateLimitResult, type RateLimitStore } from './rate-limit-store.ts';
import { clientIp } from '../app/request.ts';

/** Expands an IPv6 address to its eight groups. */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right];
}

/**
 * The rate-limit key for a client address: IPv4 as is, IPv6 by its /64 network, since one
 * subscriber is handed a whole /64 and could otherwise rotate through addresses for free.
 */
export function ipKey(c: Context): string {
  const ip = clientIp(c);
  if (isIP(ip) !== 6) return `ip:${ip}`;
  const network = ipv6Groups(ip)
    .slice(0, 4)
    .map((group) => Number.parseInt(group === '' ? '0' : group, 16).toString(16))
    .join(':');
  return `ip:${network}::/64`;
}

export type RateLimitKey = string | readonly string[] | undefined;

/**
 * `I` is the validated input the key function may read: pass `JsonInput<typeof schema>` (from
 * validate.ts) when jsonBody runs first, to key on a typed `c.req.valid('json')`.
 */
export interface RateLimitOptions<
  I extends Input = BlankInput,
  E extends Env = Env,
  P extends string = string,
> {
  /** Names the policy in the RateLimit headers and separates its counters from other policies. */
  name: string;
  /** Requests allowed per window, per key. */
  limit: number;
  windowMs: number;
  /**
   * Who is counted: one key or several (each gets the full budget; the request is refused when any
   * is spent), e.g. the client IP and the account named in the body (`c.req.valid('json')` is
   * typed when jsonBody runs first). No key: not limited.
   */
  key: (c: Context<E, P, I>) => RateLimitKey | Promise<RateLimitKey>;
  /** Where counts are kept (default: the process-wide store, Redis when REDIS_URL is set). */
  store?: RateLimitStore;
}

export function tooManyRequestsMessage(seconds: number): string {
  return `Too many requests. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;
}

/** Keys as stored: hashed, so e-mail addresses are not written to Redis and key length is bounded. */
function storageKey(policy: string, key: string): string {
  return `${policy}:${createHash('sha256').update(key).digest('base64url').slice(0, 32)}`;
}

function keysOf(value: RateLimitKey): string[] {
  if (value === undefined) return [];
  const list: readonly string[] = typeof value === 'string' ? [value] : value;
  return [...new Set(list.filter((key) => key !== ''))];
}

/** The result the client is told about: a refusal if any, otherwise the key with the least left. */
function tightest(results: readonly RateLimitResult[]): RateLimitResult | undefined {
  const refused = results.filter((result) => !result.allowed);
  const pool = refused.length > 0 ? refused : results;
  return pool.reduce<RateLimitResult | undefined>((worst, result) => {
    if (worst === undefined) return result;
    if (!result.allowed) return result.resetMs > worst.resetMs ? result : worst;
    return result.remaining < worst.remaining ? result : worst;
  }, undefined);
}

/**
 * Limits requests per key in a sliding window. Refusals answer 429 with Retry-After; every answer
 * carries RateLimit-Policy and RateLimit (IETF httpapi rate-limit headers draft) so well-behaved
 * clients can slow down before being refused.
 */
export function rateLimit<I extends Input = BlankInput, E extends Env = Env, P extends string = string>(
  options: RateLimitOptions<I, E, P>,
): MiddlewareHandler<E, P, I> {
  const { name, limit, windowMs } = options;
  if (!/^[\w.-]+$/.test(name))
    throw new Error(`rateLimit name "${name}" must be letters, digits, '.', '_' or '-'`);
  if (!Number.isInteger(limit) || limit < 1) {
    throw new Error(`rateLimit ${name}: limit must be a positive integer`);
  }
  if (!Number.isInteger(windowMs) || windowMs < 1000) {
    throw new Error(`rateLimit ${name}: windowMs must be a whole number of milliseconds, at least 1000`);
  }
  const policy = `"${name}"`;
  const windowSeconds = Math.ceil(windowMs / 1000);
  return async (c, next) => {
    const keys = keysOf(await options.key(c));
    if (keys.length === 0) return next();
    const store = options.store ?? sharedRateLimitStore();
    const results = await Promise.all(keys.map((key) => store.hit(storageKey(name, key), windowMs, limit)));
    const result = tightest(results);
    if (result === undefined) return next();
    const resetSeconds = Math.max(1, Math.ceil(result.resetMs / 1000));
    const headers = {
      'RateLimit-Policy': `${policy};q=${limit};w=${windowSeconds}`,
      RateLimit: `${policy};r=${result.remaining};t=${resetSeconds}`,
    };
    if (!result.allowed) {
      return apiError(
        c,
        429,
        tooManyRequestsMessage(resetSeconds),
        {},
        {
          ...headers,
          'Retry-After': String(resetSeconds),
        },
      );
    }
    await next();
    for (const [header, value] of Object.entries(headers)) c.header(header, value, { append: true });
  };
}
