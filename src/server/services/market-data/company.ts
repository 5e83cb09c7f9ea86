import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import { isoDay, shiftIsoYears } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import { companyProfiles, dividends, keyExecutives, securities, type Security } from '../../db/schema.ts';
import type { SymbolDirectory } from './directory.ts';
import { memoPerDatabase } from './memo.ts';
import { latestCloses } from './movers.ts';
import { round, roundPrice } from './prices.ts';
import { marketCap, priceChange, quoteFacts } from './quotes.ts';

export interface ProfileRow {
  symbol: string;
  price: number;
  marketCap: number;
  beta: number;
  lastDividend: number;
  range: string;
  change: number;
  changePercentage: number;
  volume: number;
  averageVolume: number;
  companyName: string;
  currency: string;
  cik: string | null;
  isin: string | null;
  cusip: string | null;
  exchangeFullName: string;
  exchange: string;
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
  image: string;
  ipoDate: string | null;
  defaultImage: boolean;
  isEtf: boolean;
  isActivelyTrading: boolean;
  isAdr: boolean;
  isFund: boolean;
}

export interface KeyExecutiveRow {
  title: string;
  name: string;
  pay: number | null;
  currencyPay: string;
  gender: string;
  yearBorn: number | null;
  active: boolean;
}

export interface PeerRow {
  symbol: string;
  companyName: string;
  price: number;
  mktCap: number;
}

/** Peers listed at most, as FMP. */
export const PEERS_LIMIT = 10;

const profileMemo = memoPerDatabase<ProfileRow | null>({ max: 5_000, ttlMs: 60_000 });

function textOrNull(value: string | null | undefined): string | null {
  return value === null || value === undefined || value === '' ? null : value;
}

/**
 * Company facts with the latest price: the security comes from memory, the quote from its own memo,
 * and the profile plus the trailing year's dividends from one query (securities without a company
 * profile, such as coins and indexes, answer with empty company fields).
 */
async function loadProfile(db: Db, security: Security, now: Date): Promise<ProfileRow | null> {
  const asOf = isoDay(now);
  const facts = (await quoteFacts(db, [security], now)).get(security.symbol);
  if (facts === undefined) return null;
  const yearAgo = shiftIsoYears(facts.date, -1);
  const [stored] = await db
    .select({
      description: companyProfiles.description,
      ceo: companyProfiles.ceo,
      website: companyProfiles.website,
      phone: companyProfiles.phone,
      address: companyProfiles.address,
      city: companyProfiles.city,
      state: companyProfiles.state,
      zip: companyProfiles.zip,
      cik: companyProfiles.cik,
      isin: companyProfiles.isin,
      cusip: companyProfiles.cusip,
      fullTimeEmployees: companyProfiles.fullTimeEmployees,
      ipoDate: companyProfiles.ipoDate,
      image: companyProfiles.image,
      beta: companyProfiles.beta,
      isAdr: companyProfiles.isAdr,
      lastDividend: sql<number>`(${db
        .select({ total: sql`coalesce(sum(${dividends.adjDividend}), 0)` })
        .from(dividends)
        .where(
          and(eq(dividends.symbol, security.symbol), gt(dividends.date, yearAgo), lte(dividends.date, asOf)),
        )})`.mapWith(Number),
    })
    .from(securities)
    .leftJoin(companyProfiles, eq(companyProfiles.symbol, securities.symbol))
    .where(eq(securities.symbol, security.symbol));
  const type = security.assetType;
  const { price, change, changePercentage } = priceChange(facts, type);
  const image = stored?.image ?? '';
  return {
    symbol: security.symbol,
    price,
    marketCap: marketCap(price, security),
    beta: round(stored?.beta ?? 0, 4),
    lastDividend: round(stored?.lastDividend ?? 0, 4),
    range: `${roundPrice(facts.yearLow, type)}-${roundPrice(facts.yearHigh, type)}`,
    change,
    changePercentage,
    volume: round(facts.volume, 0),
    averageVolume: round(facts.averageVolume, 0),
    companyName: security.name,
    currency: security.currency,
    cik: textOrNull(stored?.cik),
    isin: textOrNull(stored?.isin),
    cusip: textOrNull(stored?.cusip),
    exchangeFullName: security.exchangeFullName,
    exchange: security.exchange,
    industry: security.industry,
    website: stored?.website ?? '',
    description: stored?.description ?? '',
    ceo: stored?.ceo ?? '',
    sector: security.sector,
    country: security.country,
    fullTimeEmployees:
      stored?.fullTimeEmployees === null || stored?.fullTimeEmployees === undefined
        ? null
        : String(stored.fullTimeEmployees),
    phone: stored?.phone ?? '',
    address: stored?.address ?? '',
    city: stored?.city ?? '',
    state: stored?.state ?? '',
    zip: stored?.zip ?? '',
    image,
    ipoDate: textOrNull(stored?.ipoDate),
    defaultImage: image === '',
    isEtf: type === 'etf',
    isActivelyTrading: security.active,
    isAdr: stored?.isAdr ?? false,
    isFund: type === 'fund',
  };
}

