import { isoDay, shiftIsoDays, shiftIsoMonths, shiftIsoYears } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import type { AssetType, Security } from '../../db/schema.ts';
import type { SymbolDirectory } from './directory.ts';
import { dailyBars, percentChange, roundPrice } from './prices.ts';
import { priceChange, quoteFacts, quotes, shortQuotes, type QuoteRow, type ShortQuoteRow } from './quotes.ts';

/**
 * Quotes of whole groups of securities (an exchange, an asset type) and a security's price change over
 * the usual horizons. Current prices always come from quotes.ts, so these answers agree with the quote
 * endpoints and the live stream; only the past closes the changes are measured from are read here.
 */

/** Active securities of a directory that match, in symbol order. */
export function securitiesWhere(
  directory: SymbolDirectory,
  keep: (security: Security) => boolean,
): Security[] {
  return directory
    .all()
    .filter((security) => security.active && keep(security))
    .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}

/** Full or short quotes of a list of securities, in the list's order; those without prices are left out. */
export function groupQuotes(
  db: Db,
  directory: SymbolDirectory,
  list: readonly Security[],
  short: boolean,
  now: Date,
): Promise<QuoteRow[] | ShortQuoteRow[]> {
  const symbols = list.map((security) => security.symbol);
  return short ? shortQuotes(db, directory, symbols, now) : quotes(db, directory, symbols, now);
}

/** The horizons of stock-price-change, in FMP's field order. */
export const PRICE_CHANGE_HORIZONS = [
  '1D',
  '5D',
  '1M',
  '3M',
  '6M',
  'ytd',
  '1Y',
  '3Y',
  '5Y',
  '10Y',
  'max',
] as const;
export type PriceChangeHorizon = (typeof PRICE_CHANGE_HORIZONS)[number];

export type PriceChangeRow = { symbol: string } & Record<PriceChangeHorizon, number>;

/** The latest close on or before `date` among bars sorted newest first, or undefined before the first bar. */
function closeOnOrBefore(bars: readonly { date: string; close: number }[], date: string): number | undefined {
  for (const bar of bars) if (bar.date <= date) return bar.close;
  return undefined;
}

/** The date a horizon's change is measured from, given the latest bar's date; 1D, 5D and max are counted in bars. */
function horizonStart(horizon: PriceChangeHorizon, latest: string): string {
  switch (horizon) {
    case '1M':
      return shiftIsoMonths(latest, -1);
    case '3M':
      return shiftIsoMonths(latest, -3);
    case '6M':
      return shiftIsoMonths(latest, -6);
    case 'ytd':
      return shiftIsoDays(`${latest.slice(0, 4)}-01-01`, -1);
    case '1Y':
      return shiftIsoYears(latest, -1);
    case '3Y':
      return shiftIsoYears(latest, -3);
    case '5Y':
      return shiftIsoYears(latest, -5);
    case '10Y':
      return shiftIsoYears(latest, -10);
    default:
      return latest;
  }
}

/**
 * A security's price change in percent over each horizon: from the previous close (1D), the fifth close
 * before the quote's day (5D), the last close on or before the same day one, three or six months or one, three, five
 * or ten years back, the last close of the previous year (ytd) and the first close stored (max), to the
 * current price; closes are split-adjusted, prices rounded as the quote rounds them. A horizon longer
 * than the stored history measures from the first close. Null for a symbol without prices.
 */
export async function stockPriceChange(
  db: Db,
  security: Pick<Security, 'symbol' | 'assetType' | 'exchange'>,
  now: Date,
): Promise<PriceChangeRow | null> {
  const facts = (await quoteFacts(db, [security], now)).get(security.symbol);
  if (facts === undefined) return null;
  const bars = await dailyBars(db, security.symbol, { from: '1900-01-01', to: isoDay(now) }, 'split');
  const type: AssetType = security.assetType;
  const price = roundPrice(facts.price, type);
  const first = bars[bars.length - 1]?.close ?? facts.price;
  // Closes before the quote's day, newest first: the quote's previous close is the first of them.
  const earlier = bars.filter((bar) => bar.date < facts.date);
  const row = { symbol: security.symbol } as PriceChangeRow;
  for (const horizon of PRICE_CHANGE_HORIZONS) {
    if (horizon === '1D') {
      row['1D'] = priceChange(facts, type).changePercentage;
      continue;
    }
    let base: number;
    if (horizon === '5D') base = earlier[4]?.close ?? first;
    else if (horizon === 'max') base = first;
    else base = closeOnOrBefore(earlier, horizonStart(horizon, facts.date)) ?? first;
    const rounded = roundPrice(base, type);
    row[horizon] = percentChange(price - rounded, rounded);
  }
  return row;
}
