import { and, desc, eq } from 'drizzle-orm';
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
