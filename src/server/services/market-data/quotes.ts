import { DAY_MS, isoDay, isoDayStart, shiftIsoYears } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import type { AssetType, Security } from '../../db/schema.ts';
import type { SymbolDirectory } from './directory.ts';
import { liveMarket, type StoredQuote } from './live-market.ts';
import { marketKind, sessionCloseInstant } from './market-session.ts';
import { memoPerDatabase } from './memo.ts';
import { percentChange, recentBars, round, roundPrice, type DailyBar } from './prices.ts';

/** What a quote is computed from: the latest daily bars, split-adjusted, before any rounding. */
export interface QuoteFacts {
  symbol: string;
  /** Date of the latest bar. */
  date: string;
  price: number;
  previousClose: number;
  open: number;
  dayLow: number;
  dayHigh: number;
  volume: number;
  yearHigh: number;
  yearLow: number;
  priceAvg50: number;
  priceAvg200: number;
  /** Mean daily volume over the last AVERAGE_VOLUME_DAYS bars. */
  averageVolume: number;
}

export interface QuoteRow {
  symbol: string;
  name: string;
  price: number;
  changePercentage: number;
  change: number;
  volume: number;
  dayLow: number;
  dayHigh: number;
  yearHigh: number;
  yearLow: number;
  marketCap: number;
  priceAvg50: number;
  priceAvg200: number;
  exchange: string;
  open: number;
  previousClose: number;
  timestamp: number;
}

export interface ShortQuoteRow {
  symbol: string;
  price: number;
  change: number;
  volume: number;
}

/** Bars read per symbol: a calendar year even for markets that trade every day, which also covers 200 closes. */
const BARS_PER_QUOTE = 370;
/** About three months of trading days. */
export const AVERAGE_VOLUME_DAYS = 63;

const QUOTE_TTL_MS = 15_000;
const quoteMemo = memoPerDatabase<StoredQuote | null>({ max: 5_000, ttlMs: QUOTE_TTL_MS });

function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** Derives a quote from bars, newest first; exported so pages and tests can check the arithmetic. */
export function quoteFromBars(symbol: string, bars: readonly DailyBar[]): QuoteFacts | null {
  const last = bars[0];
  if (last === undefined) return null;
  const yearStart = shiftIsoYears(last.date, -1);
  let yearHigh = -Infinity;
  let yearLow = Infinity;
  for (const bar of bars) {
    if (bar.date <= yearStart) break;
    yearHigh = Math.max(yearHigh, bar.high);
    yearLow = Math.min(yearLow, bar.low);
  }
  return {
    symbol,
    date: last.date,
    price: last.close,
    // A first trading day has no earlier close: its open stands in, as the listing price.
    previousClose: bars[1]?.close ?? last.open,
    open: last.open,
    dayLow: last.low,
    dayHigh: last.high,
    volume: last.volume,
    yearHigh,
    yearLow,
    priceAvg50: mean(bars.slice(0, 50).map((bar) => bar.close)),
    priceAvg200: mean(bars.slice(0, 200).map((bar) => bar.close)),
    averageVolume: mean(bars.slice(0, AVERAGE_VOLUME_DAYS).map((bar) => bar.volume)),
  };
}

/** The stored facts of a symbol's latest bar and of the bar before it, from bars newest first. */
function storedQuote(symbol: string, bars: readonly DailyBar[]): StoredQuote | null {
  const latest = quoteFromBars(symbol, bars);
  if (latest === null) return null;
  return { latest, earlier: quoteFromBars(symbol, bars.slice(1)) };
}

/**
 * The stored facts of several symbols as of `now` (bars after its date are ignored), memoized per symbol
 * for 15 s; the symbols not in memory are read in one query. Symbols without bars are absent.
 */
export async function storedQuotes(
  db: Db,
  symbols: readonly string[],
  now: Date,
): Promise<Map<string, StoredQuote>> {
  const asOf = isoDay(now);
  const memo = quoteMemo(db);
  const found = new Map<string, StoredQuote>();
  const missing: string[] = [];
  for (const symbol of symbols) {
    const cached = memo.get(`${symbol}|${asOf}`);
    if (cached === undefined) missing.push(symbol);
    else if (cached !== null) found.set(symbol, cached);
  }
  const [only] = missing;
  if (missing.length === 1 && only !== undefined) {
    const symbol = only;
    const stored = await memo.load(`${symbol}|${asOf}`, async () => {
      const bars = await recentBars(db, [symbol], asOf, BARS_PER_QUOTE);
      return storedQuote(symbol, bars.get(symbol) ?? []);
    });
    if (stored !== null) found.set(symbol, stored);
  } else if (missing.length > 1) {
    const bars = await recentBars(db, missing, asOf, BARS_PER_QUOTE);
    for (const symbol of missing) {
      const stored = storedQuote(symbol, bars.get(symbol) ?? []);
      memo.set(`${symbol}|${asOf}`, stored);
      if (stored !== null) found.set(symbol, stored);
    }
  }
  return found;
}

