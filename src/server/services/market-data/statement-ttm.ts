import type { Db } from '../../db/client.ts';
import type { StatementType } from '../../db/schema.ts';
import { CASH_FLOW_LINES, INCOME_LINES, type StatementLine } from '../../../lib/statement-fields.ts';
import type { SymbolDirectory } from './directory.ts';
import { latestClose } from './fundamentals.ts';
import {
  keyMetrics,
  ratios,
  type BalanceSheet,
  type CashFlowStatement,
  type IncomeStatement,
  type KeyMetricsRow,
  type PeriodStatements,
  type RatiosRow,
} from './formulas.ts';
import {
  BALANCE_SHEET_FIELDS,
  CASH_FLOW_FIELDS,
  INCOME_STATEMENT_FIELDS,
  projectRow,
  statementSets,
  STATEMENT_FIELDS,
  type ApiRow,
  type StoredStatementSet,
} from './statements.ts';

/**
 * Trailing twelve months (TTM): the four latest consecutive quarters read as one year. Flows (income
 * and cash flow lines) are the sum of the four quarters, share counts their mean, and the balance sheet
 * is the latest quarter's, as it stands at the end of the twelve months.
 */

/** Four quarters are consecutive when the oldest ends at most this many days before the newest. */
const MAX_TTM_SPAN_DAYS = 300;

/** Cash-flow lines that are balances at a date, not flows: the twelve months start and end with them. */
const CASH_AT_END = 'cashAtEndOfPeriod';
const CASH_AT_START = 'cashAtBeginningOfPeriod';

function daysBetween(newer: string, older: string): number {
  return (Date.parse(`${newer}T00:00:00Z`) - Date.parse(`${older}T00:00:00Z`)) / 86_400_000;
}

function numberOf(row: Readonly<Record<string, unknown>>, name: string): number {
  const value = row[name];
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : 0;
}

/**
 * The flows of four quarters (newest first) as one row: amounts and per-share amounts summed, share
 * counts averaged; the identity fields are the newest quarter's.
 */
function summedRow(
  quarters: readonly Readonly<Record<string, unknown>>[],
  lines: readonly StatementLine[],
): Record<string, unknown> {
  const [newest] = quarters;
  const row: Record<string, unknown> = { ...newest };
  for (const line of lines) {
    const values = quarters.map((quarter) => numberOf(quarter, line.name));
    const sum = values.reduce((total, value) => total + value, 0);
    row[line.name] = line.unit === 'shares' ? Math.round(sum / values.length) : sum;
  }
  return row;
}

/** The TTM statements ending with one quarter, as stored JSON rows. */
export interface TtmStatements {
  income: Record<string, unknown>;
  balance: Record<string, unknown>;
  cashFlow: Record<string, unknown>;
}

/** The TTM ending with `quarters[0]` (newest first), or undefined unless four consecutive quarters are given. */
export function trailingTwelveMonths(quarters: readonly StoredStatementSet[]): TtmStatements | undefined {
  const newest = quarters[0];
  const oldest = quarters[3];
  if (newest === undefined || oldest === undefined) return undefined;
  if (daysBetween(newest.date, oldest.date) > MAX_TTM_SPAN_DAYS) return undefined;
  const four = quarters.slice(0, 4);
  const cashFlow = summedRow(
    four.map((quarter) => quarter.cashFlow),
    CASH_FLOW_LINES,
  );
  cashFlow[CASH_AT_END] = numberOf(newest.cashFlow, CASH_AT_END);
  cashFlow[CASH_AT_START] = numberOf(oldest.cashFlow, CASH_AT_START);
  return {
    income: summedRow(
      four.map((quarter) => quarter.income),
      INCOME_LINES,
    ),
    balance: { ...newest.balance },
    cashFlow,
  };
}

/** The TTMs of a symbol ending with each of its latest quarters, newest first (at most `limit`). */
export async function ttmSeries(db: Db, symbol: string, limit: number): Promise<TtmStatements[]> {
  const quarters = await statementSets(db, symbol, 'quarter', limit + 3);
  const series: TtmStatements[] = [];
  for (let index = 0; index < quarters.length && series.length < limit; index += 1) {
    const ttm = trailingTwelveMonths(quarters.slice(index, index + 4));
    if (ttm !== undefined) series.push(ttm);
  }
  return series;
}

