import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { BALANCE_LINES, CASH_FLOW_LINES, INCOME_LINES } from '../../../lib/statement-fields.ts';
import type { Db } from '../../db/client.ts';
import { financialStatements, securities, type FiscalPeriod, type StatementType } from '../../db/schema.ts';
import {
  periodsFor,
  projectRow,
  STATEMENT_FIELDS,
  statementSets,
  type ApiRow,
  type PeriodSelector,
} from './statements.ts';

/**
 * What is read off the filed statements as filings rather than as figures: the latest filings, the
 * symbols that have statements, the statements keyed the way the filings tag them (as reported), and
 * the annual or quarterly report as one document with the links to it.
 */

// ---------------------------------------------------------------------------------------------------------
// Latest filings and the symbols with statements

/** One filing of `latest-financial-statements`. */
export interface LatestStatementRow {
  symbol: string;
  calendarYear: number;
  period: string;
  date: string;
  dateAdded: string;
}

/**
 * The latest filed periods of every company, newest filing first (by the time the filing was
 * accepted, the income statement's acceptedDate), paged.
 */
export async function latestStatementRows(
  db: Db,
  page: number,
  limit: number,
): Promise<LatestStatementRow[]> {
  const accepted = sql<string>`coalesce(${financialStatements.data}->>'acceptedDate', ${financialStatements.date}::text || ' 00:00:00')`;
  const rows = await db
    .select({
      symbol: financialStatements.symbol,
      fiscalYear: financialStatements.fiscalYear,
      period: financialStatements.period,
      date: financialStatements.date,
      dateAdded: accepted,
    })
    .from(financialStatements)
    .where(eq(financialStatements.statement, 'income'))
    .orderBy(desc(accepted), asc(financialStatements.symbol), desc(financialStatements.period))
    .limit(limit)
    .offset(page * limit);
  return rows.map((row) => ({
    symbol: row.symbol,
    calendarYear: row.fiscalYear,
    period: row.period,
    date: row.date,
    dateAdded: row.dateAdded,
  }));
}

/** One symbol of `financial-statement-symbol-list`. */
export interface StatementSymbolRow {
  symbol: string;
  companyName: string;
  tradingCurrency: string;
  reportingCurrency: string;
}

/** Every symbol with stored statements, alphabetically, with the currency it reports in (its latest statement's). */
export async function statementSymbolRows(db: Db): Promise<StatementSymbolRow[]> {
  const rows = await db
    .selectDistinctOn([financialStatements.symbol], {
      symbol: financialStatements.symbol,
      companyName: securities.name,
      tradingCurrency: securities.currency,
      reportingCurrency: sql<string | null>`${financialStatements.data}->>'reportedCurrency'`,
    })
    .from(financialStatements)
    .innerJoin(securities, eq(securities.symbol, financialStatements.symbol))
    .where(eq(financialStatements.statement, 'income'))
    .orderBy(asc(financialStatements.symbol), desc(financialStatements.date));
  return rows.map((row) => ({
    symbol: row.symbol,
    companyName: row.companyName,
    tradingCurrency: row.tradingCurrency,
    reportingCurrency: row.reportingCurrency ?? row.tradingCurrency,
  }));
}

// ---------------------------------------------------------------------------------------------------------
// As reported

/**
 * The XBRL concept (US GAAP taxonomy, lower-cased as FMP's as-reported rows write it) each stored line
 * is tagged with in a filing. Written once: the as-reported endpoints and the report documents read it.
 * A line without a concept of its own keeps its name, lower-cased.
 */