/** The company profile of each known symbol with prices, memoized per symbol for a minute. */
export async function profiles(
  db: Db,
  directory: SymbolDirectory,
  symbols: readonly string[],
  now: Date,
): Promise<ProfileRow[]> {
  const asOf = isoDay(now);
  const memo = profileMemo(db);
  const rows: ProfileRow[] = [];
  for (const symbol of symbols) {
    const security = directory.get(symbol);
    if (security === undefined) continue;
    const row = await memo.load(`${security.symbol}|${asOf}`, () => loadProfile(db, security, now));
    if (row !== null) rows.push(row);
  }
  return rows;
}

/** The company's executives in the order the company lists them. */
export async function companyExecutives(db: Db, symbol: string): Promise<KeyExecutiveRow[]> {
  return db
    .select({
      title: keyExecutives.title,
      name: keyExecutives.name,
      pay: keyExecutives.pay,
      currencyPay: keyExecutives.currencyPay,
      gender: keyExecutives.gender,
      yearBorn: keyExecutives.yearBorn,
      active: keyExecutives.active,
    })
    .from(keyExecutives)
    .where(eq(keyExecutives.symbol, symbol))
    .orderBy(asc(keyExecutives.sortOrder), asc(keyExecutives.name));
}

/**
 * Comparable companies: stocks of the same sector trading in the same currency (market values in
 * different currencies do not compare), those of the same industry first, each group by closeness of
 * market capitalisation (ratio, not difference, so a 2 bn company is as close to 1 bn as to 4 bn), at
 * most ten, never the company itself. Stocks without a latest close are skipped.
 */
export async function stockPeers(
  db: Db,
  directory: SymbolDirectory,
  symbol: string,
  now: Date,
): Promise<PeerRow[]> {
  const security = directory.get(symbol);
  if (security?.assetType !== 'stock' || security.sector === '') return [];
  const closes = await latestCloses(db, now);
  const ownClose = closes.get(security.symbol);
  const ownCap = ownClose === undefined ? 0 : ownClose * (security.sharesOutstanding ?? 0);
  const candidates: {
    peer: Security;
    cap: number;
    close: number;
    sameIndustry: boolean;
    distance: number;
  }[] = [];
  for (const peer of directory.list('stock')) {
    if (
      peer.symbol === security.symbol ||
      peer.sector !== security.sector ||
      peer.currency !== security.currency ||
      !peer.active
    ) {
      continue;
    }
    const close = closes.get(peer.symbol);
    if (close === undefined) continue;
    const cap = close * (peer.sharesOutstanding ?? 0);
    const distance = cap > 0 && ownCap > 0 ? Math.abs(Math.log(cap / ownCap)) : Number.MAX_VALUE;
    candidates.push({ peer, cap, close, sameIndustry: peer.industry === security.industry, distance });
  }
  candidates.sort(
    (a, b) =>
      Number(b.sameIndustry) - Number(a.sameIndustry) ||
      a.distance - b.distance ||
      a.peer.symbol.localeCompare(b.peer.symbol),
  );
  return candidates.slice(0, PEERS_LIMIT).map(({ peer, close }) => {
    const price = roundPrice(close, peer.assetType);
    return { symbol: peer.symbol, companyName: peer.name, price, mktCap: marketCap(price, peer) };
  });
}
