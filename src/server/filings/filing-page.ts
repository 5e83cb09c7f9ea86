import { and, eq } from 'drizzle-orm';
import { symbolPath } from '../../lib/symbol-routes.ts';
import type { Db } from '../db/client.ts';
import { financialStatements, institutionalHoldings, secFilings, securities } from '../db/schema.ts';
import { nportPositions } from '../services/market-data/fund-disclosures.ts';
import { loadPositions } from '../services/market-data/thirteen-f.ts';

/**
 * The view model of a filing's page (/filings/<accession number>): what the filing is, who filed it and
 * when, and what it reports — the period's statement figures for a 10-K or 10-Q, the holdings of a 13F
 * report or of a fund's N-PORT. Everything the page shows is read here; the page only renders it.
 */

/** One labelled figure of a statement. */
export interface FilingFigure {
  label: string;
  value: number | null;
}

/** A group of figures (income statement, balance sheet, cash flow). */
export interface FilingStatement {
  title: string;
  figures: FilingFigure[];
}

/** One holding of a 13F report or an N-PORT (value at the period end's close, in US dollars). */
export interface FilingHolding {
  symbol: string;
  name: string;
  shares: number;
  value: number;
}

export interface FilingPageView {
  id: string;
  formType: string;
  formName: string;
  description: string;
  companyName: string;
  cik: string;
  /** The company's symbol page, when the filer is a listed company in the data set. */
  symbolHref: string | null;
  symbol: string;
  filingDate: string;
  acceptedDate: string;
  periodEnd: string | null;
  /** 'FY 2026' or 'Q2 2026' for a 10-K or 10-Q. */
  fiscalPeriod: string | null;
  currency: string;
  statements: FilingStatement[];
  holdings: FilingHolding[];
}

const FORM_NAMES: Readonly<Record<string, string>> = {
  '10-K': 'Annual report',
  '10-Q': 'Quarterly report',
  '8-K': 'Current report',
  '4': 'Statement of changes in beneficial ownership',
  '13F-HR': 'Institutional holdings report',
  'NPORT-P': 'Portfolio holdings report of a fund (Form N-PORT)',
  'SC 13G/A': 'Beneficial ownership report (amendment)',
  'S-1': 'Registration statement',
  C: 'Offering statement (Regulation Crowdfunding)',
  'C/A': 'Offering statement amendment (Regulation Crowdfunding)',
  D: 'Notice of exempt offering of securities',
  'D/A': 'Notice of exempt offering of securities (amendment)',
};

const STATEMENT_LINES: readonly (readonly [
  statement: 'income' | 'balance-sheet' | 'cash-flow',
  title: string,
  lines: readonly (readonly [string, string])[],
])[] = [
  [
    'income',
    'Income statement',
    [
      ['revenue', 'Revenue'],
      ['grossProfit', 'Gross profit'],
      ['operatingIncome', 'Operating income'],
      ['netIncome', 'Net income'],
      ['epsDiluted', 'Diluted EPS'],
    ],
  ],
  [
    'balance-sheet',
    'Balance sheet',
    [
      ['cashAndCashEquivalents', 'Cash and cash equivalents'],
      ['totalAssets', 'Total assets'],
      ['totalLiabilities', 'Total liabilities'],
      ['totalStockholdersEquity', 'Stockholders’ equity'],
    ],
  ],
  [
    'cash-flow',
    'Cash flow statement',
    [
      ['operatingCashFlow', 'Operating cash flow'],
      ['capitalExpenditure', 'Capital expenditure'],
      ['freeCashFlow', 'Free cash flow'],
    ],
  ],
];

/** Accession numbers as the filings carry them: ten digits, two, six. */
const ACCESSION = /^\d{10}-\d{2}-\d{6}$/;

async function statementsOf(
  db: Db,
  symbol: string,
  fiscalYear: number,
  period: string,
): Promise<FilingStatement[]> {
  const rows = await db
    .select({ statement: financialStatements.statement, data: financialStatements.data })
    .from(financialStatements)
    .where(
      and(
        eq(financialStatements.symbol, symbol),
        eq(financialStatements.fiscalYear, fiscalYear),
        eq(financialStatements.period, period as 'FY'),
      ),
    );
  return STATEMENT_LINES.flatMap(([statement, title, lines]) => {
    const data = rows.find((r) => r.statement === statement)?.data;
    if (!data) return [];
    return [
      {
        title,
        figures: lines.map(([key, label]) => {
          const value = data[key];
          return { label, value: typeof value === 'number' ? value : null };
        }),
      },
    ];
  });
}

/** The page of a filing, or null for an id that names no filing. */
export async function loadFilingPage(db: Db, id: string): Promise<FilingPageView | null> {
  if (!ACCESSION.test(id)) return null;
  const [filing] = await db.select().from(secFilings).where(eq(secFilings.id, id)).limit(1);
  if (!filing) return null;
  const [security] =
    filing.symbol === ''
      ? []
      : await db
          .select({ symbol: securities.symbol, currency: securities.currency })
          .from(securities)
          .where(eq(securities.symbol, filing.symbol))
          .limit(1);
  const withStatements =
    (filing.formType === '10-K' || filing.formType === '10-Q') &&
    filing.fiscalYear !== null &&
    filing.period !== null;
  const statements =
    withStatements && security
      ? await statementsOf(db, security.symbol, filing.fiscalYear ?? 0, filing.period ?? 'FY')
      : [];
  const holdings =
    filing.formType === '13F-HR'
      ? (await loadPositions(db, eq(institutionalHoldings.filingId, filing.id)))
          .sort((a, b) => b.value - a.value)
          .map((p) => ({ symbol: p.symbol, name: p.securityName, shares: p.shares, value: p.value }))
      : filing.formType === 'NPORT-P' && filing.periodEnd !== null
        ? (
            await nportPositions(db, {
              fund: filing.symbol,
              cik: filing.cik,
              date: filing.periodEnd,
              filingId: filing.id,
              acceptedDate: filing.acceptedDate,
            })
          ).map((p) => ({
            symbol: p.asset.symbol,
            name: p.asset.name,
            shares: p.shares,
            value: Math.round(p.valueUsd * 100) / 100,
          }))
        : [];
  return {
    id: filing.id,
    formType: filing.formType,
    formName: FORM_NAMES[filing.formType] ?? 'Filing',
    description: filing.description,
    companyName: filing.companyName,
    cik: filing.cik,
    symbol: filing.symbol,
    symbolHref: security ? symbolPath('financial-summary', security.symbol) : null,
    filingDate: filing.filingDate,
    acceptedDate: filing.acceptedDate,
    periodEnd: filing.periodEnd,
    fiscalPeriod: withStatements ? `${filing.period ?? ''} ${String(filing.fiscalYear ?? '')}` : null,
    currency: security?.currency ?? 'USD',
    statements,
    holdings,
  };
}