const XBRL_CONCEPTS: Readonly<Record<string, string>> = {
  // income statement
  revenue: 'revenuefromcontractwithcustomerexcludingassessedtax',
  costOfRevenue: 'costofgoodsandservicessold',
  grossProfit: 'grossprofit',
  researchAndDevelopmentExpenses: 'researchanddevelopmentexpense',
  generalAndAdministrativeExpenses: 'generalandadministrativeexpense',
  sellingAndMarketingExpenses: 'sellingandmarketingexpense',
  sellingGeneralAndAdministrativeExpenses: 'sellinggeneralandadministrativeexpense',
  otherExpenses: 'otheroperatingincomeexpensenet',
  operatingExpenses: 'operatingexpenses',
  costAndExpenses: 'costsandexpenses',
  netInterestIncome: 'interestincomeexpensenet',
  interestIncome: 'investmentincomeinterest',
  interestExpense: 'interestexpense',
  depreciationAndAmortization: 'depreciationdepletionandamortization',
  operatingIncome: 'operatingincomeloss',
  nonOperatingIncomeExcludingInterest: 'othernonoperatingincomeexpense',
  totalOtherIncomeExpensesNet: 'nonoperatingincomeexpense',
  incomeBeforeTax:
    'incomelossfromcontinuingoperationsbeforeincometaxesextraordinaryitemsnoncontrollinginterest',
  incomeTaxExpense: 'incometaxexpensebenefit',
  netIncomeFromContinuingOperations: 'incomelossfromcontinuingoperations',
  netIncomeFromDiscontinuedOperations: 'incomelossfromdiscontinuedoperationsnetoftax',
  netIncome: 'netincomeloss',
  bottomLineNetIncome: 'netincomelossavailabletocommonstockholdersbasic',
  eps: 'earningspersharebasic',
  epsDiluted: 'earningspersharediluted',
  weightedAverageShsOut: 'weightedaveragenumberofsharesoutstandingbasic',
  weightedAverageShsOutDil: 'weightedaveragenumberofdilutedsharesoutstanding',
  // balance sheet
  cashAndCashEquivalents: 'cashandcashequivalentsatcarryingvalue',
  shortTermInvestments: 'marketablesecuritiescurrent',
  cashAndShortTermInvestments: 'cashcashequivalentsandshortterminvestments',
  netReceivables: 'receivablesnetcurrent',
  accountsReceivables: 'accountsreceivablenetcurrent',
  otherReceivables: 'nontradereceivablescurrent',
  inventory: 'inventorynet',
  prepaids: 'prepaidexpensecurrent',
  otherCurrentAssets: 'otherassetscurrent',
  totalCurrentAssets: 'assetscurrent',
  propertyPlantEquipmentNet: 'propertyplantandequipmentnet',
  goodwill: 'goodwill',
  intangibleAssets: 'intangibleassetsnetexcludinggoodwill',
  longTermInvestments: 'marketablesecuritiesnoncurrent',
  taxAssets: 'deferredincometaxassetsnet',
  otherNonCurrentAssets: 'otherassetsnoncurrent',
  totalNonCurrentAssets: 'assetsnoncurrent',
  totalAssets: 'assets',
  accountPayables: 'accountspayablecurrent',
  accruedExpenses: 'accruedliabilitiescurrent',
  shortTermDebt: 'debtcurrent',
  taxPayables: 'taxespayablecurrent',
  deferredRevenue: 'contractwithcustomerliabilitycurrent',
  otherCurrentLiabilities: 'otherliabilitiescurrent',
  totalCurrentLiabilities: 'liabilitiescurrent',
  longTermDebt: 'longtermdebtnoncurrent',
  deferredRevenueNonCurrent: 'contractwithcustomerliabilitynoncurrent',
  deferredTaxLiabilitiesNonCurrent: 'deferredincometaxliabilitiesnet',
  otherNonCurrentLiabilities: 'otherliabilitiesnoncurrent',
  totalNonCurrentLiabilities: 'liabilitiesnoncurrent',
  totalLiabilities: 'liabilities',
  treasuryStock: 'treasurystockvalue',
  preferredStock: 'preferredstockvalue',
  commonStock: 'commonstockvalue',
  retainedEarnings: 'retainedearningsaccumulateddeficit',
  additionalPaidInCapital: 'additionalpaidincapital',
  accumulatedOtherComprehensiveIncomeLoss: 'accumulatedothercomprehensiveincomelossnetoftax',
  totalStockholdersEquity: 'stockholdersequity',
  minorityInterest: 'minorityinterest',
  totalEquity: 'stockholdersequityincludingportionattributabletononcontrollinginterest',
  totalLiabilitiesAndTotalEquity: 'liabilitiesandstockholdersequity',
  // cash flow statement
  deferredIncomeTax: 'deferredincometaxexpensebenefit',
  stockBasedCompensation: 'sharebasedcompensation',
  changeInWorkingCapital: 'increasedecreaseinoperatingcapital',
  accountsPayables: 'increasedecreaseinaccountspayable',
  otherWorkingCapital: 'increasedecreaseinotheroperatingcapitalnet',
  otherNonCashItems: 'othernoncashincomeexpense',
  netCashProvidedByOperatingActivities: 'netcashprovidedbyusedinoperatingactivities',
  investmentsInPropertyPlantAndEquipment: 'paymentstoacquirepropertyplantandequipment',
  acquisitionsNet: 'paymentstoacquirebusinessesnetofcashacquired',
  purchasesOfInvestments: 'paymentstoacquireinvestments',
  salesMaturitiesOfInvestments: 'proceedsfromsalematurityandcollectionsofinvestments',
  otherInvestingActivities: 'paymentsforproceedsfromotherinvestingactivities',
  netCashProvidedByInvestingActivities: 'netcashprovidedbyusedininvestingactivities',
  netDebtIssuance: 'proceedsfromrepaymentsofdebt',
  longTermNetDebtIssuance: 'proceedsfromrepaymentsoflongtermdebt',
  shortTermNetDebtIssuance: 'proceedsfromrepaymentsofshorttermdebt',
  commonStockIssuance: 'proceedsfromissuanceofcommonstock',
  commonStockRepurchased: 'paymentsforrepurchaseofcommonstock',
  netDividendsPaid: 'paymentsofdividends',
  commonDividendsPaid: 'paymentsofdividendscommonstock',
  preferredDividendsPaid: 'paymentsofdividendspreferredstock',
  otherFinancingActivities: 'proceedsfrompaymentsforotherfinancingactivities',
  netCashProvidedByFinancingActivities: 'netcashprovidedbyusedinfinancingactivities',
  effectOfForexChangesOnCash: 'effectofexchangerateoncashcashequivalents',
  netChangeInCash: 'cashcashequivalentsperiodincreasedecrease',
  cashAtEndOfPeriod: 'cashcashequivalentsrestrictedcashandrestrictedcashequivalents',
  incomeTaxesPaid: 'incometaxespaidnet',
  interestPaid: 'interestpaidnet',
};

