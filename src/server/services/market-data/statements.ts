import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { financialStatements, type FiscalPeriod, type StatementType } from '../../db/schema.ts';

/** How a field is written in an answer: FMP's JSON types, so projections and schemas agree. */
export type FieldKind = 'string' | 'number' | 'nullableString' | 'nullableNumber';

/** One field of an FMP row: its name, JSON type and the text the API documentation shows. */
export interface FieldSpec {
  name: string;
  kind: FieldKind;
  description: string;
}

/** A row as the API answers it: FMP's field names in FMP's order. */
export type ApiRow = Record<string, string | number | null>;

function numberFields(entries: readonly (readonly [string, string])[]): FieldSpec[] {
  return entries.map(([name, description]) => ({ name, kind: 'number', description }));
}

/**
 * Stored rows are JSON (jsonb forgets key order) and may come from imports with loose types, so every
 * answer is rebuilt field by field: FMP's order, FMP's types, and never NaN/Infinity or a missing key.
 */
export function projectRow(data: Readonly<Record<string, unknown>>, fields: readonly FieldSpec[]): ApiRow {
  const row: ApiRow = {};
  for (const field of fields) row[field.name] = coerceField(data[field.name], field.kind);
  return row;
}

/** Brings one value to the field's JSON type (numbers from numeric strings, '' or null for absent values). */
export function coerceField(value: unknown, kind: FieldKind): string | number | null {
  if (kind === 'string' || kind === 'nullableString') {
    if (value === null || value === undefined) return kind === 'string' ? '' : null;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
      return String(value);
    return typeof value === 'object' ? JSON.stringify(value) : '';
  }
  if (value === null || value === undefined || value === '') return kind === 'number' ? 0 : null;
  const number = typeof value === 'number' ? value : Number(value);
  if (Number.isFinite(number)) return number;
  return kind === 'number' ? 0 : null;
}

const identityFields: FieldSpec[] = [
  { name: 'date', kind: 'string', description: 'Period end date (YYYY-MM-DD)' },
  { name: 'symbol', kind: 'string', description: 'Ticker symbol' },
  {
    name: 'reportedCurrency',
    kind: 'string',
    description: 'Currency the statement is reported in (ISO 4217)',
  },
  { name: 'cik', kind: 'string', description: 'SEC Central Index Key of the filer' },
  { name: 'filingDate', kind: 'string', description: 'Date the report was filed (YYYY-MM-DD)' },
  {
    name: 'acceptedDate',
    kind: 'string',
    description: 'Date and time the filing was accepted (YYYY-MM-DD HH:mm:ss)',
  },
  { name: 'fiscalYear', kind: 'string', description: 'Fiscal year the period belongs to, e.g. "2024"' },
  { name: 'period', kind: 'string', description: 'Fiscal period: FY for a full year, Q1–Q4 for a quarter' },
];

