import { shiftIsoDays } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import type { Security } from '../../db/schema.ts';
import type { PlanAccess } from './plan-access.ts';
import {
  historicalFull,
  intradayChart,
  resolveDailyRange,
  type DateRange,
  type IntradayInterval,
} from './prices.ts';
import { INDICATOR_FIELDS, indicatorSeries, type Indicator } from './technical-indicators.ts';

/** The timeframes an indicator is computed on: the intraday chart intervals and daily bars. */
export const TIMEFRAMES = ['1min', '5min', '15min', '30min', '1hour', '4hour', '1day'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

/** An indicator request as the API takes it. */
export interface IndicatorQuery {
  symbol: string;
  periodLength: number;
  timeframe: Timeframe;
  from?: string | undefined;
  to?: string | undefined;
}

/** One answer row: the bar as the charts answer it, then the indicator's value under its FMP name. */
export type IndicatorRow = {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
} & Record<string, number | string>;

/** The first day of the stored history: indicators always start from it, whatever window is asked for. */
const SERIES_START = '1900-01-01';

/** Calendar days an intraday answer covers without a start: a trading week back from the latest bar. */
const DEFAULT_INTRADAY_DAYS = 6;

interface ChartBar {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/**
 * Bars of the timeframe from the start of the stored series up to the window's end, oldest first, and
 * the window answered: an indicator at a date never depends on the window asked for (EMA, RSI and ADX
 * carry their whole past), so the same date always shows the same value.
 */
async function barsAndWindow(
  db: Db,
  security: Pick<Security, 'symbol' | 'assetType'>,
  query: IndicatorQuery,
  plan: PlanAccess,
  now: Date,
): Promise<{ bars: ChartBar[]; window: DateRange }> {
  if (query.timeframe === '1day') {
    const window = resolveDailyRange(query, plan, now);
    const rows = await historicalFull(db, security, { from: SERIES_START, to: window.to });
    return { bars: rows.toReversed(), window };
  }
  const interval: IntradayInterval = query.timeframe;
  const rows = await intradayChart(db, security, interval, { from: SERIES_START, to: query.to });
  const latestDay = rows[0]?.date.slice(0, 10) ?? query.to ?? SERIES_START;
  const window = {
    from: query.from ?? shiftIsoDays(latestDay, -DEFAULT_INTRADAY_DAYS),
    to: query.to ?? latestDay,
  };
  return { bars: rows.toReversed(), window };
}

/**
 * The rows of `technical-indicators/<indicator>`: each bar of the window with the indicator's value,
 * newest first; bars before the indicator has enough history (its warm-up) are left out.
 */
export async function indicatorRows(
  db: Db,
  security: Pick<Security, 'symbol' | 'assetType'>,
  indicator: Indicator,
  query: IndicatorQuery,
  plan: PlanAccess,
  now: Date,
): Promise<IndicatorRow[]> {
  const { bars, window } = await barsAndWindow(db, security, query, plan, now);
  const values = indicatorSeries(indicator, bars, query.periodLength);
  const field = INDICATOR_FIELDS[indicator];
  const rows: IndicatorRow[] = [];
  for (let index = bars.length - 1; index >= 0; index -= 1) {
    const bar = bars[index];
    const value = values[index];
    if (bar === undefined || value === undefined || !Number.isFinite(value)) continue;
    const day = bar.date.slice(0, 10);
    if (day < window.from || day > window.to) continue;
    rows.push({
      date: bar.date,
      open: bar.open,
      high: bar.high,
      low: bar.low,
      close: bar.close,
      volume: bar.volume,
      [field]: value,
    });
  }
  return rows;
}
