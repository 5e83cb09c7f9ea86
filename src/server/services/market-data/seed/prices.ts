import {
  addWeekdays,
  dayOf,
  isSessionDay,
  lastIndexAtOrBefore,
  nextTradingDay,
  toDay,
  tradingDays,
  yearOf,
  type TradingCalendar,
} from './calendar.ts';
import type { TreasuryCurve } from './economy.ts';
import { createRandom, round } from './random.ts';
import { ANCHOR_DAY, PRICE_EPOCH_DAY, type SecuritySpec, type SplitEvent } from './universe.ts';
import crises from './data/crises.json' with { type: 'json' };

/**
 * Daily price paths. Each path is a log-price random walk (a loading on a shared market factor plus its own
 * noise, with volatility regimes and occasional jumps) bent through fixed knots by Brownian bridges, so that
 * familiar symbols pass near their real history and every symbol ends near its anchor price. After the anchor
 * date the walk is pulled gently back toward the anchor, which keeps "current" prices plausible whatever the
 * "as of" date. Paths are generated forward from a fixed start: a later "as of" date only appends days.
 */

/** Periods when the whole market was more volatile, as multipliers of the market's normal volatility. */
const CRISES = crises as unknown as readonly (readonly [start: string, end: string, multiplier: number])[];

const MARKET_VOL = 0.15;
const CRYPTO_VOL = 0.7;

export interface Factor {
  /** Log return of the factor on a day, indexed by day − firstDay (0 on days without a value). */
  returns: Float64Array;
  firstDay: number;
  /** Annualised volatility of the market on each day (for the volatility index). */
  vol: Float64Array;
}

export interface Factors {
  equity: Factor;
  crypto: Factor;
}

function crisisMultiplier(): (day: number) => number {
  const ranges = CRISES.map(([from, to, m]) => [toDay(from), toDay(to), m] as const);
  return (day) => {
    for (const [from, to, m] of ranges) if (day >= from && day <= to) return m;
    return 1;
  };
}

interface PathInput {
  days: number[];
  knots: readonly (readonly [number, number])[];
  /** Log increment of day i (i ≥ 1), drawn in day order. */
  increment: (i: number) => number;
  /** Pull toward the anchor after the last knot (per day). */
  reversion: number;
  /** Yearly drift of the anchor level after the anchor date. */
  drift: number;
  periodsPerYear: number;
}

/** Log prices through the knots (Brownian bridge per segment), then mean-reverting after the last knot. */
function bridgedPath(input: PathInput): Float64Array {
  const { days, knots } = input;
  const n = days.length;
  const x = new Float64Array(n);
  const inc = new Float64Array(n);
  for (let i = 1; i < n; i += 1) inc[i] = input.increment(i);
  const points: [number, number][] = [];
  for (const [day, price] of knots) {
    const index = Math.max(0, lastIndexAtOrBefore(days, day));
    const last = points[points.length - 1];
    if (last && index <= last[0]) last[1] = Math.log(price);
    else points.push([index, Math.log(price)]);
  }
  const first = points[0] ?? [0, 0];
  x[0] = first[1];
  for (let k = 1; k < points.length; k += 1) {
    const [a, xa] = points[k - 1] ?? first;
    const [b, xb] = points[k] ?? first;
    let cum = xa;
    for (let i = a + 1; i <= b; i += 1) {
      cum += inc[i] ?? 0;
      x[i] = cum;
    }
    const gap = xb - (x[b] ?? 0);
    for (let i = a + 1; i <= b; i += 1) x[i] = (x[i] ?? 0) + (gap * (i - a)) / (b - a);
    x[a] = xa;
  }
  const [lastIndex, lastLog] = points[points.length - 1] ?? first;
  for (let i = lastIndex + 1; i < n; i += 1) {
    const target = lastLog + (input.drift * (i - lastIndex)) / input.periodsPerYear;
    const prev = x[i - 1] ?? 0;
    x[i] = prev + (inc[i] ?? 0) + input.reversion * (target - prev);
  }
  return x;
}

