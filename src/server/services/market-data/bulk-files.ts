/*
 * The bulk files: one kind of row for the whole market, produced batch by batch from a symbol cursor
 * (see row-batches.ts) with the same row builders the per-symbol endpoints use, so a symbol's rows in
 * a file are exactly what its own endpoint answers for the same period.
 */
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { isoDay, shiftIsoYears } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import {
  dailyPrices,
  earnings,
  etfHoldings,
  financialStatements,
  grades,
  priceTargetNews,
  securities,
  type StatementType,
} from '../../db/schema.ts';
import { gradesConsensusRows, RECOMMENDATION_WINDOW_YEARS, type GradesConsensusRow } from './analysts.ts';
import { loadProfiles, peerIndex, type ProfileRow } from './company.ts';
import type { SymbolDirectory } from './directory.ts';
import { etfHoldingRows, type EtfHoldingRow } from './etf-holdings.ts';
import type { DiscountedCashFlowRow, FinancialScoresRow } from './formulas.ts';
import { discountedCashFlowRows, financialScoreRows } from './fundamentals.ts';
import { barsOnDate, round, roundPrice } from './prices.ts';
import { ratingSnapshotRows, type RatingSnapshotRow } from './ratings.ts';
import { priceTargetSummaries, type PriceTargetSummaryRow } from './research-data.ts';
import { symbolBatches, type SymbolQuery } from './row-batches.ts';
import { statementGrowthRowsOfYear } from './statement-growth.ts';
import { keyMetricsTtmRows, ratiosTtmRows } from './statement-ttm.ts';
import { periodsFor, projectRow, STATEMENT_FIELDS, type ApiRow, type PeriodSelector } from './statements.ts';

/** Symbols read per batch: few round trips, and a batch small enough that the garbage it leaves stays small (the bulk benchmark: 200 keeps the server under 50 MB over 70,000 profiles). */
export const BULK_BATCH_SIZE = 200;

/** Profiles per part of the profile file: a client downloads part 0, 1, … until a part is empty. */
export const PROFILE_PART_SIZE = 10_000;

/** Funds per part of the ETF holdings file: every position of a fund is in the same part. */
export const ETF_HOLDER_PART_SIZE = 1_000;

/** Funds read per batch of the ETF holdings file: a fund holds up to thousands of positions. */
const FUNDS_PER_BATCH = 20;

/** What every bulk file reads from. */
export interface BulkContext {
  db: Db;
  symbols: SymbolDirectory;
  now: Date;
  /** Symbols per batch (default {@link BULK_BATCH_SIZE}). */
  batchSize?: number;
}

/**
 * The distinct values of a table's symbol column (named `symbol` in the query, whatever the column's
 * name) among the rows matching `where`, in symbol order, after `after`.
 */
function symbolsWhere(
  db: Db,
  table: PgTable,
  column: AnyPgColumn,
  where: SQL | undefined,
): (after: string | undefined) => SymbolQuery {
  return (after) =>
    db
      .selectDistinct({ symbol: sql<string>`${column}`.as('symbol') })
      .from(table)
      .where(after === undefined ? where : and(where, gt(column, after)))
      .orderBy(asc(column))
      .$dynamic();
}

/** The symbols of the statements table matching `where`. */
function filersWhere(db: Db, where: SQL | undefined): (after: string | undefined) => SymbolQuery {
  return symbolsWhere(db, financialStatements, financialStatements.symbol, where);
}

/**
 * One part of the profile file: the profiles of the securities at positions part × size to
 * (part + 1) × size in symbol order (securities without a daily bar have no profile and are left
 * out), each as the profile endpoint answers it. Parts are the file's resume unit: a part past the
 * end is empty.
 */
