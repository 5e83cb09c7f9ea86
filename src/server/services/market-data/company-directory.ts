import { and, asc, desc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  companyProfiles,
  delistedCompanies,
  securities,
  symbolChanges,
  type Security,
} from '../../db/schema.ts';
import { profiles, type ProfileRow } from './company.ts';
import { symbolTier, US_EXCHANGES, type SymbolDirectory } from './directory.ts';
import { discountedCashFlowRows } from './fundamentals.ts';
import { round } from './prices.ts';
import { marketCap, priceChange, quoteFacts } from './quotes.ts';

/**
 * The symbol directory beyond ticker and name search: look-ups by the identifiers filings use (CIK,
 * CUSIP, ISIN), a company's listings, ticker changes, delistings, and the values the screener's filters
 * accept. Lists of values come from the securities loaded in memory, so they answer what the database holds.
 */

export interface CikSearchRow {
  symbol: string;
  companyName: string;
  cik: string;
  exchangeFullName: string;
  exchange: string;
  currency: string;
}

export interface CusipSearchRow {
  symbol: string;
  companyName: string;
  cusip: string;
  marketCap: number;
}

export interface IsinSearchRow {
  symbol: string;
  name: string;
  isin: string;
  marketCap: number;
}

/** FMP's exchange-variants row keeps the older profile names (mktCap, volAvg, changes, dcf). */
export interface ExchangeVariantRow {
  symbol: string;
  price: number;
  beta: number;
  volAvg: number;
  mktCap: number;
  lastDiv: number;
  range: string;
  changes: number;
  companyName: string;
  currency: string;
  cik: string | null;
  isin: string | null;
  cusip: string | null;
  exchange: string;
  exchangeShortName: string;
  industry: string;
  website: string;
  description: string;
  ceo: string;
  sector: string;
  country: string;
  fullTimeEmployees: string | null;
  phone: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  dcfDiff: number | null;
  dcf: number | null;
  image: string;
  ipoDate: string | null;
  defaultImage: boolean;
  isEtf: boolean;
  isActivelyTrading: boolean;
  isAdr: boolean;
  isFund: boolean;
}

export interface SymbolChangeRow {
  date: string;
  companyName: string;
  oldSymbol: string;
  newSymbol: string;
}

export interface DelistedCompanyRow {
  symbol: string;
  companyName: string;
  exchange: string;
  ipoDate: string;
  delistedDate: string;
}

export interface CikListRow {
  cik: string;
  companyName: string;
}

export interface ExchangeRow {
  exchange: string;
  name: string;
  countryName: string;
  countryCode: string;
  symbolSuffix: string;
  delay: string;
}

/** Writes a CIK the way filings do: ten digits with leading zeros ("320193" → "0000320193"). */
export function normalizeCik(cik: string): string {
  return cik.replace(/\D/g, '').padStart(10, '0');
}

/** Market capitalisation at the latest close of each symbol that has prices (the quotes' own figure). */
export async function latestMarketCaps(
  db: Db,
  directory: SymbolDirectory,
  symbols: readonly string[],
  now: Date,
): Promise<Map<string, { date: string; marketCap: number }>> {
  const securities = symbols.flatMap((symbol) => {
    const security = directory.get(symbol);
    return security === undefined ? [] : [security];
  });
  const facts = await quoteFacts(db, securities, now);
  const caps = new Map<string, { date: string; marketCap: number }>();
  for (const [symbol, found] of facts) {
    const security = directory.get(symbol);
    if (security === undefined) continue;
    const { price } = priceChange(found, security.assetType);
    caps.set(symbol, { date: found.date, marketCap: marketCap(price, security) });
  }
  return caps;
}

