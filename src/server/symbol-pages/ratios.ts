/**
 * Financial ratios of a stock (profitability, liquidity, leverage, efficiency, valuation, per share)
 * over recent fiscal years or quarters, and the DuPont breakdown of its return on equity. Everything
 * is computed on request from the stored statements, like the data API's ratios and key metrics.
 */
import { formatNumber, formatPrice, MISSING_VALUE } from '../../lib/format.ts';
import { QUARTERLY_TIER, symbolPath } from '../../lib/symbol-routes.ts';
import type { KeyMetricsRow, RatiosRow } from '../services/market-data/formulas.ts';
import { keyMetricRows, periodSeries, ratioRows } from '../services/market-data/fundamentals.ts';
import { dupontRows } from './dupont.ts';
import type { SymbolPageContext } from './resolver.ts';
import { premiumGate, type PremiumGate, type TableColumn } from './view.ts';

/** One group of ratios (profitability, liquidity…): a table with a row per ratio. */
export interface RatioGroupTable {
  title: string;
  /** The id of the group's heading. */
  id: string;
  rows: string[][];
}

/** The financial-ratios page: every group's table over the periods shown. */
export interface FinancialRatiosView {
  kind: 'ratios';
  name: string;
  quarterly: boolean;
  annualHref: string;
  quarterlyHref: string;
  dupontHref: string;
  /** Periods shown; none when the company has no statements of the kind. */
  periodCount: number;
  /** "quarters" or "fiscal years". */
  periodWord: string;
  currency: string;
  columns: TableColumn[];
  groups: RatioGroupTable[];
  premium: PremiumGate;
}

/** The DuPont page: return on equity split into three and five factors, checked, with its inputs. */
export interface DupontView {
  kind: 'dupont';
  name: string;
  ratiosHref: string;
  years: number;
  columns: TableColumn[];
  threeStepRows: string[][];
  fiveStepRows: string[][];
  checkRows: string[][];
  amountRows: string[][];
  /** Both products equal ROE in every year. */
  allMatch: boolean;
  currency: string;
}

export type RatiosView = FinancialRatiosView | DupontView;

const ANNUAL_PERIODS = 5;
const QUARTERLY_PERIODS = 8;
const DUPONT_YEARS = 5;

/** How a value reads: a fraction as percent, a multiple or amount with two decimals, days. */
type ValueKind = 'percent' | 'number' | 'days';

interface RatioLine {
  label: string;
  kind: ValueKind;
  value: (ratio: RatiosRow, metric: KeyMetricsRow | undefined) => number | undefined;
  /**
   * The formulas answer 0 for a quotient without a denominator (no inventory, no interest expense,
   * no price); for these lines 0 can only mean that, so it shows as missing.
   */
  zeroIsMissing?: boolean;
  /** Needs the close at the period end (market capitalisation); missing when there was none. */
  market?: boolean;
}

interface RatioGroup {
  title: string;
  lines: RatioLine[];
}

function percent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING_VALUE;
  return `${formatPrice(value * 100)}%`;
}

function decimal(value: number | null | undefined): string {
  return formatPrice(value);
}

function show(line: RatioLine, ratio: RatiosRow, metric: KeyMetricsRow | undefined): string {
  const value = line.value(ratio, metric);
  if (value === undefined || !Number.isFinite(value)) return MISSING_VALUE;
  if (line.market === true && (metric === undefined || metric.marketCap === 0)) return MISSING_VALUE;
  if (line.zeroIsMissing === true && value === 0) return MISSING_VALUE;
  if (line.kind === 'percent') return percent(value);
  return decimal(value);
}

function periodLabel(fiscalYear: string, period: string): string {
  return period === 'FY' ? `FY ${fiscalYear}` : `${period} ${fiscalYear}`;
}

