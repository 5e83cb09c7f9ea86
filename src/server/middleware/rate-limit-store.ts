import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { readConfig } from '../app/config.ts';
import { redactSecrets } from '../app/errors.ts';

/** One counted request: whether it fits the budget, what is left, and when the next slot frees up. */
export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** Milliseconds until the oldest counted request leaves the window (a slot frees up). */
  resetMs: number;
}

/**
 * Sliding-window counting behind the rate-limit middleware, so limits work the same whether they
 * are kept in this process or shared by every process through Redis.
 */
export interface RateLimitStore {
  /**
   * Counts a request under `key` if it fits `limit` requests per `windowMs`; refused requests are not
   * counted. A request of `weight` (default 1) counts as that many, and fits only if all of them do.
   */
  hit(key: string, windowMs: number, limit: number, weight?: number): Promise<RateLimitResult>;
  /** What `hit` would answer, without counting anything: a window's state for a refusal's headers. */
  peek(key: string, windowMs: number, limit: number, weight?: number): Promise<RateLimitResult>;
  /**
   * Takes back the most recent count under `key` (`weight` of them): a call that was let through and
   * then refused for another reason (plan, parameters) must not use up the budget.
   */
  release(key: string, weight?: number): Promise<void>;
  close(): Promise<void>;
  /**
   * Why the shared counting is not available right now (its store is unreachable and requests are
   * counted in this process), or undefined when it is; absent for stores that share nothing.
   */
  sharedCountingProblem?(): string | undefined;
}

interface Log {
  windowMs: number;
  /**
   * Distinct times (ms) of the counted requests, oldest first, from `head` on; the slots before
   * `head` have left the window and are dropped in batches. Requests of the same millisecond share a
   * slot, so a busy key holds at most one slot per millisecond of its window however high its limit.
   */
  times: number[];
  /** Requests counted at each time of `times`. */
  counts: number[];
  head: number;
  /** Requests in the window: the sum of `counts` from `head` on, never more than the limit. */
  total: number;
}

/** Spent slots are cut off the front of a log once there are this many and they are the majority. */
const COMPACT_AFTER = 1024;

export interface MemoryStoreOptions {
  /** Most keys kept at once; stale keys go first, then the least recently used. */
  maxKeys?: number;
  now?: () => number;
}

const SWEEP_INTERVAL_MS = 60_000;

/**
 * A sliding-log store in this process's memory: exact to the millisecond, and bounded (a key holds
 * at most one slot per counted millisecond, never more than `limit`, and at most `maxKeys` keys are
 * kept), so a flood of distinct keys cannot exhaust memory.
 */
export class MemoryStore implements RateLimitStore {
  private readonly logs = new Map<string, Log>();
  /** The log at the most recently used end of `logs`: hitting it again needs no re-insertion. */
  private newest: Log | undefined;
  private readonly maxKeys: number;
  private readonly now: () => number;
  private lastSweep: number;

  constructor(options: MemoryStoreOptions = {}) {
    this.maxKeys = options.maxKeys ?? 10_000;
    this.now = options.now ?? Date.now;
    this.lastSweep = this.now();
  }

  /** Keys currently held. */
  get size(): number {
    return this.logs.size;
  }

  hit(key: string, windowMs: number, limit: number, weight = 1): Promise<RateLimitResult> {
    return Promise.resolve(this.hitNow(key, windowMs, limit, true, weight));
  }

  peek(key: string, windowMs: number, limit: number, weight = 1): Promise<RateLimitResult> {
    return Promise.resolve(this.hitNow(key, windowMs, limit, false, weight));
  }

  release(key: string, weight = 1): Promise<void> {
    this.releaseNow(key, weight);
    return Promise.resolve();
  }

  /** {@link release} without a promise. */
  releaseNow(key: string, weight = 1): void {
    for (let left = weight; left > 0; left -= 1) this.releaseOne(key);
  }

  private releaseOne(key: string): void {
    const log = this.logs.get(key);
    if (log === undefined || log.total === 0) return;
    const last = log.times.length - 1;
    if (last < log.head) return;
    const left = (log.counts[last] ?? 0) - 1;
    if (left > 0) log.counts[last] = left;
    else {
      log.times.pop();
      log.counts.pop();
    }
    log.total -= 1;
  }

