import type { ChartBar } from '../../../../lib/price-chart.ts';
import { fromDay } from './calendar.ts';
import { priceDecimals, type SymbolSeries } from './prices.ts';
import { createRandom, round } from './random.ts';

/**
 * One-minute bars for the last trading days. Each day's path runs from the day's open through its low and
 * high to its close (a Brownian bridge between those points), so the minute bars agree with the daily bar.
 */

/** A minute bar: the same shape the price chart draws. */
export type IntradayBar = ChartBar;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Bars of one day: 09:30–15:59 for exchange-traded symbols, 00:00–23:59 for crypto. */
export function intradayBars(seed: number, series: SymbolSeries, index: number): IntradayBar[] {
  const spec = series.spec;
  const day = series.days[index] ?? 0;
  const open = series.open[index] ?? 0;
  const high = series.high[index] ?? 0;
  const low = series.low[index] ?? 0;
  const close = series.close[index] ?? 0;
  const dayVolume = series.volume[index] ?? 0;
  const allDay = spec.calendar === 'crypto';
  const count = allDay ? 1440 : 390;
  const firstMinute = allDay ? 0 : 9 * 60 + 30;
  const random = createRandom(seed, 'intraday', spec.symbol, day);
  const decimals = priceDecimals(spec, close);

  // Points the path must pass through, in minute order.
  const lowAt = random.int(1, count - 2);
  let highAt = random.int(1, count - 2);
  if (highAt === lowAt) highAt = lowAt === count - 2 ? lowAt - 1 : lowAt + 1;
  const points: [number, number][] = [
    [0, open],
    [lowAt, low],
    [highAt, high],
    [count - 1, close],
  ];
  points.sort((a, b) => a[0] - b[0]);
  const path = new Float64Array(count);
  const sigma = Math.max(series.dailyVol, 0.001) / Math.sqrt(count);
  for (let k = 1; k < points.length; k += 1) {
    const [a, va] = points[k - 1] ?? [0, open];
    const [b, vb] = points[k] ?? [count - 1, close];
    const la = Math.log(va);
    const lb = Math.log(vb);
    let walk = 0;
    const steps: number[] = [0];
    for (let i = a + 1; i <= b; i += 1) {
      walk += sigma * random.normal();
      steps.push(walk);
    }
    const end = steps[steps.length - 1] ?? 0;
    for (let i = a; i <= b; i += 1) {
      const t = b === a ? 1 : (i - a) / (b - a);
      const free = (steps[i - a] ?? 0) - t * end;
      path[i] = Math.exp(la + (lb - la) * t + free);
    }
  }
  // Only the fixed points may touch the day's extremes.
  for (let i = 0; i < count; i += 1) path[i] = Math.min(high, Math.max(low, path[i] ?? close));
  path[lowAt] = low;
  path[highAt] = high;
  path[count - 1] = close;
  path[0] = open;

  // Volume: U-shaped through the session (flat for crypto), summing to the day's volume.
  const weights = new Float64Array(count);
  let total = 0;
  for (let i = 0; i < count; i += 1) {
    const x = i / (count - 1);
    const w = (allDay ? 1 : 1 + 3 * (x - 0.5) ** 2 * 4) * random.logNormal(1, 0.4);
    weights[i] = w;
    total += w;
  }
  const bars: IntradayBar[] = [];
  let assigned = 0;
  let previousClose = open;
  for (let i = 0; i < count; i += 1) {
    const minute = firstMinute + i;
    const barClose = round(path[i] ?? close, decimals);
    const barOpen = i === 0 ? open : previousClose;
    const wiggle = Math.abs(random.normal()) * sigma;
    const barHigh = round(Math.min(high, Math.max(barOpen, barClose) * (1 + wiggle * 0.5)), decimals);
    const barLow = round(Math.max(low, Math.min(barOpen, barClose) * (1 - wiggle * 0.5)), decimals);
    const volume =
      i === count - 1
        ? Math.max(0, dayVolume - assigned)
        : Math.floor((dayVolume * (weights[i] ?? 0)) / total);
    assigned += volume;
    bars.push({
      time: `${fromDay(day)} ${pad(Math.floor(minute / 60))}:${pad(minute % 60)}:00`,
      open: barOpen,
      high: Math.max(barHigh, barOpen, barClose),
      low: Math.min(barLow, barOpen, barClose),
      close: barClose,
      volume,
    });
    previousClose = barClose;
  }
  return bars;
}