const GROUPS: RatioGroup[] = [
  {
    title: 'Profitability',
    lines: [
      { label: 'Gross margin', kind: 'percent', value: (r) => r.grossProfitMargin },
      { label: 'Operating margin', kind: 'percent', value: (r) => r.operatingProfitMargin },
      { label: 'EBITDA margin', kind: 'percent', value: (r) => r.ebitdaMargin },
      { label: 'Pre-tax margin', kind: 'percent', value: (r) => r.pretaxProfitMargin },
      { label: 'Net margin', kind: 'percent', value: (r) => r.netProfitMargin },
      { label: 'Return on equity (ROE)', kind: 'percent', value: (_, m) => m?.returnOnEquity },
      { label: 'Return on assets (ROA)', kind: 'percent', value: (_, m) => m?.returnOnAssets },
      {
        label: 'Return on invested capital (ROIC)',
        kind: 'percent',
        value: (_, m) => m?.returnOnInvestedCapital,
      },
      {
        label: 'Return on capital employed (ROCE)',
        kind: 'percent',
        value: (_, m) => m?.returnOnCapitalEmployed,
      },
      { label: 'Effective tax rate', kind: 'percent', value: (r) => r.effectiveTaxRate },
    ],
  },
  {
    title: 'Liquidity',
    lines: [
      { label: 'Current ratio', kind: 'number', value: (r) => r.currentRatio, zeroIsMissing: true },
      { label: 'Quick ratio', kind: 'number', value: (r) => r.quickRatio, zeroIsMissing: true },
      { label: 'Cash ratio', kind: 'number', value: (r) => r.cashRatio },
      { label: 'Operating cash flow ratio', kind: 'number', value: (r) => r.operatingCashFlowRatio },
    ],
  },
  {
    title: 'Leverage',
    lines: [
      { label: 'Debt to equity', kind: 'number', value: (r) => r.debtToEquityRatio },
      { label: 'Debt to assets', kind: 'number', value: (r) => r.debtToAssetsRatio },
      { label: 'Debt to capital', kind: 'number', value: (r) => r.debtToCapitalRatio },
      {
        label: 'Equity multiplier (assets / equity)',
        kind: 'number',
        value: (r) => r.financialLeverageRatio,
        zeroIsMissing: true,
      },
      { label: 'Net debt to EBITDA', kind: 'number', value: (_, m) => m?.netDebtToEBITDA },
      {
        label: 'Interest coverage',
        kind: 'number',
        value: (r) => r.interestCoverageRatio,
        zeroIsMissing: true,
      },
    ],
  },
  {
    title: 'Efficiency',
    lines: [
      { label: 'Asset turnover', kind: 'number', value: (r) => r.assetTurnover, zeroIsMissing: true },
      {
        label: 'Fixed asset turnover',
        kind: 'number',
        value: (r) => r.fixedAssetTurnover,
        zeroIsMissing: true,
      },
      {
        label: 'Inventory turnover',
        kind: 'number',
        value: (r) => r.inventoryTurnover,
        zeroIsMissing: true,
      },
      {
        label: 'Receivables turnover',
        kind: 'number',
        value: (r) => r.receivablesTurnover,
        zeroIsMissing: true,
      },
      {
        label: 'Payables turnover',
        kind: 'number',
        value: (r) => r.payablesTurnover,
        zeroIsMissing: true,
      },
      { label: 'Days sales outstanding', kind: 'days', value: (_, m) => m?.daysOfSalesOutstanding },
      { label: 'Days inventory outstanding', kind: 'days', value: (_, m) => m?.daysOfInventoryOutstanding },
      { label: 'Days payables outstanding', kind: 'days', value: (_, m) => m?.daysOfPayablesOutstanding },
      { label: 'Cash conversion cycle (days)', kind: 'days', value: (_, m) => m?.cashConversionCycle },
    ],
  },
  {
    title: 'Valuation',
    lines: [
      {
        label: 'Price to earnings (P/E)',
        kind: 'number',
        value: (r) => r.priceToEarningsRatio,
        market: true,
        zeroIsMissing: true,
      },
      {
        label: 'Price to book (P/B)',
        kind: 'number',
        value: (r) => r.priceToBookRatio,
        market: true,
        zeroIsMissing: true,
      },
      {
        label: 'Price to sales (P/S)',
        kind: 'number',
        value: (r) => r.priceToSalesRatio,
        market: true,
        zeroIsMissing: true,
      },
      {
        label: 'Price to free cash flow',
        kind: 'number',
        value: (r) => r.priceToFreeCashFlowRatio,
        market: true,
        zeroIsMissing: true,
      },
      {
        label: 'EV to EBITDA',
        kind: 'number',
        value: (_, m) => m?.evToEBITDA,
        market: true,
        zeroIsMissing: true,
      },
      {
        label: 'EV to sales',
        kind: 'number',
        value: (_, m) => m?.evToSales,
        market: true,
        zeroIsMissing: true,
      },
      { label: 'Earnings yield', kind: 'percent', value: (_, m) => m?.earningsYield, market: true },
      { label: 'Free cash flow yield', kind: 'percent', value: (_, m) => m?.freeCashFlowYield, market: true },
      { label: 'Dividend yield', kind: 'percent', value: (r) => r.dividendYield, market: true },
      { label: 'Dividend payout ratio', kind: 'percent', value: (r) => r.dividendPayoutRatio },
    ],
  },
  {
    title: 'Per share',
    lines: [
      { label: 'Earnings per share (EPS)', kind: 'number', value: (r) => r.netIncomePerShare },
      { label: 'Revenue per share', kind: 'number', value: (r) => r.revenuePerShare },
      { label: 'Book value per share', kind: 'number', value: (r) => r.bookValuePerShare },
      { label: 'Tangible book value per share', kind: 'number', value: (r) => r.tangibleBookValuePerShare },
      { label: 'Operating cash flow per share', kind: 'number', value: (r) => r.operatingCashFlowPerShare },
      { label: 'Free cash flow per share', kind: 'number', value: (r) => r.freeCashFlowPerShare },
      { label: 'Cash per share', kind: 'number', value: (r) => r.cashPerShare },
      { label: 'Dividends per share', kind: 'number', value: (r) => r.dividendPerShare },
    ],
  },
];

