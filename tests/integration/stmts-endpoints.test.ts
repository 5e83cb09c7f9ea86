import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HARNESS_AS_OF,
  openDataApiHarness,
  stableAnswer,
  type DataApiHarness,
  type StableAnswer,
} from './data-api-harness.ts';

type Row = Record<string, unknown>;

let h: DataApiHarness;
let freeKey: string;
let starterKey: string;
let professionalKey: string;

beforeAll(async () => {
  h = await openDataApiHarness();
  [freeKey, starterKey, professionalKey] = await Promise.all([
    h.keyFor('free'),
    h.keyFor('starterT1'),
    h.keyFor('monthlyT2'),
  ]);
});

afterAll(async () => {
  await h.close();
});

function get(
  path: string,
  query: Record<string, string>,
  key: string = professionalKey,
): Promise<StableAnswer> {
  return stableAnswer(h, path, query, key);
}

async function rowsOf(path: string, query: Record<string, string>, key?: string): Promise<Row[]> {
  const answer = await get(path, query, key);
  expect(answer.status, answer.error).toBe(200);
  return answer.rows;
}

function num(row: Row | undefined, field: string): number {
  const value = row?.[field];
  if (typeof value !== 'number') throw new Error(`${field} is not a number: ${String(value)}`);
  return value;
}

function str(row: Row | undefined, field: string): string {
  const value = row?.[field];
  if (typeof value !== 'string') throw new Error(`${field} is not a string: ${String(value)}`);
  return value;
}

function at<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`no item ${String(index)}`);
  return item;
}