/** The shared equity and crypto factors: the S&P 500 and Bitcoin paths themselves. */
export function buildFactors(seed: number, specs: readonly SecuritySpec[], endDay: number): Factors {
  const crisis = crisisMultiplier();
  const make = (
    symbol: string,
    calendar: 'exchange' | 'crypto',
    baseVol: number,
    periods: number,
  ): Factor => {
    const spec = specs.find((s) => s.symbol === symbol);
    if (!spec) throw new Error(`the universe lacks ${symbol}`);
    const random = createRandom(seed, 'factor', symbol);
    const days = tradingDays(spec.startDay, endDay, calendar);
    const vol = new Float64Array(days.length);
    let high = false;
    const dailyVol = baseVol / Math.sqrt(periods);
    const x = bridgedPath({
      days,
      knots: spec.knots,
      reversion: 0.003,
      drift: 0.06,
      periodsPerYear: periods,
      increment: (i) => {
        high = high ? !random.chance(0.02) : random.chance(0.006);
        const m = crisis(days[i] ?? 0) * (high ? 1.6 : 1);
        vol[i] = baseVol * m;
        const jump = random.chance(0.002) ? random.normal() * 4 * dailyVol : 0;
        return dailyVol * m * random.normal() + jump;
      },
    });
    vol[0] = baseVol;
    const firstDay = days[0] ?? spec.startDay;
    const span = (days[days.length - 1] ?? firstDay) - firstDay + 1;
    const returns = new Float64Array(span);
    const volByDay = new Float64Array(span).fill(baseVol);
    for (let i = 1; i < days.length; i += 1) {
      const offset = (days[i] ?? firstDay) - firstDay;
      returns[offset] = (x[i] ?? 0) - (x[i - 1] ?? 0);
      volByDay[offset] = vol[i] ?? baseVol;
    }
    return { returns, firstDay, vol: volByDay };
  };
  return {
    equity: make('^GSPC', 'exchange', MARKET_VOL, 252),
    crypto: make('BTCUSD', 'crypto', CRYPTO_VOL, 365),
  };
}

function factorReturn(factor: Factor, day: number): number {
  const offset = day - factor.firstDay;
  return offset >= 0 && offset < factor.returns.length ? (factor.returns[offset] ?? 0) : 0;
}

export interface DividendEvent {
  day: number;
  declarationDay: number;
  recordDay: number;
  paymentDay: number;
  /** As paid, per share at the time. */
  dividend: number;
  /** In anchor-date share terms (for statements). */
  anchorDividend: number;
  frequency: 'Quarterly' | 'Monthly';
}

/** One symbol's generated history: every array covers `days`, from the symbol's start to the generation end. */
export interface SymbolSeries {
  spec: SecuritySpec;
  days: number[];
  /** Index of the last day on or before the "as of" date (−1 when none). */
  asOfIndex: number;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  adjClose: Float64Array;
  volume: Float64Array;
  /** Close in anchor-date share terms, unrounded (for fundamentals and dividends). */
  anchorClose: Float64Array;
  /** Splits on or before the "as of" date. */
  splits: SplitEvent[];
  /** Dividends declared on or before the "as of" date. */
  dividends: DividendEvent[];
  /** Product of split ratios after each day up to the anchor date (raw = anchor terms × factor). */
  splitFactor: Float64Array;
  /** Typical daily log-price volatility. */
  dailyVol: number;
  /**
   * The series as drawn on its calendar's grid, before the days its market was closed are dropped. Company
   * statements are priced on it, so that they do not move when the exchange calendar gains a holiday.
   */
  grid: Pick<SymbolSeries, 'days' | 'close' | 'anchorClose' | 'splitFactor'>;
}

/** Decimals a price is published with, by its size. */
export function priceDecimals(spec: SecuritySpec, price: number): number {
  if (spec.assetType === 'forex')
    return typeof spec.details.decimals === 'number' ? spec.details.decimals : 5;
  if (spec.assetType === 'crypto') return price >= 1000 ? 2 : price >= 1 ? 4 : price >= 0.01 ? 6 : 8;
  if (spec.model === 'yield-index') return 3;
  if (spec.exchange === 'JPX') return 1;
  return price >= 1 ? 2 : 4;
}

function generatedSplits(
  seed: number,
  spec: SecuritySpec,
  days: number[],
  anchorClose: Float64Array,
): SplitEvent[] {
  if (spec.fixedSplits) return spec.fixedSplits.filter((s) => s.day >= (days[0] ?? 0));
  if (spec.splitRate <= 0) return [];
  const random = createRandom(seed, 'splits', spec.symbol);
  const anchorIndex = lastIndexAtOrBefore(days, ANCHOR_DAY);
  const splits: SplitEvent[] = [];
  let factor = 1;
  let lastSplitIndex = anchorIndex + 750;
  for (let i = anchorIndex; i >= 1; i -= 1) {
    const u = random.next();
    const ratio = random.weighted([
      [2, 7],
      [3, 2],
      [4, 1],
    ] as const);
    if (u >= spec.splitRate || lastSplitIndex - i < 500) continue;
    const before = (anchorClose[i - 1] ?? 0) * factor * ratio;
    if (before < 90 || before > 2500) continue;
    splits.push({ day: days[i] ?? 0, numerator: ratio, denominator: 1 });
    factor *= ratio;
    lastSplitIndex = i;
  }
  return splits.reverse();
}