/** FMP's income-statement row, in FMP's order. */
export const INCOME_STATEMENT_FIELDS: readonly FieldSpec[] = [
  ...identityFields,
  ...numberFields([
    ['revenue', 'Total revenue (net sales)'],
    ['costOfRevenue', 'Cost of goods and services sold'],
    ['grossProfit', 'Revenue minus cost of revenue'],
    ['researchAndDevelopmentExpenses', 'Research and development expenses'],
    ['generalAndAdministrativeExpenses', 'General and administrative expenses'],
    ['sellingAndMarketingExpenses', 'Selling and marketing expenses'],
    ['sellingGeneralAndAdministrativeExpenses', 'Selling, general and administrative expenses (SG&A)'],
    ['otherExpenses', 'Other operating expenses'],
    ['operatingExpenses', 'Total operating expenses (R&D, SG&A and other)'],
    ['costAndExpenses', 'Cost of revenue plus operating expenses'],
    ['netInterestIncome', 'Interest income minus interest expense'],
    ['interestIncome', 'Interest income'],
    ['interestExpense', 'Interest expense'],
    ['depreciationAndAmortization', 'Depreciation and amortization'],
    ['ebitda', 'Earnings before interest, taxes, depreciation and amortization'],
    ['ebit', 'Earnings before interest and taxes'],
    ['nonOperatingIncomeExcludingInterest', 'Non-operating income other than interest'],
    ['operatingIncome', 'Gross profit minus operating expenses'],
    ['totalOtherIncomeExpensesNet', 'Net non-operating income and expenses'],
    ['incomeBeforeTax', 'Pre-tax income'],
    ['incomeTaxExpense', 'Income tax expense'],
    ['netIncomeFromContinuingOperations', 'Net income from continuing operations'],
    ['netIncomeFromDiscontinuedOperations', 'Net income from discontinued operations'],
    ['otherAdjustmentsToNetIncome', 'Other adjustments to net income'],
    ['netIncome', 'Net income'],
    ['netIncomeDeductions', 'Deductions from net income (e.g. preferred dividends, minority interest)'],
    ['bottomLineNetIncome', 'Net income attributable to common shareholders'],
    ['eps', 'Basic earnings per share'],
    ['epsDiluted', 'Diluted earnings per share'],
    ['weightedAverageShsOut', 'Weighted average basic shares outstanding'],
    ['weightedAverageShsOutDil', 'Weighted average diluted shares outstanding'],
  ]),
];

/** FMP's balance-sheet-statement row, in FMP's order. */
export const BALANCE_SHEET_FIELDS: readonly FieldSpec[] = [
  ...identityFields,
  ...numberFields([
    ['cashAndCashEquivalents', 'Cash and cash equivalents'],
    ['shortTermInvestments', 'Short-term investments (marketable securities)'],
    ['cashAndShortTermInvestments', 'Cash, cash equivalents and short-term investments'],
    ['netReceivables', 'Net receivables'],
    ['accountsReceivables', 'Trade accounts receivable'],
    ['otherReceivables', 'Other receivables'],
    ['inventory', 'Inventories'],
    ['prepaids', 'Prepaid expenses'],
    ['otherCurrentAssets', 'Other current assets'],
    ['totalCurrentAssets', 'Total current assets'],
    ['propertyPlantEquipmentNet', 'Property, plant and equipment, net of depreciation'],
    ['goodwill', 'Goodwill'],
    ['intangibleAssets', 'Intangible assets other than goodwill'],
    ['goodwillAndIntangibleAssets', 'Goodwill plus intangible assets'],
    ['longTermInvestments', 'Long-term investments'],
    ['taxAssets', 'Deferred tax assets'],
    ['otherNonCurrentAssets', 'Other non-current assets'],
    ['totalNonCurrentAssets', 'Total non-current assets'],
    ['otherAssets', 'Other assets'],
    ['totalAssets', 'Total assets'],
    ['totalPayables', 'Total payables'],
    ['accountPayables', 'Trade accounts payable'],
    ['otherPayables', 'Other payables'],
    ['accruedExpenses', 'Accrued expenses'],
    ['shortTermDebt', 'Short-term debt and current portion of long-term debt'],
    ['capitalLeaseObligationsCurrent', 'Current capital (finance) lease obligations'],
    ['taxPayables', 'Taxes payable'],
    ['deferredRevenue', 'Current deferred revenue'],
    ['otherCurrentLiabilities', 'Other current liabilities'],
    ['totalCurrentLiabilities', 'Total current liabilities'],
    ['longTermDebt', 'Long-term debt'],
    ['capitalLeaseObligationsNonCurrent', 'Non-current capital (finance) lease obligations'],
    ['deferredRevenueNonCurrent', 'Non-current deferred revenue'],
    ['deferredTaxLiabilitiesNonCurrent', 'Non-current deferred tax liabilities'],
    ['otherNonCurrentLiabilities', 'Other non-current liabilities'],
    ['totalNonCurrentLiabilities', 'Total non-current liabilities'],
    ['otherLiabilities', 'Other liabilities'],
    ['capitalLeaseObligations', 'Total capital (finance) lease obligations'],
    ['totalLiabilities', 'Total liabilities'],
    ['treasuryStock', 'Treasury stock'],
    ['preferredStock', 'Preferred stock'],
    ['commonStock', 'Common stock at par'],
    ['retainedEarnings', 'Retained earnings (accumulated deficit)'],
    ['additionalPaidInCapital', 'Additional paid-in capital'],
    ['accumulatedOtherComprehensiveIncomeLoss', 'Accumulated other comprehensive income (loss)'],
    ['otherTotalStockholdersEquity', 'Other stockholders’ equity'],
    ['totalStockholdersEquity', 'Total stockholders’ equity'],
    ['totalEquity', 'Total equity including minority interest'],
    ['minorityInterest', 'Minority (non-controlling) interest'],
    ['totalLiabilitiesAndTotalEquity', 'Total liabilities plus total equity (equals total assets)'],
    ['totalInvestments', 'Short-term plus long-term investments'],
    ['totalDebt', 'Short-term plus long-term debt'],
    ['netDebt', 'Total debt minus cash and cash equivalents'],
  ]),
];

