import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { intradayPrices, type Security } from '../db/schema.ts';
import {
  historicalFull,
  intradayChart,
  recentBars,
  type DateRange,
  type IntradayBar,
} from '../services/market-data/prices.ts';
import { isoDay, shiftIsoDays, shiftIsoMonths, shiftIsoYears } from '../../lib/iso-date.ts';
import { symbolTier } from '../services/market-data/directory.ts';
import { INTRADAY_TIER } from '../services/market-data/plan-access.ts';
import {
  CHART_RANGES,
  DEFAULT_CHART_RANGE,
  INTRADAY_RANGES,
  MAX_DAILY_POINTS,
  weeklyBars,
  type ChartAnswer,
  type ChartBar,
  type ChartRange,
} from '../../lib/price-chart.ts';
import type { SymbolKind } from '../../lib/symbol-routes.ts';
import type { SymbolPageContext } from './resolver.ts';

/** The first day "Max" asks for: before any listing the data holds. */
const EARLIEST_DAY = '1900-01-01';

/** Trading days the 5D range shows. */
const FIVE_DAYS = 5;

/** The days a daily range covers, ending on the symbol's latest bar. */
export function dailyWindow(range: Exclude<ChartRange, '1D' | '5D'>, latest: string): DateRange {
  switch (range) {
    case '1M':
      return { from: shiftIsoDays(shiftIsoMonths(latest, -1), 1), to: latest };
    case '6M':
      return { from: shiftIsoDays(shiftIsoMonths(latest, -6), 1), to: latest };
    case 'YTD':
      return { from: `${latest.slice(0, 4)}-01-01`, to: latest };
    case '1Y':
      return { from: shiftIsoDays(shiftIsoYears(latest, -1), 1), to: latest };
    case '5Y':
      return { from: shiftIsoDays(shiftIsoYears(latest, -5), 1), to: latest };
    case 'Max':
      return { from: EARLIEST_DAY, to: latest };
  }
}

function intradayToChart(bar: IntradayBar): ChartBar {
  return {
    time: bar.date,
    open: bar.open,
    high: bar.high,
    low: bar.low,
    close: bar.close,
    volume: bar.volume,
  };
}

/** Intraday bars (newest first) of the latest `days` trading days, oldest first. */
function latestDays(bars: readonly IntradayBar[], days: number): ChartBar[] {
  const kept: ChartBar[] = [];
  const seen = new Set<string>();
  for (const bar of bars) {
    const day = bar.date.slice(0, 10);
    if (!seen.has(day)) {
      if (seen.size === days) break;
      seen.add(day);
    }
    kept.push(intradayToChart(bar));
  }
  return kept.reverse();
}

/** Whether the symbol has any intraday bars, so the 1D and 5D ranges can be offered. */
export async function hasIntradayBars(db: Db, symbol: string): Promise<boolean> {
  const rows = await db
    .select({ symbol: intradayPrices.symbol })
    .from(intradayPrices)
    .where(eq(intradayPrices.symbol, symbol))
    .limit(1);
  return rows.length > 0;
}

/** Years of daily history each daily range reads; "Max" reads whatever the plan reads, so it asks for none. */
export const RANGE_YEARS: Readonly<Record<Exclude<ChartRange, '1D' | '5D'>, number>> = {
  '1M': 1,
  '6M': 1,
  YTD: 1,
  '1Y': 1,
  '5Y': 5,
  Max: 0,
};

/**
 * The data tier each range of a symbol's chart needs: the symbol's own, raised to intraday bars' for
 * 1D and 5D. The island offers the premium dialog instead of asking for a range above the visitor's
 * plan; the chart endpoint enforces the plan itself. How far back 5Y and Max may reach is not a tier
 * (Free reads five years, a signed-out visitor one, both at the sample's tier), so the server's
 * refusal decides those ranges and offers the dialog.
 */
export function chartRangeTiers(
  security: Pick<Security, 'sample' | 'assetType' | 'exchange'>,
): Record<ChartRange, number> {
  const base = symbolTier(security);
  const tiers = {} as Record<ChartRange, number>;
  for (const range of CHART_RANGES) {
    tiers[range] = INTRADAY_RANGES.has(range) ? Math.max(base, INTRADAY_TIER) : base;
  }
  return tiers;
}

/**
 * One range of the price chart: 5-minute bars of the latest session for 1D, 30-minute bars of the
 * latest five sessions for 5D, split-adjusted daily bars up to the latest close for the others, thinned
 * to weekly bars when a long range has more points than a chart can show. With `historyYears` (a
 * plan's reach; null for all of it) no daily bar older than that many years before the latest is read.
 */
export async function loadPriceChart(
  db: Db,
  security: Pick<Security, 'symbol' | 'assetType'>,
  range: ChartRange,
  now: Date,
  historyYears?: number | null,
): Promise<ChartAnswer> {
  const symbol = security.symbol;
  if (range === '1D') {
    const bars = await intradayChart(db, security, '5min', {});
    return { symbol, range, interval: '5min', bars: latestDays(bars, 1) };
  }
  if (range === '5D') {
    const bars = await intradayChart(db, security, '30min', {});
    return { symbol, range, interval: '30min', bars: latestDays(bars, FIVE_DAYS) };
  }
  const latest = (await recentBars(db, [symbol], isoDay(now), 1)).get(symbol)?.[0]?.date;
  if (latest === undefined) return { symbol, range, interval: '1day', bars: [] };
  const window = dailyWindow(range, latest);
  if (historyYears !== undefined && historyYears !== null) {
    const reach = shiftIsoDays(shiftIsoYears(latest, -historyYears), 1);
    if (window.from < reach) window.from = reach;
  }
  const rows = await historicalFull(db, security, window);
  const daily: ChartBar[] = rows
    .map((row) => ({
      time: row.date,
      open: row.open,
      high: row.high,
      low: row.low,
      close: row.close,
      volume: row.volume,
    }))
    .reverse();
  if ((range === '5Y' || range === 'Max') && daily.length > MAX_DAILY_POINTS) {
    return { symbol, range, interval: '1week', bars: weeklyBars(daily) };
  }
  return { symbol, range, interval: '1day', bars: daily };
}

/** What the chart page shows: the default range drawn at once, and whether 1D and 5D are offered. */
export interface ChartView {
  symbol: string;
  kind: SymbolKind;
  /** The default range, embedded in the HTML so the chart draws without a request. */
  initial: ChartAnswer;
  intraday: boolean;
  /** The data tier each range needs (see chartRangeTiers). */
  tiers: Record<ChartRange, number>;
  /** When the page was made (ISO), so the island counts ranges from the same moment. */
  now: string;
}

/** Reads the chart page of any asset type. */
export async function loadChart(context: SymbolPageContext): Promise<ChartView> {
  const { db, security, kind, now } = context;
  const [initial, intraday] = await Promise.all([
    loadPriceChart(db, security, DEFAULT_CHART_RANGE, now),
    hasIntradayBars(db, security.symbol),
  ]);
  return {
    symbol: security.symbol,
    kind,
    initial,
    intraday,
    tiers: chartRangeTiers(security),
    now: now.toISOString(),
  };
}