/** Ex-dates and amounts: a payout reset once a year toward the target yield, never cut. */
function generatedDividends(
  seed: number,
  spec: SecuritySpec,
  days: number[],
  anchorClose: Float64Array,
  splitFactorAt: (day: number) => number,
  asOfDay: number,
): DividendEvent[] {
  const policy = spec.dividend;
  if (!policy) return [];
  const random = createRandom(seed, 'dividends', spec.symbol);
  const calendar = spec.calendar;
  const firstDay = days[0] ?? policy.startDay;
  // Companies with statements need dividends as far back as their statements go, even before their prices.
  const from = spec.fundamentals
    ? Math.min(firstDay, dayOf(spec.fundamentals.firstFiscalYear - 1, 1, 1))
    : firstDay;
  const first = Math.max(policy.startDay, from);
  const priceAt = (day: number): number => {
    const start = anchorClose[0] ?? 0;
    if (day < firstDay) return start * Math.exp((-0.06 * (firstDay - day)) / 365.25);
    return anchorClose[Math.max(0, lastIndexAtOrBefore(days, day))] ?? start;
  };
  const events: DividendEvent[] = [];
  const perYear = policy.frequency === 'Monthly' ? 12 : 4;
  const months =
    policy.frequency === 'Monthly'
      ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
      : [policy.firstMonth, policy.firstMonth + 3, policy.firstMonth + 6, policy.firstMonth + 9];
  let amount = 0;
  let amountYear = 0;
  const lastGenerated = days[days.length - 1] ?? first;
  for (let year = yearOf(first); year <= yearOf(asOfDay) + 1; year += 1) {
    for (const month of months) {
      const nominal = dayOf(year, month, policy.dayOfMonth);
      const exDay = nextTradingDay(nominal + random.int(-2, 2), calendar);
      const declarationDay = addWeekdays(exDay, -random.int(15, 25));
      if (exDay < first || declarationDay > asOfDay || declarationDay > lastGenerated) {
        continue;
      }
      const price = priceAt(declarationDay);
      if (amount === 0 || year !== amountYear) {
        const target = (policy.yield * price) / perYear;
        // Raised once a year toward the target yield, never cut; a large gap is closed by a one-off rebase.
        if (amount === 0 || target > amount * 1.6) amount = amount === 0 ? target : target * 0.85;
        else amount = Math.min(Math.max(target, amount), amount * 1.15);
        amountYear = year;
      }
      const raw = round(amount * splitFactorAt(exDay), 4);
      if (raw <= 0) continue;
      const recordDay = exDay >= toDay('2024-05-28') ? exDay : addWeekdays(exDay, 1);
      events.push({
        day: exDay,
        declarationDay,
        recordDay,
        paymentDay: addWeekdays(exDay, random.int(8, 20)),
        dividend: raw,
        anchorDividend: raw / splitFactorAt(exDay),
        frequency: policy.frequency,
      });
    }
  }
  return events;
}

export interface SeriesContext {
  seed: number;
  asOfDay: number;
  endDay: number;
  factors: Factors;
  curve: TreasuryCurve;
}

