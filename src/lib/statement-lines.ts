/**
 * Line items of the three financial statements as the statement pages show them: readable labels
 * for FMP's field names (from the statement field catalogue), the short list of main lines of each
 * statement, and how a line's values are formatted. The same field name can mean different things
 * on different statements (cash flow "inventory" is a change in inventory), so labels are kept per
 * statement.
 */
import { formatNumber, formatPrice } from './format.ts';
import { STATEMENT_LINES, type LineName, type StatementKey, type StatementLine } from './statement-fields.ts';

// The pages name statements as the field catalogue does.
export type { StatementKey } from './statement-fields.ts';

/** A statement's labels by field name. */
function labelsOf(lines: readonly StatementLine[]): Readonly<Record<string, string>> {
  return Object.fromEntries(lines.map((line) => [line.name, line.label]));
}

/** Readable names of every numeric field of each statement, in FMP's order. */
export const LINE_LABELS: Readonly<Record<StatementKey, Readonly<Record<string, string>>>> = {
  income: labelsOf(STATEMENT_LINES.income),
  balance: labelsOf(STATEMENT_LINES.balance),
  cashFlow: labelsOf(STATEMENT_LINES.cashFlow),
};

/** The main lines of each statement, shown together on the financial statements overview. */
export const MAIN_LINES: Readonly<Record<StatementKey, readonly string[]>> = {
  income: [
    'revenue',
    'costOfRevenue',
    'grossProfit',
    'researchAndDevelopmentExpenses',
    'sellingGeneralAndAdministrativeExpenses',
    'operatingExpenses',
    'operatingIncome',
    'interestIncome',
    'interestExpense',
    'incomeBeforeTax',
    'incomeTaxExpense',
    'netIncome',
    'eps',
    'epsDiluted',
    'weightedAverageShsOut',
    'weightedAverageShsOutDil',
  ],
  balance: [
    'cashAndCashEquivalents',
    'shortTermInvestments',
    'netReceivables',
    'inventory',
    'totalCurrentAssets',
    'propertyPlantEquipmentNet',
    'goodwill',
    'intangibleAssets',
    'totalAssets',
    'accountPayables',
    'shortTermDebt',
    'totalCurrentLiabilities',
    'longTermDebt',
    'totalLiabilities',
    'retainedEarnings',
    'totalStockholdersEquity',
    'totalLiabilitiesAndTotalEquity',
  ],
  cashFlow: [
    'netIncome',
    'depreciationAndAmortization',
    'stockBasedCompensation',
    'changeInWorkingCapital',
    'netCashProvidedByOperatingActivities',
    'capitalExpenditure',
    'acquisitionsNet',
    'netCashProvidedByInvestingActivities',
    'netDebtIssuance',
    'commonStockRepurchased',
    'netDividendsPaid',
    'netCashProvidedByFinancingActivities',
    'netChangeInCash',
    'freeCashFlow',
  ],
} satisfies { readonly [K in StatementKey]: readonly LineName<K>[] };

/** Per-share lines read like prices (two decimals); every other line is an amount or a count. */
const PER_SHARE_LINES: ReadonlySet<string> = new Set(
  Object.values(STATEMENT_LINES)
    .flat()
    .filter((line: StatementLine) => line.unit === 'perShare')
    .map((line) => line.name),
);

/** The label of a statement line, falling back to the field name for a field not listed. */
export function lineLabel(statement: StatementKey, field: string): string {
  return LINE_LABELS[statement][field] ?? field;
}

/** One cell of a statement line: per-share values as prices, amounts abbreviated (SPEC §9). */
export function formatLineValue(field: string, value: unknown): string {
  const number = typeof value === 'number' ? value : null;
  return PER_SHARE_LINES.has(field) ? formatPrice(number) : formatNumber(number);
}

/**
 * The rows of a statement table: one per field, its label first, then its value in each period
 * (periods in column order).
 */
export function statementLineRows(
  statement: StatementKey,
  fields: readonly string[],
  periods: readonly Readonly<Record<string, unknown>>[],
): string[][] {
  return fields.map((field) => [
    lineLabel(statement, field),
    ...periods.map((period) => formatLineValue(field, period[field])),
  ]);
}