/** FMP's cash-flow-statement row, in FMP's order. */
export const CASH_FLOW_FIELDS: readonly FieldSpec[] = [
  ...identityFields,
  ...numberFields([
    ['netIncome', 'Net income (as on the income statement)'],
    ['depreciationAndAmortization', 'Depreciation and amortization added back'],
    ['deferredIncomeTax', 'Deferred income taxes'],
    ['stockBasedCompensation', 'Stock-based compensation added back'],
    ['changeInWorkingCapital', 'Change in working capital'],
    ['accountsReceivables', 'Change in accounts receivable'],
    ['inventory', 'Change in inventories'],
    ['accountsPayables', 'Change in accounts payable'],
    ['otherWorkingCapital', 'Change in other working capital'],
    ['otherNonCashItems', 'Other non-cash items'],
    ['netCashProvidedByOperatingActivities', 'Net cash from operating activities'],
    ['investmentsInPropertyPlantAndEquipment', 'Purchases of property, plant and equipment (negative)'],
    ['acquisitionsNet', 'Acquisitions, net of cash acquired'],
    ['purchasesOfInvestments', 'Purchases of investments (negative)'],
    ['salesMaturitiesOfInvestments', 'Sales and maturities of investments'],
    ['otherInvestingActivities', 'Other investing activities'],
    ['netCashProvidedByInvestingActivities', 'Net cash from investing activities'],
    ['netDebtIssuance', 'Debt issued minus debt repaid'],
    ['longTermNetDebtIssuance', 'Net long-term debt issuance'],
    ['shortTermNetDebtIssuance', 'Net short-term debt issuance'],
    ['netStockIssuance', 'Stock issued minus stock repurchased'],
    ['netCommonStockIssuance', 'Net common stock issuance'],
    ['commonStockIssuance', 'Common stock issued'],
    ['commonStockRepurchased', 'Common stock repurchased (negative)'],
    ['netPreferredStockIssuance', 'Net preferred stock issuance'],
    ['netDividendsPaid', 'Dividends paid, common and preferred (negative)'],
    ['commonDividendsPaid', 'Common dividends paid (negative)'],
    ['preferredDividendsPaid', 'Preferred dividends paid (negative)'],
    ['otherFinancingActivities', 'Other financing activities'],
    ['netCashProvidedByFinancingActivities', 'Net cash from financing activities'],
    ['effectOfForexChangesOnCash', 'Effect of exchange rate changes on cash'],
    ['netChangeInCash', 'Net change in cash over the period'],
    ['cashAtEndOfPeriod', 'Cash at the end of the period'],
    ['cashAtBeginningOfPeriod', 'Cash at the beginning of the period'],
    ['operatingCashFlow', 'Operating cash flow'],
    ['capitalExpenditure', 'Capital expenditure (negative)'],
    ['freeCashFlow', 'Operating cash flow plus capital expenditure'],
    ['incomeTaxesPaid', 'Income taxes paid'],
    ['interestPaid', 'Interest paid'],
  ]),
];

