/**
 * FMP's financial statement fields, once: the identity fields every statement row starts with and the
 * numeric lines of the income statement, balance sheet and cash flow statement, each in FMP's order. The
 * data API's answers and documentation, the demo data generator, the importer's checks and the statement
 * pages' labels all derive from these lists, so a field is added, renamed or described in one place.
 * Browser code reads it too, so it imports nothing from the server.
 */

/** The three statements, keyed as a period's statements are (income, balance, cashFlow). */
export type StatementKey = 'income' | 'balance' | 'cashFlow';

/** What a line's number counts: money, money per share (read like a price) or a number of shares. */
export type LineUnit = 'amount' | 'perShare' | 'shares';

/** One numeric line of a statement: FMP's field name, the label pages show and the API documentation's text. */
export interface StatementLine<Name extends string = string> {
  readonly name: Name;
  readonly label: string;
  readonly description: string;
  readonly unit: LineUnit;
}

/** One identity field of a statement row (a string in every answer). */
export interface IdentityField<Name extends string = string> {
  readonly name: Name;
  readonly description: string;
  /** Whether an imported row is refused without it: these place the row (whose, which period, when). */
  readonly requiredInImport: boolean;
}

function amount<const Name extends string>(
  name: Name,
  label: string,
  description: string,
): StatementLine<Name> {
  return { name, label, description, unit: 'amount' };
}

function perShare<const Name extends string>(
  name: Name,
  label: string,
  description: string,
): StatementLine<Name> {
  return { name, label, description, unit: 'perShare' };
}

function shares<const Name extends string>(
  name: Name,
  label: string,
  description: string,
): StatementLine<Name> {
  return { name, label, description, unit: 'shares' };
}

/** The fields every statement row starts with, in FMP's order. */
export const IDENTITY_FIELDS = [
  { name: 'date', description: 'Period end date (YYYY-MM-DD)', requiredInImport: true },
  { name: 'symbol', description: 'Ticker symbol', requiredInImport: true },
  {
    name: 'reportedCurrency',
    description: 'Currency the statement is reported in (ISO 4217)',
    requiredInImport: false,
  },
  { name: 'cik', description: 'SEC Central Index Key of the filer', requiredInImport: false },
  { name: 'filingDate', description: 'Date the report was filed (YYYY-MM-DD)', requiredInImport: false },
  {
    name: 'acceptedDate',
    description: 'Date and time the filing was accepted (YYYY-MM-DD HH:mm:ss)',
    requiredInImport: false,
  },
  {
    name: 'fiscalYear',
    description: 'Fiscal year the period belongs to, e.g. "2024"',
    requiredInImport: true,
  },
  {
    name: 'period',
    description: 'Fiscal period: FY for a full year, Q1–Q4 for a quarter',
    requiredInImport: true,
  },
] as const satisfies readonly IdentityField[];

