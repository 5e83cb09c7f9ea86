import { and, between, desc, eq, gt, lte, or, type SQL } from 'drizzle-orm';
import { isoDay, shiftIsoDays } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import { companyProfiles, dailyPrices, dividends } from '../../db/schema.ts';
import type { SymbolDirectory } from './directory.ts';
import { treasuryRateOn } from './economics.ts';
import {
  defaultDcfAssumptions,
  defaultShares,
  discountedCashFlow,
  enterpriseValue,
  financialScores,
  keyMetrics,
  leveredDiscountedCashFlow,
  ownerEarnings,
  periodDays,
  ratios,
  type BalanceSheet,
  type CashFlowStatement,
  type DcfAssumptions,
  type DcfKind,
  type DiscountedCashFlowRow,
  type EnterpriseValueRow,
  type FinancialScoresRow,
  type IncomeStatement,
  type KeyMetricsRow,
  type OwnerEarningsRow,
  type PeriodStatements,
  type RatiosRow,
} from './formulas.ts';
import {
  BALANCE_SHEET_FIELDS,
  CASH_FLOW_FIELDS,
  INCOME_STATEMENT_FIELDS,
  isQuarterly,
  projectRow,
  statementSets,
  type PeriodSelector,
} from './statements.ts';

/** One period's statements typed for the formulas, with the period end they share. */
export interface DatedPeriod {
  date: string;
  statements: PeriodStatements;
}

/** Periods selected for an answer, each with the period before it (for growth and averages). */
export interface PeriodSeries {
  selected: DatedPeriod[];
  previousOf(period: DatedPeriod): PeriodStatements | undefined;
}

/**
 * Days searched back from a statement date for its price: a period can end on a weekend or a holiday,
 * but a price weeks older would no longer be "the price at the statement date".
 */
const PRICE_LOOKBACK_DAYS = 14;

/**
 * The statement periods an answer is computed from, newest first. `previous` of a period is the one
 * before it in the same series (prior fiscal year, or prior quarter for quarterly selectors), so one
 * extra period is read beyond `limit`; a single-quarter selector (Q2) reads every quarter and keeps its own.
 */
export async function periodSeries(
  db: Db,
  symbol: string,
  selector: PeriodSelector,
  limit: number,
): Promise<PeriodSeries> {
  const quarterly = isQuarterly(selector);
  const single = selector !== 'annual' && selector !== 'FY' && selector !== 'quarter';
  const wanted = single ? limit * 4 + 4 : limit + 1;
  const stored = await statementSets(db, symbol, quarterly ? 'quarter' : 'annual', wanted);
  const all: DatedPeriod[] = stored.map((set) => ({
    date: set.date,
    statements: {
      income: projectRow(set.income, INCOME_STATEMENT_FIELDS) as unknown as IncomeStatement,
      balance: projectRow(set.balance, BALANCE_SHEET_FIELDS) as unknown as BalanceSheet,
      cashFlow: projectRow(set.cashFlow, CASH_FLOW_FIELDS) as unknown as CashFlowStatement,
    },
  }));
  const position = new Map(all.map((period, index) => [period, index]));
  const selected = (
    single ? all.filter((period) => period.statements.income.period === selector) : all
  ).slice(0, limit);
  return {
    selected,
    previousOf: (period) => {
      const index = position.get(period);
      return index === undefined ? undefined : all[index + 1]?.statements;
    },
  };
}

/**
 * As-traded closes on or before each date (the last trading day's), in one query over short windows;
 * a date without a bar in the window has no price (absent from the map).
 */
