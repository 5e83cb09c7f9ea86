/**
 * Schedules derived from the three financial statements for the statement pages: roll-forwards
 * that reconcile one balance sheet to the next, operating metrics, and the composition of a balance
 * sheet. Pure functions over statement rows (FMP's fields), so they can be checked against small
 * hand-computed examples; a value that cannot be computed (a zero denominator, no prior period) is
 * null and reads as the missing-value dash.
 */
import type { BalanceSheet, CashFlowStatement, IncomeStatement } from '../services/market-data/formulas.ts';
import { DEFAULT_LOCALE, MISSING_VALUE } from '../../lib/format.ts';

/** The statements of one period, narrowed to the fields a computation reads. */
export interface StatementSlice<
  I extends keyof IncomeStatement,
  B extends keyof BalanceSheet,
  C extends keyof CashFlowStatement,
> {
  income: Pick<IncomeStatement, I>;
  balance: Pick<BalanceSheet, B>;
  cashFlow: Pick<CashFlowStatement, C>;
}

/** Days a period covers: 365 for a fiscal year, a quarter of that for a quarter (as the ratios do). */
export function daysInPeriod(period: string): number {
  return /^Q[1-4]$/i.test(period) ? 365 / 4 : 365;
}

/** "FY2025" for a fiscal year, "Q3 2025" for a quarter: how statement columns are headed. */
export function periodLabel(period: string, fiscalYear: string | number): string {
  const year = String(fiscalYear);
  return period === 'FY' || period === '' ? `FY${year}` : `${period} ${year}`;
}

/** numerator ÷ denominator, or null when the denominator is zero or either side is not a number. */
export function ratio(numerator: number, denominator: number): number | null {
  if (!Number.isFinite(numerator) || !Number.isFinite(denominator) || denominator === 0) return null;
  return numerator / denominator;
}

/** Change from `previous` to `current` in percent points (25 for +25%), against the size of `previous`. */
export function percentChange(current: number, previous: number | null | undefined): number | null {
  if (previous === null || previous === undefined) return null;
  const change = ratio(current - previous, Math.abs(previous));
  return change === null ? null : change * 100;
}

/** current − previous, or null without a previous value. */
export function difference(current: number, previous: number | null | undefined): number | null {
  if (previous === null || previous === undefined || !Number.isFinite(previous)) return null;
  return current - previous;
}

const shareFormats = new Map<string, Intl.NumberFormat>();

/**
 * A share of a whole or a margin, unsigned (0.4523 reads "45.23%"). format.ts only has the signed
 * change formatter, and a margin of "+45.23%" would read as a change.
 */
export function formatShare(value: number | null | undefined, locale: string = DEFAULT_LOCALE): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING_VALUE;
  let format = shareFormats.get(locale);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, {
      style: 'percent',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    shareFormats.set(locale, format);
  }
  return format.format(value);
}

/**
 * How retained earnings moved over a period, read as the statement is:
 * opening + netIncome − dividendsPaid − buybacksAndOther = closing. `buybacksAndOther` (buybacks
 * retired against retained earnings, adjustments) is what the two balance sheets leave unexplained
 * after net income and dividends; it is negative when retained earnings grew by more than that.
 */
export interface RetainedEarningsRollForward {
  /** Closing balance of the previous period; null for the first period of a series. */
  opening: number | null;
  netIncome: number;
  /** Dividends paid, as a positive amount to subtract. */
  dividendsPaid: number;
  /** The remaining reduction; null without an opening balance. */
  buybacksAndOther: number | null;
  closing: number;
}

/** Reconciles retained earnings from the previous balance sheet to this one through the cash flow statement. */
export function retainedEarningsRollForward(
  current: StatementSlice<'netIncome', 'retainedEarnings', 'netDividendsPaid'>,
  previous: Pick<BalanceSheet, 'retainedEarnings'> | undefined,
): RetainedEarningsRollForward {
  const opening = previous?.retainedEarnings ?? null;
  const netIncome = current.income.netIncome;
  // The cash flow statement shows dividends paid as an outflow (negative).
  const dividendsPaid = Math.abs(current.cashFlow.netDividendsPaid);
  const closing = current.balance.retainedEarnings;
  const buybacksAndOther = opening === null ? null : opening + netIncome - dividendsPaid - closing;
  return { opening, netIncome, dividendsPaid, buybacksAndOther, closing };
}

/**
 * How net property, plant and equipment moved over a period, read as the schedule is:
 * opening + capex − depreciation ± other = closing. Depreciation is the cash flow statement's
 * depreciation and amortization, so `other` holds amortization of intangibles as well as
 * disposals, acquisitions and impairments.
 */
export interface PpeRollForward {
  opening: number | null;
  /** Capital expenditure, as a positive amount to add. */
  capex: number;
  /** Depreciation and amortization, as a positive amount to subtract. */
  depreciation: number;
  /** Signed remainder; null without an opening balance. */
  other: number | null;
  closing: number;
  /** Capital expenditure as a fraction of revenue. */
  capexToRevenue: number | null;
}