/** The field list of each stored statement type. */
export const STATEMENT_FIELDS: Readonly<Record<StatementType, readonly FieldSpec[]>> = {
  income: INCOME_STATEMENT_FIELDS,
  'balance-sheet': BALANCE_SHEET_FIELDS,
  'cash-flow': CASH_FLOW_FIELDS,
};

/** The period parameter as FMP accepts it. */
export type PeriodSelector = 'annual' | 'quarter' | FiscalPeriod;

/** Stored period codes a period parameter selects: annual and FY are the full years, quarter any quarter. */
export function periodsFor(selector: PeriodSelector): FiscalPeriod[] {
  if (selector === 'annual' || selector === 'FY') return ['FY'];
  if (selector === 'quarter') return ['Q1', 'Q2', 'Q3', 'Q4'];
  return [selector];
}

/** Whether a period parameter reads quarterly rows (a higher plan than annual ones). */
export function isQuarterly(selector: PeriodSelector): boolean {
  return selector !== 'annual' && selector !== 'FY';
}

/** A statement request as the API takes it; the symbol pages pass the same shape. */
export interface StatementQuery {
  symbol: string;
  period: PeriodSelector;
  limit: number;
}

/** One statement type of a symbol, newest period first, each row FMP's JSON in FMP's order. */
export async function statementRows(db: Db, type: StatementType, query: StatementQuery): Promise<ApiRow[]> {
  const rows = await db
    .select({ data: financialStatements.data })
    .from(financialStatements)
    .where(
      and(
        eq(financialStatements.symbol, query.symbol),
        eq(financialStatements.statement, type),
        inArray(financialStatements.period, periodsFor(query.period)),
      ),
    )
    .orderBy(desc(financialStatements.date))
    .limit(query.limit);
  const fields = STATEMENT_FIELDS[type];
  return rows.map((row) => projectRow(row.data, fields));
}

/** The three statements of one fiscal period, as stored (FMP's JSON). */
export interface StoredStatementSet {
  fiscalYear: number;
  period: FiscalPeriod;
  date: string;
  income: Record<string, unknown>;
  balance: Record<string, unknown>;
  cashFlow: Record<string, unknown>;
}

/**
 * The periods that have all three statements, newest first: the computed endpoints need income,
 * balance sheet and cash flow of the same period. `limit` counts complete periods.
 */
export async function statementSets(
  db: Db,
  symbol: string,
  period: PeriodSelector,
  limit: number,
): Promise<StoredStatementSet[]> {
  const periods = periodsFor(period);
  // Newest rows of every type in one query; three rows per period, so 3 × limit covers complete sets.
  const rows = await db
    .select({
      statement: financialStatements.statement,
      fiscalYear: financialStatements.fiscalYear,
      period: financialStatements.period,
      date: financialStatements.date,
      data: financialStatements.data,
    })
    .from(financialStatements)
    .where(and(eq(financialStatements.symbol, symbol), inArray(financialStatements.period, periods)))
    .orderBy(desc(financialStatements.date), sql`${financialStatements.statement}`)
    .limit(limit * 3 + 3);
  const byPeriod = new Map<
    string,
    Partial<StoredStatementSet> & { fiscalYear: number; period: FiscalPeriod; date: string }
  >();
  for (const row of rows) {
    const key = `${row.fiscalYear}-${row.period}`;
    let set = byPeriod.get(key);
    if (set === undefined) {
      set = { fiscalYear: row.fiscalYear, period: row.period, date: row.date };
      byPeriod.set(key, set);
    }
    if (row.statement === 'income') set.income = row.data;
    else if (row.statement === 'balance-sheet') set.balance = row.data;
    else set.cashFlow = row.data;
  }
  const complete: StoredStatementSet[] = [];
  for (const set of byPeriod.values()) {
    const { income, balance, cashFlow } = set;
    if (income === undefined || balance === undefined || cashFlow === undefined) continue;
    complete.push({
      fiscalYear: set.fiscalYear,
      period: set.period,
      date: set.date,
      income,
      balance,
      cashFlow,
    });
  }
  complete.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  return complete.slice(0, limit);
}