export async function closesOnOrBefore(
  db: Db,
  symbol: string,
  dates: readonly string[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (dates.length === 0) return found;
  const windows: SQL[] = dates.map((date) =>
    between(dailyPrices.date, shiftIsoDays(date, -PRICE_LOOKBACK_DAYS), date),
  );
  const bars = await db
    .select({ date: dailyPrices.date, close: dailyPrices.close })
    .from(dailyPrices)
    .where(and(eq(dailyPrices.symbol, symbol), or(...windows)))
    .orderBy(desc(dailyPrices.date));
  for (const date of dates) {
    // Bars are newest first: the first one not after the date is the last trading day on or before it.
    const bar = bars.find(
      (candidate) => candidate.date <= date && candidate.date >= shiftIsoDays(date, -PRICE_LOOKBACK_DAYS),
    );
    if (bar !== undefined) found.set(date, bar.close);
  }
  return found;
}

/** The latest as-traded close on or before today, with its date; undefined without any bar. */
export async function latestClose(
  db: Db,
  symbol: string,
  now: Date,
): Promise<{ date: string; close: number } | undefined> {
  const [bar] = await db
    .select({ date: dailyPrices.date, close: dailyPrices.close })
    .from(dailyPrices)
    .where(and(eq(dailyPrices.symbol, symbol), lte(dailyPrices.date, isoDay(now))))
    .orderBy(desc(dailyPrices.date))
    .limit(1);
  return bar;
}

/**
 * Cash dividends per share with an ex-date inside each period: after the previous period's end (or
 * one period length before the end) and on or before the end. As paid, like the period's share count.
 */
async function dividendsPerShare(db: Db, symbol: string, series: PeriodSeries): Promise<Map<string, number>> {
  const perPeriod = new Map<string, number>();
  const windows = series.selected.map((period) => {
    const previous = series.previousOf(period);
    const start =
      previous?.income.date ??
      shiftIsoDays(period.date, -Math.round(periodDays(period.statements.income.period)));
    return { end: period.date, start };
  });
  if (windows.length === 0) return perPeriod;
  const earliest = windows.reduce(
    (min, window) => (window.start < min ? window.start : min),
    windows[0]?.start ?? '',
  );
  const rows = await db
    .select({ date: dividends.date, dividend: dividends.dividend })
    .from(dividends)
    .where(and(eq(dividends.symbol, symbol), gt(dividends.date, earliest)));
  for (const window of windows) {
    let total = 0;
    for (const row of rows) if (row.date > window.start && row.date <= window.end) total += row.dividend;
    // Sums of cents drift in the last bits (0.8744999…); dividends are quoted to at most six decimals.
    perPeriod.set(window.end, Math.round(total * 1e6) / 1e6);
  }
  return perPeriod;
}

/** The `ratios` rows of a symbol, newest period first, valued at the close of each statement date. */
export async function ratioRows(
  db: Db,
  symbol: string,
  selector: PeriodSelector,
  limit: number,
): Promise<RatiosRow[]> {
  const series = await periodSeries(db, symbol, selector, limit);
  const dates = series.selected.map((period) => period.date);
  const [prices, perShare] = await Promise.all([
    closesOnOrBefore(db, symbol, dates),
    dividendsPerShare(db, symbol, series),
  ]);
  return series.selected.map((period) =>
    ratios(period.statements, series.previousOf(period), {
      price: prices.get(period.date) ?? 0,
      dividendPerShare: perShare.get(period.date) ?? 0,
    }),
  );
}

/** The `key-metrics` rows of a symbol, newest period first, valued at the close of each statement date. */
export async function keyMetricRows(
  db: Db,
  symbol: string,
  selector: PeriodSelector,
  limit: number,
): Promise<KeyMetricsRow[]> {
  const series = await periodSeries(db, symbol, selector, limit);
  const prices = await closesOnOrBefore(
    db,
    symbol,
    series.selected.map((period) => period.date),
  );
  return series.selected.map((period) =>
    keyMetrics(period.statements, series.previousOf(period), { price: prices.get(period.date) ?? 0 }),
  );
}

/** The `enterprise-values` rows: market value at each statement date, less cash, plus debt. */
export async function enterpriseValueRows(
  db: Db,
  symbol: string,
  selector: PeriodSelector,
  limit: number,
): Promise<EnterpriseValueRow[]> {
  const series = await periodSeries(db, symbol, selector, limit);
  const prices = await closesOnOrBefore(
    db,
    symbol,
    series.selected.map((period) => period.date),
  );
  return series.selected.map((period) =>
    enterpriseValue(
      period.statements.balance,
      prices.get(period.date) ?? 0,
      defaultShares(period.statements.income),
      period.date,
    ),
  );
}

/** The `owner-earnings` rows of the fiscal years, newest first. */
export async function ownerEarningRows(db: Db, symbol: string, limit: number): Promise<OwnerEarningsRow[]> {
  const series = await periodSeries(db, symbol, 'annual', limit);
  return series.selected.map((period) => ownerEarnings(period.statements, series.previousOf(period)));
}

/**
 * Shares for valuations "now": the listing's current count (which later splits have changed), else the
 * latest statement's share count (the formulas' default).
 */
function currentShares(symbols: SymbolDirectory, symbol: string, statements: PeriodStatements): number {
  const listed = symbols.get(symbol)?.sharesOutstanding;
  return listed !== null && listed !== undefined && listed > 0 ? listed : defaultShares(statements.income);
}

/** The `financial-scores` row: the latest fiscal year's Altman Z and Piotroski F at today's market value. */
export async function financialScoreRows(
  db: Db,
  symbols: SymbolDirectory,
  symbol: string,
  now: Date,
): Promise<FinancialScoresRow[]> {
  const [series, latest] = await Promise.all([
    periodSeries(db, symbol, 'annual', 1),
    latestClose(db, symbol, now),
  ]);
  const [period] = series.selected;
  if (period === undefined) return [];
  const marketCap = (latest?.close ?? 0) * currentShares(symbols, symbol, period.statements);
  return [financialScores(period.statements, series.previousOf(period), marketCap)];
}

/** Annual years the default DCF growth is averaged over, plus the base year. */
const DCF_HISTORY_YEARS = 6;

/**
 * The default assumptions of a symbol's DCF model today: the latest fiscal years' statements, the
 * latest close, the 10-year Treasury yield as the risk-free rate and the company's beta. The symbol
 * pages start from these and let visitors change them; undefined without annual statements or prices.
 */
export async function dcfAssumptions(
  db: Db,
  symbols: SymbolDirectory,
  symbol: string,
  now: Date,
  kind: DcfKind,
): Promise<DcfAssumptions | undefined> {
  const [series, latest, profile] = await Promise.all([
    periodSeries(db, symbol, 'annual', DCF_HISTORY_YEARS),
    latestClose(db, symbol, now),
    db
      .select({ beta: companyProfiles.beta })
      .from(companyProfiles)
      .where(eq(companyProfiles.symbol, symbol))
      .limit(1),
  ]);
  const annual = series.selected.map((period) => period.statements);
  const [newest] = annual;
  if (newest === undefined || latest === undefined) return undefined;
  const curve = await treasuryRateOn(db, latest.date);
  return defaultDcfAssumptions(
    {
      annual,
      price: latest.close,
      date: latest.date,
      sharesOutstanding: currentShares(symbols, symbol, newest),
      riskFreeRate: curve === undefined ? undefined : curve.year10 / 100,
      beta: profile[0]?.beta,
    },
    kind,
  );
}

/** The `discounted-cash-flow` (unlevered) or `levered-discounted-cash-flow` row of a symbol. */
export async function discountedCashFlowRows(
  db: Db,
  symbols: SymbolDirectory,
  symbol: string,
  now: Date,
  kind: DcfKind,
): Promise<DiscountedCashFlowRow[]> {
  const assumptions = await dcfAssumptions(db, symbols, symbol, now, kind);
  if (assumptions === undefined) return [];
  return [kind === 'unlevered' ? discountedCashFlow(assumptions) : leveredDiscountedCashFlow(assumptions)];
}
