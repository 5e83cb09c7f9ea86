import { map } from 'nanostores';
import { ApiError, NETWORK_ERROR_MESSAGE, PLAN_REQUIRED_STATUS, api } from '../http.ts';
import { isoDayStart } from '../iso-date.ts';
import { openPremiumPopup } from './auth.ts';
import { requireTier } from './plan-access.ts';
import {
  CHART_RANGES,
  RANGE_NAMES,
  type ChartAnswer,
  type ChartBar,
  type ChartInterval,
  type ChartRange,
} from '../price-chart.ts';

/** Where the island asks for ranges the page was not rendered with. */
export const CHART_ENDPOINT = '/api/market/chart';

export type ChartType = 'candles' | 'line';

/** The data tier each range of a symbol's chart needs, as the page was rendered with it. */
export type ChartRangeTiers = Readonly<Record<ChartRange, number>>;

/** Every range open to every plan: the state before a page hands over its own tiers. */
const OPEN_TIERS: ChartRangeTiers = Object.fromEntries(CHART_RANGES.map((range) => [range, 0])) as Record<
  ChartRange,
  number
>;

export interface PriceChartState {
  /** The symbol the state belongs to; a page of another symbol starts afresh. */
  symbol: string;
  /** The data tier each range needs: a range above the visitor's plan offers the premium dialog. */
  tiers: ChartRangeTiers;
  /** The range on screen, with its bars (kept while another range loads or fails). */
  shown: ChartAnswer;
  chartType: ChartType;
  /** The range being fetched, or null. */
  loading: ChartRange | null;
  /** The range whose fetch failed last, for "Try again"; null when nothing failed. */
  failed: ChartRange | null;
  /** Why that fetch failed; '' when nothing failed. */
  error: string;
}

/** The state an island starts with: the range the server rendered, nothing loading, nothing failed. */
export function initialPriceChart(answer: ChartAnswer, tiers: ChartRangeTiers = OPEN_TIERS): PriceChartState {
  return {
    symbol: answer.symbol,
    tiers,
    shown: answer,
    chartType: 'candles',
    loading: null,
    failed: null,
    error: '',
  };
}

export const $priceChart = map<PriceChartState>(
  initialPriceChart({ symbol: '', range: '1Y', interval: '1day', bars: [] }),
);

/** Answers already fetched, per symbol and range, so flipping back costs no request. */
const answers = new Map<string, ChartAnswer>();
let controller: AbortController | undefined;

function key(symbol: string, range: ChartRange): string {
  return `${symbol}|${range}`;
}

/**
 * Takes over the server-rendered range of a symbol. The same symbol keeps its state (the island is
 * mounted again after a client-side navigation back to it); another symbol starts afresh.
 */
export function startPriceChart(answer: ChartAnswer, tiers: ChartRangeTiers = OPEN_TIERS): void {
  answers.set(key(answer.symbol, answer.range), answer);
  if ($priceChart.get().symbol === answer.symbol) return;
  controller?.abort();
  $priceChart.set(initialPriceChart(answer, tiers));
}

/**
 * Shows another range: at once when it was fetched before, otherwise after a request. A range above
 * the visitor's plan (intraday bars, longer history, a symbol outside the free sample) offers the
 * premium dialog instead, as does the server's refusal when the plan turns out not to cover it.
 */
export async function selectRange(range: ChartRange): Promise<void> {
  const state = $priceChart.get();
  if (!requireTier(state.tiers[range])) return;
  const cached = answers.get(key(state.symbol, range));
  if (cached !== undefined) {
    controller?.abort();
    $priceChart.set({ ...state, shown: cached, loading: null, failed: null, error: '' });
    return;
  }
  controller?.abort();
  const request = new AbortController();
  controller = request;
  const symbol = state.symbol;
  $priceChart.set({ ...state, loading: range, failed: null, error: '' });
  try {
    const answer = await api<ChartAnswer>(CHART_ENDPOINT, {
      query: { symbol, range },
      signal: request.signal,
    });
    answers.set(key(symbol, range), answer);
    if (controller !== request) return;
    $priceChart.set({ ...$priceChart.get(), shown: answer, loading: null, failed: null, error: '' });
  } catch (error) {
    if (controller !== request) return;
    const reason = error instanceof ApiError ? error.message : NETWORK_ERROR_MESSAGE;
    if (error instanceof ApiError && error.status === PLAN_REQUIRED_STATUS) openPremiumPopup();
    $priceChart.set({
      ...$priceChart.get(),
      loading: null,
      failed: range,
      error: `The ${RANGE_NAMES[range]} chart could not be loaded. ${reason}`,
    });
  } finally {
    if (controller === request) controller = undefined;
  }
}

/** Asks again for the range that failed last. */
export function retryRange(): Promise<void> {
  const failed = $priceChart.get().failed;
  return failed === null ? Promise.resolve() : selectRange(failed);
}

export function setChartType(chartType: ChartType): void {
  $priceChart.setKey('chartType', chartType);
}

/**
 * A bar's time as the chart's time axis counts it: seconds since 1970 of the exchange-local clock
 * read as UTC, so the axis shows the exchange's hours whatever the reader's time zone.
 */
export function chartTime(time: string): number {
  if (time.length <= 10) return isoDayStart(time) / 1000;
  return Date.parse(`${time.slice(0, 19).replace(' ', 'T')}Z`) / 1000;
}

/** A candle as the chart library takes it. */
export interface CandlePoint {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** A line point or volume bar as the chart library takes it. */
export interface ValuePoint {
  time: number;
  value: number;
  color?: string;
}

/** Whether an interval's axis needs clock times. */
export function isIntraday(interval: ChartInterval): boolean {
  return interval === '5min' || interval === '30min';
}

export function candleData(bars: readonly ChartBar[]): CandlePoint[] {
  return bars.map((bar) => ({
    time: chartTime(bar.time),
    open: bar.open,
    high: bar.high,
    low: bar.low,
    close: bar.close,
  }));
}

export function lineData(bars: readonly ChartBar[]): ValuePoint[] {
  return bars.map((bar) => ({ time: chartTime(bar.time), value: bar.close }));
}

/** Volume bars coloured by the bar's direction (`up` for a close at or above the open). */
export function volumeData(bars: readonly ChartBar[], up: string, down: string): ValuePoint[] {
  return bars.map((bar) => ({
    time: chartTime(bar.time),
    value: bar.volume,
    color: bar.close >= bar.open ? up : down,
  }));
}
