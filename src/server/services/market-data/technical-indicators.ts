/**
 * The technical indicators of the `technical-indicators/*` endpoints as pure functions over bars in time
 * order (oldest first). Each returns one value per bar, `undefined` while the indicator is still warming
 * up, so the caller decides which bars to answer. The formulas and their warm-up conventions are written
 * out on the documentation's page `src/content/docs/technical-indicators.md`; nothing here reads storage.
 */

/** The prices of one bar an indicator reads. */
export interface IndicatorBar {
  high: number;
  low: number;
  close: number;
}

/** One value per input, undefined before the indicator has enough bars. */
export type IndicatorSeries = (number | undefined)[];

/** The indicators the API serves, by the path FMP gives them. */
export const INDICATORS = [
  'sma',
  'ema',
  'wma',
  'dema',
  'tema',
  'rsi',
  'standarddeviation',
  'williams',
  'adx',
] as const;
export type Indicator = (typeof INDICATORS)[number];

/** The field each indicator's value is answered under (FMP's names). */
export const INDICATOR_FIELDS: Readonly<Record<Indicator, string>> = {
  sma: 'sma',
  ema: 'ema',
  wma: 'wma',
  dema: 'dema',
  tema: 'tema',
  rsi: 'rsi',
  standarddeviation: 'standardDeviation',
  williams: 'williams',
  adx: 'adx',
};

function closesOf(bars: readonly IndicatorBar[]): number[] {
  return bars.map((bar) => bar.close);
}

/** Simple moving average of the last `period` values; defined from the `period`-th value on. */
export function sma(values: readonly number[], period: number): IndicatorSeries {
  const out: IndicatorSeries = [];
  let sum = 0;
  values.forEach((value, index) => {
    sum += value;
    if (index >= period) sum -= values[index - period] ?? 0;
    out.push(index >= period - 1 ? sum / period : undefined);
  });
  return out;
}

/**
 * Exponential moving average with α = 2 / (period + 1), seeded by the simple average of the first
 * `period` defined values; undefined inputs (a series still warming up) are skipped until the seed.
 */
export function ema(values: readonly (number | undefined)[], period: number): IndicatorSeries {
  const alpha = 2 / (period + 1);
  const out: IndicatorSeries = [];
  const seed: number[] = [];
  let previous: number | undefined;
  for (const value of values) {
    if (value === undefined) {
      out.push(undefined);
    } else if (previous === undefined) {
      seed.push(value);
      if (seed.length === period) previous = seed.reduce((sum, item) => sum + item, 0) / period;
      out.push(previous);
    } else {
      previous = alpha * value + (1 - alpha) * previous;
      out.push(previous);
    }
  }
  return out;
}

/** Linearly weighted moving average: the newest value weighs `period`, the oldest 1. */
export function wma(values: readonly number[], period: number): IndicatorSeries {
  const divisor = (period * (period + 1)) / 2;
  return values.map((_, index) => {
    if (index < period - 1) return undefined;
    let sum = 0;
    for (let weight = 1; weight <= period; weight += 1)
      sum += weight * (values[index - period + weight] ?? 0);
    return sum / divisor;
  });
}

/** Double EMA: 2·EMA − EMA(EMA), defined from bar 2·period − 1. */
export function dema(values: readonly number[], period: number): IndicatorSeries {
  const first = ema(values, period);
  const second = ema(first, period);
  return first.map((value, index) => {
    const smoothed = second[index];
    return value === undefined || smoothed === undefined ? undefined : 2 * value - smoothed;
  });
}

/** Triple EMA: 3·EMA − 3·EMA(EMA) + EMA(EMA(EMA)), defined from bar 3·period − 2. */
export function tema(values: readonly number[], period: number): IndicatorSeries {
  const first = ema(values, period);
  const second = ema(first, period);
  const third = ema(second, period);
  return first.map((value, index) => {
    const double = second[index];
    const triple = third[index];
    if (value === undefined || double === undefined || triple === undefined) return undefined;
    return 3 * value - 3 * double + triple;
  });
}

/**
 * Wilder's RSI: the first average gain and loss are the plain means of the first `period` changes,
 * later ones Wilder-smoothed (previous × (period − 1) + change) / period. RSI = 100 − 100 / (1 + gain /
 * loss): 100 when there is no loss, 50 when the price did not move at all.
 */