/** Reconciles net PP&E from the previous balance sheet to this one through capex and depreciation. */
export function ppeRollForward(
  current: StatementSlice<
    'revenue',
    'propertyPlantEquipmentNet',
    'capitalExpenditure' | 'depreciationAndAmortization'
  >,
  previous: Pick<BalanceSheet, 'propertyPlantEquipmentNet'> | undefined,
): PpeRollForward {
  const opening = previous?.propertyPlantEquipmentNet ?? null;
  // Capital expenditure is an outflow (negative) on the cash flow statement.
  const capex = Math.abs(current.cashFlow.capitalExpenditure);
  const depreciation = Math.abs(current.cashFlow.depreciationAndAmortization);
  const closing = current.balance.propertyPlantEquipmentNet;
  const other = opening === null ? null : closing - opening - capex + depreciation;
  return {
    opening,
    capex,
    depreciation,
    other,
    closing,
    capexToRevenue: ratio(capex, current.income.revenue),
  };
}

/** Operating metrics of one period: growth and margins as fractions, working capital in days. */
export interface OperatingMetrics {
  /** Revenue growth over the previous period, in percent points; null without one. */
  revenueGrowth: number | null;
  grossMargin: number | null;
  operatingMargin: number | null;
  netMargin: number | null;
  researchToRevenue: number | null;
  sgaToRevenue: number | null;
  /** Revenue ÷ employees; null when the head count is unknown. */
  revenuePerEmployee: number | null;
  /** Period-end receivables in days of revenue. */
  daysSalesOutstanding: number | null;
  /** Period-end inventory in days of cost of revenue. */
  daysInventoryOutstanding: number | null;
  /** Period-end trade payables in days of cost of revenue. */
  daysPayablesOutstanding: number | null;
  /** Days sales + days inventory − days payables. */
  cashConversionCycle: number | null;
}

type OperatingIncomeFields =
  | 'period'
  | 'revenue'
  | 'costOfRevenue'
  | 'grossProfit'
  | 'operatingIncome'
  | 'netIncome'
  | 'researchAndDevelopmentExpenses'
  | 'sellingGeneralAndAdministrativeExpenses';

/**
 * Margins, cost shares, growth and working-capital days of one period, on period-end balances like
 * the ratios (so the two pages agree). `employees` is the head count to divide revenue by, if known.
 */
export function operatingMetrics(
  current: StatementSlice<OperatingIncomeFields, 'netReceivables' | 'inventory' | 'accountPayables', never>,
  previous: Pick<IncomeStatement, 'revenue'> | undefined,
  employees: number | null = null,
): OperatingMetrics {
  const { income, balance } = current;
  const days = daysInPeriod(income.period);
  const inDays = (value: number, base: number): number | null => {
    const share = ratio(value, base);
    return share === null ? null : share * days;
  };
  const daysSalesOutstanding = inDays(balance.netReceivables, income.revenue);
  const daysInventoryOutstanding = inDays(balance.inventory, income.costOfRevenue);
  const daysPayablesOutstanding = inDays(balance.accountPayables, income.costOfRevenue);
  const cashConversionCycle =
    daysSalesOutstanding === null || daysInventoryOutstanding === null || daysPayablesOutstanding === null
      ? null
      : daysSalesOutstanding + daysInventoryOutstanding - daysPayablesOutstanding;
  return {
    revenueGrowth: percentChange(income.revenue, previous?.revenue),
    grossMargin: ratio(income.grossProfit, income.revenue),
    operatingMargin: ratio(income.operatingIncome, income.revenue),
    netMargin: ratio(income.netIncome, income.revenue),
    researchToRevenue: ratio(income.researchAndDevelopmentExpenses, income.revenue),
    sgaToRevenue: ratio(income.sellingGeneralAndAdministrativeExpenses, income.revenue),
    revenuePerEmployee: employees === null || employees <= 0 ? null : ratio(income.revenue, employees),
    daysSalesOutstanding,
    daysInventoryOutstanding,
    daysPayablesOutstanding,
    cashConversionCycle,
  };
}

/** Goodwill and other intangibles of one period with their change over the previous one. */
export interface IntangiblesScheduleRow {
  goodwill: number;
  goodwillChange: number | null;
  /** In percent points. */
  goodwillChangePercent: number | null;
  intangibles: number;
  intangiblesChange: number | null;
  /** In percent points. */
  intangiblesChangePercent: number | null;
  combined: number;
  /** Goodwill plus intangibles as a fraction of total assets. */
  shareOfAssets: number | null;
}

type IntangibleFields = 'goodwill' | 'intangibleAssets' | 'totalAssets';

/** Goodwill and intangible assets of a balance sheet, compared with the previous balance sheet. */
export function intangiblesSchedule(
  current: Pick<BalanceSheet, IntangibleFields>,
  previous: Pick<BalanceSheet, IntangibleFields> | undefined,
): IntangiblesScheduleRow {
  const combined = current.goodwill + current.intangibleAssets;
  return {
    goodwill: current.goodwill,
    goodwillChange: difference(current.goodwill, previous?.goodwill),
    goodwillChangePercent: percentChange(current.goodwill, previous?.goodwill),
    intangibles: current.intangibleAssets,
    intangiblesChange: difference(current.intangibleAssets, previous?.intangibleAssets),
    intangiblesChangePercent: percentChange(current.intangibleAssets, previous?.intangibleAssets),
    combined,
    shareOfAssets: ratio(combined, current.totalAssets),
  };
}

