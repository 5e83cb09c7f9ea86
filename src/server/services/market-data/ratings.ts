import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { companyProfiles } from '../../db/schema.ts';
import type { SymbolDirectory } from './directory.ts';
import { treasuryRateOn } from './economics.ts';
import {
  defaultDcfAssumptions,
  defaultShares,
  discountedCashFlow,
  keyMetrics,
  ratios,
  type PeriodStatements,
} from './formulas.ts';
import { closesOnOrBefore, dcfAssumptions, periodSeries } from './fundamentals.ts';

/**
 * The rating of a company: six measures each scored 1 (poor) to 5 (strong) by fixed thresholds, their
 * mean rounded to the overall score and turned into a letter. The thresholds are written once here and
 * shown on the ratings endpoints' pages, so anyone can recompute a rating from the ratios, key metrics
 * and discounted cash flow the API serves.
 */

/** The measures a rating reads. Rates are fractions (0.25 = 25 %). */
export interface RatingInputs {
  /** Discounted cash flow value per share over the price, less one (0.2 = 20 % upside). */
  dcfUpside: number;
  returnOnEquity: number;
  returnOnAssets: number;
  debtToEquity: number;
  priceToEarnings: number;
  priceToBook: number;
}

/** The component scores and overall score of a rating, in FMP's field order. */
export interface RatingScores {
  rating: string;
  overallScore: number;
  discountedCashFlowScore: number;
  returnOnEquityScore: number;
  returnOnAssetsScore: number;
  debtToEquityScore: number;
  priceToEarningsScore: number;
  priceToBookScore: number;
}

/**
 * Lower bounds of scores 5, 4, 3 and 2 for measures where more is better; below the last bound scores 1.
 * DCF upside: +50 %, +15 %, −15 %, −50 %. ROE: 25 %, 15 %, 8 %, 0. ROA: 12 %, 7 %, 3 %, 0.
 */
export const HIGHER_IS_BETTER = {
  dcfUpside: [0.5, 0.15, -0.15, -0.5],
  returnOnEquity: [0.25, 0.15, 0.08, 0],
  returnOnAssets: [0.12, 0.07, 0.03, 0],
} as const;

/**
 * Upper bounds of scores 5, 4, 3 and 2 for measures where less is better; above the last bound, or
 * zero and below (losses, negative equity), scores 1. Debt to equity: 0.3, 0.8, 1.5, 3.
 * P/E: 12, 20, 30, 50. P/B: 1.5, 3, 6, 12.
 */
export const LOWER_IS_BETTER = {
  debtToEquity: [0.3, 0.8, 1.5, 3],
  priceToEarnings: [12, 20, 30, 50],
  priceToBook: [1.5, 3, 6, 12],
} as const;

/**
 * The letters of a mean score: A+ from 4.67, A from 4.33, A− from 4, and so on by thirds down to D−
 * below 1.67. Each entry is [lowest mean, letter].
 */
export const RATING_LETTERS: readonly (readonly [number, string])[] = [
  [14 / 3, 'A+'],
  [13 / 3, 'A'],
  [4, 'A-'],
  [11 / 3, 'B+'],
  [10 / 3, 'B'],
  [3, 'B-'],
  [8 / 3, 'C+'],
  [7 / 3, 'C'],
  [2, 'C-'],
  [5 / 3, 'D+'],
  [4 / 3, 'D'],
  [Number.NEGATIVE_INFINITY, 'D-'],
];

function higherScore(value: number, bounds: readonly number[]): number {
  const index = bounds.findIndex((bound) => value >= bound);
  return index === -1 ? 1 : 5 - index;
}

function lowerScore(value: number, bounds: readonly number[]): number {
  if (!(value > 0)) return 1;
  const index = bounds.findIndex((bound) => value <= bound);
  return index === -1 ? 1 : 5 - index;
}

