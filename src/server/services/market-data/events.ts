import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dividends, earnings, splits } from '../../db/schema.ts';

/** FMP's dividends row. */
export interface DividendRow {
  symbol: string;
  date: string;
  recordDate: string;
  paymentDate: string;
  declarationDate: string;
  adjDividend: number;
  dividend: number;
  yield: number;
  frequency: string;
}

/** FMP's splits row. */
export interface SplitRow {
  symbol: string;
  date: string;
  numerator: number;
  denominator: number;
}

/** FMP's earnings row; the upcoming quarter has no actuals yet (null). */
export interface EarningsRow {
  symbol: string;
  date: string;
  epsActual: number | null;
  epsEstimated: number | null;
  revenueActual: number | null;
  revenueEstimated: number | null;
  lastUpdated: string;
}

const PAYMENTS_PER_YEAR: Readonly<Record<string, number>> = {
  weekly: 52,
  monthly: 12,
  quarterly: 4,
  'semi-annual': 2,
  semiannual: 2,
  annual: 1,
  yearly: 1,
};

/** How many payments of this frequency make a year; an irregular or unknown one counts once. */
export function paymentsPerYear(frequency: string): number {
  return PAYMENTS_PER_YEAR[frequency.trim().toLowerCase()] ?? 1;
}

/**
 * The dividend yield FMP quotes next to each payment: the payment annualised by its frequency, over the
 * as-traded close of the ex-date (or the last trading day before it), in percent. 0 without a price.
 */
export function dividendYield(dividend: number, frequency: string, close: number | null): number {
  if (close === null || !(close > 0) || !Number.isFinite(dividend)) return 0;
  const value = ((dividend * paymentsPerYear(frequency)) / close) * 100;
  return Number.isFinite(value) ? Math.round(value * 1e6) / 1e6 : 0;
}

/** A symbol's dividends, newest ex-date first, each with the yield at its ex-date. */
export async function dividendRows(db: Db, symbol: string, limit: number): Promise<DividendRow[]> {
  const rows = await db
    .select({
      date: dividends.date,
      recordDate: dividends.recordDate,
      paymentDate: dividends.paymentDate,
      declarationDate: dividends.declarationDate,
      adjDividend: dividends.adjDividend,
      dividend: dividends.dividend,
      frequency: dividends.frequency,
      // The as-traded close the dividend was paid against: the ex-date's, or the last one before it.
      // Columns are qualified by hand: drizzle writes them bare, which would bind to the subquery's table.
      close: sql<
        number | string | null
      >`(select p.close from daily_prices p where p.symbol = "dividends"."symbol" and p.date <= "dividends"."date" order by p.date desc limit 1)`,
    })
    .from(dividends)
    .where(eq(dividends.symbol, symbol))
    .orderBy(desc(dividends.date))
    .limit(limit);
  return rows.map((row) => ({
    symbol,
    date: row.date,
    recordDate: row.recordDate ?? '',
    paymentDate: row.paymentDate ?? '',
    declarationDate: row.declarationDate ?? '',
    adjDividend: row.adjDividend,
    dividend: row.dividend,
    yield: dividendYield(row.dividend, row.frequency, row.close === null ? null : Number(row.close)),
    frequency: row.frequency,
  }));
}

/** A symbol's stock splits, newest first. */
export async function splitRows(db: Db, symbol: string, limit: number): Promise<SplitRow[]> {
  const rows = await db
    .select({ date: splits.date, numerator: splits.numerator, denominator: splits.denominator })
    .from(splits)
    .where(eq(splits.symbol, symbol))
    .orderBy(desc(splits.date))
    .limit(limit);
  return rows.map((row) => ({
    symbol,
    date: row.date,
    numerator: row.numerator,
    denominator: row.denominator,
  }));
}

/** A symbol's reported and upcoming earnings, newest (the upcoming quarter) first. */
export async function earningsRows(db: Db, symbol: string, limit: number): Promise<EarningsRow[]> {
  const rows = await db
    .select()
    .from(earnings)
    .where(eq(earnings.symbol, symbol))
    .orderBy(desc(earnings.date))
    .limit(limit);
  return rows.map((row) => ({
    symbol,
    date: row.date,
    epsActual: row.epsActual,
    epsEstimated: row.epsEstimated,
    revenueActual: row.revenueActual,
    revenueEstimated: row.revenueEstimated,
    lastUpdated: row.lastUpdated,
  }));
}
