import { and, desc, eq, lt, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { isoDay } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import { dailyPrices, securities, splits, type Security } from '../../db/schema.ts';
import { US_EXCHANGES, type SymbolDirectory } from './directory.ts';
import { memoPerDatabase } from './memo.ts';
import { percentChange, roundPercent, roundPrice } from './prices.ts';

/** One stock's trading day: its close and the close of its previous bar, in today's share terms. */
export interface StockDayEntry {
  symbol: string;
  date: string;
  close: number;
  /** Null on a first trading day. */
  previousClose: number | null;
  volume: number;
}

export interface StockDay {
  /** The trading day, or null when no stock traded on or before the date asked. */
  date: string | null;
  entries: StockDayEntry[];
}

export interface MoverRow {
  symbol: string;
  price: number;
  name: string;
  change: number;
  changesPercentage: number;
  exchange: string;
}

export interface SectorPerformanceRow {
  date: string;
  sector: string;
  exchange: string;
  averageChange: number;
}

export type MoverKind = 'gainers' | 'losers' | 'actives';

/** Rows in a movers list, as FMP. */
export const MOVERS_LIMIT = 50;
/** Penny stocks swing by hundreds of percent on noise; movers start at one unit of currency. */
const MIN_MOVER_PRICE = 1;

const dayMemo = memoPerDatabase<StockDay>({ max: 16, ttlMs: 60_000 });

const previous = alias(dailyPrices, 'previous');

/**
 * The closes of every stock on one trading day, with each stock's own previous close, in one query:
 * the previous bar is read per stock along the primary key, and a split between the two days is
 * taken out so it does not show as a crash.
 */
async function loadStockDay(db: Db, day: { on: string } | { latestBy: string }): Promise<StockDay> {
  const dateExpr =
    'on' in day
      ? sql`${day.on}::date`
      : // ORDER BY … LIMIT 1 lets the planner walk the date index backwards; max() over a join would not.
        sql`(${db
          .select({ day: dailyPrices.date })
          .from(dailyPrices)
          .innerJoin(securities, eq(securities.symbol, dailyPrices.symbol))
          .where(and(eq(securities.assetType, 'stock'), lte(dailyPrices.date, day.latestBy)))
          .orderBy(desc(dailyPrices.date))
          .limit(1)})`;
  const before = db
    .select({ date: previous.date, close: previous.close })
    .from(previous)
    .where(and(eq(previous.symbol, dailyPrices.symbol), lt(previous.date, dailyPrices.date)))
    .orderBy(desc(previous.date))
    .limit(1)
    .as('before');
  const rows = await db
    .select({
      symbol: dailyPrices.symbol,
      date: dailyPrices.date,
      close: dailyPrices.close,
      volume: dailyPrices.volume,
      previousClose: before.close,
      split: sql<
        number | string | null
      >`(select exp(sum(ln(${splits.numerator} / ${splits.denominator}))) from ${splits} where ${splits.symbol} = ${dailyPrices.symbol} and ${splits.date} > ${before.date} and ${splits.date} <= ${dailyPrices.date})`,
    })
    .from(dailyPrices)
    .innerJoin(securities, eq(securities.symbol, dailyPrices.symbol))
    .leftJoinLateral(before, sql`true`)
    .where(and(eq(dailyPrices.date, dateExpr), eq(securities.assetType, 'stock')));
  const entries = rows.map((row) => {
    const split = row.split === null ? 1 : Math.round(Number(row.split) * 1e9) / 1e9;
    const previousClose = row.previousClose;
    return {
      symbol: row.symbol,
      date: row.date,
      close: row.close,
      previousClose: previousClose === null || !(split > 0) ? previousClose : previousClose / split,
      volume: row.volume,
    };
  });
  return { date: entries[0]?.date ?? ('on' in day ? day.on : null), entries };
}

/** The latest trading day of stocks on or before `now`'s date; memoized for a minute. */
export function latestStockDay(db: Db, now: Date): Promise<StockDay> {
  const asOf = isoDay(now);
  return dayMemo(db).load(`latest|${asOf}`, () => loadStockDay(db, { latestBy: asOf }));
}

/** Every stock's bar on `date` (none on a day without trading); memoized for a minute. */
export function stockDayOn(db: Db, date: string): Promise<StockDay> {
  return dayMemo(db).load(`on|${date}`, () => loadStockDay(db, { on: date }));
}

interface Move {
  security: Security;
  entry: StockDayEntry;
  change: number;
  changesPercentage: number;
  price: number;
}

/**
 * Biggest gainers, biggest losers or most traded US-listed stocks of the latest trading day, top 50:
 * gainers by percentage up, losers by percentage down, actives by shares traded.
 */
export async function marketMovers(
  db: Db,
  directory: SymbolDirectory,
  kind: MoverKind,
  now: Date,
): Promise<MoverRow[]> {
  const day = await latestStockDay(db, now);
  const moves: Move[] = [];
  for (const entry of day.entries) {
    const security = directory.get(entry.symbol);
    if (security === undefined || !US_EXCHANGES.has(security.exchange) || entry.previousClose === null)
      continue;
    const price = roundPrice(entry.close, security.assetType);
    if (price < MIN_MOVER_PRICE) continue;
    const previousClose = roundPrice(entry.previousClose, security.assetType);
    moves.push({
      security,
      entry,
      price,
      change: roundPrice(price - previousClose, security.assetType),
      changesPercentage: percentChange(price - previousClose, previousClose),
    });
  }
  let chosen: Move[];
  if (kind === 'gainers') {
    chosen = moves
      .filter((move) => move.change > 0)
      .sort((a, b) => b.changesPercentage - a.changesPercentage);
  } else if (kind === 'losers') {
    chosen = moves
      .filter((move) => move.change < 0)
      .sort((a, b) => a.changesPercentage - b.changesPercentage);
  } else {
    chosen = moves.sort((a, b) => b.entry.volume - a.entry.volume);
  }
  return chosen.slice(0, MOVERS_LIMIT).map((move) => ({
    symbol: move.security.symbol,
    price: move.price,
    name: move.security.name,
    change: move.change,
    changesPercentage: move.changesPercentage,
    exchange: move.security.exchange,
  }));
}

/**
 * Mean daily change (percent) of each sector's stocks on one date, one row per sector and exchange,
 * sorted by sector then exchange; a day without trading answers no rows.
 */
export async function sectorPerformance(
  db: Db,
  directory: SymbolDirectory,
  options: { date: string; exchange?: string | undefined; sector?: string | undefined },
): Promise<SectorPerformanceRow[]> {
  const day = await stockDayOn(db, options.date);
  const exchange = options.exchange?.toUpperCase();
  const sector = options.sector?.toLowerCase();
  const groups = new Map<string, { sector: string; exchange: string; sum: number; count: number }>();
  for (const entry of day.entries) {
    const security = directory.get(entry.symbol);
    if (
      security === undefined ||
      security.sector === '' ||
      entry.previousClose === null ||
      entry.previousClose <= 0
    ) {
      continue;
    }
    if (exchange !== undefined && security.exchange !== exchange) continue;
    if (sector !== undefined && security.sector.toLowerCase() !== sector) continue;
    const key = `${security.sector}|${security.exchange}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { sector: security.sector, exchange: security.exchange, sum: 0, count: 0 };
      groups.set(key, group);
    }
    group.sum += ((entry.close - entry.previousClose) / entry.previousClose) * 100;
    group.count += 1;
  }
  return [...groups.values()]
    .sort((a, b) => a.sector.localeCompare(b.sector) || a.exchange.localeCompare(b.exchange))
    .map((group) => ({
      date: options.date,
      sector: group.sector,
      exchange: group.exchange,
      averageChange: roundPercent(group.sum / group.count),
    }));
}

/** Latest close of each stock, for peers and other market-wide views (split-adjusted, unrounded). */
export async function latestCloses(db: Db, now: Date): Promise<Map<string, number>> {
  const day = await latestStockDay(db, now);
  return new Map(day.entries.map((entry) => [entry.symbol, entry.close]));
}
