import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  companyProfiles,
  esgRatings,
  insiderTrades,
  institutionalOwnership,
  securities,
  senateTrades,
} from '../../db/schema.ts';
import { projectRow, type ApiRow, type FieldSpec } from './statements.ts';

/** FMP's esg-ratings row. */
export interface EsgRatingRow {
  symbol: string;
  cik: string;
  companyName: string;
  industry: string;
  fiscalYear: number;
  ESGRiskRating: string;
  industryRank: string;
}

/** A company's ESG risk ratings, newest fiscal year first. */
export async function esgRatingRows(db: Db, symbol: string): Promise<EsgRatingRow[]> {
  const rows = await db
    .select({
      fiscalYear: esgRatings.fiscalYear,
      rating: esgRatings.esgRiskRating,
      industryRank: esgRatings.industryRank,
      companyName: securities.name,
      industry: securities.industry,
      cik: companyProfiles.cik,
    })
    .from(esgRatings)
    .innerJoin(securities, eq(securities.symbol, esgRatings.symbol))
    .leftJoin(companyProfiles, eq(companyProfiles.symbol, esgRatings.symbol))
    .where(eq(esgRatings.symbol, symbol))
    .orderBy(desc(esgRatings.fiscalYear));
  return rows.map((row) => ({
    symbol,
    cik: row.cik ?? '',
    companyName: row.companyName,
    industry: row.industry,
    fiscalYear: row.fiscalYear,
    ESGRiskRating: row.rating,
    industryRank: row.industryRank,
  }));
}

const text = (name: string, description: string): FieldSpec => ({ name, kind: 'string', description });
const number = (name: string, description: string): FieldSpec => ({ name, kind: 'number', description });

/** FMP's insider-trading row, in FMP's order. */
export const INSIDER_TRADE_FIELDS: readonly FieldSpec[] = [
  text('symbol', 'Ticker symbol'),
  text('filingDate', 'Date the Form 4 was filed (YYYY-MM-DD)'),
  text('transactionDate', 'Date of the transaction (YYYY-MM-DD)'),
  text('reportingCik', 'CIK of the reporting insider'),
  text('companyCik', 'CIK of the company'),
  text('transactionType', 'SEC transaction code, e.g. P-Purchase, S-Sale, M-Exempt, A-Award'),
  number('securitiesOwned', 'Shares owned after the transaction'),
  text('reportingName', 'Name of the reporting insider'),
  text('typeOfOwner', 'Relationship to the company: director, officer (with title), 10 percent owner'),
  text('acquisitionOrDisposition', 'A for an acquisition, D for a disposition'),
  text('directOrIndirect', 'D for direct ownership, I for indirect'),
  text('formType', 'SEC form type, e.g. 4'),
  number('securitiesTransacted', 'Shares bought, sold or awarded'),
  number('price', 'Price per share of the transaction'),
  text('securityName', 'Class of security, e.g. Common Stock'),
  text('url', 'Link to the filing'),
];

/** FMP's senate-latest row, in FMP's order. */
export const SENATE_TRADE_FIELDS: readonly FieldSpec[] = [
  text('symbol', 'Ticker symbol'),
  text('disclosureDate', 'Date the report was disclosed (YYYY-MM-DD)'),
  text('transactionDate', 'Date of the transaction (YYYY-MM-DD)'),
  text('firstName', 'Senator’s first name'),
  text('lastName', 'Senator’s last name'),
  text('office', 'Senator’s full name as in the report'),
  text('district', 'State the senator represents (two-letter code)'),
  text('owner', 'Who holds the asset: Self, Spouse, Joint or Child'),
  text('assetDescription', 'Asset as described in the report'),
  text('assetType', 'Kind of asset, e.g. Stock'),
  text('type', 'Purchase, Sale, Sale (Partial) or Exchange'),
  text('amount', 'Reported value band, e.g. $1,001 - $15,000'),
  text('capitalGainsOver200USD', 'Whether capital gains exceeded $200: True or False'),
  text('comment', 'Comment in the report, -- when none'),
  text('link', 'Link to the report'),
];