/** Generates one symbol's daily bars, splits, dividends and adjusted closes. */
export function generateSeries(spec: SecuritySpec, ctx: SeriesContext): SymbolSeries {
  const { seed, asOfDay, endDay } = ctx;
  const periods = spec.calendar === 'crypto' ? 365 : 252;
  const days = tradingDays(spec.startDay, endDay, spec.calendar);
  const n = days.length;
  const random = createRandom(seed, 'path', spec.symbol);
  const idioDaily = spec.vol / Math.sqrt(periods);
  const factor =
    spec.factor === 'equity' ? ctx.factors.equity : spec.factor === 'crypto' ? ctx.factors.crypto : null;
  const factorDaily = factor ? (spec.factor === 'crypto' ? CRYPTO_VOL : MARKET_VOL) / Math.sqrt(periods) : 0;
  const dailyVol =
    spec.model === 'volatility-index'
      ? 0.06
      : spec.model === 'yield-index'
        ? 0.012
        : Math.sqrt((spec.beta * factorDaily) ** 2 + idioDaily ** 2) || 0.002;

  let logClose: Float64Array;
  if (spec.model === 'volatility-index') {
    logClose = new Float64Array(n);
    let x = Math.log(spec.knots[0]?.[1] ?? 15);
    for (let i = 0; i < n; i += 1) {
      const day = days[i] ?? 0;
      const offset = day - ctx.factors.equity.firstDay;
      const marketVol = ctx.factors.equity.vol[offset] ?? MARKET_VOL;
      const target = Math.log(marketVol * 100 * 1.05 + 2);
      const f = factorReturn(ctx.factors.equity, day);
      x += 0.06 * (target - Math.min(x, Math.log(95))) - 3.5 * f + 0.045 * random.normal();
      logClose[i] = x;
    }
  } else if (spec.model === 'yield-index') {
    logClose = new Float64Array(n);
    const key = spec.yieldMaturity ?? 'year10';
    const series = ctx.curve.rates[key];
    for (let i = 0; i < n; i += 1) {
      const index = lastIndexAtOrBefore(ctx.curve.days, days[i] ?? 0);
      logClose[i] = Math.log(Math.max(0.01, series[Math.max(0, index)] ?? 1));
    }
  } else {
    let high = false;
    logClose = bridgedPath({
      days,
      knots: spec.knots,
      reversion: spec.assetType === 'forex' ? 0.01 : 0.004,
      drift:
        spec.assetType === 'stock' ||
        spec.assetType === 'etf' ||
        spec.assetType === 'index' ||
        (spec.assetType === 'fund' && spec.factor === 'equity')
          ? 0.05
          : 0,
      periodsPerYear: periods,
      increment: (i) => {
        high = high ? !random.chance(0.03) : random.chance(0.008);
        const z = random.normal();
        const jumpDraw = random.next();
        const jump = jumpDraw < 0.003 ? random.normal() * 4 * idioDaily : 0;
        const f = factor ? spec.beta * factorReturn(factor, days[i] ?? 0) : 0;
        return f + idioDaily * (high ? 1.8 : 1) * z + jump;
      },
    });
  }

  const anchorClose = new Float64Array(n);
  for (let i = 0; i < n; i += 1) anchorClose[i] = Math.exp(logClose[i] ?? 0);

  // Splits, then the as-traded (raw) scale: raw = anchor terms × product of later split ratios.
  const allSplits = generatedSplits(seed, spec, days, anchorClose);
  const splitFactor = new Float64Array(n);
  {
    let f = 1;
    let s = allSplits.length - 1;
    for (let i = n - 1; i >= 0; i -= 1) {
      const day = days[i] ?? 0;
      while (s >= 0 && (allSplits[s]?.day ?? 0) > day) {
        const split = allSplits[s];
        if (split && split.day <= ANCHOR_DAY) f *= split.numerator / split.denominator;
        s -= 1;
      }
      splitFactor[i] = f;
    }
  }
  const splitFactorAt = (day: number): number => {
    const index = lastIndexAtOrBefore(days, day);
    return splitFactor[Math.max(0, index)] ?? 1;
  };

  const ohlc = createRandom(seed, 'ohlc', spec.symbol);
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  const volume = new Float64Array(n);
  const gapScale = spec.assetType === 'crypto' ? 0.05 : spec.assetType === 'forex' ? 0.1 : 0.3;
  const rangeScale = spec.model === 'yield-index' ? 0.3 : 0.55;
  const volumeBase = spec.volume;
  for (let i = 0; i < n; i += 1) {
    const f = splitFactor[i] ?? 1;
    const c = (anchorClose[i] ?? 0) * f;
    const prev = i > 0 ? (anchorClose[i - 1] ?? 0) * f : c;
    const o = prev * Math.exp(dailyVol * gapScale * ohlc.normal());
    const h = Math.max(o, c) * Math.exp(dailyVol * rangeScale * Math.abs(ohlc.normal()));
    const l = Math.min(o, c) * Math.exp(-dailyVol * rangeScale * Math.abs(ohlc.normal()));
    const decimals = priceDecimals(spec, c);
    close[i] = round(c, decimals);
    // A mutual fund is priced once a day: its bar is the net asset value, open to close.
    const nav = spec.assetType === 'fund';
    open[i] = nav ? (close[i] ?? 0) : round(o, decimals);
    high[i] = nav ? (close[i] ?? 0) : round(h, decimals);
    low[i] = nav ? (close[i] ?? 0) : round(l, decimals);
    const move = i > 0 ? Math.abs((logClose[i] ?? 0) - (logClose[i - 1] ?? 0)) / dailyVol : 0.8;
    const v = (volumeBase * ohlc.logNormal(1, 0.3) * (1 + 2.5 * Math.min(move, 8))) / 3;
    volume[i] = volumeBase > 0 ? Math.max(1, Math.round(v / f)) : 0;
  }

  // Drawn on the calendar's grid; stored without the days its market was closed (see TradingCalendar).
  const kept = withoutClosedDays(spec.calendar, {
    days,
    bars: { open, high, low, close, volume, anchorClose, splitFactor },
    splits: allSplits,
    dividends: generatedDividends(seed, spec, days, anchorClose, splitFactorAt, asOfDay),
  });
  const asOfIndex = lastIndexAtOrBefore(kept.days, asOfDay);
  const splits = kept.splits.filter((s) => s.day <= asOfDay);
  const { dividends } = kept;

  // Back-adjusted close: splits and dividends up to the "as of" date, standard multiplicative factors.
  const adjClose = new Float64Array(kept.days.length);
  {
    const closes = kept.bars.close;
    let multiplier = 1;
    let s = splits.length - 1;
    const paid = dividends.filter((dv) => dv.day <= asOfDay);
    let dv = paid.length - 1;
    for (let i = asOfIndex; i >= 0; i -= 1) {
      const c = closes[i] ?? 0;
      adjClose[i] = round(c * multiplier, Math.min(10, priceDecimals(spec, c) + 4));
      // Events effective on day i (after the previous trading day) scale every earlier day.
      const previousDay = i > 0 ? (kept.days[i - 1] ?? 0) : -Infinity;
      while (s >= 0 && (splits[s]?.day ?? 0) > previousDay) {
        const split = splits[s];
        if (split) multiplier *= split.denominator / split.numerator;
        s -= 1;
      }
      while (dv >= 0 && (paid[dv]?.day ?? 0) > previousDay) {
        const event = paid[dv];
        const before = closes[i - 1];
        if (event && before !== undefined && before > 0) multiplier *= 1 - event.dividend / before;
        dv -= 1;
      }
    }
  }

  return {
    spec,
    days: kept.days,
    asOfIndex,
    ...kept.bars,
    adjClose,
    splits,
    dividends,
    dailyVol,
    grid: { days, close, anchorClose, splitFactor },
  };
}

