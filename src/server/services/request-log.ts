import { and, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { RequestLogPage } from '../../lib/dashboard-data.ts';
import type { Db } from '../db/client.ts';
import { apiKeys, apiRequests, users } from '../db/schema.ts';
import { redactSecrets } from '../auth/tokens.ts';

/*
 * The request log behind the dashboard's Request log page: each data API call made with a key (its
 * time, key, endpoint, parameters without the key, status, latency and size). The data API hands
 * entries to a {@link RequestLog}, which writes them in batches every few seconds, as the usage meter
 * does, so logging adds no database write to a request. Rows are kept 30 days and at most
 * {@link REQUEST_LOG_PER_ACCOUNT} per account.
 */

/** How long requests are kept. */
export const REQUEST_LOG_DAYS = 30;
/** The most requests kept per account; the oldest go first. */
export const REQUEST_LOG_PER_ACCOUNT = 10_000;
/** How often logged requests are written. */
export const REQUEST_LOG_FLUSH_INTERVAL_MS = 2_000;
/** The most entries held in memory between writes (a flood or an outage drops the oldest beyond it). */
const MAX_PENDING = 20_000;
/**
 * The most requests of one account kept per write (50 a second at the default interval). Writing
 * every call of an account sending thousands a second would cost the embedded database more than
 * answering them; beyond this rate the log keeps the first of each interval and the usage counts
 * every call.
 */
export const REQUEST_LOG_PER_ACCOUNT_PER_WRITE = 100;
/** Parameters longer than this are cut (a list of a hundred tickers stays whole). */
const MAX_PARAMS_LENGTH = 2_000;
/** How often, at most, a process trims old rows. */
const TRIM_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** One logged call, as the data API hands it over. */
export interface LoggedRequest {
  userId: string;
  apiKeyId: string;
  /** When it was answered, in ms (Date.now's scale). */
  at: number;
  endpoint: string;
  params: string;
  status: number;
  latencyMs: number;
  bytes: number;
}

export interface RequestLogOptions {
  database: () => Promise<Db>;
  now?: () => number;
  flushIntervalMs?: number;
  warn?: (message: string) => void;
}

/** Collects logged calls and writes them in one statement every few seconds. */
export class RequestLog {
  private pending: LoggedRequest[] = [];
  /** Entries kept per account since the last write. */
  private perAccount = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly database: () => Promise<Db>;
  private readonly now: () => number;
  private readonly intervalMs: number;
  private readonly warn: (message: string) => void;
  private warned = false;
  private trimmedAt = 0;

  constructor(options: RequestLogOptions) {
    this.database = options.database;
    this.now = options.now ?? Date.now;
    this.intervalMs = options.flushIntervalMs ?? REQUEST_LOG_FLUSH_INTERVAL_MS;
    this.warn = options.warn ?? ((message) => console.warn(message));
  }

  /** Keeps one call for the next write; starts the timer on first use. */
  /** Whether an entry of this account would be kept now; checked before one is built. */
  accepts(userId: string): boolean {
    return (this.perAccount.get(userId) ?? 0) < REQUEST_LOG_PER_ACCOUNT_PER_WRITE;
  }

  record(entry: LoggedRequest): void {
    const kept = this.perAccount.get(entry.userId) ?? 0;
    if (kept >= REQUEST_LOG_PER_ACCOUNT_PER_WRITE) return;
    this.perAccount.set(entry.userId, kept + 1);
    if (entry.params.length > MAX_PARAMS_LENGTH)
      entry.params = `${entry.params.slice(0, MAX_PARAMS_LENGTH)}…`;
    this.pending.push(entry);
    if (this.pending.length > MAX_PENDING) this.pending.splice(0, this.pending.length - MAX_PENDING);
    if (this.timer === undefined) {
      this.timer = setInterval(() => void this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Writes what has been kept; concurrent callers wait for the same write. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.perAccount = new Map();
    try {
      const db = await this.database();
      // A key deleted meanwhile would fail the batch on its foreign key; such rows keep no key.
      const ids = [...new Set(batch.map((entry) => entry.apiKeyId))];
      const existing = await db.select({ id: apiKeys.id }).from(apiKeys).where(inArray(apiKeys.id, ids));
      const alive = new Set(existing.map((row) => row.id));
      const rows = batch.map((entry) => ({
        ...entry,
        at: new Date(entry.at),
        apiKeyId: alive.has(entry.apiKeyId) ? entry.apiKeyId : null,
      }));
      const owners = await db
        .select({ id: users.id })
        .from(users)
        .where(inArray(users.id, [...new Set(rows.map((row) => row.userId))]));
      const living = new Set(owners.map((row) => row.id));
      const kept = rows.filter((row) => living.has(row.userId));
      if (kept.length > 0) await db.insert(apiRequests).values(kept);
      this.warned = false;
      if (this.now() - this.trimmedAt >= TRIM_INTERVAL_MS) {
        this.trimmedAt = this.now();
        await trimRequestLog(db, new Date(this.now()));
      }
    } catch (error) {
      this.pending = [...batch, ...this.pending].slice(-MAX_PENDING);
      if (!this.warned) {
        this.warned = true;
        this.warn(
          redactSecrets(
            `request log: could not write ${String(batch.length)} requests (${error instanceof Error ? error.message : String(error)}); keeping them for the next attempt`,
          ),
        );
      }
    }
  }

  /** Stops the timer after a last write. */
  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

/**
 * Removes requests older than {@link REQUEST_LOG_DAYS} and, per account, all but the newest
 * {@link REQUEST_LOG_PER_ACCOUNT}. Safe to run on several instances at once.
 */
export async function trimRequestLog(db: Db, now: Date): Promise<void> {
  await db.delete(apiRequests).where(lt(apiRequests.at, new Date(now.getTime() - REQUEST_LOG_DAYS * DAY_MS)));
  await db.execute(sql`
    delete from ${apiRequests} where ${apiRequests.id} in (
      select id from (
        select ${apiRequests.id} as id,
               row_number() over (partition by ${apiRequests.userId} order by ${apiRequests.at} desc, ${apiRequests.id} desc) as position
        from ${apiRequests}
      ) ranked where position > ${REQUEST_LOG_PER_ACCOUNT}
    )`);
}

/** What the Request log page filters by. */
export interface RequestLogFilter {
  /** '2xx', '3xx', '4xx', '5xx', or one status such as '429'. */
  status?: string | undefined;
  endpoint?: string | undefined;
  keyId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** The last row of the previous page (`<time in ms>.<id>`), for the next page. */
  before?: string | undefined;
  limit?: number | undefined;
}

/** The default and the largest page. */
export const REQUEST_LOG_PAGE = 50;
export const REQUEST_LOG_MAX_PAGE = 200;

function statusCondition(status: string): SQL | undefined {
  const range = /^([1-5])xx$/.exec(status);
  if (range?.[1] !== undefined) {
    const low = Number(range[1]) * 100;
    return and(gte(apiRequests.status, low), lt(apiRequests.status, low + 100));
  }
  return eq(apiRequests.status, Number(status));
}

/** A page of the account's requests, newest first, and the cursor of the next page (null at the end). */
export async function listRequestLog(
  db: Db,
  userId: string,
  filter: RequestLogFilter,
): Promise<Omit<RequestLogPage, 'endpoints'>> {
  const limit = Math.min(Math.max(filter.limit ?? REQUEST_LOG_PAGE, 1), REQUEST_LOG_MAX_PAGE);
  const conditions: (SQL | undefined)[] = [eq(apiRequests.userId, userId)];
  if (filter.status !== undefined) conditions.push(statusCondition(filter.status));
  if (filter.endpoint !== undefined) conditions.push(eq(apiRequests.endpoint, filter.endpoint));
  if (filter.keyId !== undefined) conditions.push(eq(apiRequests.apiKeyId, filter.keyId));
  if (filter.from !== undefined) conditions.push(gte(apiRequests.at, filter.from));
  if (filter.to !== undefined) conditions.push(lte(apiRequests.at, filter.to));
  if (filter.before !== undefined) {
    const [time = '', id = ''] = filter.before.split('.');
    const at = new Date(Number(time));
    conditions.push(or(lt(apiRequests.at, at), and(eq(apiRequests.at, at), lt(apiRequests.id, Number(id)))));
  }
  const rows = await db
    .select({
      id: apiRequests.id,
      at: apiRequests.at,
      keyId: apiRequests.apiKeyId,
      keyName: apiKeys.name,
      keyLast4: apiKeys.last4,
      endpoint: apiRequests.endpoint,
      params: apiRequests.params,
      status: apiRequests.status,
      latencyMs: apiRequests.latencyMs,
      bytes: apiRequests.bytes,
    })
    .from(apiRequests)
    .leftJoin(apiKeys, eq(apiKeys.id, apiRequests.apiKeyId))
    .where(and(...conditions))
    .orderBy(desc(apiRequests.at), desc(apiRequests.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    entries: page.map((row) => ({ ...row, at: row.at.toISOString() })),
    nextBefore:
      rows.length > limit && last !== undefined ? `${String(last.at.getTime())}.${String(last.id)}` : null,
  };
}

/** The endpoints the account has called in the log's window, for the page's endpoint filter. */
export async function loggedEndpoints(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ endpoint: apiRequests.endpoint })
    .from(apiRequests)
    .where(eq(apiRequests.userId, userId))
    .orderBy(apiRequests.endpoint);
  return rows.map((row) => row.endpoint);
}