/** The income statement's lines after the identity fields, in FMP's order. */
export const INCOME_LINES = [
  amount('revenue', 'Revenue', 'Total revenue (net sales)'),
  amount('costOfRevenue', 'Cost of revenue', 'Cost of goods and services sold'),
  amount('grossProfit', 'Gross profit', 'Revenue minus cost of revenue'),
  amount('researchAndDevelopmentExpenses', 'Research and development', 'Research and development expenses'),
  amount(
    'generalAndAdministrativeExpenses',
    'General and administrative',
    'General and administrative expenses',
  ),
  amount('sellingAndMarketingExpenses', 'Selling and marketing', 'Selling and marketing expenses'),
  amount(
    'sellingGeneralAndAdministrativeExpenses',
    'Selling, general and administrative',
    'Selling, general and administrative expenses (SG&A)',
  ),
  amount('otherExpenses', 'Other operating expenses', 'Other operating expenses'),
  amount('operatingExpenses', 'Operating expenses', 'Total operating expenses (R&D, SG&A and other)'),
  amount('costAndExpenses', 'Cost and expenses', 'Cost of revenue plus operating expenses'),
  amount('netInterestIncome', 'Net interest income', 'Interest income minus interest expense'),
  amount('interestIncome', 'Interest income', 'Interest income'),
  amount('interestExpense', 'Interest expense', 'Interest expense'),
  amount('depreciationAndAmortization', 'Depreciation and amortization', 'Depreciation and amortization'),
  amount('ebitda', 'EBITDA', 'Earnings before interest, taxes, depreciation and amortization'),
  amount('ebit', 'EBIT', 'Earnings before interest and taxes'),
  amount(
    'nonOperatingIncomeExcludingInterest',
    'Non-operating income excluding interest',
    'Non-operating income other than interest',
  ),
  amount('operatingIncome', 'Operating income', 'Gross profit minus operating expenses'),
  amount(
    'totalOtherIncomeExpensesNet',
    'Total other income (expenses), net',
    'Net non-operating income and expenses',
  ),
  amount('incomeBeforeTax', 'Income before tax', 'Pre-tax income'),
  amount('incomeTaxExpense', 'Income tax expense', 'Income tax expense'),
  amount(
    'netIncomeFromContinuingOperations',
    'Net income from continuing operations',
    'Net income from continuing operations',
  ),
  amount(
    'netIncomeFromDiscontinuedOperations',
    'Net income from discontinued operations',
    'Net income from discontinued operations',
  ),
  amount('otherAdjustmentsToNetIncome', 'Other adjustments to net income', 'Other adjustments to net income'),
  amount('netIncome', 'Net income', 'Net income'),
  amount(
    'netIncomeDeductions',
    'Net income deductions',
    'Deductions from net income (e.g. preferred dividends, minority interest)',
  ),
  amount(
    'bottomLineNetIncome',
    'Net income to common shareholders',
    'Net income attributable to common shareholders',
  ),
  perShare('eps', 'EPS', 'Basic earnings per share'),
  perShare('epsDiluted', 'EPS, diluted', 'Diluted earnings per share'),
  shares('weightedAverageShsOut', 'Weighted average shares', 'Weighted average basic shares outstanding'),
  shares(
    'weightedAverageShsOutDil',
    'Weighted average shares, diluted',
    'Weighted average diluted shares outstanding',
  ),
] as const;

