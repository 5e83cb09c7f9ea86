import { and, asc, desc, eq, gte, ilike, inArray, lte, ne, sql, type SQL } from 'drizzle-orm';
import { siteUrl } from '../../app/config.ts';
import type { Db } from '../../db/client.ts';
import {
  companyProfiles,
  dailyPrices,
  financialStatements,
  secFilings,
  securities,
} from '../../db/schema.ts';
import { InvalidParametersError } from './plan-access.ts';
import { industriesOfSic, sicCodes, sicForIndustry, sicGroup, type SicCode } from './sic-codes.ts';

/**
 * SEC filings and the SEC's view of the companies: the filing index (every form the data set holds,
 * filtered by date, form, company), company searches with their SIC codes, and the full SEC profile.
 * Each filing links to its page on this site.
 */

/** The address of a filing's page on this site. */
export function filingPageUrl(id: string): string {
  return `${siteUrl()}/filings/${encodeURIComponent(id)}`;
}

/** FMP's filing row (sec-filings-8k, sec-filings-financials) in FMP's order. */
export interface FilingWithFinancialsRow {
  symbol: string;
  cik: string;
  filingDate: string;
  acceptedDate: string;
  formType: string;
  hasFinancials: boolean;
  link: string;
  finalLink: string;
}

/** FMP's filing row of the searches (by form type, symbol, CIK) in FMP's order. */
export type FilingRow = Omit<FilingWithFinancialsRow, 'hasFinancials'>;

/** Which filings a search asks for, newest first. */
export interface FilingQuery {
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  limit: number;
  formType?: string | undefined;
  symbol?: string | undefined;
  cik?: string | undefined;
  /** Only 8-K current reports. */
  currentReports?: boolean;
  /** Only filings that carry financial statements. */
  withFinancials?: boolean;
}

/** A CIK as the SEC writes it in full: ten digits with leading zeros. */
export function fullCik(cik: string): string {
  return cik.trim().padStart(10, '0');
}

/** Refuses a date range that ends before it starts. */
export function checkRange(from: string | undefined, to: string | undefined): void {
  if (from !== undefined && to !== undefined && from > to)
    throw new InvalidParametersError('Parameter "from" must be on or before "to".');
}

function filingConditions(query: FilingQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.from !== undefined) conditions.push(gte(secFilings.filingDate, query.from));
  if (query.to !== undefined) conditions.push(lte(secFilings.filingDate, query.to));
  if (query.formType !== undefined)
    conditions.push(eq(sql`upper(${secFilings.formType})`, query.formType.toUpperCase()));
  if (query.symbol !== undefined) conditions.push(eq(secFilings.symbol, query.symbol));
  if (query.cik !== undefined) conditions.push(eq(secFilings.cik, fullCik(query.cik)));
  if (query.currentReports === true) conditions.push(inArray(secFilings.formType, ['8-K', '8-K/A']));
  if (query.withFinancials === true) conditions.push(eq(secFilings.hasFinancials, true));
  return and(...conditions);
}

/** Filings matching the query, newest first, with the financials flag. */
export async function filingRowsWithFinancials(
  db: Db,
  query: FilingQuery,
): Promise<FilingWithFinancialsRow[]> {
  checkRange(query.from, query.to);
  const rows = await db
    .select()
    .from(secFilings)
    .where(filingConditions(query))
    .orderBy(desc(secFilings.filingDate), desc(secFilings.acceptedDate), secFilings.id)
    .limit(query.limit)
    .offset(query.page * query.limit);
  return rows.map((row) => ({
    symbol: row.symbol,
    cik: row.cik,
    filingDate: `${row.filingDate} 00:00:00`,
    acceptedDate: row.acceptedDate,
    formType: row.formType,
    hasFinancials: row.hasFinancials,
    link: filingPageUrl(row.id),
    finalLink: `${filingPageUrl(row.id)}#document`,
  }));
}

/** Filings matching the query, newest first, as the searches answer them. */
export async function filingRows(db: Db, query: FilingQuery): Promise<FilingRow[]> {
  const rows = await filingRowsWithFinancials(db, query);
  return rows.map((row) => ({
    symbol: row.symbol,
    cik: row.cik,
    filingDate: row.filingDate,
    acceptedDate: row.acceptedDate,
    formType: row.formType,
    link: row.link,
    finalLink: row.finalLink,
  }));
}