/** Securities whose profile carries `column = value`, in symbol order, known to the directory. */
async function securitiesBy(
  db: Db,
  directory: SymbolDirectory,
  column: typeof companyProfiles.cik | typeof companyProfiles.cusip | typeof companyProfiles.isin,
  value: string,
  limit: number,
): Promise<{ security: Security; value: string }[]> {
  const rows = await db
    .select({ symbol: companyProfiles.symbol, value: column })
    .from(companyProfiles)
    .where(eq(column, value))
    .orderBy(asc(companyProfiles.symbol))
    .limit(limit);
  const found: { security: Security; value: string }[] = [];
  for (const row of rows) {
    const security = directory.get(row.symbol);
    if (security !== undefined) found.push({ security, value: row.value });
  }
  return found;
}

/** The listings filed under a CIK (leading zeros optional). */
export async function searchByCik(
  db: Db,
  directory: SymbolDirectory,
  cik: string,
  limit: number,
): Promise<CikSearchRow[]> {
  const found = await securitiesBy(db, directory, companyProfiles.cik, normalizeCik(cik), limit);
  return found.map(({ security, value }) => ({
    symbol: security.symbol,
    companyName: security.name,
    cik: value,
    exchangeFullName: security.exchangeFullName,
    exchange: security.exchange,
    currency: security.currency,
  }));
}

/** The security with a CUSIP, with its market capitalisation at the latest close. */
export async function searchByCusip(
  db: Db,
  directory: SymbolDirectory,
  cusip: string,
  now: Date,
): Promise<CusipSearchRow[]> {
  const found = await securitiesBy(db, directory, companyProfiles.cusip, cusip.toUpperCase(), 100);
  const caps = await latestMarketCaps(
    db,
    directory,
    found.map(({ security }) => security.symbol),
    now,
  );
  return found.map(({ security, value }) => ({
    symbol: security.symbol,
    companyName: security.name,
    cusip: value,
    marketCap: caps.get(security.symbol)?.marketCap ?? 0,
  }));
}

/** The securities with an ISIN (one company's listings share it), with their market capitalisation. */
export async function searchByIsin(
  db: Db,
  directory: SymbolDirectory,
  isin: string,
  now: Date,
): Promise<IsinSearchRow[]> {
  const found = await securitiesBy(db, directory, companyProfiles.isin, isin.toUpperCase(), 100);
  const caps = await latestMarketCaps(
    db,
    directory,
    found.map(({ security }) => security.symbol),
    now,
  );
  return found.map(({ security, value }) => ({
    symbol: security.symbol,
    name: security.name,
    isin: value,
    marketCap: caps.get(security.symbol)?.marketCap ?? 0,
  }));
}

/** Profiles of the listings filed under a CIK that the caller's plan covers. */
export async function profilesByCik(
  db: Db,
  directory: SymbolDirectory,
  cik: string,
  dataTier: number,
  now: Date,
): Promise<ProfileRow[]> {
  const found = await securitiesBy(db, directory, companyProfiles.cik, normalizeCik(cik), 100);
  const covered = found.filter(({ security }) => symbolTier(security) <= dataTier);
  return profiles(
    db,
    directory,
    covered.map(({ security }) => security.symbol),
    now,
  );
}

/** A profile in FMP's older names, with the DCF value and the price's distance to it. */
async function variantRow(
  db: Db,
  directory: SymbolDirectory,
  profile: ProfileRow,
  now: Date,
): Promise<ExchangeVariantRow> {
  const [dcfRow] = await discountedCashFlowRows(db, directory, profile.symbol, now, 'unlevered');
  const dcf = dcfRow === undefined ? null : round(dcfRow.dcf, 4);
  return {
    symbol: profile.symbol,
    price: profile.price,
    beta: profile.beta,
    volAvg: profile.averageVolume,
    mktCap: profile.marketCap,
    lastDiv: profile.lastDividend,
    range: profile.range,
    changes: profile.change,
    companyName: profile.companyName,
    currency: profile.currency,
    cik: profile.cik,
    isin: profile.isin,
    cusip: profile.cusip,
    exchange: profile.exchangeFullName,
    exchangeShortName: profile.exchange,
    industry: profile.industry,
    website: profile.website,
    description: profile.description,
    ceo: profile.ceo,
    sector: profile.sector,
    country: profile.country,
    fullTimeEmployees: profile.fullTimeEmployees,
    phone: profile.phone,
    address: profile.address,
    city: profile.city,
    state: profile.state,
    zip: profile.zip,
    dcfDiff: dcf === null ? null : round(profile.price - dcf, 4),
    dcf,
    image: profile.image,
    ipoDate: profile.ipoDate,
    defaultImage: profile.defaultImage,
    isEtf: profile.isEtf,
    isActivelyTrading: profile.isActivelyTrading,
    isAdr: profile.isAdr,
    isFund: profile.isFund,
  };
}