/** The balance sheet's lines after the identity fields, in FMP's order. */
export const BALANCE_LINES = [
  amount('cashAndCashEquivalents', 'Cash and cash equivalents', 'Cash and cash equivalents'),
  amount('shortTermInvestments', 'Short-term investments', 'Short-term investments (marketable securities)'),
  amount(
    'cashAndShortTermInvestments',
    'Cash and short-term investments',
    'Cash, cash equivalents and short-term investments',
  ),
  amount('netReceivables', 'Net receivables', 'Net receivables'),
  amount('accountsReceivables', 'Accounts receivable', 'Trade accounts receivable'),
  amount('otherReceivables', 'Other receivables', 'Other receivables'),
  amount('inventory', 'Inventory', 'Inventories'),
  amount('prepaids', 'Prepaid expenses', 'Prepaid expenses'),
  amount('otherCurrentAssets', 'Other current assets', 'Other current assets'),
  amount('totalCurrentAssets', 'Total current assets', 'Total current assets'),
  amount(
    'propertyPlantEquipmentNet',
    'Property, plant and equipment, net',
    'Property, plant and equipment, net of depreciation',
  ),
  amount('goodwill', 'Goodwill', 'Goodwill'),
  amount('intangibleAssets', 'Intangible assets', 'Intangible assets other than goodwill'),
  amount('goodwillAndIntangibleAssets', 'Goodwill and intangible assets', 'Goodwill plus intangible assets'),
  amount('longTermInvestments', 'Long-term investments', 'Long-term investments'),
  amount('taxAssets', 'Deferred tax assets', 'Deferred tax assets'),
  amount('otherNonCurrentAssets', 'Other non-current assets', 'Other non-current assets'),
  amount('totalNonCurrentAssets', 'Total non-current assets', 'Total non-current assets'),
  amount('otherAssets', 'Other assets', 'Other assets'),
  amount('totalAssets', 'Total assets', 'Total assets'),
  amount('totalPayables', 'Total payables', 'Total payables'),
  amount('accountPayables', 'Accounts payable', 'Trade accounts payable'),
  amount('otherPayables', 'Other payables', 'Other payables'),
  amount('accruedExpenses', 'Accrued expenses', 'Accrued expenses'),
  amount('shortTermDebt', 'Short-term debt', 'Short-term debt and current portion of long-term debt'),
  amount(
    'capitalLeaseObligationsCurrent',
    'Capital lease obligations, current',
    'Current capital (finance) lease obligations',
  ),
  amount('taxPayables', 'Taxes payable', 'Taxes payable'),
  amount('deferredRevenue', 'Deferred revenue', 'Current deferred revenue'),
  amount('otherCurrentLiabilities', 'Other current liabilities', 'Other current liabilities'),
  amount('totalCurrentLiabilities', 'Total current liabilities', 'Total current liabilities'),
  amount('longTermDebt', 'Long-term debt', 'Long-term debt'),
  amount(
    'capitalLeaseObligationsNonCurrent',
    'Capital lease obligations, non-current',
    'Non-current capital (finance) lease obligations',
  ),
  amount('deferredRevenueNonCurrent', 'Deferred revenue, non-current', 'Non-current deferred revenue'),
  amount(
    'deferredTaxLiabilitiesNonCurrent',
    'Deferred tax liabilities, non-current',
    'Non-current deferred tax liabilities',
  ),
  amount('otherNonCurrentLiabilities', 'Other non-current liabilities', 'Other non-current liabilities'),
  amount('totalNonCurrentLiabilities', 'Total non-current liabilities', 'Total non-current liabilities'),
  amount('otherLiabilities', 'Other liabilities', 'Other liabilities'),
  amount('capitalLeaseObligations', 'Capital lease obligations', 'Total capital (finance) lease obligations'),
  amount('totalLiabilities', 'Total liabilities', 'Total liabilities'),
  amount('treasuryStock', 'Treasury stock', 'Treasury stock'),
  amount('preferredStock', 'Preferred stock', 'Preferred stock'),
  amount('commonStock', 'Common stock', 'Common stock at par'),
  amount('retainedEarnings', 'Retained earnings', 'Retained earnings (accumulated deficit)'),
  amount('additionalPaidInCapital', 'Additional paid-in capital', 'Additional paid-in capital'),
  amount(
    'accumulatedOtherComprehensiveIncomeLoss',
    'Accumulated other comprehensive income (loss)',
    'Accumulated other comprehensive income (loss)',
  ),
  amount('otherTotalStockholdersEquity', 'Other shareholders’ equity', 'Other stockholders’ equity'),
  amount('totalStockholdersEquity', 'Total shareholders’ equity', 'Total stockholders’ equity'),
  amount('totalEquity', 'Total equity', 'Total equity including minority interest'),
  amount('minorityInterest', 'Minority interest', 'Minority (non-controlling) interest'),
  amount(
    'totalLiabilitiesAndTotalEquity',
    'Total liabilities and equity',
    'Total liabilities plus total equity (equals total assets)',
  ),
  amount('totalInvestments', 'Total investments', 'Short-term plus long-term investments'),
  amount('totalDebt', 'Total debt', 'Short-term plus long-term debt'),
  amount('netDebt', 'Net debt', 'Total debt minus cash and cash equivalents'),
] as const;