export async function* profileBatches(
  { db, symbols, now, batchSize = BULK_BATCH_SIZE }: BulkContext,
  part: number,
  partSize: number = PROFILE_PART_SIZE,
): AsyncGenerator<ProfileRow[]> {
  const source = {
    query: (after: string | undefined) =>
      db
        .select({ symbol: securities.symbol })
        .from(securities)
        .where(after === undefined ? undefined : gt(securities.symbol, after))
        .orderBy(asc(securities.symbol))
        .$dynamic() as unknown as SymbolQuery,
    offset: part * partSize,
    limit: partSize,
  };
  for await (const batch of symbolBatches(db, source, batchSize)) {
    const known = batch.map((symbol) => symbols.get(symbol)).filter((security) => security !== undefined);
    yield await loadProfiles(db, known, now);
  }
}

/** A row of the end-of-day file: FMP's eod-bulk columns. */
export interface EodBulkRow {
  symbol: string;
  date: string;
  open: number;
  low: number;
  high: number;
  close: number;
  adjClose: number;
  volume: number;
}

/**
 * Every symbol's daily bar of one day, in symbol order: open, low, high and close split-adjusted and
 * rounded as the full daily chart answers them, adjClose as the dividend-adjusted chart does.
 */
export async function* eodBatches(
  { db, symbols, batchSize = BULK_BATCH_SIZE }: BulkContext,
  date: string,
): AsyncGenerator<EodBulkRow[]> {
  const source = { query: symbolsWhere(db, dailyPrices, dailyPrices.symbol, eq(dailyPrices.date, date)) };
  for await (const batch of symbolBatches(db, source, batchSize)) {
    const bars = await barsOnDate(db, batch, date);
    const rows: EodBulkRow[] = [];
    for (const symbol of batch) {
      const bar = bars.get(symbol);
      const security = symbols.get(symbol);
      if (bar === undefined || security === undefined) continue;
      const type = security.assetType;
      rows.push({
        symbol,
        date: bar.date,
        open: roundPrice(bar.open, type),
        low: roundPrice(bar.low, type),
        high: roundPrice(bar.high, type),
        close: roundPrice(bar.close, type),
        adjClose: roundPrice(bar.adjClose, type),
        volume: round(bar.volume, 0),
      });
    }
    yield rows;
  }
}

/**
 * Every company's statements of one type for one fiscal year, by symbol, each symbol's periods newest
 * first: the rows the statement endpoint answers for that symbol and period, projected the same way.
 */
export async function* statementBatches(
  { db, batchSize = BULK_BATCH_SIZE }: BulkContext,
  type: StatementType,
  year: number,
  period: PeriodSelector,
): AsyncGenerator<ApiRow[]> {
  const where = and(
    eq(financialStatements.statement, type),
    eq(financialStatements.fiscalYear, year),
    inArray(financialStatements.period, periodsFor(period)),
  );
  const fields = STATEMENT_FIELDS[type];
  for await (const batch of symbolBatches(db, { query: filersWhere(db, where) }, batchSize)) {
    const stored = await db
      .select({ data: financialStatements.data })
      .from(financialStatements)
      .where(and(where, inArray(financialStatements.symbol, batch)))
      .orderBy(asc(financialStatements.symbol), desc(financialStatements.date));
    yield stored.map((row) => projectRow(row.data, fields));
  }
}

/** Symbols with annual income statements: those the computed files (DCF, scores, rating) can answer for. */
function annualFilers(db: Db): (after: string | undefined) => SymbolQuery {
  return filersWhere(
    db,
    and(eq(financialStatements.statement, 'income'), eq(financialStatements.period, 'FY')),
  );
}

/** Symbols with quarterly income statements: those the TTM files can answer for. */
function quarterlyFilers(db: Db): (after: string | undefined) => SymbolQuery {
  return filersWhere(
    db,
    and(
      eq(financialStatements.statement, 'income'),
      inArray(financialStatements.period, periodsFor('quarter')),
    ),
  );
}

/**
 * A file of values computed per company: for each symbol of `symbols`, the rows its own endpoint
 * computes (`rowsOf`, the endpoint's own function), a batch of symbols at a time.
 */