/** One line of a balance sheet's composition: its amount and its share of the side's total. */
export interface CompositionItem {
  label: string;
  amount: number;
  share: number | null;
}

/** One side of a balance sheet broken into lines that add up to its total. */
export interface Composition {
  items: CompositionItem[];
  total: number;
}

function composition(lines: readonly (readonly [string, number])[], total: number): Composition {
  return {
    items: lines
      .filter(([, amount]) => amount !== 0 && Number.isFinite(amount))
      .map(([label, amount]) => ({ label, amount, share: ratio(amount, total) })),
    total,
  };
}

type AssetFields =
  | 'cashAndCashEquivalents'
  | 'shortTermInvestments'
  | 'netReceivables'
  | 'inventory'
  | 'totalCurrentAssets'
  | 'propertyPlantEquipmentNet'
  | 'goodwill'
  | 'intangibleAssets'
  | 'longTermInvestments'
  | 'totalAssets';

/**
 * What the assets consist of. The "other" lines are what the totals leave after the named lines,
 * so the lines always add up to total assets; lines of zero are left out.
 */
export function assetComposition(balance: Pick<BalanceSheet, AssetFields>): Composition {
  const otherCurrent =
    balance.totalCurrentAssets -
    balance.cashAndCashEquivalents -
    balance.shortTermInvestments -
    balance.netReceivables -
    balance.inventory;
  const otherNonCurrent =
    balance.totalAssets -
    balance.totalCurrentAssets -
    balance.propertyPlantEquipmentNet -
    balance.goodwill -
    balance.intangibleAssets -
    balance.longTermInvestments;
  return composition(
    [
      ['Cash and cash equivalents', balance.cashAndCashEquivalents],
      ['Short-term investments', balance.shortTermInvestments],
      ['Receivables', balance.netReceivables],
      ['Inventory', balance.inventory],
      ['Other current assets', otherCurrent],
      ['Property, plant and equipment', balance.propertyPlantEquipmentNet],
      ['Goodwill', balance.goodwill],
      ['Intangible assets', balance.intangibleAssets],
      ['Long-term investments', balance.longTermInvestments],
      ['Other non-current assets', otherNonCurrent],
    ],
    balance.totalAssets,
  );
}

type FundingFields =
  | 'accountPayables'
  | 'shortTermDebt'
  | 'deferredRevenue'
  | 'totalCurrentLiabilities'
  | 'longTermDebt'
  | 'totalLiabilities'
  | 'totalStockholdersEquity'
  | 'totalLiabilitiesAndTotalEquity';

/**
 * How the assets are financed: liabilities and equity in lines that add up to total liabilities and
 * equity ("other" lines and minority interest are what the totals leave); lines of zero are left out.
 */
export function fundingComposition(balance: Pick<BalanceSheet, FundingFields>): Composition {
  const otherCurrent =
    balance.totalCurrentLiabilities -
    balance.accountPayables -
    balance.shortTermDebt -
    balance.deferredRevenue;
  const otherNonCurrent = balance.totalLiabilities - balance.totalCurrentLiabilities - balance.longTermDebt;
  const minority =
    balance.totalLiabilitiesAndTotalEquity - balance.totalLiabilities - balance.totalStockholdersEquity;
  return composition(
    [
      ['Accounts payable', balance.accountPayables],
      ['Short-term debt', balance.shortTermDebt],
      ['Deferred revenue', balance.deferredRevenue],
      ['Other current liabilities', otherCurrent],
      ['Long-term debt', balance.longTermDebt],
      ['Other non-current liabilities', otherNonCurrent],
      ['Shareholders’ equity', balance.totalStockholdersEquity],
      ['Minority interest', minority],
    ],
    balance.totalLiabilitiesAndTotalEquity,
  );
}

/** Liquidity and leverage read off one balance sheet. */
export interface BalanceSheetRatios {
  currentRatio: number | null;
  /** Current assets other than inventory ÷ current liabilities. */
  quickRatio: number | null;
  /** Total debt ÷ shareholders' equity. */
  debtToEquity: number | null;
}

/** Current, quick and debt-to-equity ratios, defined as on the financial ratios page. */
export function balanceSheetRatios(
  balance: Pick<
    BalanceSheet,
    'totalCurrentAssets' | 'inventory' | 'totalCurrentLiabilities' | 'totalDebt' | 'totalStockholdersEquity'
  >,
): BalanceSheetRatios {
  return {
    currentRatio: ratio(balance.totalCurrentAssets, balance.totalCurrentLiabilities),
    quickRatio: ratio(balance.totalCurrentAssets - balance.inventory, balance.totalCurrentLiabilities),
    debtToEquity: ratio(balance.totalDebt, balance.totalStockholdersEquity),
  };
}
