/**
 * Line items of the three financial statements as the statement pages show them: readable labels
 * for FMP's field names, the short list of main lines of each statement, and how a line's values
 * are formatted. The same field name can mean different things on different statements (cash flow
 * "inventory" is a change in inventory), so labels are kept per statement.
 */
import { formatNumber, formatPrice } from './format.ts';

/** The three statements, keyed as a period's statements are (income, balance, cashFlow). */
export type StatementKey = 'income' | 'balance' | 'cashFlow';

/** Readable names of every numeric field of each statement, in FMP's order. */
export const LINE_LABELS: Readonly<Record<StatementKey, Readonly<Record<string, string>>>> = {
  income: {
    revenue: 'Revenue',
    costOfRevenue: 'Cost of revenue',
    grossProfit: 'Gross profit',
    researchAndDevelopmentExpenses: 'Research and development',
    generalAndAdministrativeExpenses: 'General and administrative',
    sellingAndMarketingExpenses: 'Selling and marketing',
    sellingGeneralAndAdministrativeExpenses: 'Selling, general and administrative',
    otherExpenses: 'Other operating expenses',
    operatingExpenses: 'Operating expenses',
    costAndExpenses: 'Cost and expenses',
    netInterestIncome: 'Net interest income',
    interestIncome: 'Interest income',
    interestExpense: 'Interest expense',
    depreciationAndAmortization: 'Depreciation and amortization',
    ebitda: 'EBITDA',
    ebit: 'EBIT',
    nonOperatingIncomeExcludingInterest: 'Non-operating income excluding interest',
    operatingIncome: 'Operating income',
    totalOtherIncomeExpensesNet: 'Total other income (expenses), net',
    incomeBeforeTax: 'Income before tax',
    incomeTaxExpense: 'Income tax expense',
    netIncomeFromContinuingOperations: 'Net income from continuing operations',
    netIncomeFromDiscontinuedOperations: 'Net income from discontinued operations',
    otherAdjustmentsToNetIncome: 'Other adjustments to net income',
    netIncome: 'Net income',
    netIncomeDeductions: 'Net income deductions',
    bottomLineNetIncome: 'Net income to common shareholders',
    eps: 'EPS',
    epsDiluted: 'EPS, diluted',
    weightedAverageShsOut: 'Weighted average shares',
    weightedAverageShsOutDil: 'Weighted average shares, diluted',
  },
  balance: {
    cashAndCashEquivalents: 'Cash and cash equivalents',
    shortTermInvestments: 'Short-term investments',
    cashAndShortTermInvestments: 'Cash and short-term investments',
    netReceivables: 'Net receivables',
    accountsReceivables: 'Accounts receivable',
    otherReceivables: 'Other receivables',
    inventory: 'Inventory',
    prepaids: 'Prepaid expenses',
    otherCurrentAssets: 'Other current assets',
    totalCurrentAssets: 'Total current assets',
    propertyPlantEquipmentNet: 'Property, plant and equipment, net',
    goodwill: 'Goodwill',
    intangibleAssets: 'Intangible assets',
    goodwillAndIntangibleAssets: 'Goodwill and intangible assets',
    longTermInvestments: 'Long-term investments',
    taxAssets: 'Deferred tax assets',
    otherNonCurrentAssets: 'Other non-current assets',
    totalNonCurrentAssets: 'Total non-current assets',
    otherAssets: 'Other assets',
    totalAssets: 'Total assets',
    totalPayables: 'Total payables',
    accountPayables: 'Accounts payable',
    otherPayables: 'Other payables',
    accruedExpenses: 'Accrued expenses',
    shortTermDebt: 'Short-term debt',
    capitalLeaseObligationsCurrent: 'Capital lease obligations, current',
    taxPayables: 'Taxes payable',
    deferredRevenue: 'Deferred revenue',
    otherCurrentLiabilities: 'Other current liabilities',
    totalCurrentLiabilities: 'Total current liabilities',
    longTermDebt: 'Long-term debt',
    capitalLeaseObligationsNonCurrent: 'Capital lease obligations, non-current',
    deferredRevenueNonCurrent: 'Deferred revenue, non-current',
    deferredTaxLiabilitiesNonCurrent: 'Deferred tax liabilities, non-current',
    otherNonCurrentLiabilities: 'Other non-current liabilities',
    totalNonCurrentLiabilities: 'Total non-current liabilities',
    otherLiabilities: 'Other liabilities',
    capitalLeaseObligations: 'Capital lease obligations',
    totalLiabilities: 'Total liabilities',
    treasuryStock: 'Treasury stock',
    preferredStock: 'Preferred stock',
    commonStock: 'Common stock',
    retainedEarnings: 'Retained earnings',
    additionalPaidInCapital: 'Additional paid-in capital',
    accumulatedOtherComprehensiveIncomeLoss: 'Accumulated other comprehensive income (loss)',
    otherTotalStockholdersEquity: 'Other shareholders’ equity',
    totalStockholdersEquity: 'Total shareholders’ equity',
    totalEquity: 'Total equity',
    minorityInterest: 'Minority interest',
    totalLiabilitiesAndTotalEquity: 'Total liabilities and equity',
    totalInvestments: 'Total investments',
    totalDebt: 'Total debt',
    netDebt: 'Net debt',
  },
  cashFlow: {
    netIncome: 'Net income',
    depreciationAndAmortization: 'Depreciation and amortization',
    deferredIncomeTax: 'Deferred income tax',
    stockBasedCompensation: 'Stock-based compensation',
    changeInWorkingCapital: 'Change in working capital',
    accountsReceivables: 'Change in accounts receivable',
    inventory: 'Change in inventory',
    accountsPayables: 'Change in accounts payable',
    otherWorkingCapital: 'Change in other working capital',
    otherNonCashItems: 'Other non-cash items',
    netCashProvidedByOperatingActivities: 'Cash from operating activities',
    investmentsInPropertyPlantAndEquipment: 'Investments in property, plant and equipment',
    acquisitionsNet: 'Acquisitions, net',
    purchasesOfInvestments: 'Purchases of investments',
    salesMaturitiesOfInvestments: 'Sales and maturities of investments',
    otherInvestingActivities: 'Other investing activities',
    netCashProvidedByInvestingActivities: 'Cash from investing activities',
    netDebtIssuance: 'Net debt issuance',
    longTermNetDebtIssuance: 'Net long-term debt issuance',
    shortTermNetDebtIssuance: 'Net short-term debt issuance',
    netStockIssuance: 'Net stock issuance',
    netCommonStockIssuance: 'Net common stock issuance',
    commonStockIssuance: 'Common stock issued',
    commonStockRepurchased: 'Common stock repurchased',
    netPreferredStockIssuance: 'Net preferred stock issuance',
    netDividendsPaid: 'Dividends paid',
    commonDividendsPaid: 'Common dividends paid',
    preferredDividendsPaid: 'Preferred dividends paid',
    otherFinancingActivities: 'Other financing activities',
    netCashProvidedByFinancingActivities: 'Cash from financing activities',
    effectOfForexChangesOnCash: 'Effect of exchange rates on cash',
    netChangeInCash: 'Net change in cash',
    cashAtEndOfPeriod: 'Cash at end of period',
    cashAtBeginningOfPeriod: 'Cash at beginning of period',
    operatingCashFlow: 'Operating cash flow',
    capitalExpenditure: 'Capital expenditure',
    freeCashFlow: 'Free cash flow',
    incomeTaxesPaid: 'Income taxes paid',
    interestPaid: 'Interest paid',
  },
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
};

/** Per-share lines read like prices (two decimals); every other line is an amount or a count. */
const PER_SHARE_LINES: ReadonlySet<string> = new Set(['eps', 'epsDiluted']);

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
