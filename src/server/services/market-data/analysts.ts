import { and, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import { isoDay, shiftIsoYears } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import { analystEstimates, grades, priceTargets } from '../../db/schema.ts';
import { projectRow, type ApiRow, type FieldSpec } from './statements.ts';

function numbers(entries: readonly (readonly [string, string])[]): FieldSpec[] {
  return entries.map(([name, description]) => ({ name, kind: 'number', description }));
}

/** FMP's analyst-estimates row, in FMP's order. */
export const ANALYST_ESTIMATE_FIELDS: readonly FieldSpec[] = [
  { name: 'symbol', kind: 'string', description: 'Ticker symbol' },
  { name: 'date', kind: 'string', description: 'End of the estimated fiscal period (YYYY-MM-DD)' },
  ...numbers([
    ['revenueLow', 'Lowest revenue estimate'],
    ['revenueHigh', 'Highest revenue estimate'],
    ['revenueAvg', 'Average revenue estimate'],
    ['ebitdaLow', 'Lowest EBITDA estimate'],
    ['ebitdaHigh', 'Highest EBITDA estimate'],
    ['ebitdaAvg', 'Average EBITDA estimate'],
    ['ebitLow', 'Lowest EBIT estimate'],
    ['ebitHigh', 'Highest EBIT estimate'],
    ['ebitAvg', 'Average EBIT estimate'],
    ['netIncomeLow', 'Lowest net income estimate'],
    ['netIncomeHigh', 'Highest net income estimate'],
    ['netIncomeAvg', 'Average net income estimate'],
    ['sgaExpenseLow', 'Lowest SG&A expense estimate'],
    ['sgaExpenseHigh', 'Highest SG&A expense estimate'],
    ['sgaExpenseAvg', 'Average SG&A expense estimate'],
    ['epsAvg', 'Average earnings per share estimate'],
    ['epsHigh', 'Highest earnings per share estimate'],
    ['epsLow', 'Lowest earnings per share estimate'],
    ['numAnalystsRevenue', 'Number of analysts estimating revenue'],
    ['numAnalystsEps', 'Number of analysts estimating earnings per share'],
  ]),
];

/** FMP pages estimates (page, limit) rather than filtering them by date. */
export interface EstimateQuery {
  symbol: string;
  period: 'annual' | 'quarter';
  page: number;
  limit: number;
}

/** Consensus forecasts of future periods, furthest period first, paged. */
export async function analystEstimateRows(db: Db, query: EstimateQuery): Promise<ApiRow[]> {
  const rows = await db
    .select({ data: analystEstimates.data, date: analystEstimates.date })
    .from(analystEstimates)
    .where(and(eq(analystEstimates.symbol, query.symbol), eq(analystEstimates.period, query.period)))
    .orderBy(desc(analystEstimates.date))
    .limit(query.limit)
    .offset(query.page * query.limit);
  // The key columns are authoritative: an imported row's JSON could disagree with them.
  return rows.map((row) =>
    projectRow({ ...row.data, symbol: query.symbol, date: row.date }, ANALYST_ESTIMATE_FIELDS),
  );
}

/** FMP's price-target-consensus row. */
export interface PriceTargetRow {
  symbol: string;
  targetHigh: number;
  targetLow: number;
  targetConsensus: number;
  targetMedian: number;
}

/** The analysts' price target range and consensus for a symbol: one row, or none. */
export async function priceTargetConsensus(db: Db, symbol: string): Promise<PriceTargetRow[]> {
  const rows = await db.select().from(priceTargets).where(eq(priceTargets.symbol, symbol)).limit(1);
  return rows.map((row) => ({
    symbol,
    targetHigh: row.targetHigh,
    targetLow: row.targetLow,
    targetConsensus: row.targetConsensus,
    targetMedian: row.targetMedian,
  }));
}

/** FMP's grades row. */
export interface GradeRow {
  symbol: string;
  date: string;
  gradingCompany: string;
  previousGrade: string;
  newGrade: string;
  action: string;
}

/** Rating changes by brokers, newest first. */
export async function gradeRows(db: Db, symbol: string, limit: number): Promise<GradeRow[]> {
  const rows = await db
    .select()
    .from(grades)
    .where(eq(grades.symbol, symbol))
    .orderBy(desc(grades.date), grades.gradingCompany)
    .limit(limit);
  return rows.map((row) => ({
    symbol,
    date: row.date,
    gradingCompany: row.gradingCompany,
    previousGrade: row.previousGrade,
    newGrade: row.newGrade,
    action: row.action,
  }));
}

/** The five buckets a broker's rating is counted in, strongest first, as FMP's grades-consensus names them. */
export const RECOMMENDATIONS = ['strongBuy', 'buy', 'hold', 'sell', 'strongSell'] as const;
/** One of the five buckets of {@link RECOMMENDATIONS}. */
export type Recommendation = (typeof RECOMMENDATIONS)[number];

/** The consensus as FMP writes it, one label per bucket. */
export const RECOMMENDATION_LABELS: Readonly<Record<Recommendation, string>> = {
  strongBuy: 'Strong Buy',
  buy: 'Buy',
  hold: 'Hold',
  sell: 'Sell',
  strongSell: 'Strong Sell',
};

/** A bucket's weight in the consensus score: 5 for Strong Buy down to 1 for Strong Sell. */
export const RECOMMENDATION_SCORES: Readonly<Record<Recommendation, number>> = {
  strongBuy: 5,
  buy: 4,
  hold: 3,
  sell: 2,
  strongSell: 1,
};

/**
 * Brokers' rating words and the bucket each counts in (lower case, spaces and hyphens as written).
 * Brokers name the same opinion differently ("Overweight", "Outperform", "Accumulate"); the
 * recommendations formula page lists this table, so a rating missing here is visibly not counted.
 */
export const GRADE_RECOMMENDATIONS: Readonly<Record<string, Recommendation>> = {
  'strong buy': 'strongBuy',
  'conviction buy': 'strongBuy',
  'top pick': 'strongBuy',
  buy: 'buy',
  outperform: 'buy',
  overweight: 'buy',
  accumulate: 'buy',
  add: 'buy',
  positive: 'buy',
  'moderate buy': 'buy',
  'market outperform': 'buy',
  'sector outperform': 'buy',
  hold: 'hold',
  neutral: 'hold',
  'equal weight': 'hold',
  'equal-weight': 'hold',
  'market perform': 'hold',
  'sector perform': 'hold',
  'peer perform': 'hold',
  'in-line': 'hold',
  'in line': 'hold',
  'sector weight': 'hold',
  sell: 'sell',
  underperform: 'sell',
  underweight: 'sell',
  reduce: 'sell',
  negative: 'sell',
  'market underperform': 'sell',
  'sector underperform': 'sell',
  'moderate sell': 'sell',
  'strong sell': 'strongSell',
};

/** How far back a broker's latest rating still counts: a year before the day asked. */
export const RECOMMENDATION_WINDOW_YEARS = 1;

/** FMP's grades-consensus row. */
export interface GradesConsensusRow {
  symbol: string;
  strongBuy: number;
  buy: number;
  hold: number;
  sell: number;
  strongSell: number;
  consensus: string;
}

/** The bucket a rating word counts in, or undefined for a word the table does not know. */
export function recommendationOf(grade: string): Recommendation | undefined {
  return GRADE_RECOMMENDATIONS[grade.trim().toLowerCase().replace(/\s+/g, ' ')];
}

/**
 * The consensus label of bucket counts: the mean score of the ratings (Strong Buy 5 … Strong Sell 1)
 * rounded half up to a bucket, so 4.5 and above reads Strong Buy and 3.5 to 4.5 Buy. Undefined when
 * nobody rated.
 */
export function consensusOf(counts: Readonly<Record<Recommendation, number>>): string | undefined {
  const total = RECOMMENDATIONS.reduce((sum, bucket) => sum + counts[bucket], 0);
  if (total === 0) return undefined;
  const score =
    RECOMMENDATIONS.reduce((sum, bucket) => sum + counts[bucket] * RECOMMENDATION_SCORES[bucket], 0) / total;
  const bucket =
    RECOMMENDATIONS.find((candidate) => score >= RECOMMENDATION_SCORES[candidate] - 0.5) ?? 'strongSell';
  return RECOMMENDATION_LABELS[bucket];
}

/**
 * Counts each broker once, by its latest rating of the symbol published in the year up to `day`,
 * in the five buckets, and names the consensus; no row when no broker rated the symbol in that year.
 */
export function gradesConsensusOf(
  symbol: string,
  ratings: readonly Pick<GradeRow, 'date' | 'gradingCompany' | 'newGrade'>[],
  day: string,
): GradesConsensusRow[] {
  const since = shiftIsoYears(day, -RECOMMENDATION_WINDOW_YEARS);
  const latest = new Map<string, Pick<GradeRow, 'date' | 'newGrade'>>();
  for (const rating of ratings) {
    if (rating.date <= since || rating.date > day) continue;
    const known = latest.get(rating.gradingCompany);
    if (known === undefined || rating.date > known.date) latest.set(rating.gradingCompany, rating);
  }
  const counts: Record<Recommendation, number> = { strongBuy: 0, buy: 0, hold: 0, sell: 0, strongSell: 0 };
  for (const rating of latest.values()) {
    const bucket = recommendationOf(rating.newGrade);
    if (bucket !== undefined) counts[bucket] += 1;
  }
  const consensus = consensusOf(counts);
  return consensus === undefined ? [] : [{ symbol, ...counts, consensus }];
}

/** The brokers' consensus recommendation for a symbol on the request's day (see gradesConsensusOf). */
export async function gradesConsensus(db: Db, symbol: string, now: Date): Promise<GradesConsensusRow[]> {
  return gradesConsensusRows(db, [symbol], now);
}

/**
 * The consensus rows of several symbols on the request's day, in the order given (symbols nobody rated
 * in the year left out), from one read of their ratings: what grades-consensus answers for each, and
 * the bulk file lists a batch at a time.
 */
export async function gradesConsensusRows(
  db: Db,
  symbols: readonly string[],
  now: Date,
): Promise<GradesConsensusRow[]> {
  if (symbols.length === 0) return [];
  const day = isoDay(now);
  const rows = await db
    .select({
      symbol: grades.symbol,
      date: grades.date,
      gradingCompany: grades.gradingCompany,
      newGrade: grades.newGrade,
    })
    .from(grades)
    .where(
      and(
        inArray(grades.symbol, [...symbols]),
        gte(grades.date, shiftIsoYears(day, -RECOMMENDATION_WINDOW_YEARS)),
        lte(grades.date, day),
      ),
    )
    // One order for every caller: of a broker's two ratings on one day, the same one counts.
    .orderBy(grades.symbol, grades.date, grades.gradingCompany, grades.newGrade);
  const bySymbol = new Map<string, (typeof rows)[number][]>();
  for (const row of rows) {
    const list = bySymbol.get(row.symbol);
    if (list === undefined) bySymbol.set(row.symbol, [row]);
    else list.push(row);
  }
  return symbols.flatMap((symbol) => gradesConsensusOf(symbol, bySymbol.get(symbol) ?? [], day));
}