const STATEMENT_KEY: Readonly<Record<StatementType, keyof TtmStatements>> = {
  income: 'income',
  'balance-sheet': 'balance',
  'cash-flow': 'cashFlow',
};

/** `income-statement-ttm` and its siblings: FMP's statement rows over trailing twelve months, newest first. */
export async function ttmStatementRows(
  db: Db,
  type: StatementType,
  symbol: string,
  limit: number,
): Promise<ApiRow[]> {
  const series = await ttmSeries(db, symbol, limit);
  return series.map((ttm) => projectRow(ttm[STATEMENT_KEY[type]], STATEMENT_FIELDS[type]));
}

/**
 * A TTM typed for the formulas: its income counts as a full year (period FY), so the day-based
 * metrics use 365 days.
 */
function asPeriod(ttm: TtmStatements): PeriodStatements {
  return {
    income: {
      ...projectRow(ttm.income, INCOME_STATEMENT_FIELDS),
      period: 'FY',
    } as unknown as IncomeStatement,
    balance: projectRow(ttm.balance, BALANCE_SHEET_FIELDS) as unknown as BalanceSheet,
    cashFlow: projectRow(ttm.cashFlow, CASH_FLOW_FIELDS) as unknown as CashFlowStatement,
  };
}

/** The latest TTM, the TTM a year before it (for growth and averages) and the latest close. */
async function latestTtm(
  db: Db,
  symbols: SymbolDirectory,
  symbol: string,
  now: Date,
): Promise<
  | { current: PeriodStatements; previous: PeriodStatements | undefined; price: number; shares: number }
  | undefined
> {
  const [series, close] = await Promise.all([ttmSeries(db, symbol, 5), latestClose(db, symbol, now)]);
  const [newest] = series;
  if (newest === undefined) return undefined;
  const yearBefore = series[4];
  const current = asPeriod(newest);
  const listed = symbols.get(symbol)?.sharesOutstanding;
  return {
    current,
    previous: yearBefore === undefined ? undefined : asPeriod(yearBefore),
    price: close?.close ?? 0,
    shares:
      listed !== null && listed !== undefined && listed > 0 ? listed : current.income.weightedAverageShsOut,
  };
}

/** FMP's TTM key metrics: `marketCap` as it is, every other metric with the suffix TTM. */
export type KeyMetricsTtmRow = Record<string, string | number>;

/** The metric names of a formula row after the identity fields, in FMP's order. */
const IDENTITY = new Set(['symbol', 'date', 'fiscalYear', 'period', 'reportedCurrency']);

/** Renames a period row's metrics to FMP's TTM names: `symbol` first, then each metric + 'TTM' unless kept. */
export function ttmNames(
  row: object,
  keep: ReadonlySet<string> = new Set(),
): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(row) as [string, string | number][]) {
    if (name === 'symbol') out[name] = value;
    else if (!IDENTITY.has(name)) out[keep.has(name) ? name : `${name}TTM`] = value;
  }
  return out;
}

/** The `key-metrics-ttm` row: the key metrics of the latest TTM, valued at the latest close. */
export async function keyMetricsTtmRows(
  db: Db,
  symbols: SymbolDirectory,
  symbol: string,
  now: Date,
): Promise<KeyMetricsTtmRow[]> {
  const latest = await latestTtm(db, symbols, symbol, now);
  if (latest === undefined) return [];
  const row: KeyMetricsRow = keyMetrics(latest.current, latest.previous, {
    price: latest.price,
    sharesOutstanding: latest.shares,
  });
  return [ttmNames(row, new Set(['marketCap']))];
}

/** The `ratios-ttm` row: the ratios of the latest TTM, valued at the latest close. */
export async function ratiosTtmRows(
  db: Db,
  symbols: SymbolDirectory,
  symbol: string,
  now: Date,
): Promise<Record<string, string | number>[]> {
  const latest = await latestTtm(db, symbols, symbol, now);
  if (latest === undefined) return [];
  const row: RatiosRow = ratios(latest.current, latest.previous, {
    price: latest.price,
    sharesOutstanding: latest.shares,
  });
  return [ttmNames(row)];
}
