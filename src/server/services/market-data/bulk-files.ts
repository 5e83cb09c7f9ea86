/*
 * The bulk files: one kind of row for the whole market, produced batch by batch from a symbol cursor
 * (see row-batches.ts) with the same row builders the per-symbol endpoints use, so a symbol's rows in
 * a file are exactly what its own endpoint answers for the same period.
 */
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, lte, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  dailyPrices,
  earnings,
  financialStatements,
  securities,
  type StatementType,
} from '../../db/schema.ts';
import { loadProfiles, stockPeers, type ProfileRow } from './company.ts';
import type { SymbolDirectory } from './directory.ts';
import type { DiscountedCashFlowRow, FinancialScoresRow } from './formulas.ts';
import { discountedCashFlowRows, financialScoreRows } from './fundamentals.ts';
import { barsOnDate, round, roundPrice } from './prices.ts';
import { symbolBatches, type SymbolQuery } from './row-batches.ts';
import { periodsFor, projectRow, STATEMENT_FIELDS, type ApiRow, type PeriodSelector } from './statements.ts';

/** Symbols read per batch: few round trips, and a batch small enough that the garbage it leaves stays small (the bulk benchmark: 200 keeps the server under 50 MB over 70,000 profiles). */
export const BULK_BATCH_SIZE = 200;

/** Profiles per part of the profile file: a client downloads part 0, 1, … until a part is empty. */
export const PROFILE_PART_SIZE = 10_000;

/** What every bulk file reads from. */
export interface BulkContext {
  db: Db;
  symbols: SymbolDirectory;
  now: Date;
  /** Symbols per batch (default {@link BULK_BATCH_SIZE}). */
  batchSize?: number;
}

/** Symbols of a table's rows matching `where`, in symbol order, after `after`. */
function symbolsWhere(
  db: Db,
  table: typeof financialStatements | typeof earnings | typeof dailyPrices,
  where: SQL | undefined,
): (after: string | undefined) => SymbolQuery {
  return (after) =>
    db
      .selectDistinct({ symbol: table.symbol })
      .from(table)
      .where(after === undefined ? where : and(where, gt(table.symbol, after)))
      .orderBy(asc(table.symbol))
      .$dynamic();
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
  const source = { query: symbolsWhere(db, dailyPrices, eq(dailyPrices.date, date)) };
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
  for await (const batch of symbolBatches(
    db,
    { query: symbolsWhere(db, financialStatements, where) },
    batchSize,
  )) {
    const stored = await db
      .select({ data: financialStatements.data })
      .from(financialStatements)
      .where(and(where, inArray(financialStatements.symbol, batch)))
      .orderBy(asc(financialStatements.symbol), desc(financialStatements.date));
    yield stored.map((row) => projectRow(row.data, fields));
  }
}

/** Symbols with annual income statements: those the computed files (DCF, scores) can answer for. */
function annualFilers(db: Db): (after: string | undefined) => SymbolQuery {
  return symbolsWhere(
    db,
    financialStatements,
    and(eq(financialStatements.statement, 'income'), eq(financialStatements.period, 'FY')),
  );
}

/** Every company's discounted-cash-flow row (unlevered), as its own endpoint answers it today. */
export async function* dcfBatches({
  db,
  symbols,
  now,
  batchSize = BULK_BATCH_SIZE,
}: BulkContext): AsyncGenerator<DiscountedCashFlowRow[]> {
  for await (const batch of symbolBatches(db, { query: annualFilers(db) }, batchSize)) {
    const rows: DiscountedCashFlowRow[] = [];
    for (const symbol of batch)
      rows.push(...(await discountedCashFlowRows(db, symbols, symbol, now, 'unlevered')));
    yield rows;
  }
}

/** Every company's financial-scores row, as its own endpoint answers it today. */
export async function* scoreBatches({
  db,
  symbols,
  now,
  batchSize = BULK_BATCH_SIZE,
}: BulkContext): AsyncGenerator<FinancialScoresRow[]> {
  for await (const batch of symbolBatches(db, { query: annualFilers(db) }, batchSize)) {
    const rows: FinancialScoresRow[] = [];
    for (const symbol of batch) rows.push(...(await financialScoreRows(db, symbols, symbol, now)));
    yield rows;
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
  for await (const batch of symbolBatches(db, { query: symbolsWhere(db, earnings, where) }, batchSize)) {
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
 * for it, in its order. The stocks come from the symbol directory (already in memory), in batches.
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
  for (let start = 0; start < stocks.length; start += batchSize) {
    const rows: PeersBulkRow[] = [];
    for (const symbol of stocks.slice(start, start + batchSize)) {
      const peers = await stockPeers(db, symbols, symbol, now);
      rows.push({ symbol, peers: peers.map((peer) => peer.symbol).join(',') });
    }
    yield rows;
  }
}