async function* computedBatches<R>(
  { db, batchSize = BULK_BATCH_SIZE }: BulkContext,
  symbols: (after: string | undefined) => SymbolQuery,
  rowsOf: (symbol: string) => Promise<R[]>,
): AsyncGenerator<R[]> {
  for await (const batch of symbolBatches(db, { query: symbols }, batchSize)) {
    const rows: R[] = [];
    for (const symbol of batch) rows.push(...(await rowsOf(symbol)));
    yield rows;
  }
}

/** Every company's discounted-cash-flow row (unlevered), as its own endpoint answers it today. */
export function dcfBatches(context: BulkContext): AsyncGenerator<DiscountedCashFlowRow[]> {
  const { db, symbols, now } = context;
  return computedBatches(context, annualFilers(db), (symbol) =>
    discountedCashFlowRows(db, symbols, symbol, now, 'unlevered'),
  );
}

/** Every company's financial-scores row, as its own endpoint answers it today. */
export function scoreBatches(context: BulkContext): AsyncGenerator<FinancialScoresRow[]> {
  const { db, symbols, now } = context;
  return computedBatches(context, annualFilers(db), (symbol) => financialScoreRows(db, symbols, symbol, now));
}

/** Every company's ratings-snapshot row: its latest fiscal year at the latest close, as rated today. */
export function ratingBatches(context: BulkContext): AsyncGenerator<RatingSnapshotRow[]> {
  const { db, symbols, now } = context;
  return computedBatches(context, annualFilers(db), (symbol) => ratingSnapshotRows(db, symbols, symbol, now));
}

/** Every company's ratios-ttm row: the latest trailing twelve months, valued at the latest close. */
export function ratiosTtmBatches(context: BulkContext): AsyncGenerator<Record<string, string | number>[]> {
  const { db, symbols, now } = context;
  return computedBatches(context, quarterlyFilers(db), (symbol) => ratiosTtmRows(db, symbols, symbol, now));
}

/** Every company's key-metrics-ttm row: the latest trailing twelve months, valued at the latest close. */
export function keyMetricsTtmBatches(
  context: BulkContext,
): AsyncGenerator<Record<string, string | number>[]> {
  const { db, symbols, now } = context;
  return computedBatches(context, quarterlyFilers(db), (symbol) =>
    keyMetricsTtmRows(db, symbols, symbol, now),
  );
}

/**
 * Every company's growth rows of one statement type and fiscal year, by symbol, each company's periods
 * newest first: the rows the statement's growth endpoint answers for that symbol and period, read for
 * a batch of companies at once.
 */
export async function* statementGrowthBatches(
  { db, batchSize = BULK_BATCH_SIZE }: BulkContext,
  type: StatementType,
  year: number,
  period: PeriodSelector,
): AsyncGenerator<ApiRow[]> {
  const where = and(
    eq(financialStatements.statement, type),
    eq(financialStatements.fiscalYear, year),
    inArray(financialStatements.period, periodsFor(period)),
  );
  for await (const batch of symbolBatches(db, { query: filersWhere(db, where) }, batchSize)) {
    yield await statementGrowthRowsOfYear(db, type, batch, year, period);
  }
}

/**
 * Every covered company's price-target summary as of today, in symbol order: the price-target-summary
 * row of each symbol with a published target, a batch of symbols read at once.
 */
export async function* priceTargetSummaryBatches({
  db,
  now,
  batchSize = BULK_BATCH_SIZE,
}: BulkContext): AsyncGenerator<PriceTargetSummaryRow[]> {
  const where = lte(priceTargetNews.publishedAt, `${isoDay(now)} 23:59:59`);
  const source = { query: symbolsWhere(db, priceTargetNews, priceTargetNews.symbol, where) };
  for await (const batch of symbolBatches(db, source, batchSize)) {
    yield await priceTargetSummaries(db, batch, now);
  }
}

/**
 * Every company brokers rated in the past year, in symbol order, with the grades-consensus row of
 * today (each broker once, by its latest rating), a batch of symbols read at once.
 */
