import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { DAY_MS, isoDay, shiftIsoDays } from '../../lib/iso-date.ts';
import type { Db } from '../db/client.ts';
import { apiKeys, apiUsage } from '../db/schema.ts';
import { redactSecrets } from '../auth/tokens.ts';
import { sendReachedAlerts } from './usage-alerts.ts';

/** One endpoint's use on one UTC day. */
export interface UsageRow {
  date: string;
  endpoint: string;
  calls: number;
  bytes: number;
}

export interface UsageRange {
  /** First UTC day, YYYY-MM-DD, inclusive. */
  from: string;
  /** Last UTC day, inclusive. */
  to: string;
}

/** How often counted calls are written; a crash loses at most this much metering. */
export const USAGE_FLUSH_INTERVAL_MS = 5_000;
/** Most usage days one answer covers. */
export const MAX_USAGE_DAYS = 366;

export interface UsageMeterOptions {
  database: () => Promise<Db>;
  now?: () => number;
  flushIntervalMs?: number;
  warn?: (message: string) => void;
}

interface Pending {
  apiKeyId: string;
  day: string;
  endpoint: string;
  calls: number;
  bytes: number;
}

/**
 * Counts data API calls per key, endpoint and day in memory and adds them to the database in one
 * statement every few seconds, so metering never adds a database write to a request. A failed write
 * keeps the counts for the next attempt.
 */
export class UsageMeter {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly database: () => Promise<Db>;
  private readonly now: () => number;
  private readonly intervalMs: number;
  private readonly warn: (message: string) => void;
  private warned = false;
  /** The current UTC day and when it ends, so most calls skip formatting a date. */
  private day = { name: '', endsAt: 0 };

  constructor(options: UsageMeterOptions) {
    this.database = options.database;
    this.now = options.now ?? Date.now;
    this.intervalMs = options.flushIntervalMs ?? USAGE_FLUSH_INTERVAL_MS;
    this.warn = options.warn ?? ((message) => console.warn(message));
  }

  /**
   * Counts one answered call, or `calls` of them: a weighted call such as a bulk file counts many, and 0
   * adds the bytes of a stream's messages alone. Starts the flush timer on first use.
   */
  record(apiKeyId: string, endpoint: string, bytes: number, calls = 1): void {
    const now = this.now();
    if (now >= this.day.endsAt || now < this.day.endsAt - DAY_MS) {
      const start = now - (now % DAY_MS);
      this.day = { name: isoDay(new Date(start)), endsAt: start + DAY_MS };
    }
    const day = this.day.name;
    const id = `${apiKeyId}|${day}|${endpoint}`;
    const entry = this.pending.get(id);
    if (entry === undefined) this.pending.set(id, { apiKeyId, day, endpoint, calls, bytes });
    else {
      entry.calls += calls;
      entry.bytes += bytes;
    }
    if (this.timer === undefined) {
      this.timer = setInterval(() => void this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Calls counted but not yet written. */
  get pendingCalls(): number {
    let calls = 0;
    for (const entry of this.pending.values()) calls += entry.calls;
    return calls;
  }

  /** Writes what has been counted; concurrent callers wait for the same write. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      const db = await this.database();
      // One transaction: the calls and the keys' last use are written together or not at all.
      await db.transaction(async (tx) => {
        await tx
          .insert(apiUsage)
          .values(batch)
          .onConflictDoUpdate({
            target: [apiUsage.apiKeyId, apiUsage.day, apiUsage.endpoint],
            set: {
              calls: sql`${apiUsage.calls} + excluded.calls`,
              bytes: sql`${apiUsage.bytes} + excluded.bytes`,
            },
          });
        // "Last used" is as fresh as the batch: the moment of the write that carried the calls.
        await tx
          .update(apiKeys)
          .set({ lastUsedAt: new Date(this.now()) })
          .where(inArray(apiKeys.id, [...new Set(batch.map((entry) => entry.apiKeyId))]));
      });
      this.warned = false;
      await this.alert(db, batch);
    } catch (error) {
      // Keys deleted meanwhile fail the whole batch on the foreign key: drop only their rows.
      const dropped = await this.dropDeletedKeys(batch).catch(() => batch);
      for (const entry of dropped) this.restore(entry);
      if (!this.warned) {
        this.warned = true;
        this.warn(
          redactSecrets(
            `usage metering: could not write ${batch.length} rows (${error instanceof Error ? error.message : String(error)}); keeping them for the next attempt`,
          ),
        );
      }
    }
  }

  /** Sends the usage alerts the batch's accounts reached; a failure is logged, the usage stays written. */
  private async alert(db: Db, batch: readonly Pending[]): Promise<void> {
    try {
      await sendReachedAlerts(db, [...new Set(batch.map((entry) => entry.apiKeyId))], new Date(this.now()));
    } catch (error) {
      this.warn(
        redactSecrets(
          `usage alerts: could not check ${String(batch.length)} rows (${error instanceof Error ? error.message : String(error)})`,
        ),
      );
    }
  }

  /** The rows of the batch whose key still exists (those are kept for retry). */
  private async dropDeletedKeys(batch: readonly Pending[]): Promise<Pending[]> {
    const db = await this.database();
    const ids = [...new Set(batch.map((entry) => entry.apiKeyId))];
    const existing = await db.select({ id: apiKeys.id }).from(apiKeys).where(inArray(apiKeys.id, ids));
    const alive = new Set(existing.map((row) => row.id));
    return batch.filter((entry) => alive.has(entry.apiKeyId));
  }

  private restore(entry: Pending): void {
    const id = `${entry.apiKeyId}|${entry.day}|${entry.endpoint}`;
    const current = this.pending.get(id);
    if (current === undefined) this.pending.set(id, { ...entry });
    else {
      current.calls += entry.calls;
      current.bytes += entry.bytes;
    }
  }

  /** Stops the timer after a last write. */
  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

/** The last `days` UTC days ending today. */
export function recentDays(days: number, now: Date = new Date()): UsageRange {
  const to = isoDay(now);
  return { from: shiftIsoDays(to, 1 - days), to };
}

const usageColumns = {
  date: apiUsage.day,
  endpoint: apiUsage.endpoint,
  calls: sql<number>`sum(${apiUsage.calls})::int`.mapWith(Number),
  bytes: sql<number>`sum(${apiUsage.bytes})::bigint`.mapWith(Number),
};

/** Use of every key the account has had (replaced keys included), per day and endpoint, oldest first. */
export function usageForUser(db: Db, userId: string, range: UsageRange): Promise<UsageRow[]> {
  return db
    .select(usageColumns)
    .from(apiUsage)
    .innerJoin(apiKeys, eq(apiKeys.id, apiUsage.apiKeyId))
    .where(and(eq(apiKeys.userId, userId), gte(apiUsage.day, range.from), lte(apiUsage.day, range.to)))
    .groupBy(apiUsage.day, apiUsage.endpoint)
    .orderBy(asc(apiUsage.day), asc(apiUsage.endpoint));
}

/** Use of one key, per day and endpoint, oldest first. */
export function usageForKey(db: Db, apiKeyId: string, range: UsageRange): Promise<UsageRow[]> {
  return db
    .select(usageColumns)
    .from(apiUsage)
    .where(and(eq(apiUsage.apiKeyId, apiKeyId), gte(apiUsage.day, range.from), lte(apiUsage.day, range.to)))
    .groupBy(apiUsage.day, apiUsage.endpoint)
    .orderBy(asc(apiUsage.day), asc(apiUsage.endpoint));
}
