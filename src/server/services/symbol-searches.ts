import { and, desc, gte, lt, lte, sql } from 'drizzle-orm';
import { isoDay, shiftIsoDays } from '../../lib/iso-date.ts';
import type { Db } from '../db/client.ts';
import { symbolSearches } from '../db/schema.ts';

/*
 * The site's "most searched" counts: one row per symbol and UTC day with the number of searches that
 * led to the symbol. Nothing about who searched is kept. Every instance adds to the same row with one
 * upsert, so several servers on one PostgreSQL database count together without in-process counters.
 */

/** The windows the most-searched page offers, in days ending today (UTC). */
export const SEARCH_WINDOWS = [7, 30] as const;
export type SearchWindow = (typeof SEARCH_WINDOWS)[number];

/** Days of counts kept: the longest window with room to spare; older rows are removed. */
export const SEARCH_RETENTION_DAYS = 90;

/** How often one process removes expired rows (each removal is one indexed delete). */
const PRUNE_INTERVAL_MS = 60 * 60_000;

/** One symbol's searches over a window. */
export interface SymbolSearchCount {
  symbol: string;
  searches: number;
}

/** When this process last removed expired rows, per database. */
const lastPruned = new WeakMap<Db, number>();

/**
 * Counts one search for a symbol on `now`'s UTC day: `count = count + 1` in the database, so
 * concurrent searches on any instance are all counted. Expired days are removed at most hourly.
 */
export async function countSymbolSearch(db: Db, symbol: string, now: Date = new Date()): Promise<void> {
  await db
    .insert(symbolSearches)
    .values({ day: isoDay(now), symbol, count: 1 })
    .onConflictDoUpdate({
      target: [symbolSearches.day, symbolSearches.symbol],
      set: { count: sql`${symbolSearches.count} + 1` },
    });
  const last = lastPruned.get(db) ?? 0;
  if (now.getTime() - last >= PRUNE_INTERVAL_MS) {
    lastPruned.set(db, now.getTime());
    await pruneSymbolSearches(db, now);
  }
}

/** Removes the days older than the retention, so the table stays a few months of counts. */
export async function pruneSymbolSearches(db: Db, now: Date = new Date()): Promise<void> {
  await db.delete(symbolSearches).where(lt(symbolSearches.day, firstDayKept(now)));
}

/** The oldest UTC day whose counts are kept at `now`. */
function firstDayKept(now: Date): string {
  return shiftIsoDays(isoDay(now), -(SEARCH_RETENTION_DAYS - 1));
}

export interface MostSearchedOptions {
  /** Days counted, ending with `now`'s UTC day (7: today and the six days before). */
  days: number;
  now?: Date;
  /** Most symbols answered. */
  limit: number;
  /** Which symbols take part (the page keeps stocks and funds); all when absent. */
  keep?: (symbol: string) => boolean;
}

/**
 * The symbols searched most over the last `days` UTC days, most searches first (ties by symbol), from
 * the per-day counts: one grouped read of the window's rows (at most one per symbol searched), kept
 * to the symbols `keep` accepts.
 */
export async function mostSearchedSymbols(
  db: Db,
  options: MostSearchedOptions,
): Promise<SymbolSearchCount[]> {
  const today = isoDay(options.now ?? new Date());
  const from = shiftIsoDays(today, -(options.days - 1));
  const total = sql<number>`sum(${symbolSearches.count})::int`;
  const rows = await db
    .select({ symbol: symbolSearches.symbol, searches: total })
    .from(symbolSearches)
    .where(and(gte(symbolSearches.day, from), lte(symbolSearches.day, today)))
    .groupBy(symbolSearches.symbol)
    .having(sql`sum(${symbolSearches.count}) > 0`)
    .orderBy(desc(total), symbolSearches.symbol);
  const keep = options.keep ?? ((): boolean => true);
  return rows
    .filter((row) => keep(row.symbol))
    .slice(0, options.limit)
    .map((row) => ({ symbol: row.symbol, searches: row.searches }));
}
