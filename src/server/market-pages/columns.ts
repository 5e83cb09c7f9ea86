import { isoDay } from '../../lib/iso-date.ts';
import { formatNumber, formatPercent, formatPrice, priceDigits } from '../../lib/format.ts';
import { overviewPage, symbolKind, symbolPath } from '../../lib/symbol-routes.ts';
import type { Db } from '../db/client.ts';
import type { Security } from '../db/schema.ts';
import { closeTimestamp } from '../services/market-data/quotes.ts';
import { recentBars, type DailyBar } from '../services/market-data/prices.ts';
import { directionOf, sparkline } from './sparkline.ts';
import type { ColumnDef } from './table.ts';
import type { Direction, MarketCell, MarketPageView } from './view.ts';

/** Daily closes each row's sparkline draws: about six weeks of trading, a month and a half of crypto. */
export const SPARKLINE_CLOSES = 30;

/** One security's row on a market page: the figures the columns show, before formatting. */
export interface SymbolRow {
  security: Security;
  price: number | null;
  change: number | null;
  changePercentage: number | null;
  volume: number | null;
  marketCap: number | null;
  /** Searches counted over the most-searched page's window. */
  searches: number | null;
  /** Recent daily closes, oldest first (split-adjusted, as the charts show them). */
  bars: readonly DailyBar[];
}

/**
 * The latest SPARKLINE_CLOSES daily bars of every symbol, oldest first, in one query for the whole
 * table (each symbol read backwards along its primary key), so a page of 50 rows is one round trip.
 */
export async function recentCloses(
  db: Db,
  symbols: readonly string[],
  now: Date,
): Promise<Map<string, DailyBar[]>> {
  const bars = await recentBars(db, symbols, isoDay(now), SPARKLINE_CLOSES);
  return new Map([...bars].map(([symbol, list]) => [symbol, [...list].reverse()]));
}

/** Decimals a security's prices are shown with: forex pairs keep four even above 1 (EURUSD 1.0845). */
export function digitsFor(security: Pick<Security, 'assetType'>, price: number | null): number {
  return security.assetType === 'forex' ? Math.max(4, priceDigits(price)) : priceDigits(price);
}

const DIRECTION_WORDS: Readonly<Record<Direction, string>> = { up: 'up', down: 'down', flat: 'unchanged' };

/** A signed amount ("+4.10", "-0.2500"), so a change reads as one. */
function signedPrice(value: number, digits: number): string {
  const text = formatPrice(value, undefined, digits);
  return value > 0 ? `+${text}` : text;
}

/** The symbol, linked to its own overview page (stocks, indexes, pairs and coins each have theirs). */
export function symbolColumn(label = 'Symbol'): ColumnDef<SymbolRow> {
  return {
    key: 'symbol',
    label,
    numeric: false,
    sortValue: (row) => row.security.symbol,
    cell: (row) => ({
      kind: 'symbol',
      symbol: row.security.symbol,
      name: row.security.name,
      href: symbolPath(overviewPage(symbolKind(row.security.assetType)), row.security.symbol),
    }),
  };
}

export function priceColumn(label = 'Price'): ColumnDef<SymbolRow> {
  return {
    key: 'price',
    label,
    numeric: true,
    sortValue: (row) => row.price,
    cell: (row) => ({
      kind: 'number',
      text: formatPrice(row.price, undefined, digitsFor(row.security, row.price)),
    }),
  };
}

/** The change from the previous close: the percentage, with the amount beneath; sorted by the percentage. */
export function changeColumn(): ColumnDef<SymbolRow> {
  return {
    key: 'change',
    label: 'Change',
    numeric: true,
    sortValue: (row) => row.changePercentage,
    cell: (row) => changeCell(row),
  };
}

function changeCell(row: SymbolRow): MarketCell {
  if (row.change === null || row.changePercentage === null)
    return { kind: 'change', text: formatPercent(null), detail: '', direction: 'flat' };
  return {
    kind: 'change',
    text: formatPercent(row.changePercentage),
    detail: signedPrice(row.change, digitsFor(row.security, row.price)),
    direction: directionOf(0, row.change),
  };
}

/** A whole-number figure column (volume, market capitalisation, searches), abbreviated above 100,000. */
export function figureColumn(key: 'volume' | 'marketCap' | 'searches', label: string): ColumnDef<SymbolRow> {
  return {
    key,
    label,
    numeric: true,
    sortValue: (row) => row[key],
    cell: (row) => ({ kind: 'number', text: formatNumber(row[key], { maximumFractionDigits: 0 }) }),
  };
}

/** The sparkline of the row's recent closes; a picture, so not sortable. */
export function trendColumn(): ColumnDef<SymbolRow> {
  return {
    key: 'trend',
    label: 'Last 30 days',
    // Drawn against the row's end, like the figures, so the header sits over it.
    numeric: true,
    cell: (row) => ({ kind: 'sparkline', sparkline: closesSparkline(row) }),
  };
}

function closesSparkline(row: SymbolRow): ReturnType<typeof sparkline> {
  const closes = row.bars.map((bar) => bar.close);
  const digits = digitsFor(row.security, closes.at(-1) ?? null);
  return sparkline(closes, (first, last, count) => {
    const change = first === 0 ? 0 : ((last - first) / first) * 100;
    const moved = directionOf(first, last);
    const by = moved === 'flat' ? '' : ` ${formatPercent(change)}`;
    return `${row.security.symbol}, ${String(count)} daily closes from ${formatPrice(first, undefined, digits)} to ${formatPrice(last, undefined, digits)}: ${DIRECTION_WORDS[moved]}${by}`;
  });
}

/** Demo when any row's security is demo data: the page is then labelled as such. */
export function sourceOf(securities: readonly Pick<Security, 'source'>[]): MarketPageView['source'] {
  return securities.some((security) => security.source === 'demo') ? 'demo' : 'imported';
}

/** A moment as the pages state it: "Nov 20, 2026, 9:00 PM UTC", with its machine-readable form. */
export function asOfText(unixSeconds: number): { iso: string; text: string } {
  const when = new Date(unixSeconds * 1000);
  const text = when.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  return { iso: when.toISOString(), text: `${text} UTC` };
}

/** The close of a US trading day, the moment lists of US stocks are from. */
export function usCloseAsOf(date: string | null, now: Date): { iso: string; text: string } | null {
  if (date === null) return null;
  return asOfText(closeTimestamp({ exchange: 'NYSE', assetType: 'stock' }, date, now));
}