/** FMP's company row of the SEC company searches and industry classification, in FMP's order. */
export interface SecCompanyRow {
  symbol: string;
  name: string;
  cik: string;
  sicCode: string;
  industryTitle: string;
  businessAddress: string;
  phoneNumber: string;
}

interface CompanyFacts {
  symbol: string;
  name: string;
  industry: string;
  cik: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  phone: string;
}

function businessAddress(c: Pick<CompanyFacts, 'address' | 'city' | 'state' | 'zip'>): string {
  const place = [c.city, [c.state, c.zip].filter((p) => p !== '').join(' ')]
    .filter((p) => p !== '')
    .join(', ');
  return [c.address, place].filter((p) => p !== '').join(', ');
}

function companyRow(c: CompanyFacts): SecCompanyRow {
  const sic = sicForIndustry(c.industry);
  return {
    symbol: c.symbol,
    name: c.name,
    cik: c.cik,
    sicCode: sic.sicCode,
    industryTitle: sic.industryTitle,
    businessAddress: businessAddress(c),
    phoneNumber: c.phone,
  };
}

/** SEC registrants: stocks whose profile carries a CIK. */
async function companies(
  db: Db,
  where: SQL | undefined,
  page?: { page: number; limit: number },
): Promise<SecCompanyRow[]> {
  const query = db
    .select({
      symbol: securities.symbol,
      name: securities.name,
      industry: securities.industry,
      cik: companyProfiles.cik,
      address: companyProfiles.address,
      city: companyProfiles.city,
      state: companyProfiles.state,
      zip: companyProfiles.zip,
      phone: companyProfiles.phone,
    })
    .from(securities)
    .innerJoin(companyProfiles, eq(companyProfiles.symbol, securities.symbol))
    .where(and(eq(securities.assetType, 'stock'), ne(companyProfiles.cik, ''), where))
    .orderBy(asc(securities.symbol));
  const rows = page ? await query.limit(page.limit).offset(page.page * page.limit) : await query.limit(1000);
  return rows.map(companyRow);
}