/**
 * Every listing of the symbol's company (the securities sharing its ISIN; the symbol alone when it has
 * none) that the caller's plan covers, the symbol asked for first.
 */
export async function exchangeVariants(
  db: Db,
  directory: SymbolDirectory,
  symbol: string,
  dataTier: number,
  now: Date,
): Promise<ExchangeVariantRow[]> {
  const security = directory.get(symbol);
  if (security === undefined) return [];
  const [own] = await db
    .select({ isin: companyProfiles.isin })
    .from(companyProfiles)
    .where(eq(companyProfiles.symbol, security.symbol));
  const listings = new Set<string>([security.symbol]);
  if (own !== undefined && own.isin !== '') {
    const siblings = await db
      .select({ symbol: companyProfiles.symbol })
      .from(companyProfiles)
      .where(and(eq(companyProfiles.isin, own.isin), ne(companyProfiles.symbol, security.symbol)))
      .orderBy(asc(companyProfiles.symbol));
    for (const sibling of siblings) listings.add(sibling.symbol);
  }
  const covered = [...listings].filter((listing) => {
    const found = directory.get(listing);
    return found !== undefined && symbolTier(found) <= dataTier;
  });
  const rows = await profiles(db, directory, covered, now);
  return Promise.all(rows.map((profile) => variantRow(db, directory, profile, now)));
}

/** Ticker changes, newest first. */
export async function symbolChangeList(db: Db, limit: number): Promise<SymbolChangeRow[]> {
  return db
    .select({
      date: symbolChanges.date,
      companyName: symbolChanges.companyName,
      oldSymbol: symbolChanges.oldSymbol,
      newSymbol: symbolChanges.newSymbol,
    })
    .from(symbolChanges)
    .orderBy(desc(symbolChanges.date), asc(symbolChanges.oldSymbol))
    .limit(limit);
}

/** Companies no longer listed, the latest delisting first. */
export async function delistedCompanyList(
  db: Db,
  page: number,
  limit: number,
): Promise<DelistedCompanyRow[]> {
  return db
    .select({
      symbol: delistedCompanies.symbol,
      companyName: delistedCompanies.companyName,
      exchange: delistedCompanies.exchange,
      ipoDate: delistedCompanies.ipoDate,
      delistedDate: delistedCompanies.delistedDate,
    })
    .from(delistedCompanies)
    .orderBy(desc(delistedCompanies.delistedDate), asc(delistedCompanies.symbol))
    .limit(limit)
    .offset(page * limit);
}

/** SEC filers (one row per CIK, named after its first listing), in CIK order. */
export async function cikList(db: Db, page: number, limit: number): Promise<CikListRow[]> {
  return db
    .selectDistinctOn([companyProfiles.cik], { cik: companyProfiles.cik, companyName: securities.name })
    .from(companyProfiles)
    .innerJoin(securities, eq(securities.symbol, companyProfiles.symbol))
    .where(ne(companyProfiles.cik, ''))
    .orderBy(asc(companyProfiles.cik), asc(securities.symbol))
    .limit(limit)
    .offset(page * limit);
}

/** Lists derived from the immutable directory are built once per loaded directory. */
const derived = new WeakMap<SymbolDirectory, Map<string, readonly unknown[]>>();