/** The financial-ratios page, annual or (with `?period=quarter`) quarterly. */
async function loadFinancialRatios(context: SymbolPageContext): Promise<FinancialRatiosView> {
  const { db, header } = context;
  const symbol = header.symbol;
  const quarterly = context.searchParams.get('period') === 'quarter';
  const selector = quarterly ? 'quarter' : 'annual';
  const limit = quarterly ? QUARTERLY_PERIODS : ANNUAL_PERIODS;
  const [ratiosFound, metricsFound] = await Promise.all([
    ratioRows(db, symbol, selector, limit),
    keyMetricRows(db, symbol, selector, limit),
  ]);
  const ratioRowsShown: RatiosRow[] = ratiosFound;
  const metricsByDate = new Map<string, KeyMetricsRow>(metricsFound.map((row) => [row.date, row]));
  const currency = ratioRowsShown[0]?.reportedCurrency ?? header.currency;
  const ratioColumns: TableColumn[] = [
    { label: 'Ratio' },
    ...ratioRowsShown.map((row) => ({ label: periodLabel(row.fiscalYear, row.period), numeric: true })),
  ];
  const groupTables = GROUPS.map((group) => ({
    title: group.title,
    rows: group.lines.map((line) => [
      line.label,
      ...ratioRowsShown.map((ratio) => show(line, ratio, metricsByDate.get(ratio.date))),
    ]),
  }));
  const annualHref = symbolPath('financial-ratios', symbol);
  const quarterlyHref = `${annualHref}?period=quarter`;
  const periodWord = quarterly ? 'quarters' : 'fiscal years';
  return {
    kind: 'ratios',
    name: header.name,
    quarterly,
    annualHref,
    quarterlyHref,
    dupontHref: symbolPath('dupont-ratio-analysis', symbol),
    periodCount: ratioRowsShown.length,
    periodWord,
    currency,
    columns: ratioColumns,
    groups: groupTables.map((group) => ({
      ...group,
      id: `ratios-${group.title.toLowerCase().replace(/\W+/g, '-')}`,
    })),
    premium:
      ratioRowsShown.length === 0
        ? { tier: undefined, plan: undefined }
        : await premiumGate(db, quarterly ? QUARTERLY_TIER : undefined),
  };
}

interface DupontAmounts {
  revenue: number;
  ebit: number;
  incomeBeforeTax: number;
  netIncome: number;
  totalAssets: number;
  totalStockholdersEquity: number;
}

