import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { beneficialOwnership, houseTrades, insiderTrades, senateTrades } from '../../db/schema.ts';
import { INSIDER_TRADE_FIELDS, SENATE_TRADE_FIELDS, type PageQuery } from './alternative.ts';
import { filingPageUrl, fullCik } from './sec-filings.ts';
import { projectRow, type ApiRow, type FieldSpec } from './statements.ts';

/**
 * What insiders and members of Congress trade, searched: Form 4 trades by company, insider and
 * transaction type, per-quarter insider statistics computed from the trades, Schedule 13D/G filings, and
 * senators' and House members' disclosures by symbol or name.
 */

/** The SEC's Form 4 transaction codes, as FMP writes them. */
export const TRANSACTION_TYPES: readonly string[] = [
  'A-Award',
  'C-Conversion',
  'D-Return',
  'E-ExpireShort',
  'F-InKind',
  'G-Gift',
  'H-ExpireLong',
  'I-Discretionary',
  'J-Other',
  'L-Small',
  'M-Exempt',
  'O-OutOfTheMoney',
  'P-Purchase',
  'S-Sale',
  'U-Tender',
  'W-Will',
  'X-InTheMoney',
  'Z-Trust',
];

/** A LIKE pattern matching the text anywhere, with the pattern characters taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Which insider trades a search asks for. */
export interface InsiderSearch extends PageQuery {
  symbol?: string | undefined;
  reportingCik?: string | undefined;
  companyCik?: string | undefined;
  transactionType?: string | undefined;
}

/** Insider trades matching every filter given, newest filing first. */
export async function insiderSearchRows(db: Db, query: InsiderSearch): Promise<ApiRow[]> {
  const conditions: (SQL | undefined)[] = [];
  if (query.symbol !== undefined) conditions.push(eq(insiderTrades.symbol, query.symbol));
  if (query.reportingCik !== undefined)
    conditions.push(sql`${insiderTrades.data}->>'reportingCik' = ${fullCik(query.reportingCik)}`);
  if (query.companyCik !== undefined)
    conditions.push(sql`${insiderTrades.data}->>'companyCik' = ${fullCik(query.companyCik)}`);
  if (query.transactionType !== undefined)
    conditions.push(
      sql`upper(${insiderTrades.data}->>'transactionType') = ${query.transactionType.toUpperCase()}`,
    );
  const rows = await db
    .select({ symbol: insiderTrades.symbol, filingDate: insiderTrades.filingDate, data: insiderTrades.data })
    .from(insiderTrades)
    .where(and(...conditions))
    .orderBy(desc(insiderTrades.filingDate), insiderTrades.symbol, insiderTrades.id)
    .limit(query.limit)
    .offset(query.page * query.limit);
  return rows.map((row) =>
    projectRow({ ...row.data, symbol: row.symbol, filingDate: row.filingDate }, INSIDER_TRADE_FIELDS),
  );
}

/** FMP's insider-trading/reporting-name row. */
export interface ReportingNameRow {
  reportingCik: string;
  reportingName: string;
}

/** Insiders whose name contains the text (any case), each CIK and name once, by name. */
export async function reportingNameRows(db: Db, name: string): Promise<ReportingNameRow[]> {
  const reportingCik = sql<string>`${insiderTrades.data}->>'reportingCik'`;
  const reportingName = sql<string>`${insiderTrades.data}->>'reportingName'`;
  const rows = await db
    .selectDistinct({ reportingCik, reportingName })
    .from(insiderTrades)
    .where(ilike(reportingName, containing(name)))
    .orderBy(asc(reportingName), asc(reportingCik))
    .limit(1000);
  return rows.map((r) => ({ reportingCik: r.reportingCik, reportingName: r.reportingName }));
}

/** FMP's insider-trading/statistics row, in FMP's order. */
export interface InsiderStatisticsRow {
  symbol: string;
  cik: string;
  year: number;
  quarter: number;
  acquiredTransactions: number;
  disposedTransactions: number;
  acquiredDisposedRatio: number;
  totalAcquired: number;
  totalDisposed: number;
  averageAcquired: number;
  averageDisposed: number;
  totalPurchases: number;
  totalSales: number;
}

const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;

/**
 * A company's insider activity per calendar quarter of the transaction date, newest first: acquisitions
 * and dispositions (count, shares, average shares), their ratio (0 without dispositions), and the
 * open-market purchases (P) and sales (S) among them.
 */
export async function insiderStatisticsRows(db: Db, symbol: string): Promise<InsiderStatisticsRow[]> {
  const rows = await db
    .select({ data: insiderTrades.data })
    .from(insiderTrades)
    .where(eq(insiderTrades.symbol, symbol));
  const quarters = new Map<string, InsiderStatisticsRow>();
  for (const { data } of rows) {
    const date = String(data.transactionDate ?? '');
    if (!/^\d{4}-\d{2}/.test(date)) continue;
    const year = Number(date.slice(0, 4));
    const quarter = Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1;
    const key = `${year}-${quarter}`;
    const stats = quarters.get(key) ?? {
      symbol,
      cik: String(data.companyCik ?? ''),
      year,
      quarter,
      acquiredTransactions: 0,
      disposedTransactions: 0,
      acquiredDisposedRatio: 0,
      totalAcquired: 0,
      totalDisposed: 0,
      averageAcquired: 0,
      averageDisposed: 0,
      totalPurchases: 0,
      totalSales: 0,
    };
    const shares = Number(data.securitiesTransacted ?? 0);
    if (data.acquisitionOrDisposition === 'A') {
      stats.acquiredTransactions += 1;
      stats.totalAcquired += shares;
    } else {
      stats.disposedTransactions += 1;
      stats.totalDisposed += shares;
    }
    if (data.transactionType === 'P-Purchase') stats.totalPurchases += 1;
    if (data.transactionType === 'S-Sale') stats.totalSales += 1;
    quarters.set(key, stats);
  }
  return [...quarters.values()]
    .map((s) => ({
      ...s,
      acquiredDisposedRatio:
        s.disposedTransactions === 0 ? 0 : round4(s.acquiredTransactions / s.disposedTransactions),
      averageAcquired: s.acquiredTransactions === 0 ? 0 : round4(s.totalAcquired / s.acquiredTransactions),
      averageDisposed: s.disposedTransactions === 0 ? 0 : round4(s.totalDisposed / s.disposedTransactions),
    }))
    .sort((a, b) => b.year - a.year || b.quarter - a.quarter);
}

