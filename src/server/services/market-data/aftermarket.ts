import type { Db } from '../../db/client.ts';
import type { Security } from '../../db/schema.ts';
import { US_EXCHANGES, type SymbolDirectory } from './directory.ts';
import { liveMarket, type ExtendedTick } from './live-market.ts';
import { storedQuotes } from './quotes.ts';

/** FMP's aftermarket trade: the latest extended-hours trade of a US listing. */
export interface AftermarketTradeRow {
  symbol: string;
  price: number;
  tradeSize: number;
  /** Unix time of the trade in milliseconds. */
  timestamp: number;
}

/** FMP's aftermarket quote: the extended-hours book with the day's volume. */
export interface AftermarketQuoteRow {
  symbol: string;
  bidSize: number;
  bidPrice: number;
  askSize: number;
  askPrice: number;
  volume: number;
  /** Unix time of the quote in milliseconds. */
  timestamp: number;
}

/** US listings of a request that trade in extended hours, once each, in the order asked. */
function extendedListings(directory: SymbolDirectory, symbols: readonly string[]): Security[] {
  const seen = new Set<string>();
  const found: Security[] = [];
  for (const symbol of symbols) {
    const security = directory.get(symbol);
    if (security === undefined || seen.has(security.symbol) || !US_EXCHANGES.has(security.exchange)) continue;
    if (security.assetType !== 'stock' && security.assetType !== 'etf') continue;
    seen.add(security.symbol);
    found.push(security);
  }
  return found;
}

/**
 * The latest extended-hours ticks (pre-market 04:00–09:30, after-hours 16:00–20:00 New York, 13:00–17:00 after
 * an early close) of US stocks
 * and ETFs at `now`, from the live market (demo), with the day's volume; other symbols are left out.
 */
async function extendedTicks(
  db: Db,
  directory: SymbolDirectory,
  symbols: readonly string[],
  now: Date,
): Promise<{ tick: ExtendedTick; volume: number }[]> {
  const listings = extendedListings(directory, symbols);
  const stored = await storedQuotes(
    db,
    listings.map((security) => security.symbol),
    now,
  );
  const market = liveMarket();
  const ticks: { tick: ExtendedTick; volume: number }[] = [];
  for (const security of listings) {
    const facts = stored.get(security.symbol);
    if (facts === undefined) continue;
    const tick = market.extendedTick(security, facts, now.getTime());
    if (tick !== null) ticks.push({ tick, volume: market.facts(security, facts, now.getTime()).volume });
  }
  return ticks;
}

/** The latest extended-hours trade of each US stock or ETF asked for, in the order asked. */
export async function aftermarketTrades(
  db: Db,
  directory: SymbolDirectory,
  symbols: readonly string[],
  now: Date,
): Promise<AftermarketTradeRow[]> {
  return (await extendedTicks(db, directory, symbols, now)).map(({ tick }) => ({
    symbol: tick.symbol,
    price: tick.price,
    tradeSize: tick.tradeSize,
    timestamp: tick.at,
  }));
}

/** The extended-hours book of each US stock or ETF asked for, in the order asked. */
export async function aftermarketQuotes(
  db: Db,
  directory: SymbolDirectory,
  symbols: readonly string[],
  now: Date,
): Promise<AftermarketQuoteRow[]> {
  return (await extendedTicks(db, directory, symbols, now)).map(({ tick, volume }) => ({
    symbol: tick.symbol,
    bidSize: tick.bidSize,
    bidPrice: tick.bidPrice,
    askSize: tick.askSize,
    askPrice: tick.askPrice,
    volume,
    timestamp: tick.at,
  }));
}