function cached<R>(directory: SymbolDirectory, key: string, build: () => R[]): readonly R[] {
  let lists = derived.get(directory);
  if (lists === undefined) {
    lists = new Map();
    derived.set(directory, lists);
  }
  const found = lists.get(key);
  if (found !== undefined) return found as readonly R[];
  const built = build();
  lists.set(key, built);
  return built;
}

/** Every security still trading, in ticker order. */
export function activelyTradingList(directory: SymbolDirectory): readonly { symbol: string; name: string }[] {
  return cached(directory, 'active', () =>
    directory
      .all()
      .filter((security) => security.active)
      .map((security) => ({ symbol: security.symbol, name: security.name })),
  );
}

/** Distinct non-empty values of a security field, sorted, as one-field rows. */
function distinctValues<K extends 'sector' | 'industry' | 'country'>(
  directory: SymbolDirectory,
  field: K,
): readonly Record<K, string>[] {
  return cached(directory, field, () => {
    const values = new Set<string>();
    for (const security of directory.all()) if (security[field] !== '') values.add(security[field]);
    return [...values].sort().map((value) => ({ [field]: value }) as Record<K, string>);
  });
}

/** The sectors the securities are classified in. */
export function availableSectors(directory: SymbolDirectory): readonly { sector: string }[] {
  return distinctValues(directory, 'sector');
}

/** The industries the securities are classified in. */
export function availableIndustries(directory: SymbolDirectory): readonly { industry: string }[] {
  return distinctValues(directory, 'industry');
}

/** The countries (ISO 3166 alpha-2) of the companies. */
export function availableCountries(directory: SymbolDirectory): readonly { country: string }[] {
  return distinctValues(directory, 'country');
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function countryName(code: string): string {
  if (code === '') return '';
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Markets whose prices follow each trade; the others are shown with the delay their exchange imposes. */
const REAL_TIME_VENUES: ReadonlySet<string> = new Set([...US_EXCHANGES, 'CRYPTO', 'FOREX']);

/**
 * Every venue with listed securities: its full name (the most used one), country, the ticker suffix its
 * symbols carry ("N/A" when they carry none) and the quote delay.
 */
export function availableExchanges(directory: SymbolDirectory): readonly ExchangeRow[] {
  return cached(directory, 'exchanges', () => {
    const venues = new Map<
      string,
      { names: Map<string, number>; countries: Map<string, number>; suffixes: Map<string, number> }
    >();
    const bump = (counts: Map<string, number>, key: string): void => {
      counts.set(key, (counts.get(key) ?? 0) + 1);
    };
    for (const security of directory.all()) {
      let venue = venues.get(security.exchange);
      if (venue === undefined) {
        venue = { names: new Map(), countries: new Map(), suffixes: new Map() };
        venues.set(security.exchange, venue);
      }
      bump(venue.names, security.exchangeFullName);
      bump(venue.countries, security.country);
      const dot = security.symbol.lastIndexOf('.');
      const stockLike = security.assetType === 'stock' || security.assetType === 'etf';
      bump(venue.suffixes, stockLike && dot > 0 ? security.symbol.slice(dot) : '');
    }
    const top = (counts: Map<string, number>): string =>
      [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? '';
    return [...venues]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([exchange, venue]) => {
        const code = top(venue.countries);
        const suffix = top(venue.suffixes);
        return {
          exchange,
          name: top(venue.names),
          countryName: countryName(code),
          countryCode: code,
          symbolSuffix: suffix === '' ? 'N/A' : suffix,
          delay: REAL_TIME_VENUES.has(exchange) ? 'Real-time' : '15 min',
        };
      });
  });
}

/** The known securities of a batch, once each, in the order asked (unknown symbols are left out). */
export function knownSymbols(directory: SymbolDirectory, symbols: readonly string[]): Security[] {
  const seen = new Set<string>();
  const found: Security[] = [];
  for (const symbol of symbols) {
    const security = directory.get(symbol);
    if (security === undefined || seen.has(security.symbol)) continue;
    seen.add(security.symbol);
    found.push(security);
  }
  return found;
}