const text = (name: string, description: string): FieldSpec => ({ name, kind: 'string', description });

/** FMP's acquisition-of-beneficial-ownership row, in FMP's order (FMP writes the figures as strings). */
export const BENEFICIAL_OWNERSHIP_FIELDS: readonly FieldSpec[] = [
  text('cik', 'CIK of the company whose shares are owned'),
  text('symbol', 'Ticker symbol'),
  text('filingDate', 'Date the schedule was filed (YYYY-MM-DD)'),
  text('acceptedDate', 'When the SEC accepted it (YYYY-MM-DD HH:MM:SS)'),
  text('cusip', 'CUSIP of the class of shares'),
  text('nameOfReportingPerson', 'The owner filing the schedule'),
  text('citizenshipOrPlaceOfOrganization', 'Where the owner is organised or a citizen'),
  text('soleVotingPower', 'Shares the owner votes alone'),
  text('sharedVotingPower', 'Shares the owner votes with others'),
  text('soleDispositivePower', 'Shares the owner may sell alone'),
  text('sharedDispositivePower', 'Shares the owner may sell with others'),
  text('amountBeneficiallyOwned', 'Shares beneficially owned'),
  text('percentOfClass', 'Percent of the class of shares'),
  text('typeOfReportingPerson', 'Type of owner: IA investment adviser, IN individual, CO corporation, …'),
  text('url', 'The filing’s page on this site'),
];

/** Schedule 13D/G filings about a company, newest first. */
export async function beneficialOwnershipRows(db: Db, symbol: string, limit: number): Promise<ApiRow[]> {
  const rows = await db
    .select()
    .from(beneficialOwnership)
    .where(eq(beneficialOwnership.symbol, symbol))
    .orderBy(desc(beneficialOwnership.filingDate), beneficialOwnership.id)
    .limit(limit);
  return rows.map((row) =>
    projectRow({ ...row.data, url: filingPageUrl(row.id) }, BENEFICIAL_OWNERSHIP_FIELDS),
  );
}

/** House disclosures carry the senate rows' fields, describing a House member. */
export const HOUSE_TRADE_FIELDS: readonly FieldSpec[] = SENATE_TRADE_FIELDS.map((field) => {
  if (field.name === 'district') return text('district', 'State and congressional district, e.g. CA12');
  return {
    ...field,
    description: field.description
      .replace('Senator’s', 'Representative’s')
      .replace('senator', 'representative'),
  };
});

type Chamber = 'senate' | 'house';

function chamberTable(chamber: Chamber): typeof senateTrades | typeof houseTrades {
  return chamber === 'senate' ? senateTrades : houseTrades;
}

async function congressRows(
  db: Db,
  chamber: Chamber,
  where: SQL | undefined,
  page: PageQuery,
): Promise<ApiRow[]> {
  const table = chamberTable(chamber);
  const rows = await db
    .select({ symbol: table.symbol, disclosureDate: table.disclosureDate, data: table.data })
    .from(table)
    .where(where)
    .orderBy(desc(table.disclosureDate), table.symbol, table.id)
    .limit(page.limit)
    .offset(page.page * page.limit);
  const fields = chamber === 'senate' ? SENATE_TRADE_FIELDS : HOUSE_TRADE_FIELDS;
  return rows.map((row) =>
    projectRow({ ...row.data, symbol: row.symbol, disclosureDate: row.disclosureDate }, fields),
  );
}

/** The latest disclosures of a chamber, newest first. */
export function congressLatestRows(db: Db, chamber: Chamber, page: PageQuery): Promise<ApiRow[]> {
  return congressRows(db, chamber, undefined, page);
}

/** A chamber's disclosures of trades in one symbol, newest first. */
export function congressSymbolRows(db: Db, chamber: Chamber, symbol: string): Promise<ApiRow[]> {
  return congressRows(db, chamber, eq(chamberTable(chamber).symbol, symbol), { page: 0, limit: 1000 });
}

/** A chamber's disclosures by members whose first, last or full name contains the text, newest first. */
export function congressNameRows(db: Db, chamber: Chamber, name: string): Promise<ApiRow[]> {
  const table = chamberTable(chamber);
  const pattern = containing(name.trim());
  return congressRows(
    db,
    chamber,
    or(
      ilike(sql`${table.data}->>'firstName'`, pattern),
      ilike(sql`${table.data}->>'lastName'`, pattern),
      ilike(sql`${table.data}->>'office'`, pattern),
    ),
    { page: 0, limit: 1000 },
  );
}
