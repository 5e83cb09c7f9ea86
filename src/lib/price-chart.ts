/**
 * The price chart's ranges, bar shapes and derived texts, shared by the server render, the chart
 * endpoint and the island so a range reads and summarises the same everywhere.
 */
import {
  formatDate,
  formatDay,
  formatNumber,
  formatPercent,
  formatPrice,
  MISSING_VALUE,
  priceDigits,
} from './format.ts';
import { isoDateInstant, isoWeekStart } from './iso-date.ts';
import type { SymbolKind } from './symbol-routes.ts';

/** The ranges the chart offers, shortest first (the order of the buttons). */
export const CHART_RANGES = ['1D', '5D', '1M', '6M', 'YTD', '1Y', '5Y', 'Max'] as const;
export type ChartRange = (typeof CHART_RANGES)[number];

/** The range the page is rendered with, so the chart draws from the HTML without a request. */
export const DEFAULT_CHART_RANGE: ChartRange = '1Y';

/** Ranges drawn from intraday bars; symbols without intraday prices cannot show them. */
export const INTRADAY_RANGES: ReadonlySet<ChartRange> = new Set<ChartRange>(['1D', '5D']);

/** Words for each range, for the chart's text alternative and messages. */
export const RANGE_NAMES: Readonly<Record<ChartRange, string>> = {
  '1D': '1 day',
  '5D': '5 days',
  '1M': '1 month',
  '6M': '6 months',
  YTD: 'year to date',
  '1Y': '1 year',
  '5Y': '5 years',
  Max: 'all history',
};

/** Width of the bars of an answer. */
export type ChartInterval = '5min' | '30min' | '1day' | '1week';

const INTERVAL_NAMES: Readonly<Record<ChartInterval, string>> = {
  '5min': '5-minute bars',
  '30min': '30-minute bars',
  '1day': 'daily bars',
  '1week': 'weekly bars',
};

/** Long ranges are thinned to weekly bars beyond this many daily points: a canvas shows no more. */
export const MAX_DAILY_POINTS = 1500;

/** The last this many daily bars are listed in the chart's data table. */
export const TABLE_DAYS = 30;

/** Said on the intraday buttons of a symbol without intraday prices. */
export const NO_INTRADAY_TITLE = 'No intraday prices are available for this symbol.';

/**
 * One bar, oldest first in every list. `time` is the trading day (YYYY-MM-DD) of daily and weekly
 * bars, or the exchange-local start of an intraday bar (YYYY-MM-DD HH:mm:ss).
 */