/** The DuPont page over the last fiscal years. */
async function loadDupont(context: SymbolPageContext): Promise<DupontView> {
  const { db, header } = context;
  const symbol = header.symbol;
  const series = await periodSeries(db, symbol, 'annual', DUPONT_YEARS);
  const inputs = series.selected.map((period) => ({
    date: period.date,
    fiscalYear: period.statements.income.fiscalYear,
    period: period.statements.income.period,
    income: period.statements.income,
    balance: period.statements.balance,
  }));
  const dupont = dupontRows(inputs);
  const amounts: DupontAmounts[] = series.selected.map(({ statements: { income, balance } }) => ({
    revenue: income.revenue,
    ebit: income.ebit,
    incomeBeforeTax: income.incomeBeforeTax,
    netIncome: income.netIncome,
    totalAssets: balance.totalAssets,
    totalStockholdersEquity: balance.totalStockholdersEquity,
  }));
  const reported = series.selected[0]?.statements.income.reportedCurrency;
  const dupontCurrency = reported === undefined || reported === '' ? header.currency : reported;
  const dupontColumns: TableColumn[] = [
    { label: 'Factor' },
    ...dupont.map((row) => ({ label: periodLabel(row.fiscalYear, row.period), numeric: true })),
  ];
  const threeStepRows = [
    [
      'Net profit margin (net income / revenue)',
      ...dupont.map((row) => percent(row.threeStep.netProfitMargin)),
    ],
    [
      '× Asset turnover (revenue / total assets)',
      ...dupont.map((row) => decimal(row.threeStep.assetTurnover)),
    ],
    [
      '× Equity multiplier (total assets / equity)',
      ...dupont.map((row) => decimal(row.threeStep.equityMultiplier)),
    ],
    ['= Return on equity', ...dupont.map((row) => percent(row.threeStep.product))],
  ];
  const fiveStepRows = [
    ['Tax burden (net income / pre-tax income)', ...dupont.map((row) => decimal(row.fiveStep.taxBurden))],
    [
      '× Interest burden (pre-tax income / EBIT)',
      ...dupont.map((row) => decimal(row.fiveStep.interestBurden)),
    ],
    ['× EBIT margin (EBIT / revenue)', ...dupont.map((row) => percent(row.fiveStep.ebitMargin))],
    [
      '× Asset turnover (revenue / total assets)',
      ...dupont.map((row) => decimal(row.fiveStep.assetTurnover)),
    ],
    [
      '× Equity multiplier (total assets / equity)',
      ...dupont.map((row) => decimal(row.fiveStep.equityMultiplier)),
    ],
    ['= Return on equity', ...dupont.map((row) => percent(row.fiveStep.product))],
  ];
  function checkLabel(matches: boolean | null): string {
    if (matches === null) return MISSING_VALUE;
    return matches ? 'Matches' : 'Does not match';
  }
  const checkRows = [
    ['ROE (net income / equity)', ...dupont.map((row) => percent(row.returnOnEquity))],
    ['Three-step product', ...dupont.map((row) => percent(row.threeStep.product))],
    ['Five-step product', ...dupont.map((row) => percent(row.fiveStep.product))],
    ['Products equal ROE', ...dupont.map((row) => checkLabel(row.matches))],
  ];
  const amountRows = [
    ['Revenue', ...amounts.map((row) => formatNumber(row.revenue))],
    ['EBIT', ...amounts.map((row) => formatNumber(row.ebit))],
    ['Pre-tax income', ...amounts.map((row) => formatNumber(row.incomeBeforeTax))],
    ['Net income', ...amounts.map((row) => formatNumber(row.netIncome))],
    ['Total assets (year end)', ...amounts.map((row) => formatNumber(row.totalAssets))],
    ['Stockholders’ equity (year end)', ...amounts.map((row) => formatNumber(row.totalStockholdersEquity))],
  ];
  const allMatch = dupont.length > 0 && dupont.every((row) => row.matches === true);
  return {
    kind: 'dupont',
    name: header.name,
    ratiosHref: symbolPath('financial-ratios', symbol),
    years: dupont.length,
    columns: dupontColumns,
    threeStepRows,
    fiveStepRows,
    checkRows,
    amountRows,
    allMatch,
    currency: dupontCurrency,
  };
}

/** Reads what the ratios page or the DuPont page shows. */
export async function loadRatios(context: SymbolPageContext): Promise<RatiosView> {
  return context.page === 'dupont-ratio-analysis' ? loadDupont(context) : loadFinancialRatios(context);
}