/** The XBRL-style key a stored line is reported under. */
export function xbrlKey(line: string): string {
  return XBRL_CONCEPTS[line] ?? line.toLowerCase();
}

const LINES_OF: Readonly<Record<StatementType, readonly { name: string; label: string }[]>> = {
  income: INCOME_LINES,
  'balance-sheet': BALANCE_LINES,
  'cash-flow': CASH_FLOW_LINES,
};

/** One `*-as-reported` row. */
export interface AsReportedRow {
  symbol: string;
  fiscalYear: number;
  period: string;
  reportedCurrency: string;
  date: string;
  data: Record<string, number>;
}

/** A statement's lines under their XBRL keys (a key already taken keeps its first value). */
function reportedData(
  row: ApiRow,
  type: StatementType,
  into: Record<string, number> = {},
): Record<string, number> {
  for (const line of LINES_OF[type]) {
    const key = xbrlKey(line.name);
    const value = row[line.name];
    if (!(key in into) && typeof value === 'number') into[key] = value;
  }
  return into;
}

/**
 * `income-statement-as-reported` and its siblings (`full` for all three statements in one `data`),
 * newest period first: the stored lines keyed the way the filings tag them.
 */
export async function asReportedRows(
  db: Db,
  type: StatementType | 'full',
  query: { symbol: string; period: PeriodSelector; limit: number },
): Promise<AsReportedRow[]> {
  const types: StatementType[] = type === 'full' ? ['income', 'balance-sheet', 'cash-flow'] : [type];
  const stored = await db
    .select({
      statement: financialStatements.statement,
      fiscalYear: financialStatements.fiscalYear,
      period: financialStatements.period,
      date: financialStatements.date,
      data: financialStatements.data,
    })
    .from(financialStatements)
    .where(
      and(
        eq(financialStatements.symbol, query.symbol),
        inArray(financialStatements.statement, types),
        inArray(financialStatements.period, periodsFor(query.period)),
      ),
    )
    .orderBy(desc(financialStatements.date), desc(financialStatements.period));
  const rows = new Map<string, AsReportedRow>();
  for (const statement of types) {
    for (const entry of stored.filter((candidate) => candidate.statement === statement)) {
      const key = `${String(entry.fiscalYear)}-${entry.period}`;
      const projected = projectRow(entry.data, STATEMENT_FIELDS[statement]);
      let row = rows.get(key);
      if (row === undefined) {
        row = {
          symbol: query.symbol,
          fiscalYear: entry.fiscalYear,
          period: entry.period,
          reportedCurrency: String(projected.reportedCurrency ?? ''),
          date: entry.date,
          data: {},
        };
        rows.set(key, row);
      }
      reportedData(projected, statement, row.data);
    }
  }
  return [...rows.values()]
    .sort((a, b) => (a.date === b.date ? 0 : a.date < b.date ? 1 : -1))
    .slice(0, query.limit);
}

// ---------------------------------------------------------------------------------------------------------
// Reports