/** Companies whose name contains the text (any case), by symbol. */
export function companiesByName(db: Db, company: string): Promise<SecCompanyRow[]> {
  return companies(db, ilike(securities.name, `%${company.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
}

/** The company with this ticker, if it files with the SEC. */
export function companiesBySymbol(db: Db, symbol: string): Promise<SecCompanyRow[]> {
  return companies(db, eq(securities.symbol, symbol));
}

/** The company with this CIK (leading zeros optional). */
export function companiesByCik(db: Db, cik: string): Promise<SecCompanyRow[]> {
  return companies(db, eq(companyProfiles.cik, fullCik(cik)));
}

/** Companies by any of symbol, CIK and SIC code (all given must match). */
export function classifiedCompanies(
  db: Db,
  query: { symbol?: string | undefined; cik?: string | undefined; sicCode?: string | undefined },
): Promise<SecCompanyRow[]> {
  if (query.symbol === undefined && query.cik === undefined && query.sicCode === undefined)
    throw new InvalidParametersError('Name at least one of "symbol", "cik" and "sicCode".');
  const conditions: (SQL | undefined)[] = [];
  if (query.symbol !== undefined) conditions.push(eq(securities.symbol, query.symbol));
  if (query.cik !== undefined) conditions.push(eq(companyProfiles.cik, fullCik(query.cik)));
  if (query.sicCode !== undefined) {
    const industries = industriesOfSic(query.sicCode);
    conditions.push(industries.length > 0 ? inArray(securities.industry, industries) : sql`false`);
  }
  return companies(db, and(...conditions));
}

/** Every SEC registrant with its SIC code, by symbol, a page at a time. */
export function allClassifiedCompanies(
  db: Db,
  page: { page: number; limit: number },
): Promise<SecCompanyRow[]> {
  return companies(db, undefined, page);
}

/** The SIC list, narrowed by a piece of the title and/or a code prefix. */
export function sicListRows(query: {
  industryTitle?: string | undefined;
  sicCode?: string | undefined;
}): SicCode[] {
  const title = query.industryTitle?.toUpperCase();
  return sicCodes()
    .filter((s) => title === undefined || s.industryTitle.includes(title))
    .filter((s) => query.sicCode === undefined || s.sicCode.startsWith(query.sicCode))
    .map((s) => ({ office: s.office, sicCode: s.sicCode, industryTitle: s.industryTitle }));
}

/** FMP's sec-profile row, in FMP's order. */
export interface SecProfileRow {
  symbol: string;
  cik: string;
  registrantName: string;
  sicCode: string;
  sicDescription: string;
  sicGroup: string;
  isin: string;
  businessAddress: string;
  mailingAddress: string;
  phoneNumber: string;
  postalCode: string;
  city: string;
  state: string;
  country: string;
  description: string;
  ceo: string;
  website: string;
  exchange: string;
  stateLocation: string;
  stateOfIncorporation: string;
  fiscalYearEnd: string;
  ipoDate: string;
  employees: string;
  secFilingsUrl: string;
  taxIdentificationNumber: string;
  fiftyTwoWeekRange: string;
  isActive: boolean;
  assetType: string;
  openFigiComposite: string;
  priceCurrency: string;
  marketSector: string;
  securityType: string | null;
  isEtf: boolean;
  isAdr: boolean;
  isFund: boolean;
}

/** A stable string of digits or letters from a text (for the identifiers the data set does not store). */
function digest(text: string, alphabet: string, length: number): string {
  let h = 2166136261;
  let out = '';
  for (let i = 0; out.length < length; i += 1) {
    h = Math.imul(h ^ (text.charCodeAt(i % text.length) + i), 16777619) >>> 0;
    out += alphabet.charAt(h % alphabet.length);
  }
  return out;
}

/** A company as the SEC registers it, with its 52-week range from the stored prices; none for a non-filer. */
export async function secProfileRows(db: Db, symbol: string): Promise<SecProfileRow[]> {
  const [row] = await db
    .select({ security: securities, profile: companyProfiles })
    .from(securities)
    .innerJoin(companyProfiles, eq(companyProfiles.symbol, securities.symbol))
    .where(and(eq(securities.symbol, symbol), ne(companyProfiles.cik, '')))
    .limit(1);
  if (!row) return [];
  const { security, profile } = row;
  const [range] = await db
    .select({
      low: sql<string | number | null>`min(${dailyPrices.low})`,
      high: sql<string | number | null>`max(${dailyPrices.high})`,
    })
    .from(dailyPrices)
    .where(
      and(
        eq(dailyPrices.symbol, symbol),
        gte(
          dailyPrices.date,
          sql`(select max(${dailyPrices.date}) - 365 from ${dailyPrices} where ${dailyPrices.symbol} = ${symbol})`,
        ),
      ),
    );
  const [fiscal] = await db
    .select({ date: financialStatements.date })
    .from(financialStatements)
    .where(and(eq(financialStatements.symbol, symbol), eq(financialStatements.period, 'FY')))
    .orderBy(desc(financialStatements.date))
    .limit(1);
  const sic = sicForIndustry(security.industry);
  const address = businessAddress(profile);
  const low = Number(range?.low ?? 0);
  const high = Number(range?.high ?? 0);
  const tax = digest(`tin${profile.cik}`, '0123456789', 9);
  return [
    {
      symbol,
      cik: profile.cik,
      registrantName: security.name,
      sicCode: sic.sicCode,
      sicDescription: sic.industryTitle,
      sicGroup: sicGroup(sic.sicCode),
      isin: profile.isin,
      businessAddress: address,
      mailingAddress: address,
      phoneNumber: profile.phone,
      postalCode: profile.zip,
      city: profile.city,
      state: profile.state,
      country: security.country === 'US' ? 'United States' : security.country,
      description: profile.description,
      ceo: profile.ceo,
      website: profile.website,
      exchange: security.exchange,
      stateLocation: profile.state,
      stateOfIncorporation: 'DE',
      fiscalYearEnd: fiscal ? fiscal.date.slice(5) : '12-31',
      ipoDate: profile.ipoDate ?? '',
      employees: profile.fullTimeEmployees === null ? '' : String(profile.fullTimeEmployees),
      secFilingsUrl: `${siteUrl()}/financial-summary/${encodeURIComponent(symbol)}`,
      taxIdentificationNumber: `${tax.slice(0, 2)}-${tax.slice(2)}`,
      fiftyTwoWeekRange: `${low.toFixed(2)} - ${high.toFixed(2)}`,
      isActive: security.active,
      assetType: 'stock',
      openFigiComposite: `BBG00${digest(`figi${symbol}`, '0123456789BCDFGHJKLMNPQRSTVWXYZ', 7)}`,
      priceCurrency: security.currency,
      marketSector: 'Equity',
      securityType: 'Common Stock',
      isEtf: false,
      isAdr: profile.isAdr,
      isFund: false,
    },
  ];
}