function positionFields(): FieldSpec[] {
  const measures: (readonly [string, string])[] = [
    ['investorsHolding', 'Institutions holding the stock'],
    ['numberOf13Fshares', 'Shares held by 13F filers'],
    ['totalInvested', 'Market value of the 13F holdings'],
    ['ownershipPercent', 'Percent of shares outstanding held by 13F filers'],
    ['newPositions', 'Institutions that opened a position'],
    ['increasedPositions', 'Institutions that increased their position'],
    ['closedPositions', 'Institutions that closed their position'],
    ['reducedPositions', 'Institutions that reduced their position'],
    ['totalCalls', 'Shares underlying call options held'],
    ['totalPuts', 'Shares underlying put options held'],
    ['putCallRatio', 'Puts over calls'],
  ];
  const fields: FieldSpec[] = [];
  for (const [name, description] of measures) {
    const capitalised = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
    fields.push(
      number(name, `${description}, this quarter`),
      number(`last${capitalised}`, `${description}, previous quarter`),
      number(`${name}Change`, `Change of ${name} from the previous quarter`),
    );
  }
  return fields;
}

/** FMP's institutional-ownership/symbol-positions-summary row, in FMP's order. */
export const POSITIONS_SUMMARY_FIELDS: readonly FieldSpec[] = [
  text('symbol', 'Ticker symbol'),
  text('cik', 'CIK of the company'),
  text('date', 'Quarter end date (YYYY-MM-DD)'),
  number('year', 'Calendar year of the quarter'),
  number('quarter', 'Calendar quarter (1–4)'),
  ...positionFields(),
];

/** Market-wide feeds are paged newest first rather than filtered by symbol. */
export interface PageQuery {
  page: number;
  limit: number;
}

/** The latest insider filings across all companies, newest filing first; one filing day with `date`. */
export async function insiderTradeRows(
  db: Db,
  query: PageQuery & { date?: string | undefined },
): Promise<ApiRow[]> {
  const rows = await db
    .select({ symbol: insiderTrades.symbol, filingDate: insiderTrades.filingDate, data: insiderTrades.data })
    .from(insiderTrades)
    .where(query.date === undefined ? undefined : eq(insiderTrades.filingDate, query.date))
    .orderBy(desc(insiderTrades.filingDate), insiderTrades.symbol, insiderTrades.id)
    .limit(query.limit)
    .offset(query.page * query.limit);
  return rows.map((row) =>
    projectRow({ ...row.data, symbol: row.symbol, filingDate: row.filingDate }, INSIDER_TRADE_FIELDS),
  );
}

/** The latest senators' trading disclosures, newest disclosure first. */
export async function senateTradeRows(db: Db, query: PageQuery): Promise<ApiRow[]> {
  const rows = await db
    .select({
      symbol: senateTrades.symbol,
      disclosureDate: senateTrades.disclosureDate,
      data: senateTrades.data,
    })
    .from(senateTrades)
    .orderBy(desc(senateTrades.disclosureDate), senateTrades.symbol, senateTrades.id)
    .limit(query.limit)
    .offset(query.page * query.limit);
  return rows.map((row) =>
    projectRow({ ...row.data, symbol: row.symbol, disclosureDate: row.disclosureDate }, SENATE_TRADE_FIELDS),
  );
}

/** Institutional ownership of a stock in one calendar quarter: one row, or none. */
export async function positionsSummaryRows(
  db: Db,
  symbol: string,
  year: number,
  quarter: number,
): Promise<ApiRow[]> {
  const rows = await db
    .select({ data: institutionalOwnership.data })
    .from(institutionalOwnership)
    .where(
      and(
        eq(institutionalOwnership.symbol, symbol),
        eq(institutionalOwnership.year, year),
        eq(institutionalOwnership.quarter, quarter),
      ),
    )
    .limit(1);
  return rows.map((row) => projectRow({ ...row.data, symbol, year, quarter }, POSITIONS_SUMMARY_FIELDS));
}