export function rsi(values: readonly number[], period: number): IndicatorSeries {
  const out: IndicatorSeries = [undefined];
  let gain = 0;
  let loss = 0;
  for (let index = 1; index < values.length; index += 1) {
    const change = (values[index] ?? 0) - (values[index - 1] ?? 0);
    const up = Math.max(change, 0);
    const down = Math.max(-change, 0);
    if (index <= period) {
      gain += up / period;
      loss += down / period;
    } else {
      gain = (gain * (period - 1) + up) / period;
      loss = (loss * (period - 1) + down) / period;
    }
    if (index < period) out.push(undefined);
    else if (loss === 0) out.push(gain === 0 ? 50 : 100);
    else out.push(100 - 100 / (1 + gain / loss));
  }
  return out.slice(0, values.length);
}

/** Population standard deviation of the last `period` closes (divided by `period`). */
export function standardDeviation(values: readonly number[], period: number): IndicatorSeries {
  const means = sma(values, period);
  return means.map((mean, index) => {
    if (mean === undefined) return undefined;
    let squares = 0;
    for (let offset = 0; offset < period; offset += 1) squares += ((values[index - offset] ?? 0) - mean) ** 2;
    return Math.sqrt(squares / period);
  });
}

/**
 * Williams %R: (highest high − close) / (highest high − lowest low) × −100 over the last `period` bars,
 * from 0 (a close at the high) to −100 (at the low); −50 when the bars have no range.
 */
export function williams(bars: readonly IndicatorBar[], period: number): IndicatorSeries {
  return bars.map((bar, index) => {
    if (index < period - 1) return undefined;
    const window = bars.slice(index - period + 1, index + 1);
    const highest = Math.max(...window.map((item) => item.high));
    const lowest = Math.min(...window.map((item) => item.low));
    if (highest === lowest) return -50;
    return ((highest - bar.close) / (highest - lowest)) * -100;
  });
}

/**
 * Wilder's ADX. From the second bar on: true range, +DM and −DM; their first Wilder sums are the plain
 * sums of the first `period` values, later ones sum − sum / period + value; +DI and −DI are 100 × the
 * smoothed DM / smoothed TR, DX = 100 × |+DI − −DI| / (+DI + −DI) (0 when both are 0). The first ADX is
 * the mean of the first `period` DX values (bar 2·period), later ones (ADX × (period − 1) + DX) / period.
 */
export function adx(bars: readonly IndicatorBar[], period: number): IndicatorSeries {
  const out: IndicatorSeries = [undefined];
  let trSum = 0;
  let plusSum = 0;
  let minusSum = 0;
  let dxSum = 0;
  let average: number | undefined;
  for (let index = 1; index < bars.length; index += 1) {
    const bar = bars[index];
    const prior = bars[index - 1];
    if (bar === undefined || prior === undefined) break;
    const trueRange = Math.max(
      bar.high - bar.low,
      Math.abs(bar.high - prior.close),
      Math.abs(bar.low - prior.close),
    );
    const upMove = bar.high - prior.high;
    const downMove = prior.low - bar.low;
    const plusDm = upMove > downMove && upMove > 0 ? upMove : 0;
    const minusDm = downMove > upMove && downMove > 0 ? downMove : 0;
    if (index <= period) {
      trSum += trueRange;
      plusSum += plusDm;
      minusSum += minusDm;
    } else {
      trSum = trSum - trSum / period + trueRange;
      plusSum = plusSum - plusSum / period + plusDm;
      minusSum = minusSum - minusSum / period + minusDm;
    }
    if (index < period) {
      out.push(undefined);
      continue;
    }
    const plusDi = trSum === 0 ? 0 : (100 * plusSum) / trSum;
    const minusDi = trSum === 0 ? 0 : (100 * minusSum) / trSum;
    const dx = plusDi + minusDi === 0 ? 0 : (100 * Math.abs(plusDi - minusDi)) / (plusDi + minusDi);
    const count = index - period + 1;
    if (count < period) {
      dxSum += dx;
      out.push(undefined);
    } else if (count === period) {
      average = (dxSum + dx) / period;
      out.push(average);
    } else {
      average = ((average ?? 0) * (period - 1) + dx) / period;
      out.push(average);
    }
  }
  return out.slice(0, bars.length);
}

/** One indicator over bars in time order, by its path name. */
export function indicatorSeries(
  indicator: Indicator,
  bars: readonly IndicatorBar[],
  period: number,
): IndicatorSeries {
  switch (indicator) {
    case 'sma':
      return sma(closesOf(bars), period);
    case 'ema':
      return ema(closesOf(bars), period);
    case 'wma':
      return wma(closesOf(bars), period);
    case 'dema':
      return dema(closesOf(bars), period);
    case 'tema':
      return tema(closesOf(bars), period);
    case 'rsi':
      return rsi(closesOf(bars), period);
    case 'standarddeviation':
      return standardDeviation(closesOf(bars), period);
    case 'williams':
      return williams(bars, period);
    case 'adx':
      return adx(bars, period);
  }
}