/** The cash flow statement's lines after the identity fields, in FMP's order (outflows are negative). */
export const CASH_FLOW_LINES = [
  amount('netIncome', 'Net income', 'Net income (as on the income statement)'),
  amount(
    'depreciationAndAmortization',
    'Depreciation and amortization',
    'Depreciation and amortization added back',
  ),
  amount('deferredIncomeTax', 'Deferred income tax', 'Deferred income taxes'),
  amount('stockBasedCompensation', 'Stock-based compensation', 'Stock-based compensation added back'),
  amount('changeInWorkingCapital', 'Change in working capital', 'Change in working capital'),
  amount('accountsReceivables', 'Change in accounts receivable', 'Change in accounts receivable'),
  amount('inventory', 'Change in inventory', 'Change in inventories'),
  amount('accountsPayables', 'Change in accounts payable', 'Change in accounts payable'),
  amount('otherWorkingCapital', 'Change in other working capital', 'Change in other working capital'),
  amount('otherNonCashItems', 'Other non-cash items', 'Other non-cash items'),
  amount(
    'netCashProvidedByOperatingActivities',
    'Cash from operating activities',
    'Net cash from operating activities',
  ),
  amount(
    'investmentsInPropertyPlantAndEquipment',
    'Investments in property, plant and equipment',
    'Purchases of property, plant and equipment (negative)',
  ),
  amount('acquisitionsNet', 'Acquisitions, net', 'Acquisitions, net of cash acquired'),
  amount('purchasesOfInvestments', 'Purchases of investments', 'Purchases of investments (negative)'),
  amount(
    'salesMaturitiesOfInvestments',
    'Sales and maturities of investments',
    'Sales and maturities of investments',
  ),
  amount('otherInvestingActivities', 'Other investing activities', 'Other investing activities'),
  amount(
    'netCashProvidedByInvestingActivities',
    'Cash from investing activities',
    'Net cash from investing activities',
  ),
  amount('netDebtIssuance', 'Net debt issuance', 'Debt issued minus debt repaid'),
  amount('longTermNetDebtIssuance', 'Net long-term debt issuance', 'Net long-term debt issuance'),
  amount('shortTermNetDebtIssuance', 'Net short-term debt issuance', 'Net short-term debt issuance'),
  amount('netStockIssuance', 'Net stock issuance', 'Stock issued minus stock repurchased'),
  amount('netCommonStockIssuance', 'Net common stock issuance', 'Net common stock issuance'),
  amount('commonStockIssuance', 'Common stock issued', 'Common stock issued'),
  amount('commonStockRepurchased', 'Common stock repurchased', 'Common stock repurchased (negative)'),
  amount('netPreferredStockIssuance', 'Net preferred stock issuance', 'Net preferred stock issuance'),
  amount('netDividendsPaid', 'Dividends paid', 'Dividends paid, common and preferred (negative)'),
  amount('commonDividendsPaid', 'Common dividends paid', 'Common dividends paid (negative)'),
  amount('preferredDividendsPaid', 'Preferred dividends paid', 'Preferred dividends paid (negative)'),
  amount('otherFinancingActivities', 'Other financing activities', 'Other financing activities'),
  amount(
    'netCashProvidedByFinancingActivities',
    'Cash from financing activities',
    'Net cash from financing activities',
  ),
  amount(
    'effectOfForexChangesOnCash',
    'Effect of exchange rates on cash',
    'Effect of exchange rate changes on cash',
  ),
  amount('netChangeInCash', 'Net change in cash', 'Net change in cash over the period'),
  amount('cashAtEndOfPeriod', 'Cash at end of period', 'Cash at the end of the period'),
  amount('cashAtBeginningOfPeriod', 'Cash at beginning of period', 'Cash at the beginning of the period'),
  amount('operatingCashFlow', 'Operating cash flow', 'Operating cash flow'),
  amount('capitalExpenditure', 'Capital expenditure', 'Capital expenditure (negative)'),
  amount('freeCashFlow', 'Free cash flow', 'Operating cash flow plus capital expenditure'),
  amount('incomeTaxesPaid', 'Income taxes paid', 'Income taxes paid'),
  amount('interestPaid', 'Interest paid', 'Interest paid'),
] as const;

/** Each statement's lines, in FMP's order. */
export const STATEMENT_LINES = {
  income: INCOME_LINES,
  balance: BALANCE_LINES,
  cashFlow: CASH_FLOW_LINES,
} as const satisfies Readonly<Record<StatementKey, readonly StatementLine[]>>;

/** The name of an identity field. */
export type IdentityFieldName = (typeof IDENTITY_FIELDS)[number]['name'];

/** The name of a line of the given statement. */
export type LineName<K extends StatementKey> = (typeof STATEMENT_LINES)[K][number]['name'];

/** An income statement line's field name. */
export type IncomeLineName = LineName<'income'>;
/** A balance sheet line's field name. */
export type BalanceLineName = LineName<'balance'>;
/** A cash flow statement line's field name. */
export type CashFlowLineName = LineName<'cashFlow'>;

/** The field names of a statement's lines, in FMP's order: what generators and fixtures fill in. */
export function lineNames<K extends StatementKey>(statement: K): LineName<K>[] {
  const lines: readonly StatementLine<LineName<K>>[] = STATEMENT_LINES[statement];
  return lines.map((line) => line.name);
}

/** The identity fields an imported statement row must carry; the importer says how each is checked. */
export type ImportRequiredField = Extract<
  (typeof IDENTITY_FIELDS)[number],
  { requiredInImport: true }
>['name'];

/** The identity part of a statement row as FMP's stable API serves it. */
export type StatementIdentity = Record<IdentityFieldName, string>;

/** One income statement row, exactly as FMP's stable API serves it. */
export type IncomeStatement = StatementIdentity & Record<IncomeLineName, number>;

/** One balance sheet row, exactly as FMP's stable API serves it. */
export type BalanceSheet = StatementIdentity & Record<BalanceLineName, number>;

/** One cash flow statement row, exactly as FMP's stable API serves it (outflows are negative). */
export type CashFlowStatement = StatementIdentity & Record<CashFlowLineName, number>;