/** A security as far as its live price needs it. */
export type QuotedSecurity = Pick<Security, 'symbol' | 'assetType' | 'exchange'>;

/**
 * Quote facts of several securities at `now`: the live market's price during each market's session
 * (demo prices simulated around the stored bars), the stored close outside it.
 */
export async function quoteFacts(
  db: Db,
  securities: readonly QuotedSecurity[],
  now: Date,
): Promise<Map<string, QuoteFacts>> {
  const stored = await storedQuotes(
    db,
    securities.map((security) => security.symbol),
    now,
  );
  const market = liveMarket();
  const found = new Map<string, QuoteFacts>();
  for (const security of securities) {
    const facts = stored.get(security.symbol);
    if (facts !== undefined) found.set(security.symbol, market.facts(security, facts, now.getTime()));
  }
  return found;
}

/**
 * Unix seconds of a bar's session close, never after `now`: the exchange calendar's close of the bar's day
 * (early closes included, daylight saving too), midnight UTC for crypto and forex.
 */
export function closeTimestamp(
  security: Pick<Security, 'exchange' | 'assetType'>,
  date: string,
  now: Date,
): number {
  const instant =
    marketKind(security.assetType) === 'exchange'
      ? sessionCloseInstant(security, date)
      : isoDayStart(date) + DAY_MS;
  return Math.floor(Math.min(instant, now.getTime()) / 1000);
}

/** Price, change and change percentage rounded consistently: change is the difference of the rounded prices. */
export function priceChange(
  facts: Pick<QuoteFacts, 'price' | 'previousClose'>,
  assetType: AssetType,
): { price: number; previousClose: number; change: number; changePercentage: number } {
  const price = roundPrice(facts.price, assetType);
  const previousClose = roundPrice(facts.previousClose, assetType);
  const change = roundPrice(price - previousClose, assetType);
  return {
    price,
    previousClose,
    change,
    changePercentage: percentChange(price - previousClose, previousClose),
  };
}

/** Market capitalisation at a price, in the quote currency; 0 where shares mean nothing (forex, indexes). */
export function marketCap(price: number, security: Pick<Security, 'sharesOutstanding'>): number {
  const shares = security.sharesOutstanding;
  if (shares === null || !Number.isFinite(shares)) return 0;
  return round(price * shares, 0);
}

function quoteRow(security: Security, facts: QuoteFacts, now: Date): QuoteRow {
  const type = security.assetType;
  const { price, previousClose, change, changePercentage } = priceChange(facts, type);
  return {
    symbol: security.symbol,
    name: security.name,
    price,
    changePercentage,
    change,
    volume: round(facts.volume, 0),
    dayLow: roundPrice(facts.dayLow, type),
    dayHigh: roundPrice(facts.dayHigh, type),
    yearHigh: roundPrice(facts.yearHigh, type),
    yearLow: roundPrice(facts.yearLow, type),
    marketCap: marketCap(price, security),
    priceAvg50: roundPrice(facts.priceAvg50, type),
    priceAvg200: roundPrice(facts.priceAvg200, type),
    exchange: security.exchange,
    open: roundPrice(facts.open, type),
    previousClose,
    timestamp: closeTimestamp(security, facts.date, now),
  };
}

/** Known symbols of a request, once each, in the order asked. */
function knownSecurities(directory: SymbolDirectory, symbols: readonly string[]): Security[] {
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

/** Full quotes in the order asked; unknown symbols and symbols without prices are left out (FMP answers []). */
export async function quotes(
  db: Db,
  directory: SymbolDirectory,
  symbols: readonly string[],
  now: Date,
): Promise<QuoteRow[]> {
  const known = knownSecurities(directory, symbols);
  const facts = await quoteFacts(db, known, now);
  const rows: QuoteRow[] = [];
  for (const security of known) {
    const found = facts.get(security.symbol);
    if (found !== undefined) rows.push(quoteRow(security, found, now));
  }
  return rows;
}

/** Price, change and volume only, for tickers and watch lists. */
export async function shortQuotes(
  db: Db,
  directory: SymbolDirectory,
  symbols: readonly string[],
  now: Date,
): Promise<ShortQuoteRow[]> {
  const known = knownSecurities(directory, symbols);
  const facts = await quoteFacts(db, known, now);
  const rows: ShortQuoteRow[] = [];
  for (const security of known) {
    const found = facts.get(security.symbol);
    if (found === undefined) continue;
    const { price, change } = priceChange(found, security.assetType);
    rows.push({ symbol: security.symbol, price, change, volume: round(found.volume, 0) });
  }
  return rows;
}