describe('technical indicators', () => {
  const daily = { symbol: 'AAPL', timeframe: '1day' };
  /** AAPL's split-adjusted daily bars as the full chart answers them, oldest first. */
  let bars: Row[];

  beforeAll(async () => {
    bars = (await rowsOf('historical-price-eod/full', { symbol: 'AAPL', from: '2000-01-01' })).toReversed();
  });

  function closes(from: number, count: number): number[] {
    return bars.slice(from, from + count).map((bar) => num(bar, 'close'));
  }

  it('answers each bar with its prices and the SMA of its last n closes, newest first', async () => {
    const rows = await rowsOf('technical-indicators/sma', {
      ...daily,
      periodLength: '3',
      from: '2026-11-01',
      to: HARNESS_AS_OF,
    });
    expect(Object.keys(at(rows, 0))).toEqual(['date', 'open', 'high', 'low', 'close', 'volume', 'sma']);
    expect(str(at(rows, 0), 'date')).toBe(HARNESS_AS_OF);
    expect(rows.every((row) => str(row, 'date') >= '2026-11-01')).toBe(true);
    const last = bars.length - 1;
    expect(at(rows, 0)).toMatchObject({
      open: num(at(bars, last), 'open'),
      close: num(at(bars, last), 'close'),
      volume: num(at(bars, last), 'volume'),
    });
    const [a, b, c] = closes(last - 2, 3) as [number, number, number];
    expect(num(at(rows, 0), 'sma')).toBeCloseTo((a + b + c) / 3, 8);
    const dates = rows.map((row) => str(row, 'date'));
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('leaves out the first n − 1 bars of the history, where an SMA has too few closes', async () => {
    const rows = await rowsOf('technical-indicators/sma', {
      ...daily,
      periodLength: '5',
      from: '2000-01-01',
    });
    expect(rows).toHaveLength(bars.length - 4);
    const oldest = at(rows, rows.length - 1);
    expect(str(oldest, 'date')).toBe(str(at(bars, 4), 'date'));
    expect(num(oldest, 'sma')).toBeCloseTo(closes(0, 5).reduce((sum, close) => sum + close, 0) / 5, 8);
  });

  it('seeds the EMA with the SMA of the first n closes and then moves 2 / (n + 1) of the way to each close', async () => {
    const rows = (
      await rowsOf('technical-indicators/ema', { ...daily, periodLength: '4', from: '2000-01-01' })
    ).toReversed();
    const [seedCloses, next] = [closes(0, 4), num(at(bars, 4), 'close')];
    const seed = seedCloses.reduce((sum, close) => sum + close, 0) / 4;
    expect(num(at(rows, 0), 'ema')).toBeCloseTo(seed, 8);
    expect(num(at(rows, 1), 'ema')).toBeCloseTo(0.4 * next + 0.6 * seed, 8);
  });

  it('gives the same EMA for a date whatever window is asked for', async () => {
    const wide = await rowsOf('technical-indicators/ema', {
      ...daily,
      periodLength: '10',
      from: '2025-01-02',
    });
    const narrow = await rowsOf('technical-indicators/ema', {
      ...daily,
      periodLength: '10',
      from: '2026-11-16',
      to: '2026-11-18',
    });
    expect(narrow.map((row) => str(row, 'date'))).toEqual(['2026-11-18', '2026-11-17', '2026-11-16']);
    expect(wide.find((row) => row.date === '2026-11-17')).toEqual(at(narrow, 1));
  });

  it('weighs the newest close most in the WMA', async () => {
    const [row] = await rowsOf('technical-indicators/wma', {
      ...daily,
      periodLength: '3',
      from: HARNESS_AS_OF,
    });
    const [a, b, c] = closes(bars.length - 3, 3) as [number, number, number];
    expect(num(row, 'wma')).toBeCloseTo((1 * a + 2 * b + 3 * c) / 6, 8);
  });

  it('starts the DEMA and TEMA where the EMA of the EMA (of the EMA) has its seed', async () => {
    const demaRows = (
      await rowsOf('technical-indicators/dema', { ...daily, periodLength: '2', from: '2000-01-01' })
    ).toReversed();
    const temaRows = (
      await rowsOf('technical-indicators/tema', { ...daily, periodLength: '2', from: '2000-01-01' })
    ).toReversed();
    expect(str(at(demaRows, 0), 'date')).toBe(str(at(bars, 2), 'date'));
    expect(str(at(temaRows, 0), 'date')).toBe(str(at(bars, 3), 'date'));
    // n = 2, α = 2/3: EMA e1 = mean of closes 0–1, e2 and e3 follow; EMA of EMA seeded by (e1 + e2) / 2.
    const [c0, c1, c2, c3] = closes(0, 4) as [number, number, number, number];
    const e1 = (c0 + c1) / 2;
    const e2 = (2 / 3) * c2 + (1 / 3) * e1;
    const e3 = (2 / 3) * c3 + (1 / 3) * e2;
    const ee2 = (e1 + e2) / 2;
    const ee3 = (2 / 3) * e3 + (1 / 3) * ee2;
    expect(num(at(demaRows, 0), 'dema')).toBeCloseTo(2 * e2 - ee2, 8);
    expect(num(at(temaRows, 0), 'tema')).toBeCloseTo(3 * e3 - 3 * ee3 + (ee2 + ee3) / 2, 8);
  });

  it('computes the first RSI from the plain averages of the first n gains and losses', async () => {
    const [first] = (
      await rowsOf('technical-indicators/rsi', { ...daily, periodLength: '3', from: '2000-01-01' })
    ).toReversed();
    const [c0, c1, c2, c3] = closes(0, 4) as [number, number, number, number];
    const changes = [c1 - c0, c2 - c1, c3 - c2];
    const gain = changes.filter((change) => change > 0).reduce((sum, change) => sum + change, 0) / 3;
    const loss = -changes.filter((change) => change < 0).reduce((sum, change) => sum + change, 0) / 3;
    expect(str(first, 'date')).toBe(str(at(bars, 3), 'date'));
    expect(num(first, 'rsi')).toBeCloseTo(loss === 0 ? 100 : 100 - 100 / (1 + gain / loss), 8);
    expect(num(first, 'rsi')).toBeGreaterThanOrEqual(0);
    expect(num(first, 'rsi')).toBeLessThanOrEqual(100);
  });

  it('answers the population standard deviation of the last n closes as standardDeviation', async () => {
    const [row] = await rowsOf('technical-indicators/standarddeviation', {
      ...daily,
      periodLength: '2',
      from: HARNESS_AS_OF,
    });
    const [a, b] = closes(bars.length - 2, 2) as [number, number];
    expect(Object.keys(row ?? {})).toContain('standardDeviation');
    expect(num(row, 'standardDeviation')).toBeCloseTo(Math.abs(a - b) / 2, 8);
  });

  it('places the close within the highs and lows of the last n bars for Williams %R', async () => {
    const [row] = await rowsOf('technical-indicators/williams', {
      ...daily,
      periodLength: '3',
      from: HARNESS_AS_OF,
    });
    const window = bars.slice(-3);
    const highest = Math.max(...window.map((bar) => num(bar, 'high')));
    const lowest = Math.min(...window.map((bar) => num(bar, 'low')));
    const close = num(at(window, 2), 'close');
    expect(num(row, 'williams')).toBeCloseTo(((highest - close) / (highest - lowest)) * -100, 8);
  });

  it('answers the first ADX at bar 2n from the mean of the first n DX values', async () => {
    const [first] = (
      await rowsOf('technical-indicators/adx', { ...daily, periodLength: '2', from: '2000-01-01' })
    ).toReversed();
    expect(str(first, 'date')).toBe(str(at(bars, 3), 'date'));
    // Bars 1–3: true range and directional moves; Wilder sums over n = 2, then DX of bars 2 and 3.
    const moves = [1, 2, 3].map((index) => {
      const bar = at(bars, index);
      const prior = at(bars, index - 1);
      const up = num(bar, 'high') - num(prior, 'high');
      const down = num(prior, 'low') - num(bar, 'low');
      return {
        tr: Math.max(
          num(bar, 'high') - num(bar, 'low'),
          Math.abs(num(bar, 'high') - num(prior, 'close')),
          Math.abs(num(bar, 'low') - num(prior, 'close')),
        ),
        plus: up > down && up > 0 ? up : 0,
        minus: down > up && down > 0 ? down : 0,
      };
    });
    const [m1, m2, m3] = moves as [(typeof moves)[0], (typeof moves)[0], (typeof moves)[0]];
    const dx = (tr: number, plus: number, minus: number): number => {
      const pdi = (100 * plus) / tr;
      const mdi = (100 * minus) / tr;
      return pdi + mdi === 0 ? 0 : (100 * Math.abs(pdi - mdi)) / (pdi + mdi);
    };
    const tr2 = m1.tr + m2.tr;
    const plus2 = m1.plus + m2.plus;
    const minus2 = m1.minus + m2.minus;
    const tr3 = tr2 - tr2 / 2 + m3.tr;
    const plus3 = plus2 - plus2 / 2 + m3.plus;
    const minus3 = minus2 - minus2 / 2 + m3.minus;
    expect(num(first, 'adx')).toBeCloseTo((dx(tr2, plus2, minus2) + dx(tr3, plus3, minus3)) / 2, 8);
  });

  it('computes intraday indicators over the intraday bars for the Professional plan', async () => {
    const chart = await rowsOf('historical-chart/5min', { symbol: 'AAPL' });
    const rows = await rowsOf('technical-indicators/sma', {
      symbol: 'AAPL',
      timeframe: '5min',
      periodLength: '2',
    });
    expect(str(at(rows, 0), 'date')).toBe(str(at(chart, 0), 'date'));
    expect(num(at(rows, 0), 'sma')).toBeCloseTo(
      (num(at(chart, 0), 'close') + num(at(chart, 1), 'close')) / 2,
      8,
    );
  });

  it('asks for the Professional plan for intraday timeframes and serves daily ones on Starter', async () => {
    const refused = await get(
      'technical-indicators/rsi',
      { symbol: 'AAPL', timeframe: '1hour', periodLength: '14' },
      starterKey,
    );
    expect(refused.status).toBe(402);
    expect(refused.error).toContain('intraday indicators');
    const served = await get('technical-indicators/rsi', { ...daily, periodLength: '14' }, starterKey);
    expect(served.status).toBe(200);
  });

  it('keeps daily indicators within the years of history the plan reads', async () => {
    const refused = await get(
      'technical-indicators/sma',
      { ...daily, periodLength: '5', from: '2020-01-02' },
      freeKey,
    );
    expect(refused.status).toBe(402);
    const served = await rowsOf('technical-indicators/sma', { ...daily, periodLength: '5' }, freeKey);
    expect(served.every((row) => str(row, 'date') >= '2021-11-20')).toBe(true);
  });

  it('refuses a missing period length, an unknown timeframe and a reversed range by name', async () => {
    const missing = await get('technical-indicators/sma', daily);
    expect(missing.status).toBe(400);
    expect(missing.error).toContain('periodLength');
    const timeframe = await get('technical-indicators/sma', {
      ...daily,
      timeframe: '2day',
      periodLength: '5',
    });
    expect(timeframe.status).toBe(400);
    expect(timeframe.error).toContain('timeframe');
    const reversed = await get('technical-indicators/sma', {
      ...daily,
      periodLength: '5',
      from: '2026-11-10',
      to: '2026-11-01',
    });
    expect(reversed.status).toBe(400);
    expect(reversed.error).toContain('"from"');
  });
});