/** The per-day arrays of a series, index for index with its days. */
interface SeriesBars {
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  anchorClose: Float64Array;
  splitFactor: Float64Array;
}

interface DrawnSeries {
  days: number[];
  bars: SeriesBars;
  splits: SplitEvent[];
  dividends: DividendEvent[];
}

/**
 * A series drawn on its calendar's grid without the days its market held no session. The moves of a dropped
 * day carry into the next session (its open gaps from the last stored close), and a split or an ex-dividend
 * date on a dropped day takes effect at the next session, as an exchange moves it.
 */
function withoutClosedDays(calendar: TradingCalendar, drawn: DrawnSeries): DrawnSeries {
  const keep: number[] = [];
  drawn.days.forEach((day, i) => {
    if (isSessionDay(day, calendar)) keep.push(i);
  });
  if (keep.length === drawn.days.length) return drawn;
  const pick = (values: Float64Array): Float64Array => Float64Array.from(keep, (i) => values[i] ?? 0);
  const { bars } = drawn;
  const nextSession = (day: number): number => {
    let d = day;
    while (!isSessionDay(d, calendar)) d += 1;
    return d;
  };
  return {
    days: keep.map((i) => drawn.days[i] ?? 0),
    bars: {
      open: pick(bars.open),
      high: pick(bars.high),
      low: pick(bars.low),
      close: pick(bars.close),
      volume: pick(bars.volume),
      anchorClose: pick(bars.anchorClose),
      splitFactor: pick(bars.splitFactor),
    },
    splits: drawn.splits.map((split) => ({ ...split, day: nextSession(split.day) })),
    dividends: drawn.dividends.map((event) => {
      const day = nextSession(event.day);
      if (day === event.day) return event;
      // The record date follows the ex-date as the dividend generator sets it (T+1 settlement from 2024-05-28).
      const recordDay = day >= toDay('2024-05-28') ? day : addWeekdays(day, 1);
      return { ...event, day, recordDay: Math.max(recordDay, event.recordDay) };
    }),
  };
}

/** First day written for a symbol: how much history each scale keeps. */
export function historyStart(
  spec: SecuritySpec,
  scale: 'full' | 'test',
  asOfDay: number,
  tailYears: number,
): number {
  const years = scale === 'test' ? (spec.familiar ? 3 : 1) : spec.tier === 'core' ? 30 : tailYears;
  const start = Math.round(asOfDay - years * 365.25) - (years <= 1 ? 7 : 0);
  return Math.max(start, PRICE_EPOCH_DAY);
}