  /**
   * The same count without a promise, for callers on a hot path that know the store is local; with
   * `take` false it only reports the window (see {@link peek}).
   */
  hitNow(key: string, windowMs: number, limit: number, take = true, weight = 1): RateLimitResult {
    const now = this.now();
    if (now - this.lastSweep >= SWEEP_INTERVAL_MS) this.sweep(now);
    let log = this.logs.get(key);
    if (log === undefined) {
      log = { windowMs, times: [], counts: [], head: 0, total: 0 };
    } else if (log !== this.newest) {
      // Re-inserting keeps the map in least-recently-used order for eviction.
      this.logs.delete(key);
    }
    log.windowMs = windowMs;
    const { times, counts } = log;
    const cutoff = now - windowMs;
    while (log.head < times.length && (times[log.head] ?? now) <= cutoff) {
      log.total -= counts[log.head] ?? 0;
      log.head += 1;
    }
    if (log.head >= COMPACT_AFTER && log.head * 2 >= times.length) {
      times.splice(0, log.head);
      counts.splice(0, log.head);
      log.head = 0;
    }
    const allowed = log.total + weight <= limit;
    if (allowed && take) {
      const last = times.length - 1;
      if (last >= log.head && times[last] === now) counts[last] = (counts[last] ?? 0) + weight;
      else {
        times.push(now);
        counts.push(weight);
      }
      log.total += weight;
    }
    if (log.total > 0) {
      if (log !== this.newest) {
        if (this.logs.size >= this.maxKeys) this.evict(now);
        this.logs.set(key, log);
        this.newest = log;
      }
    } else {
      this.logs.delete(key);
      if (log === this.newest) this.newest = undefined;
    }
    const oldest = times[log.head];
    return {
      allowed,
      remaining: Math.max(0, limit - log.total),
      resetMs: oldest === undefined ? windowMs : Math.max(0, oldest + windowMs - now),
    };
  }

  /** Drops keys whose every request has left its window. */
  sweep(now: number = this.now()): void {
    this.lastSweep = now;
    for (const [key, log] of this.logs) {
      const latest = log.times.at(-1);
      if (latest === undefined || latest <= now - log.windowMs) {
        this.logs.delete(key);
        if (log === this.newest) this.newest = undefined;
      }
    }
  }

  private evict(now: number): void {
    this.sweep(now);
    for (const [key, log] of this.logs) {
      if (this.logs.size < this.maxKeys) break;
      this.logs.delete(key);
      if (log === this.newest) this.newest = undefined;
    }
  }

  close(): Promise<void> {
    this.logs.clear();
    this.newest = undefined;
    return Promise.resolve();
  }
}

/**
 * Sliding log in a sorted set, run as one script so concurrent processes cannot both take the last
 * slot. Redis's own clock is used so processes with skewed clocks still agree.
 */
const HIT_SCRIPT = `
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local weight = tonumber(ARGV[5] or '1')
local allowed = 0
if count + weight <= limit then
  allowed = 1
  if ARGV[4] ~= 'peek' then
    for i = 1, weight do redis.call('ZADD', key, now, ARGV[3] .. ':' .. i) end
    count = count + weight
  end
end
local reset = window
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
if count > 0 then redis.call('PEXPIRE', key, window) end
return {allowed, limit - count, reset}
`;
const HIT_SCRIPT_SHA = createHash('sha1').update(HIT_SCRIPT).digest('hex');

export interface RedisStoreOptions {
  /** Prefix of every key this store writes (default 'ratelimit:'). */
  prefix?: string;
  /** Counts requests while Redis is unreachable (default: a MemoryStore in this process). */
  fallback?: RateLimitStore;
  /** Where the one warning per outage goes (default console.warn). */
  warn?: (message: string) => void;
}

/** Short timeouts: a slow or missing Redis must cost a request milliseconds, not hang it. */
const CONNECT_TIMEOUT_MS = 500;
const COMMAND_TIMEOUT_MS = 500;

/** Where a Redis URL points, for log lines: no user name, no password. */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'the configured Redis';
  }
}

/**
 * The shared store: every process counts against one budget per key. When Redis cannot be
 * reached the store fails open to per-process counting (a single warning per outage, and readiness
 * reports the limits as degraded), because refusing every sign-in and API call while Redis is down
 * would turn a cache outage into a site outage; each instance still enforces the limits for what it
 * sees, so the budget is at most the number of instances times the limit until Redis is back.
 */
export class RedisStore implements RateLimitStore {
  readonly redis: Redis;
  private readonly prefix: string;
  private readonly fallback: RateLimitStore;
  private readonly warn: (message: string) => void;
  private readonly label: string;
  private warned = false;

  constructor(redis: Redis | string, options: RedisStoreOptions = {}) {
    this.redis = typeof redis === 'string' ? RedisStore.connect(redis) : redis;
    this.label = typeof redis === 'string' ? describeRedisUrl(redis) : 'Redis';
    this.prefix = options.prefix ?? 'ratelimit:';
    this.fallback = options.fallback ?? new MemoryStore();
    this.warn = options.warn ?? ((message) => console.warn(message));
    this.redis.on('error', (error: unknown) => this.reportOutage(error));
    this.redis.on('ready', () => {
      this.warned = false;
    });
  }

