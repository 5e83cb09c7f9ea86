import { between, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { financialStatements, type StatementType } from '../../db/schema.ts';
import {
  BALANCE_LINES,
  CASH_FLOW_LINES,
  INCOME_LINES,
  type StatementLine,
} from '../../../lib/statement-fields.ts';
import { growthRate } from './formulas.ts';
import {
  isQuarterly,
  projectRow,
  statementSets,
  statementSetsOf,
  STATEMENT_FIELDS,
  type ApiRow,
  type FieldSpec,
  type PeriodSelector,
  type StoredStatementSet,
} from './statements.ts';

/**
 * Growth of the statements from one period to the one before it (the prior fiscal year, or the prior
 * quarter for quarterly rows): (current − previous) / |previous|, 0 when the previous value is 0, so
 * growth out of a loss reads with the right sign. FMP's growth rows name each line growthX in its own
 * order and spelling (growthEBITDA, growthNetCashProvidedByOperatingActivites, …); the tables below map
 * those names onto the stored lines once.
 */

/** A period's three statements, each projected onto FMP's fields. */
export interface ProjectedPeriod {
  income: ApiRow;
  balance: ApiRow;
  cashFlow: ApiRow;
}

type Statement = keyof ProjectedPeriod;

/** One growth field: FMP's name, the value it grows and the text the documentation shows. */
interface GrowthField {
  name: string;
  value: (period: ProjectedPeriod) => number;
  description: string;
}

function numberIn(row: ApiRow, name: string): number {
  const value = row[name];
  return typeof value === 'number' ? value : 0;
}

const LINES: Readonly<Record<Statement, readonly StatementLine[]>> = {
  income: INCOME_LINES,
  balance: BALANCE_LINES,
  cashFlow: CASH_FLOW_LINES,
};

/**
 * A growth field of a stored line: `line` alone names it growth + Line; [name, line] where FMP spells
 * it otherwise. The line must exist, so a renamed line fails at start-up rather than answering zeros.
 */
function lineGrowth(statement: Statement, entry: string | readonly [string, string]): GrowthField {
  const [name, lineName] =
    typeof entry === 'string' ? [`growth${entry.charAt(0).toUpperCase()}${entry.slice(1)}`, entry] : entry;
  const line = LINES[statement].find((candidate) => candidate.name === lineName);
  if (line === undefined) throw new Error(`no ${statement} line ${lineName}`);
  return {
    name,
    value: (period) => numberIn(period[statement], lineName),
    description: `Growth of ${line.label.charAt(0).toLowerCase()}${line.label.slice(1)} over the previous period, as a fraction (0.1 = 10 %)`,
  };
}

const ratioGrowth: GrowthField = {
  name: 'growthGrossProfitRatio',
  value: (period) => {
    const revenue = numberIn(period.income, 'revenue');
    return revenue === 0 ? 0 : numberIn(period.income, 'grossProfit') / revenue;
  },
  description: 'Growth of the gross margin (gross profit / revenue) over the previous period, as a fraction',
};

/** `income-statement-growth` fields in FMP's order. */
const INCOME_GROWTH: readonly GrowthField[] = [
  ...['revenue', 'costOfRevenue', 'grossProfit'].map((line) => lineGrowth('income', line)),
  ratioGrowth,
  ...(
    [
      'researchAndDevelopmentExpenses',
      'generalAndAdministrativeExpenses',
      'sellingAndMarketingExpenses',
      'otherExpenses',
      'operatingExpenses',
      'costAndExpenses',
      'interestIncome',
      'interestExpense',
      'depreciationAndAmortization',
      ['growthEBITDA', 'ebitda'],
      'operatingIncome',
      'incomeBeforeTax',
      'incomeTaxExpense',
      'netIncome',
      ['growthEPS', 'eps'],
      ['growthEPSDiluted', 'epsDiluted'],
      'weightedAverageShsOut',
      'weightedAverageShsOutDil',
      ['growthEBIT', 'ebit'],
      'nonOperatingIncomeExcludingInterest',
      'netInterestIncome',
      'totalOtherIncomeExpensesNet',
      'netIncomeFromContinuingOperations',
      'otherAdjustmentsToNetIncome',
      'netIncomeDeductions',
    ] as const
  ).map((entry) => lineGrowth('income', entry)),
];

/** `balance-sheet-statement-growth` fields in FMP's order. */
const BALANCE_GROWTH: readonly GrowthField[] = (
  [
    'cashAndCashEquivalents',
    'shortTermInvestments',
    'cashAndShortTermInvestments',
    'netReceivables',
    'inventory',
    'otherCurrentAssets',
    'totalCurrentAssets',
    'propertyPlantEquipmentNet',
    'goodwill',
    'intangibleAssets',
    'goodwillAndIntangibleAssets',
    'longTermInvestments',
    'taxAssets',
    'otherNonCurrentAssets',
    'totalNonCurrentAssets',
    'otherAssets',
    'totalAssets',
    'accountPayables',
    'shortTermDebt',
    'taxPayables',
    'deferredRevenue',
    'otherCurrentLiabilities',
    'totalCurrentLiabilities',
    'longTermDebt',
    'deferredRevenueNonCurrent',
    'deferredTaxLiabilitiesNonCurrent',
    'otherNonCurrentLiabilities',
    'totalNonCurrentLiabilities',
    'otherLiabilities',
    'totalLiabilities',
    'preferredStock',
    'commonStock',
    'retainedEarnings',
    'accumulatedOtherComprehensiveIncomeLoss',
    ['growthOthertotalStockholdersEquity', 'otherTotalStockholdersEquity'],
    'totalStockholdersEquity',
    'minorityInterest',
    'totalEquity',
    ['growthTotalLiabilitiesAndStockholdersEquity', 'totalLiabilitiesAndTotalEquity'],
    'totalInvestments',
    'totalDebt',
    'netDebt',
    'accountsReceivables',
    'otherReceivables',
    'prepaids',
    'totalPayables',
    'otherPayables',
    'accruedExpenses',
    'capitalLeaseObligationsCurrent',
    'additionalPaidInCapital',
    'treasuryStock',
  ] as const
).map((entry) => lineGrowth('balance', entry));

/** `cash-flow-statement-growth` fields in FMP's order (with FMP's spelling "Activites"). */
const CASH_FLOW_GROWTH: readonly GrowthField[] = (
  [
    'netIncome',
    'depreciationAndAmortization',
    'deferredIncomeTax',
    'stockBasedCompensation',
    'changeInWorkingCapital',
    'accountsReceivables',
    'inventory',
    'accountsPayables',
    'otherWorkingCapital',
    'otherNonCashItems',
    ['growthNetCashProvidedByOperatingActivites', 'netCashProvidedByOperatingActivities'],
    'investmentsInPropertyPlantAndEquipment',
    'acquisitionsNet',
    'purchasesOfInvestments',
    'salesMaturitiesOfInvestments',
    ['growthOtherInvestingActivites', 'otherInvestingActivities'],
    ['growthNetCashUsedForInvestingActivites', 'netCashProvidedByInvestingActivities'],
    ['growthDebtRepayment', 'netDebtIssuance'],
    ['growthCommonStockIssued', 'commonStockIssuance'],
    'commonStockRepurchased',
    ['growthDividendsPaid', 'netDividendsPaid'],
    ['growthOtherFinancingActivites', 'otherFinancingActivities'],
    ['growthNetCashUsedProvidedByFinancingActivities', 'netCashProvidedByFinancingActivities'],
    'effectOfForexChangesOnCash',
    'netChangeInCash',
    'cashAtEndOfPeriod',
    'cashAtBeginningOfPeriod',
    'operatingCashFlow',
    'capitalExpenditure',
    'freeCashFlow',
    'netDebtIssuance',
    'longTermNetDebtIssuance',
    'shortTermNetDebtIssuance',
    'netStockIssuance',
    'preferredDividendsPaid',
    'incomeTaxesPaid',
    'interestPaid',
  ] as const
).map((entry) => lineGrowth('cashFlow', entry));

const GROWTH_FIELDS: Readonly<Record<StatementType, readonly GrowthField[]>> = {
  income: INCOME_GROWTH,
  'balance-sheet': BALANCE_GROWTH,
  'cash-flow': CASH_FLOW_GROWTH,
};

/** The identity fields every growth row starts with, in FMP's order. */
export const GROWTH_HEADER: readonly FieldSpec[] = [
  { name: 'symbol', kind: 'string', description: 'Ticker symbol' },
  { name: 'date', kind: 'string', description: 'Period end date (YYYY-MM-DD)' },
  { name: 'fiscalYear', kind: 'string', description: 'Fiscal year the period belongs to, e.g. "2024"' },
  { name: 'period', kind: 'string', description: 'Fiscal period: FY or Q1–Q4' },
  { name: 'reportedCurrency', kind: 'string', description: 'Currency of the statements (ISO 4217)' },
];

/** The documented fields of a statement's growth rows. */
export function growthFields(type: StatementType): FieldSpec[] {
  return [
    ...GROWTH_HEADER,
    ...GROWTH_FIELDS[type].map(({ name, description }) => ({ name, kind: 'number' as const, description })),
  ];
}

// ---------------------------------------------------------------------------------------------------------
// financial-growth

const shares = (period: ProjectedPeriod): number => numberIn(period.income, 'weightedAverageShsOut');
const perShare =
  (statement: Statement, line: string, sign = 1) =>
  (period: ProjectedPeriod): number => {
    const count = shares(period);
    return count === 0 ? 0 : (sign * numberIn(period[statement], line)) / count;
  };

/** A one-period growth of financial-growth: its FMP name, value and what it grows. */
function simple(name: string, value: (period: ProjectedPeriod) => number, what: string): GrowthField {
  return { name, value, description: `Growth of ${what} over the previous period, as a fraction` };
}

/** The per-share values the 3-, 5- and 10-year figures compare, with FMP's name stems. */
const PER_SHARE_SPANS: readonly { stem: string; value: (period: ProjectedPeriod) => number; what: string }[] =
  [
    { stem: 'RevenueGrowthPerShare', value: perShare('income', 'revenue'), what: 'revenue per share' },
    {
      stem: 'OperatingCFGrowthPerShare',
      value: perShare('cashFlow', 'operatingCashFlow'),
      what: 'operating cash flow per share',
    },
    { stem: 'NetIncomeGrowthPerShare', value: perShare('income', 'netIncome'), what: 'net income per share' },
    {
      stem: 'ShareholdersEquityGrowthPerShare',
      value: perShare('balance', 'totalStockholdersEquity'),
      what: 'stockholders’ equity per share',
    },
    {
      stem: 'DividendperShareGrowthPerShare',
      value: perShare('cashFlow', 'netDividendsPaid', -1),
      what: 'dividends paid per share',
    },
  ];

const BOTTOM_LINE = {
  stem: 'BottomLineNetIncomeGrowthPerShare',
  value: perShare('income', 'bottomLineNetIncome'),
  what: 'net income to common shareholders per share',
};

const SPANS = [
  ['ten', 10],
  ['five', 5],
  ['three', 3],
] as const;

/** A multi-year figure: growth over `years` fiscal years, null when the history is shorter. */
interface SpanField {
  name: string;
  years: number;
  value: (period: ProjectedPeriod) => number;
  description: string;
}

function spanFields(spec: {
  stem: string;
  value: (period: ProjectedPeriod) => number;
  what: string;
}): SpanField[] {
  return SPANS.map(([word, years]) => ({
    name: `${word}Y${spec.stem}`,
    years,
    value: spec.value,
    description: `Growth of ${spec.what} over ${String(years)} years (the same fiscal period ${String(years)} years earlier), as a fraction; null when the history is shorter`,
  }));
}

type FinancialGrowthField = ({ kind: 'simple' } & GrowthField) | ({ kind: 'span' } & SpanField);

const FINANCIAL_GROWTH: readonly FinancialGrowthField[] = [
  ...[
    simple('revenueGrowth', (p) => numberIn(p.income, 'revenue'), 'revenue'),
    simple('grossProfitGrowth', (p) => numberIn(p.income, 'grossProfit'), 'gross profit'),
    simple('ebitgrowth', (p) => numberIn(p.income, 'ebit'), 'EBIT'),
    simple('operatingIncomeGrowth', (p) => numberIn(p.income, 'operatingIncome'), 'operating income'),
    simple('netIncomeGrowth', (p) => numberIn(p.income, 'netIncome'), 'net income'),
    simple('epsgrowth', (p) => numberIn(p.income, 'eps'), 'EPS'),
    simple('epsdilutedGrowth', (p) => numberIn(p.income, 'epsDiluted'), 'diluted EPS'),
    simple('weightedAverageSharesGrowth', shares, 'weighted average shares'),
    simple(
      'weightedAverageSharesDilutedGrowth',
      (p) => numberIn(p.income, 'weightedAverageShsOutDil'),
      'weighted average diluted shares',
    ),
    simple(
      'dividendsPerShareGrowth',
      perShare('cashFlow', 'netDividendsPaid', -1),
      'dividends paid per share',
    ),
    simple(
      'operatingCashFlowGrowth',
      (p) => numberIn(p.cashFlow, 'operatingCashFlow'),
      'operating cash flow',
    ),
    simple('receivablesGrowth', (p) => numberIn(p.balance, 'netReceivables'), 'net receivables'),
    simple('inventoryGrowth', (p) => numberIn(p.balance, 'inventory'), 'inventory'),
    simple('assetGrowth', (p) => numberIn(p.balance, 'totalAssets'), 'total assets'),
    simple('bookValueperShareGrowth', perShare('balance', 'totalStockholdersEquity'), 'book value per share'),
    simple('debtGrowth', (p) => numberIn(p.balance, 'totalDebt'), 'total debt'),
    simple(
      'rdexpenseGrowth',
      (p) => numberIn(p.income, 'researchAndDevelopmentExpenses'),
      'research and development expenses',
    ),
    simple(
      'sgaexpensesGrowth',
      (p) => numberIn(p.income, 'sellingGeneralAndAdministrativeExpenses'),
      'SG&A expenses',
    ),
    simple('freeCashFlowGrowth', (p) => numberIn(p.cashFlow, 'freeCashFlow'), 'free cash flow'),
  ].map((field) => ({ kind: 'simple' as const, ...field })),
  ...PER_SHARE_SPANS.flatMap(spanFields).map((field) => ({ kind: 'span' as const, ...field })),
  ...[
    simple('ebitdaGrowth', (p) => numberIn(p.income, 'ebitda'), 'EBITDA'),
    simple(
      'growthCapitalExpenditure',
      (p) => numberIn(p.cashFlow, 'capitalExpenditure'),
      'capital expenditure',
    ),
  ].map((field) => ({ kind: 'simple' as const, ...field })),
  ...spanFields(BOTTOM_LINE).map((field) => ({ kind: 'span' as const, ...field })),
];

/** The documented fields of `financial-growth` rows, in FMP's order. */
export const FINANCIAL_GROWTH_FIELDS: readonly FieldSpec[] = [
  ...GROWTH_HEADER,
  ...FINANCIAL_GROWTH.map(({ name, kind, description }) => ({
    name,
    kind: kind === 'span' ? ('nullableNumber' as const) : ('number' as const),
    description,
  })),
];

// ---------------------------------------------------------------------------------------------------------
// Reading

/** A selected period with the period before it and, for the multi-year figures, all older ones. */
interface GrowthPeriod {
  current: ProjectedPeriod;
  previous: ProjectedPeriod | undefined;
  /** The same fiscal period `years` years earlier. */
  yearsBefore: (years: number) => ProjectedPeriod | undefined;
}

/** Years of history the multi-year figures look back. */
const LONGEST_SPAN = 10;

async function growthPeriods(
  db: Db,
  symbol: string,
  selector: PeriodSelector,
  limit: number,
  spans: boolean,
): Promise<GrowthPeriod[]> {
  const quarterly = isQuarterly(selector);
  const single = quarterly && selector !== 'quarter';
  const perYear = quarterly ? 4 : 1;
  const wanted = (single ? limit * 4 : limit) + perYear + (spans ? LONGEST_SPAN * perYear : 0);
  const stored = await statementSets(db, symbol, quarterly ? 'quarter' : 'annual', wanted);
  return periodsOf(stored, (set) => !single || set.period === selector).slice(0, limit);
}

/**
 * The periods of one symbol's stored sets (newest first) that `chosen` keeps, each with the period
 * stored before it (whatever `chosen` says of that one) and the same period of earlier years.
 */
function periodsOf(
  stored: readonly StoredStatementSet[],
  chosen: (set: StoredStatementSet) => boolean,
): GrowthPeriod[] {
  const all = stored.map((set) => ({
    fiscalYear: set.fiscalYear,
    period: set.period,
    statements: {
      income: projectRow(set.income, STATEMENT_FIELDS.income),
      balance: projectRow(set.balance, STATEMENT_FIELDS['balance-sheet']),
      cashFlow: projectRow(set.cashFlow, STATEMENT_FIELDS['cash-flow']),
    },
  }));
  const byKey = new Map(
    all.map((entry) => [`${String(entry.fiscalYear)}-${entry.period}`, entry.statements]),
  );
  const periods: GrowthPeriod[] = [];
  for (const [index, entry] of all.entries()) {
    const set = stored[index];
    if (set === undefined || !chosen(set)) continue;
    periods.push({
      current: entry.statements,
      previous: all[index + 1]?.statements,
      yearsBefore: (years) => byKey.get(`${String(entry.fiscalYear - years)}-${entry.period}`),
    });
  }
  return periods;
}

function header(period: ProjectedPeriod): ApiRow {
  const { income } = period;
  return {
    symbol: income.symbol ?? '',
    date: income.date ?? '',
    fiscalYear: income.fiscalYear ?? '',
    period: income.period ?? '',
    reportedCurrency: income.reportedCurrency ?? '',
  };
}

function growthOf(
  field: GrowthField,
  current: ProjectedPeriod,
  previous: ProjectedPeriod | undefined,
): number {
  if (previous === undefined) return 0;
  const value = growthRate(field.value(current), field.value(previous));
  return Number.isFinite(value) ? value : 0;
}

/**
 * `income-statement-growth` and its siblings, newest period first; the oldest stored period has no
 * previous one, so its growth is 0.
 */
export async function statementGrowthRows(
  db: Db,
  type: StatementType,
  symbol: string,
  selector: PeriodSelector,
  limit: number,
): Promise<ApiRow[]> {
  return growthRowsOf(type, await growthPeriods(db, symbol, selector, limit, false));
}

/** The growth rows of periods: the one-period growth of each of the statement's lines. */
function growthRowsOf(type: StatementType, periods: readonly GrowthPeriod[]): ApiRow[] {
  const fields = GROWTH_FIELDS[type];
  return periods.map(({ current, previous }) => {
    const row = header(current);
    for (const field of fields) row[field.name] = growthOf(field, current, previous);
    return row;
  });
}

/**
 * The growth rows of one fiscal year for several symbols (in the order given, each symbol's periods
 * newest first), exactly as {@link statementGrowthRows} answers them for each symbol: what the bulk
 * growth files list. One query reads the year and the year before for all the symbols; only a symbol
 * whose period before the year's oldest is not in that window (the start of its history, a gap) has
 * it looked up on its own.
 */
export async function statementGrowthRowsOfYear(
  db: Db,
  type: StatementType,
  symbols: readonly string[],
  year: number,
  selector: PeriodSelector,
): Promise<ApiRow[]> {
  const kind = isQuarterly(selector) ? 'quarter' : 'annual';
  const single = kind === 'quarter' && selector !== 'quarter';
  const chosen = (set: StoredStatementSet): boolean =>
    set.fiscalYear === year && (!single || set.period === selector);
  const window = await statementSetsOf(
    db,
    symbols,
    kind,
    between(financialStatements.fiscalYear, year - 1, year),
  );
  const rows: ApiRow[] = [];
  for (const symbol of symbols) {
    let stored = window.get(symbol) ?? [];
    const oldest = lastIndexWhere(stored, chosen);
    const last = stored[oldest];
    if (last === undefined) continue;
    if (oldest === stored.length - 1) {
      const older = await statementSetsOf(db, [symbol], kind, lt(financialStatements.date, last.date));
      stored = [...stored, ...(older.get(symbol) ?? []).slice(0, 1)];
    }
    rows.push(...growthRowsOf(type, periodsOf(stored, chosen)));
  }
  return rows;
}

function lastIndexWhere<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = items[index];
    if (item !== undefined && test(item)) return index;
  }
  return -1;
}

/** `financial-growth`, newest period first: one-period growth and the 3-, 5- and 10-year per-share figures. */
export async function financialGrowthRows(
  db: Db,
  symbol: string,
  selector: PeriodSelector,
  limit: number,
): Promise<ApiRow[]> {
  const periods = await growthPeriods(db, symbol, selector, limit, true);
  return periods.map(({ current, previous, yearsBefore }) => {
    const row = header(current);
    for (const field of FINANCIAL_GROWTH) {
      if (field.kind === 'simple') {
        row[field.name] = growthOf(field, current, previous);
      } else {
        const then = yearsBefore(field.years);
        const value = then === undefined ? null : growthRate(field.value(current), field.value(then));
        row[field.name] = value === null || Number.isFinite(value) ? value : 0;
      }
    }
    return row;
  });
}
