import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { isoDay, shiftIsoYears } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import { companyProfiles, dividends, keyExecutives, securities, type Security } from '../../db/schema.ts';
import type { SymbolDirectory } from './directory.ts';
import { memoPerDatabase } from './memo.ts';
import { latestCloses } from './movers.ts';
import { round, roundPrice } from './prices.ts';
import { marketCap, priceChange, quoteFacts, type QuoteFacts } from './quotes.ts';

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

/** What a profile reads from the stored company facts, with the trailing year's dividends per share. */
interface StoredProfile {
  description: string | null;
  ceo: string | null;
  website: string | null;
  phone: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  cik: string | null;
  isin: string | null;
  cusip: string | null;
  fullTimeEmployees: number | null;
  ipoDate: string | null;
  image: string | null;
  beta: number | null;
  isAdr: boolean | null;
  lastDividend: number;
}

/**
 * The stored facts of several securities whose trailing dividend year starts after `yearAgo`, in one
 * query (securities without a company profile, such as coins and indexes, have empty facts).
 */
async function storedProfiles(
  db: Db,
  symbols: readonly string[],
  yearAgo: string,
  asOf: string,
): Promise<Map<string, StoredProfile>> {
  const rows = await db
    .select({
      symbol: securities.symbol,
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
          and(
            eq(dividends.symbol, securities.symbol),
            gt(dividends.date, yearAgo),
            lte(dividends.date, asOf),
          ),
        )})`.mapWith(Number),
    })
    .from(securities)
    .leftJoin(companyProfiles, eq(companyProfiles.symbol, securities.symbol))
    .where(inArray(securities.symbol, [...symbols]));
  return new Map(rows.map(({ symbol, ...stored }) => [symbol, stored]));
}

/** A profile row from the security, its quote facts and its stored company facts. */
function profileRow(security: Security, facts: QuoteFacts, stored: StoredProfile | undefined): ProfileRow {
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

/**
 * Company facts with the latest price of several securities, in their order (those without a daily
 * bar are left out): the quotes in one query, the profiles plus the trailing year's dividends in one
 * query per distinct latest-bar date (one for nearly every batch). The profile endpoint asks for one
 * security, the bulk file for a batch: both build their rows here, so they answer the same values.
 */
export async function loadProfiles(db: Db, batch: readonly Security[], now: Date): Promise<ProfileRow[]> {
  const asOf = isoDay(now);
  const facts = await quoteFacts(db, batch, now);
  const byYearAgo = new Map<string, string[]>();
  for (const [symbol, fact] of facts) {
    const yearAgo = shiftIsoYears(fact.date, -1);
    const list = byYearAgo.get(yearAgo);
    if (list === undefined) byYearAgo.set(yearAgo, [symbol]);
    else list.push(symbol);
  }
  const stored = new Map<string, StoredProfile>();
  for (const [yearAgo, symbols] of byYearAgo) {
    for (const [symbol, row] of await storedProfiles(db, symbols, yearAgo, asOf)) stored.set(symbol, row);
  }
  const rows: ProfileRow[] = [];
  for (const security of batch) {
    const fact = facts.get(security.symbol);
    if (fact !== undefined) rows.push(profileRow(security, fact, stored.get(security.symbol)));
  }
  return rows;
}

/** One security's profile (see {@link loadProfiles}); null without a daily bar. */
async function loadProfile(db: Db, security: Security, now: Date): Promise<ProfileRow | null> {
  const [row] = await loadProfiles(db, [security], now);
  return row ?? null;
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
  const pool: PeerCandidate[] = [];
  for (const peer of directory.list('stock')) {
    if (peer.sector !== security.sector || peer.currency !== security.currency) continue;
    const candidate = peerCandidate(peer, closes);
    if (candidate !== undefined) pool.push(candidate);
  }
  return closestPeers(security, capOf(security, closes), pool);
}

/** A stock a peer list may name, with its latest close and its market capitalisation at that close. */
interface PeerCandidate {
  peer: Security;
  close: number;
  cap: number;
}

/** The stock as a candidate peer, or undefined when it cannot be one (delisted, no latest close). */
function peerCandidate(peer: Security, closes: ReadonlyMap<string, number>): PeerCandidate | undefined {
  const close = closes.get(peer.symbol);
  if (!peer.active || close === undefined) return undefined;
  return { peer, close, cap: close * (peer.sharesOutstanding ?? 0) };
}

function capOf(security: Security, closes: ReadonlyMap<string, number>): number {
  const close = closes.get(security.symbol);
  return close === undefined ? 0 : close * (security.sharesOutstanding ?? 0);
}

/** A candidate placed: same industry first, then the closest capitalisation, then by symbol. */
interface RankedPeer extends PeerCandidate {
  sameIndustry: boolean;
  distance: number;
}

function ranksBefore(sameIndustry: boolean, distance: number, symbol: string, other: RankedPeer): boolean {
  if (sameIndustry !== other.sameIndustry) return sameIndustry;
  if (distance !== other.distance) return distance < other.distance;
  return symbol.localeCompare(other.peer.symbol) < 0;
}

/**
 * The peers of a stock of capitalisation `ownCap` among `pool` (stocks of its sector and currency):
 * the {@link PEERS_LIMIT} first in peer order, kept in a short ordered list as the pool is read
 * once, so a market-wide file ranks each stock in one pass over its pool rather than a sort of it.
 */
function closestPeers(security: Security, ownCap: number, pool: Iterable<PeerCandidate>): PeerRow[] {
  const best: RankedPeer[] = [];
  for (const candidate of pool) {
    const { peer, cap } = candidate;
    if (peer.symbol === security.symbol) continue;
    const sameIndustry = peer.industry === security.industry;
    const distance = cap > 0 && ownCap > 0 ? Math.abs(Math.log(cap / ownCap)) : Number.MAX_VALUE;
    const last = best[PEERS_LIMIT - 1];
    if (last !== undefined && !ranksBefore(sameIndustry, distance, peer.symbol, last)) continue;
    let at = best.length;
    for (let above = best[at - 1]; above !== undefined; above = best[at - 1]) {
      if (!ranksBefore(sameIndustry, distance, peer.symbol, above)) break;
      at -= 1;
    }
    best.splice(at, 0, { ...candidate, sameIndustry, distance });
    if (best.length > PEERS_LIMIT) best.pop();
  }
  return best.map(({ peer, close }) => {
    const price = roundPrice(close, peer.assetType);
    return { symbol: peer.symbol, companyName: peer.name, price, mktCap: marketCap(price, peer) };
  });
}

/** Every stock's peers, from pools built once: what the peers file asks of each stock. */
export interface PeerIndex {
  /** What {@link stockPeers} answers for the symbol. */
  peersOf(symbol: string): PeerRow[];
}

/**
 * The peers of every stock at once: the candidates grouped once by sector and currency, and within
 * those by industry, so each stock is ranked against its own industry's pool (its whole sector's
 * only when the industry holds fewer than ten others) instead of the whole directory. Same answers
 * as {@link stockPeers}, in time proportional to the pools instead of the directory squared.
 */
export async function peerIndex(db: Db, directory: SymbolDirectory, now: Date): Promise<PeerIndex> {
  const closes = await latestCloses(db, now);
  const pools = new Map<string, { all: PeerCandidate[]; byIndustry: Map<string, PeerCandidate[]> }>();
  for (const peer of directory.list('stock')) {
    const candidate = peerCandidate(peer, closes);
    if (candidate === undefined) continue;
    const key = `${peer.sector}|${peer.currency}`;
    let pool = pools.get(key);
    if (pool === undefined) {
      pool = { all: [], byIndustry: new Map() };
      pools.set(key, pool);
    }
    pool.all.push(candidate);
    const industry = pool.byIndustry.get(peer.industry);
    if (industry === undefined) pool.byIndustry.set(peer.industry, [candidate]);
    else industry.push(candidate);
  }
  return {
    peersOf: (symbol) => {
      const security = directory.get(symbol);
      if (security?.assetType !== 'stock' || security.sector === '') return [];
      const pool = pools.get(`${security.sector}|${security.currency}`);
      if (pool === undefined) return [];
      const ownCap = capOf(security, closes);
      // Same-industry peers always come first: only a short industry needs the rest of the sector.
      const peers = closestPeers(security, ownCap, pool.byIndustry.get(security.industry) ?? []);
      return peers.length === PEERS_LIMIT ? peers : closestPeers(security, ownCap, pool.all);
    },
  };
}