export interface ChartBar {
  time: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** GET /api/market/chart's answer, also the island's initial props. */
export interface ChartAnswer {
  symbol: string;
  range: ChartRange;
  interval: ChartInterval;
  bars: ChartBar[];
}

export function isChartRange(value: unknown): value is ChartRange {
  return typeof value === 'string' && (CHART_RANGES as readonly string[]).includes(value);
}

/** Whether any bar traded volume: forex rates and indexes carry none, and then no histogram is drawn. */
export function hasVolume(bars: readonly ChartBar[]): boolean {
  return bars.some((bar) => bar.volume > 0);
}

/**
 * Decimals the chart shows for a symbol's prices: cents for most, four for currency pairs whose
 * moves happen in the fourth decimal, more for sub-unit prices.
 */
export function chartPriceDigits(kind: SymbolKind, price: number | null | undefined): number {
  const digits = priceDigits(price);
  return kind === 'forex' ? Math.max(4, digits) : digits;
}

/**
 * Daily bars (oldest first) merged per calendar week: the week's first open, highest high, lowest
 * low, last close and summed volume, dated by the week's first trading day.
 */
export function weeklyBars(daily: readonly ChartBar[]): ChartBar[] {
  const weeks: ChartBar[] = [];
  let currentWeek = '';
  let current: ChartBar | undefined;
  for (const bar of daily) {
    const week = isoWeekStart(bar.time.slice(0, 10));
    if (current === undefined || week !== currentWeek) {
      current = { ...bar };
      currentWeek = week;
      weeks.push(current);
    } else {
      current.high = Math.max(current.high, bar.high);
      current.low = Math.min(current.low, bar.low);
      current.close = bar.close;
      current.volume += bar.volume;
    }
  }
  return weeks;
}

/** Change from the range's first open to its last close, in percent; null for an empty range. */
export function rangeChange(bars: readonly ChartBar[]): number | null {
  const first = bars[0];
  const last = bars.at(-1);
  if (first === undefined || last === undefined || first.open === 0) return null;
  return ((last.close - first.open) / first.open) * 100;
}

/**
 * The chart's text alternative: what the range covers, its low, high and change, so a screen
 * reader learns what the picture shows.
 */
export function chartSummary(
  answer: Pick<ChartAnswer, 'symbol' | 'range' | 'interval' | 'bars'>,
  kind: SymbolKind,
  now: Date,
): string {
  const { symbol, range, interval, bars } = answer;
  const first = bars[0];
  const last = bars.at(-1);
  const heading = `${symbol} price chart, ${RANGE_NAMES[range]} in ${INTERVAL_NAMES[interval]}`;
  if (first === undefined || last === undefined) return `${heading}: no prices in this range.`;
  const low = Math.min(...bars.map((bar) => bar.low));
  const high = Math.max(...bars.map((bar) => bar.high));
  const digits = chartPriceDigits(kind, last.close);
  const firstDay = formatDate(isoDateInstant(first.time.slice(0, 10)), now);
  const lastDay = formatDate(isoDateInstant(last.time.slice(0, 10)), now);
  const intraday = first.time.length > 10;
  let span: string;
  if (intraday && first.time.slice(0, 10) === last.time.slice(0, 10)) {
    span = `${firstDay} from ${first.time.slice(11, 16)} to ${last.time.slice(11, 16)} exchange time`;
  } else if (intraday) {
    span = `from ${firstDay} ${first.time.slice(11, 16)} to ${lastDay} ${last.time.slice(11, 16)} exchange time`;
  } else {
    span = `from ${firstDay} to ${lastDay}`;
  }
  return (
    `${heading}, ${span}: low ${formatPrice(low, undefined, digits)}, ` +
    `high ${formatPrice(high, undefined, digits)}, change ${formatPercent(rangeChange(bars))}.`
  );
}

/** The data table's columns, in the order of {@link recentRows}' cells. */
export const TABLE_COLUMNS = [
  { label: 'Date' },
  { label: 'Open', numeric: true },
  { label: 'High', numeric: true },
  { label: 'Low', numeric: true },
  { label: 'Close', numeric: true },
  { label: 'Volume', numeric: true },
  { label: 'Change %', numeric: true },
] as const;

/**
 * The newest `count` daily bars (from bars oldest first) as formatted table rows, newest first; the
 * change is against the previous day's close. Days read as calendar days, like the historical-data
 * table. Volume reads as missing for symbols that trade none.
 */
export function recentRows(
  daily: readonly ChartBar[],
  kind: SymbolKind,
  count: number = TABLE_DAYS,
): string[][] {
  const withVolume = hasVolume(daily);
  const digits = chartPriceDigits(kind, daily.at(-1)?.close);
  const rows: string[][] = [];
  for (let index = daily.length - 1; index >= 0 && rows.length < count; index -= 1) {
    const bar = daily[index];
    if (bar === undefined) continue;
    const previous = daily[index - 1];
    const change =
      previous === undefined || previous.close === 0
        ? null
        : ((bar.close - previous.close) / previous.close) * 100;
    rows.push([
      formatDay(bar.time.slice(0, 10)),
      formatPrice(bar.open, undefined, digits),
      formatPrice(bar.high, undefined, digits),
      formatPrice(bar.low, undefined, digits),
      formatPrice(bar.close, undefined, digits),
      withVolume ? formatNumber(bar.volume) : MISSING_VALUE,
      formatPercent(change),
    ]);
  }
  return rows;
}