export async function* gradesConsensusBatches({
  db,
  now,
  batchSize = BULK_BATCH_SIZE,
}: BulkContext): AsyncGenerator<GradesConsensusRow[]> {
  const day = isoDay(now);
  const where = and(
    gte(grades.date, shiftIsoYears(day, -RECOMMENDATION_WINDOW_YEARS)),
    lte(grades.date, day),
  );
  const source = { query: symbolsWhere(db, grades, grades.symbol, where) };
  for await (const batch of symbolBatches(db, source, batchSize)) {
    yield await gradesConsensusRows(db, batch, now);
  }
}

/**
 * One part of the ETF holdings file: the funds with stored holdings at positions part × size to
 * (part + 1) × size in symbol order, each fund's positions as etf/holdings answers them (largest
 * first, valued now). A fund is never split between parts; a part past the end is empty.
 */
export async function* etfHolderBatches(
  { db, symbols, now }: BulkContext,
  part: number,
  partSize: number = ETF_HOLDER_PART_SIZE,
  fundsPerBatch: number = FUNDS_PER_BATCH,
): AsyncGenerator<EtfHoldingRow[]> {
  const source = {
    query: symbolsWhere(db, etfHoldings, etfHoldings.etfSymbol, undefined),
    offset: part * partSize,
    limit: partSize,
  };
  for await (const batch of symbolBatches(db, source, fundsPerBatch)) {
    yield await etfHoldingRows(db, symbols, batch, now);
  }
}

/** A row of the earnings-surprises file: FMP's columns. */
export interface EarningsSurpriseRow {
  symbol: string;
  date: string;
  epsActual: number;
  epsEstimated: number | null;
  lastUpdated: string;
}

/**
 * Every reported quarter of one calendar year (report dates in the year, actual EPS published), by
 * symbol, newest first within a symbol: the earnings endpoint's rows for those dates, with FMP's
 * surprise columns.
 */
export async function* earningsSurpriseBatches(
  { db, batchSize = BULK_BATCH_SIZE }: BulkContext,
  year: number,
): AsyncGenerator<EarningsSurpriseRow[]> {
  const where = and(
    gte(earnings.date, `${String(year)}-01-01`),
    lte(earnings.date, `${String(year)}-12-31`),
    isNotNull(earnings.epsActual),
  );
  const source = { query: symbolsWhere(db, earnings, earnings.symbol, where) };
  for await (const batch of symbolBatches(db, source, batchSize)) {
    const rows = await db
      .select({
        symbol: earnings.symbol,
        date: earnings.date,
        epsActual: earnings.epsActual,
        epsEstimated: earnings.epsEstimated,
        lastUpdated: earnings.lastUpdated,
      })
      .from(earnings)
      .where(and(where, inArray(earnings.symbol, batch)))
      .orderBy(asc(earnings.symbol), desc(earnings.date));
    yield rows.map((row) => ({ ...row, epsActual: row.epsActual ?? 0 }));
  }
}

/** A row of the peers file: FMP's columns, the peers as one comma-separated list. */
export interface PeersBulkRow {
  symbol: string;
  peers: string;
}

/**
 * Every active stock with a sector and its peers, in symbol order: the stock-peers endpoint's symbols
 * for it, in its order. The stocks come from the symbol directory (already in memory), ranked against
 * pools built once for the whole file (see peerIndex), so the file takes one read of the latest closes
 * rather than one per stock.
 */
export async function* peerBatches({
  db,
  symbols,
  now,
  batchSize = BULK_BATCH_SIZE,
}: BulkContext): AsyncGenerator<PeersBulkRow[]> {
  const stocks = symbols
    .list('stock')
    .filter((security) => security.active && security.sector !== '')
    .map((security) => security.symbol)
    .sort();
  const index = await peerIndex(db, symbols, now);
  for (let start = 0; start < stocks.length; start += batchSize) {
    yield stocks.slice(start, start + batchSize).map((symbol) => ({
      symbol,
      peers: index
        .peersOf(symbol)
        .map((peer) => peer.symbol)
        .join(','),
    }));
  }
}