  /** A client tuned to fail fast: bounded connect and command times, no retry of queued commands. */
  static connect(url: string): Redis {
    return new Redis(url, {
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(attempt * 250, 5000),
      enableReadyCheck: true,
    });
  }

  private reportOutage(error: unknown): void {
    if (this.warned) return;
    this.warned = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.warn(
      redactSecrets(
        `rate limits: ${this.label} unavailable (${reason}); counting in this process until it is back`,
      ),
    );
  }

  sharedCountingProblem(): string | undefined {
    const status = this.redis.status;
    return status === 'ready' ? undefined : `${this.label} ${status}`;
  }

  /**
   * Whether Redis is between connections: commands would wait for the next attempt, so the call is
   * answered locally instead (reported once per outage).
   */
  private disconnected(): boolean {
    const status = this.redis.status;
    if (status !== 'reconnecting' && status !== 'end' && status !== 'close') return false;
    this.reportOutage(new Error(`connection ${status}`));
    return true;
  }

  hit(key: string, windowMs: number, limit: number, weight = 1): Promise<RateLimitResult> {
    return this.count(key, windowMs, limit, 'hit', weight);
  }

  peek(key: string, windowMs: number, limit: number, weight = 1): Promise<RateLimitResult> {
    return this.count(key, windowMs, limit, 'peek', weight);
  }

  private async count(
    key: string,
    windowMs: number,
    limit: number,
    mode: 'hit' | 'peek',
    weight: number,
  ): Promise<RateLimitResult> {
    const local = (): Promise<RateLimitResult> =>
      mode === 'hit'
        ? this.fallback.hit(key, windowMs, limit, weight)
        : this.fallback.peek(key, windowMs, limit, weight);
    if (this.disconnected()) return local();
    try {
      const reply = await this.run(`${this.prefix}${key}`, windowMs, limit, mode, weight);
      return { allowed: reply[0] === 1, remaining: Math.max(0, reply[1]), resetMs: Math.max(0, reply[2]) };
    } catch (error) {
      this.reportOutage(error);
      return local();
    }
  }

  async release(key: string, weight = 1): Promise<void> {
    if (this.disconnected()) {
      await this.fallback.release(key, weight);
      return;
    }
    try {
      // The newest entries: another process's count of the same moment is worth the same.
      await this.redis.zpopmax(`${this.prefix}${key}`, weight);
    } catch (error) {
      this.reportOutage(error);
      await this.fallback.release(key, weight);
    }
  }

  private async run(
    key: string,
    windowMs: number,
    limit: number,
    mode: 'hit' | 'peek',
    weight: number,
  ): Promise<[number, number, number]> {
    const args = [1, key, windowMs, limit, randomUUID(), mode, weight] as const;
    try {
      return (await this.redis.evalsha(HIT_SCRIPT_SHA, ...args)) as [number, number, number];
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return (await this.redis.eval(HIT_SCRIPT, ...args)) as [number, number, number];
    }
  }

  async close(): Promise<void> {
    await this.fallback.close();
    if (this.redis.status === 'ready') {
      await this.redis.quit().catch(() => this.redis.disconnect());
    } else {
      this.redis.disconnect();
    }
  }
}

export interface CreateRateLimitStoreOptions {
  redisUrl?: string | undefined;
  prefix?: string;
  warn?: (message: string) => void;
}

/**
 * Redis when REDIS_URL is set (limits hold across processes and restarts), otherwise memory (one
 * process, which is all local development runs).
 */
export function createRateLimitStore(options: CreateRateLimitStoreOptions = {}): RateLimitStore {
  const url = options.redisUrl ?? readConfig().redisUrl;
  if (url === undefined || url === '') return new MemoryStore();
  const redisOptions: RedisStoreOptions = {};
  if (options.prefix !== undefined) redisOptions.prefix = options.prefix;
  if (options.warn !== undefined) redisOptions.warn = options.warn;
  return new RedisStore(url, redisOptions);
}

const SHARED = Symbol.for('market-data.rate-limit-store');
const holder = globalThis as typeof globalThis & { [SHARED]?: RateLimitStore | undefined };

/**
 * The process-wide store, created on first use; kept on globalThis because the site bundle and the
 * server may load this module twice in one process and must count against one budget.
 */
export function sharedRateLimitStore(): RateLimitStore {
  holder[SHARED] ??= createRateLimitStore();
  return holder[SHARED];
}

/** Closes the process-wide store (shutdown, tests). */
export async function closeSharedRateLimitStore(): Promise<void> {
  const store = holder[SHARED];
  holder[SHARED] = undefined;
  await store?.close();
}