/** A rating's scores and letter from its six measures (see the thresholds above). */
export function ratingOf(inputs: RatingInputs): RatingScores {
  const scores = {
    discountedCashFlowScore: higherScore(inputs.dcfUpside, HIGHER_IS_BETTER.dcfUpside),
    returnOnEquityScore: higherScore(inputs.returnOnEquity, HIGHER_IS_BETTER.returnOnEquity),
    returnOnAssetsScore: higherScore(inputs.returnOnAssets, HIGHER_IS_BETTER.returnOnAssets),
    debtToEquityScore: lowerScore(inputs.debtToEquity, LOWER_IS_BETTER.debtToEquity),
    priceToEarningsScore: lowerScore(inputs.priceToEarnings, LOWER_IS_BETTER.priceToEarnings),
    priceToBookScore: lowerScore(inputs.priceToBook, LOWER_IS_BETTER.priceToBook),
  };
  const values = Object.values(scores);
  const mean = values.reduce((sum, score) => sum + score, 0) / values.length;
  const letter = RATING_LETTERS.find(([lowest]) => mean >= lowest - 1e-9)?.[1] ?? 'D-';
  return { rating: letter, overallScore: Math.round(mean), ...scores };
}

/** The measures of one fiscal year valued at `price`, with the DCF value per share given. */
export function ratingInputs(
  current: PeriodStatements,
  previous: PeriodStatements | undefined,
  price: number,
  dcf: number,
  sharesOutstanding?: number,
): RatingInputs {
  const market = { price, sharesOutstanding };
  const ratio = ratios(current, previous, market);
  const metrics = keyMetrics(current, previous, market);
  return {
    dcfUpside: price > 0 ? dcf / price - 1 : 0,
    returnOnEquity: metrics.returnOnEquity,
    returnOnAssets: metrics.returnOnAssets,
    debtToEquity: ratio.debtToEquityRatio,
    priceToEarnings: ratio.priceToEarningsRatio,
    priceToBook: ratio.priceToBookRatio,
  };
}

/** FMP's ratings-snapshot row. */
export type RatingSnapshotRow = { symbol: string } & RatingScores;

/** FMP's ratings-historical row. */
export type RatingHistoryRow = { symbol: string; date: string } & RatingScores;

/**
 * Today's rating: the latest fiscal year's statements at the latest close, with the discounted cash
 * flow endpoint's value; no row without annual statements or prices.
 */
export async function ratingSnapshotRows(
  db: Db,
  symbols: SymbolDirectory,
  symbol: string,
  now: Date,
): Promise<RatingSnapshotRow[]> {
  const [series, assumptions] = await Promise.all([
    periodSeries(db, symbol, 'annual', 1),
    dcfAssumptions(db, symbols, symbol, now, 'unlevered'),
  ]);
  const [period] = series.selected;
  if (period === undefined || assumptions === undefined) return [];
  const dcf = discountedCashFlow(assumptions).dcf;
  const inputs = ratingInputs(
    period.statements,
    series.previousOf(period),
    assumptions.stockPrice,
    dcf,
    assumptions.sharesOutstanding,
  );
  return [{ symbol, ...ratingOf(inputs) }];
}

/** Fiscal years the DCF of a past year averages its growth over, as the discounted-cash-flow endpoint does. */
const DCF_HISTORY_YEARS = 6;

/**
 * The rating of each fiscal year, newest first, as it stood on the statement date: the year's
 * statements at that day's close, the DCF from the statements up to that year with that day's
 * 10-year Treasury yield.
 */
export async function ratingHistoryRows(db: Db, symbol: string, limit: number): Promise<RatingHistoryRow[]> {
  const [series, profile] = await Promise.all([
    periodSeries(db, symbol, 'annual', limit + DCF_HISTORY_YEARS),
    db.select({ beta: companyProfiles.beta }).from(companyProfiles).where(eq(companyProfiles.symbol, symbol)),
  ]);
  const periods = series.selected;
  const rated = periods.slice(0, limit);
  const prices = await closesOnOrBefore(
    db,
    symbol,
    rated.map((period) => period.date),
  );
  const rows: RatingHistoryRow[] = [];
  for (const [index, period] of rated.entries()) {
    const price = prices.get(period.date);
    if (price === undefined) continue;
    const curve = await treasuryRateOn(db, period.date);
    const assumptions = defaultDcfAssumptions(
      {
        annual: periods.slice(index, index + DCF_HISTORY_YEARS).map((item) => item.statements),
        price,
        date: period.date,
        sharesOutstanding: defaultShares(period.statements.income),
        riskFreeRate: curve === undefined ? undefined : curve.year10 / 100,
        beta: profile[0]?.beta,
      },
      'unlevered',
    );
    const inputs = ratingInputs(
      period.statements,
      series.previousOf(period),
      price,
      discountedCashFlow(assumptions).dcf,
    );
    rows.push({ symbol, date: period.date, ...ratingOf(inputs) });
  }
  return rows;
}
