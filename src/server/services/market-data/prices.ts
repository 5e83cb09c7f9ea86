import { and, asc, desc, eq, gte, inArray, lt, lte, max, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { dailyPrices, intradayPrices, securities, type AssetType, type Security } from '../../db/schema.ts';
import { isoDay, shiftIsoDays, shiftIsoYears } from '../../../lib/iso-date.ts';
import { memoPerDatabase } from './memo.ts';
import { InvalidParametersError, PlanRequiredError, type PlanAccess } from './plan-access.ts';

/** One trading day, split-adjusted unless it was read raw; newest first wherever lists of them are returned. */
export interface DailyBar {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Close back-adjusted for splits and dividends, as stored. */
  adjClose: number;
  volume: number;
}

/** Years of history every answer defaults to when the caller names no start. */
export const DEFAULT_HISTORY_YEARS = 5;

// ---------------------------------------------------------------------------------------------------------------
// Numbers

/** Rounds half away from zero; anything not finite becomes 0 so answers never carry NaN or Infinity. */
export function round(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return 0;
  const factor = 10 ** decimals;
  const rounded =
    (Math.sign(value) * Math.round(Math.abs(value) * factor + Number.EPSILON * factor)) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
}

/**
 * Price precision as FMP writes it: four decimals, five for forex rates, and six significant digits for
 * crypto coins worth less than a unit (four decimals would show most of them as 0).
 */
export function roundPrice(value: number, assetType: AssetType): number {
  if (assetType === 'forex') return round(value, 5);
  if (assetType === 'crypto' && Math.abs(value) < 1 && value !== 0) {
    const decimals = Math.min(12, 5 - Math.floor(Math.log10(Math.abs(value))));
    return round(value, decimals);
  }
  return round(value, 4);
}

/** Percentages (2.5 means 2.5 %), to five decimals as FMP writes them. */
export function roundPercent(value: number): number {
  return round(value, 5);
}

/** A percentage change that is 0, not Infinity, when the base is 0. */
export function percentChange(change: number, base: number): number {
  return base === 0 ? 0 : roundPercent((change / base) * 100);
}

// ---------------------------------------------------------------------------------------------------------------
// Date ranges the plans allow

export interface DateRange {
  from: string;
  to: string;
}

/** Whole years back from `today` that reach `start`: a start thirteen months back needs two. */
function yearsBack(start: string, today: string): number {
  let years = 1;
  while (shiftIsoYears(today, -years) > start) years += 1;
  return years;
}

/**
 * Refuses a span of `years` of daily history that the plan does not read (a chart range of five
 * years on a plan of one), naming the cheapest plan of at least the caller's tier that reads it.
 */
export function requireHistoryYears(
  years: number,
  plan: Pick<PlanAccess, 'historyYears' | 'dataTier'>,
): void {
  if (plan.historyYears === null || years <= plan.historyYears) return;
  throw new PlanRequiredError(plan.dataTier, `${String(years)} years of daily history`, years);
}

/**
 * The daily-history window of a request: the caller's from/to, or the last five years clipped to what
 * the plan reads. A start before the plan's history is refused (402, naming the cheapest plan that
 * reads back to it) rather than silently cut, so a client never mistakes a clipped answer for the
 * whole history.
 */
export function resolveDailyRange(
  params: { from?: string | undefined; to?: string | undefined },
  plan: Pick<PlanAccess, 'historyYears' | 'dataTier'>,
  now: Date,
): DateRange {
  const today = isoDay(now);
  const to = params.to ?? today;
  const earliest = plan.historyYears === null ? undefined : shiftIsoYears(today, -plan.historyYears);
  const refuse = (start: string): never => {
    throw new PlanRequiredError(
      plan.dataTier,
      `daily history before ${earliest ?? start}`,
      yearsBack(start, today),
    );
  };
  let from: string;
  if (params.from !== undefined) {
    from = params.from;
    if (earliest !== undefined && from < earliest) refuse(from);
  } else {
    from = shiftIsoYears(to, -DEFAULT_HISTORY_YEARS);
    if (earliest !== undefined && from < earliest) from = earliest;
  }
  if (from > to) {
    if (params.from === undefined && earliest !== undefined && to < earliest) refuse(to);
    throw new InvalidParametersError('Parameter "from" must be on or before "to".');
  }
  return { from, to };
}

// ---------------------------------------------------------------------------------------------------------------
// Daily bars

/** Daily bars are read under this alias, so that the SQL below can name the outer row. */
const bar = alias(dailyPrices, 'bar');

/**
 * Product of the split ratios after the bar's date: dividing a raw price by it gives today's share
 * terms. Computed inside the bar query so a history costs one round trip; null when no split follows.
 * Written as plain SQL: inside a single-table select list the query builder leaves column names
 * unqualified, which would bind them to the subquery's own table.
 */
const splitFactor = sql<
  number | string | null
>`(select exp(sum(ln(sp.numerator / sp.denominator))) from splits sp where sp.symbol = "bar"."symbol" and sp.date > "bar"."date")`;

interface RawBar {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  adjClose: number;
  volume: number;
  factor: number | null;
}

/** exp(sum(ln)) drifts in the last bits: ratios are small fractions, so nine decimals restore them exactly. */
function cleanFactor(factor: number | null): number {
  if (factor === null || !Number.isFinite(factor) || factor <= 0) return 1;
  return Math.round(factor * 1e9) / 1e9;
}

function adjustBar(raw: RawBar): DailyBar {
  const factor = cleanFactor(raw.factor);
  if (factor === 1) {
    return {
      date: raw.date,
      open: raw.open,
      high: raw.high,
      low: raw.low,
      close: raw.close,
      adjClose: raw.adjClose,
      volume: raw.volume,
    };
  }
  return {
    date: raw.date,
    open: raw.open / factor,
    high: raw.high / factor,
    low: raw.low / factor,
    close: raw.close / factor,
    adjClose: raw.adjClose,
    volume: Math.round(raw.volume * factor),
  };
}

const barColumns = {
  date: bar.date,
  open: bar.open,
  high: bar.high,
  low: bar.low,
  close: bar.close,
  adjClose: bar.adjClose,
  volume: bar.volume,
};

/**
 * Daily bars of one symbol between two dates (inclusive), newest first, in one indexed query.
 * `split` divides prices by later splits (and multiplies volume) as the charts show them; `raw` gives
 * the as-traded values.
 */
export async function dailyBars(
  db: Db,
  symbol: string,
  range: DateRange,
  adjustment: 'split' | 'raw',
): Promise<DailyBar[]> {
  const where = and(eq(bar.symbol, symbol), gte(bar.date, range.from), lte(bar.date, range.to));
  if (adjustment === 'raw') {
    return db.select(barColumns).from(bar).where(where).orderBy(desc(bar.date));
  }
  const rows = await db
    .select({ ...barColumns, factor: splitFactor })
    .from(bar)
    .where(where)
    .orderBy(desc(bar.date));
  return rows.map((row) => adjustBar({ ...row, factor: row.factor === null ? null : Number(row.factor) }));
}

/**
 * The split-adjusted bar of each symbol on one day (symbols without a bar that day are absent), in one
 * indexed query: the bulk end-of-day file reads a batch of symbols at a time, with the same adjustment
 * as the charts.
 */
export async function barsOnDate(
  db: Db,
  symbols: readonly string[],
  date: string,
): Promise<Map<string, DailyBar>> {
  const found = new Map<string, DailyBar>();
  if (symbols.length === 0) return found;
  const rows = await db
    .select({ symbol: bar.symbol, ...barColumns, factor: splitFactor })
    .from(bar)
    .where(and(inArray(bar.symbol, [...symbols]), eq(bar.date, date)));
  for (const { symbol, factor, ...row } of rows) {
    found.set(symbol, adjustBar({ ...row, factor: factor === null ? null : Number(factor) }));
  }
  return found;
}

/**
 * The latest `count` split-adjusted bars on or before `asOf` of each symbol (newest first), for quotes:
 * one query for any number of symbols, each read backwards along its primary key.
 */
export async function recentBars(
  db: Db,
  symbols: readonly string[],
  asOf: string,
  count: number,
): Promise<Map<string, DailyBar[]>> {
  const found = new Map<string, DailyBar[]>();
  if (symbols.length === 0) return found;
  const bars = db
    .select({ ...barColumns, factor: splitFactor.as('factor') })
    .from(bar)
    .where(and(eq(bar.symbol, securities.symbol), lte(bar.date, asOf)))
    .orderBy(desc(bar.date))
    .limit(count)
    .as('bars');
  const rows = await db
    .select({
      symbol: securities.symbol,
      date: bars.date,
      open: bars.open,
      high: bars.high,
      low: bars.low,
      close: bars.close,
      adjClose: bars.adjClose,
      volume: bars.volume,
      factor: bars.factor,
    })
    .from(securities)
    .innerJoinLateral(bars, sql`true`)
    .where(inArray(securities.symbol, [...symbols]))
    .orderBy(asc(securities.symbol), desc(bars.date));
  for (const row of rows) {
    const bar = adjustBar({
      date: row.date,
      open: row.open,
      high: row.high,
      low: row.low,
      close: row.close,
      adjClose: row.adjClose,
      volume: row.volume,
      factor: row.factor === null ? null : Number(row.factor),
    });
    const list = found.get(row.symbol);
    if (list === undefined) found.set(row.symbol, [bar]);
    else list.push(bar);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------------------
// Intraday bars

export const INTRADAY_INTERVALS = {
  '1min': 1,
  '5min': 5,
  '15min': 15,
  '30min': 30,
  '1hour': 60,
  '4hour': 240,
} as const;
export type IntradayInterval = keyof typeof INTRADAY_INTERVALS;

/** One intraday bar; `date` is the exchange-local start of the bar ('YYYY-MM-DD HH:mm:ss'). */
export interface IntradayBar {
  date: string;
  open: number;
  low: number;
  high: number;
  close: number;
  volume: number;
}

/** Calendar days shown when the caller names no start: a trading week back from the latest bar. */
const DEFAULT_INTRADAY_DAYS = 6;

/** The driver may give the timestamp as text or as a Date read as UTC; both become 'YYYY-MM-DD HH:mm:ss'. */
function timeText(value: string | Date): string {
  const text = typeof value === 'string' ? value : value.toISOString().replace('T', ' ');
  return text.slice(0, 19);
}

/**
 * Intraday bars of `interval`, newest first, aggregated from the stored one-minute bars. Buckets start
 * at each day's session open (the first bar's half hour: 09:30 for US stocks, 00:00 for round-the-clock
 * markets), so hourly bars read 09:30, 10:30, … as FMP's do.
 */
export async function intradayBars(
  db: Db,
  symbol: string,
  interval: IntradayInterval,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<IntradayBar[]> {
  const end = `${shiftIsoDays(range.to ?? '9999-12-30', 1)} 00:00:00`;
  const start =
    range.from === undefined
      ? sql`date_trunc('day', (${db
          .select({ latest: max(intradayPrices.time) })
          .from(intradayPrices)
          .where(
            and(eq(intradayPrices.symbol, symbol), lt(intradayPrices.time, end)),
          )})) - ${sql.raw(`interval '${DEFAULT_INTRADAY_DAYS} days'`)}`
      : sql`${`${range.from} 00:00:00`}::timestamp`;
  const rows = await db
    .select({
      time: intradayPrices.time,
      open: intradayPrices.open,
      high: intradayPrices.high,
      low: intradayPrices.low,
      close: intradayPrices.close,
      volume: intradayPrices.volume,
    })
    .from(intradayPrices)
    .where(
      and(eq(intradayPrices.symbol, symbol), gte(intradayPrices.time, start), lt(intradayPrices.time, end)),
    )
    .orderBy(asc(intradayPrices.time));
  return aggregateIntraday(
    rows.map((row) => ({ ...row, date: timeText(row.time) })),
    INTRADAY_INTERVALS[interval],
  );
}

/** Groups ascending one-minute bars into `minutes`-wide bars, newest first. Exported for unit checks. */
export function aggregateIntraday(
  minuteBars: readonly {
    date: string;
    open: number;
    high: number;
    low: number;
    close: number;
    volume: number;
  }[],
  minutes: number,
): IntradayBar[] {
  const out: IntradayBar[] = [];
  let day = '';
  let anchor = 0;
  let current: IntradayBar | undefined;
  let currentKey = '';
  for (const bar of minuteBars) {
    const barDay = bar.date.slice(0, 10);
    const minuteOfDay = Number(bar.date.slice(11, 13)) * 60 + Number(bar.date.slice(14, 16));
    if (barDay !== day) {
      day = barDay;
      anchor = Math.floor(minuteOfDay / 30) * 30;
    }
    const bucket = anchor + Math.floor((minuteOfDay - anchor) / minutes) * minutes;
    const key = `${barDay} ${String(Math.floor(bucket / 60)).padStart(2, '0')}:${String(bucket % 60).padStart(2, '0')}:00`;
    if (current === undefined || key !== currentKey) {
      if (current !== undefined) out.push(current);
      currentKey = key;
      current = {
        date: key,
        open: bar.open,
        low: bar.low,
        high: bar.high,
        close: bar.close,
        volume: bar.volume,
      };
    } else {
      current.low = Math.min(current.low, bar.low);
      current.high = Math.max(current.high, bar.high);
      current.close = bar.close;
      current.volume += bar.volume;
    }
  }
  if (current !== undefined) out.push(current);
  return out.reverse();
}

// ---------------------------------------------------------------------------------------------------------------
// End-of-day charts as the API answers them

export interface FullPriceRow {
  symbol: string;
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  change: number;
  changePercent: number;
  vwap: number;
}

export interface LightPriceRow {
  symbol: string;
  date: string;
  price: number;
  volume: number;
}

export interface AdjustedPriceRow {
  symbol: string;
  date: string;
  adjOpen: number;
  adjHigh: number;
  adjLow: number;
  adjClose: number;
  volume: number;
}

const fullMemo = memoPerDatabase<FullPriceRow[]>({ max: 128, ttlMs: 60_000 });

/**
 * Split-adjusted daily bars as FMP's full chart: change = close − open, changePercent = change / open ×
 * 100, vwap = (high + low + close) / 3, newest first. Memoized per symbol and range for a minute: charts
 * are requested again and again for the same default window.
 */
export function historicalFull(
  db: Db,
  security: Pick<Security, 'symbol' | 'assetType'>,
  range: DateRange,
): Promise<FullPriceRow[]> {
  return fullMemo(db).load(`${security.symbol}|${range.from}|${range.to}`, async () => {
    const bars = await dailyBars(db, security.symbol, range, 'split');
    const type = security.assetType;
    return bars.map((bar) => {
      const open = roundPrice(bar.open, type);
      const close = roundPrice(bar.close, type);
      const high = roundPrice(bar.high, type);
      const low = roundPrice(bar.low, type);
      return {
        symbol: security.symbol,
        date: bar.date,
        open,
        high,
        low,
        close,
        volume: round(bar.volume, 0),
        change: roundPrice(close - open, type),
        changePercent: percentChange(close - open, open),
        vwap: roundPrice((high + low + close) / 3, type),
      };
    });
  });
}

/** Close and volume only (split-adjusted), from the same memoized rows as the full chart. */
export async function historicalLight(
  db: Db,
  security: Pick<Security, 'symbol' | 'assetType'>,
  range: DateRange,
): Promise<LightPriceRow[]> {
  const rows = await historicalFull(db, security, range);
  return rows.map((row) => ({ symbol: row.symbol, date: row.date, price: row.close, volume: row.volume }));
}

/** The prices as traded on each day, before any split adjustment. */
export async function historicalUnadjusted(
  db: Db,
  security: Pick<Security, 'symbol' | 'assetType'>,
  range: DateRange,
): Promise<AdjustedPriceRow[]> {
  const bars = await dailyBars(db, security.symbol, range, 'raw');
  const type = security.assetType;
  return bars.map((bar) => ({
    symbol: security.symbol,
    date: bar.date,
    adjOpen: roundPrice(bar.open, type),
    adjHigh: roundPrice(bar.high, type),
    adjLow: roundPrice(bar.low, type),
    adjClose: roundPrice(bar.close, type),
    volume: round(bar.volume, 0),
  }));
}

/**
 * Prices adjusted for splits and dividends: open, high and low scaled by the day's adj_close / close
 * ratio (the stored back-adjustment), volume in today's share terms.
 */
export async function historicalDividendAdjusted(
  db: Db,
  security: Pick<Security, 'symbol' | 'assetType'>,
  range: DateRange,
): Promise<AdjustedPriceRow[]> {
  const bars = await dailyBars(db, security.symbol, range, 'split');
  const type = security.assetType;
  return bars.map((bar) => {
    const ratio = bar.close === 0 ? 0 : bar.adjClose / bar.close;
    return {
      symbol: security.symbol,
      date: bar.date,
      adjOpen: roundPrice(bar.open * ratio, type),
      adjHigh: roundPrice(bar.high * ratio, type),
      adjLow: roundPrice(bar.low * ratio, type),
      adjClose: roundPrice(bar.adjClose, type),
      volume: round(bar.volume, 0),
    };
  });
}

/** Intraday chart rows as the API answers them: prices rounded for the asset type, newest first. */
export async function intradayChart(
  db: Db,
  security: Pick<Security, 'symbol' | 'assetType'>,
  interval: IntradayInterval,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<IntradayBar[]> {
  const bars = await intradayBars(db, security.symbol, interval, range);
  const type = security.assetType;
  return bars.map((bar) => ({
    date: bar.date,
    open: roundPrice(bar.open, type),
    low: roundPrice(bar.low, type),
    high: roundPrice(bar.high, type),
    close: roundPrice(bar.close, type),
    volume: round(bar.volume, 0),
  }));
}