/** One row of `financial-reports-dates`. */
export interface ReportDateRow {
  symbol: string;
  fiscalYear: number;
  period: string;
  linkXlsx: string;
  linkJson: string;
}

/** Every period a symbol has a report for (all three statements filed), newest first, with its links. */
export async function reportDateRows(db: Db, symbol: string, apiUrl: string): Promise<ReportDateRow[]> {
  const [years, quarters] = await Promise.all([
    statementSets(db, symbol, 'annual', 100),
    statementSets(db, symbol, 'quarter', 400),
  ]);
  return [...years, ...quarters]
    .sort((a, b) => (a.date === b.date ? (a.period === 'FY' ? -1 : 1) : a.date < b.date ? 1 : -1))
    .map((set) => {
      const query = `symbol=${encodeURIComponent(symbol)}&year=${String(set.fiscalYear)}&period=${set.period}`;
      return {
        symbol,
        fiscalYear: set.fiscalYear,
        period: set.period,
        linkXlsx: `${apiUrl}/stable/financial-reports-xlsx?${query}`,
        linkJson: `${apiUrl}/stable/financial-reports-json?${query}`,
      };
    });
}

/** The sections of a report document, each an ordered list of {label: [value]} lines as FMP writes them. */
export const REPORT_SECTIONS = {
  cover: 'Cover Page',
  income: 'CONSOLIDATED STATEMENTS OF OPERATIONS',
  balance: 'CONSOLIDATED BALANCE SHEETS',
  cashFlow: 'CONSOLIDATED STATEMENTS OF CASH FLOWS',
} as const;

/** One report line: its label and the period's value (FMP writes each value in a one-element list). */
export type ReportLine = Record<string, (string | number)[]>;

/** A `financial-reports-json` document. */
export interface ReportDocument {
  symbol: string;
  period: string;
  year: string;
  'Cover Page': ReportLine[];
  'CONSOLIDATED STATEMENTS OF OPERATIONS': ReportLine[];
  'CONSOLIDATED BALANCE SHEETS': ReportLine[];
  'CONSOLIDATED STATEMENTS OF CASH FLOWS': ReportLine[];
}

function reportLines(row: ApiRow, type: StatementType): ReportLine[] {
  return LINES_OF[type].map((line) => ({
    [line.label]: [typeof row[line.name] === 'number' ? (row[line.name] as number) : 0],
  }));
}

/**
 * The report of one fiscal period as FMP's 10-K/10-Q JSON: a cover page (who filed what, for which
 * period, when) and the three statements, each line under its label; [] when the period is not stored.
 */
export async function reportDocument(
  db: Db,
  symbol: string,
  year: number,
  period: FiscalPeriod,
  companyName: string,
): Promise<ReportDocument[]> {
  const stored = await db
    .select({ statement: financialStatements.statement, data: financialStatements.data })
    .from(financialStatements)
    .where(
      and(
        eq(financialStatements.symbol, symbol),
        eq(financialStatements.fiscalYear, year),
        eq(financialStatements.period, period),
      ),
    );
  const byType = new Map(stored.map((row) => [row.statement, row.data]));
  const income = byType.get('income');
  const balance = byType.get('balance-sheet');
  const cashFlow = byType.get('cash-flow');
  if (income === undefined || balance === undefined || cashFlow === undefined) return [];
  const incomeRow = projectRow(income, STATEMENT_FIELDS.income);
  const text = (name: string): string => String(incomeRow[name] ?? '');
  return [
    {
      symbol,
      period,
      year: String(year),
      [REPORT_SECTIONS.cover]: [
        { 'Document Type': [period === 'FY' ? '10-K' : '10-Q'] },
        { 'Document Period End Date': [text('date')] },
        { 'Document Fiscal Year Focus': [String(year)] },
        { 'Document Fiscal Period Focus': [period] },
        { 'Entity Registrant Name': [companyName] },
        { 'Entity Central Index Key': [text('cik')] },
        { 'Trading Symbol': [symbol] },
        { 'Filing Date': [text('filingDate')] },
        { 'Reported Currency': [text('reportedCurrency')] },
      ],
      [REPORT_SECTIONS.income]: reportLines(incomeRow, 'income'),
      [REPORT_SECTIONS.balance]: reportLines(
        projectRow(balance, STATEMENT_FIELDS['balance-sheet']),
        'balance-sheet',
      ),
      [REPORT_SECTIONS.cashFlow]: reportLines(
        projectRow(cashFlow, STATEMENT_FIELDS['cash-flow']),
        'cash-flow',
      ),
    },
  ];
}
