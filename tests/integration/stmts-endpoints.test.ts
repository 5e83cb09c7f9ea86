import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import readExcelFile from 'read-excel-file/node';
import { apiRequests, financialStatements, securities } from '../../src/server/db/schema.ts';
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

/** The rows of a statement endpoint, newest first, for checking what is computed from them. */
function statement(path: string, query: Record<string, string>): Promise<Row[]> {
  return rowsOf(path, { symbol: 'AAPL', ...query });
}

function sumOf(rows: readonly Row[], field: string): number {
  return rows.reduce((total, row) => total + num(row, field), 0);
}

function close(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.max(1e-6, Math.abs(expected) * 1e-9));
}

describe('trailing twelve months', () => {
  let quarters: { income: Row[]; balance: Row[]; cashFlow: Row[] };

  beforeAll(async () => {
    const [income, balance, cashFlow] = await Promise.all([
      statement('income-statement', { period: 'quarter', limit: '8' }),
      statement('balance-sheet-statement', { period: 'quarter', limit: '8' }),
      statement('cash-flow-statement', { period: 'quarter', limit: '8' }),
    ]);
    quarters = { income, balance, cashFlow };
  });

  it('sums the flows of the four latest quarters and averages their share counts', async () => {
    const [ttm] = await rowsOf('income-statement-ttm', { symbol: 'AAPL' });
    const four = quarters.income.slice(0, 4);
    expect(str(ttm, 'date')).toBe(str(at(four, 0), 'date'));
    expect(str(ttm, 'period')).toBe(str(at(four, 0), 'period'));
    close(num(ttm, 'revenue'), sumOf(four, 'revenue'));
    close(num(ttm, 'netIncome'), sumOf(four, 'netIncome'));
    close(num(ttm, 'eps'), sumOf(four, 'eps'));
    expect(num(ttm, 'weightedAverageShsOut')).toBe(Math.round(sumOf(four, 'weightedAverageShsOut') / 4));
  });

  it('answers one TTM for each quarter that closes four consecutive quarters, newest first', async () => {
    const rows = await rowsOf('income-statement-ttm', { symbol: 'AAPL', limit: '100' });
    expect(rows).toHaveLength(quarters.income.length - 3);
    expect(rows.map((row) => row.date)).toEqual(quarters.income.slice(0, rows.length).map((row) => row.date));
    close(num(at(rows, 1), 'revenue'), sumOf(quarters.income.slice(1, 5), 'revenue'));
    expect(await rowsOf('income-statement-ttm', { symbol: 'AAPL', limit: '2' })).toHaveLength(2);
  });

  it('takes the balance sheet of the latest quarter as it stands', async () => {
    const [ttm] = await rowsOf('balance-sheet-statement-ttm', { symbol: 'AAPL' });
    expect(ttm).toEqual(quarters.balance[0]);
  });

  it('sums the cash flows but starts with the oldest quarter’s opening cash and ends with the newest’s closing cash', async () => {
    const [ttm] = await rowsOf('cash-flow-statement-ttm', { symbol: 'AAPL' });
    const four = quarters.cashFlow.slice(0, 4);
    close(num(ttm, 'operatingCashFlow'), sumOf(four, 'operatingCashFlow'));
    close(num(ttm, 'freeCashFlow'), sumOf(four, 'freeCashFlow'));
    expect(num(ttm, 'cashAtEndOfPeriod')).toBe(num(at(four, 0), 'cashAtEndOfPeriod'));
    expect(num(ttm, 'cashAtBeginningOfPeriod')).toBe(num(at(four, 3), 'cashAtBeginningOfPeriod'));
  });

  it('values the TTM key metrics at the latest close and today’s shares, under FMP’s TTM names', async () => {
    const [metrics] = await rowsOf('key-metrics-ttm', { symbol: 'AAPL' });
    const [ttmIncome] = await rowsOf('income-statement-ttm', { symbol: 'AAPL' });
    const [quote] = await rowsOf('quote', { symbol: 'AAPL' });
    const [security] = await h.db
      .select({ shares: securities.sharesOutstanding })
      .from(securities)
      .where(eq(securities.symbol, 'AAPL'));
    expect(Object.keys(metrics ?? {}).slice(0, 4)).toEqual([
      'symbol',
      'marketCap',
      'enterpriseValueTTM',
      'evToSalesTTM',
    ]);
    const marketCap = num(quote, 'price') * (security?.shares ?? 0);
    close(num(metrics, 'marketCap'), marketCap);
    const balance = at(quarters.balance, 0);
    const enterpriseValue = marketCap + num(balance, 'totalDebt') - num(balance, 'cashAndCashEquivalents');
    close(num(metrics, 'enterpriseValueTTM'), enterpriseValue);
    close(num(metrics, 'evToSalesTTM'), enterpriseValue / num(ttmIncome, 'revenue'));
  });

  it('computes the TTM ratios from the summed flows, as priceToEarningsRatioTTM and the like', async () => {
    const [ratios] = await rowsOf('ratios-ttm', { symbol: 'AAPL' });
    const [metrics] = await rowsOf('key-metrics-ttm', { symbol: 'AAPL' });
    const [ttmIncome] = await rowsOf('income-statement-ttm', { symbol: 'AAPL' });
    expect(Object.keys(ratios ?? {}).slice(0, 2)).toEqual(['symbol', 'grossProfitMarginTTM']);
    close(num(ratios, 'netProfitMarginTTM'), num(ttmIncome, 'netIncome') / num(ttmIncome, 'revenue'));
    close(num(ratios, 'priceToEarningsRatioTTM'), num(metrics, 'marketCap') / num(ttmIncome, 'netIncome'));
  });

  it('asks for the Professional plan, as quarterly statements do', async () => {
    for (const path of ['income-statement-ttm', 'key-metrics-ttm', 'ratios-ttm']) {
      const refused = await get(path, { symbol: 'AAPL' }, starterKey);
      expect(refused.status, path).toBe(402);
      expect(refused.error).toContain('Professional');
    }
  });
});

describe('growth', () => {
  it('grows each income line from the previous fiscal year, 0 for the oldest stored year', async () => {
    const years = await statement('income-statement', { period: 'annual', limit: '10' });
    const rows = await rowsOf('income-statement-growth', { symbol: 'AAPL', limit: '10' }, starterKey);
    expect(rows).toHaveLength(years.length);
    const [now, before] = [at(years, 0), at(years, 1)];
    const growth = (field: string): number =>
      (num(now, field) - num(before, field)) / Math.abs(num(before, field));
    expect(Object.keys(at(rows, 0)).slice(0, 7)).toEqual([
      'symbol',
      'date',
      'fiscalYear',
      'period',
      'reportedCurrency',
      'growthRevenue',
      'growthCostOfRevenue',
    ]);
    close(num(at(rows, 0), 'growthRevenue'), growth('revenue'));
    close(num(at(rows, 0), 'growthEBITDA'), growth('ebitda'));
    close(num(at(rows, 0), 'growthEPS'), growth('eps'));
    const margin = (row: Row): number => num(row, 'grossProfit') / num(row, 'revenue');
    close(num(at(rows, 0), 'growthGrossProfitRatio'), (margin(now) - margin(before)) / margin(before));
    expect(num(at(rows, rows.length - 1), 'growthRevenue')).toBe(0);
  });

  it('grows quarterly lines from the previous quarter, for the Professional plan only', async () => {
    const quarters = await statement('balance-sheet-statement', { period: 'quarter', limit: '2' });
    const [row] = await rowsOf('balance-sheet-statement-growth', { symbol: 'AAPL', period: 'quarter' });
    const [now, before] = [at(quarters, 0), at(quarters, 1)];
    close(
      num(row, 'growthTotalAssets'),
      (num(now, 'totalAssets') - num(before, 'totalAssets')) / Math.abs(num(before, 'totalAssets')),
    );
    const refused = await get(
      'balance-sheet-statement-growth',
      { symbol: 'AAPL', period: 'quarter' },
      starterKey,
    );
    expect(refused.status).toBe(402);
  });

  it('spells the cash-flow growth fields as FMP does', async () => {
    const years = await statement('cash-flow-statement', { period: 'annual', limit: '2' });
    const [row] = await rowsOf('cash-flow-statement-growth', { symbol: 'AAPL' });
    const [now, before] = [at(years, 0), at(years, 1)];
    const field = 'netCashProvidedByOperatingActivities';
    close(
      num(row, 'growthNetCashProvidedByOperatingActivites'),
      (num(now, field) - num(before, field)) / Math.abs(num(before, field)),
    );
  });

  it('answers financial growth with null multi-year figures where the history is too short', async () => {
    const years = await statement('income-statement', { period: 'annual', limit: '10' });
    const [row] = await rowsOf('financial-growth', { symbol: 'AAPL' });
    const [now, before] = [at(years, 0), at(years, 1)];
    close(
      num(row, 'revenueGrowth'),
      (num(now, 'revenue') - num(before, 'revenue')) / Math.abs(num(before, 'revenue')),
    );
    expect(years.length).toBeLessThan(4);
    expect(row?.threeYRevenueGrowthPerShare).toBeNull();
    expect(row?.tenYBottomLineNetIncomeGrowthPerShare).toBeNull();
  });

  it('compares the per-share figures with the same period three years earlier once that year is stored', async () => {
    const symbol = 'MSFT';
    const years = await rowsOf('income-statement', { symbol, limit: '10' });
    const oldest = at(years, years.length - 1);
    const newest = at(years, 0);
    const olderYear = Number(str(oldest, 'fiscalYear')) - (4 - years.length);
    // Store one more fiscal year, as an import would, with the revenue and share count of our choosing.
    const stored = await h.db
      .select()
      .from(financialStatements)
      .where(
        and(
          eq(financialStatements.symbol, symbol),
          eq(financialStatements.fiscalYear, Number(oldest.fiscalYear)),
          eq(financialStatements.period, 'FY'),
        ),
      );
    const date = `${String(olderYear)}${str(oldest, 'date').slice(4)}`;
    await h.db.insert(financialStatements).values(
      stored.map((row) => ({
        ...row,
        fiscalYear: olderYear,
        date,
        data: {
          ...row.data,
          date,
          fiscalYear: String(olderYear),
          ...(row.statement === 'income'
            ? { revenue: 1_000_000_000, weightedAverageShsOut: 100_000_000 }
            : {}),
        },
      })),
    );
    const [row] = await rowsOf('financial-growth', { symbol });
    const perShareNow = num(newest, 'revenue') / num(newest, 'weightedAverageShsOut');
    close(num(row, 'threeYRevenueGrowthPerShare'), (perShareNow - 10) / 10);
    expect(row?.fiveYRevenueGrowthPerShare).toBeNull();
  });
});

describe('filings, statements as reported and reports', () => {
  it('lists the latest filings newest first, paged', async () => {
    const first = await rowsOf('latest-financial-statements', { limit: '5' }, freeKey);
    const second = await rowsOf('latest-financial-statements', { limit: '5', page: '1' }, starterKey);
    expect(first).toHaveLength(5);
    expect(Object.keys(at(first, 0))).toEqual(['symbol', 'calendarYear', 'period', 'date', 'dateAdded']);
    const added = [...first, ...second].map((row) => str(row, 'dateAdded'));
    expect(added).toEqual([...added].sort().reverse());
    expect(
      second.map((row) => `${str(row, 'symbol')}-${String(row.calendarYear)}-${str(row, 'period')}`),
    ).not.toContain(
      `${str(at(first, 0), 'symbol')}-${String(at(first, 0).calendarYear)}-${str(at(first, 0), 'period')}`,
    );
  });

  it('lists each symbol with statements once, with the currency it reports in', async () => {
    const rows = await rowsOf('financial-statement-symbol-list', {}, freeKey);
    const symbols = rows.map((row) => str(row, 'symbol'));
    expect(symbols).toEqual([...new Set(symbols)].sort());
    const apple = rows.find((row) => row.symbol === 'AAPL');
    expect(apple).toMatchObject({ tradingCurrency: 'USD', reportingCurrency: 'USD' });
    expect(symbols).not.toContain('BTCUSD');
  });

  it('keys the income statement as reported by its XBRL concepts, with the stored figures', async () => {
    const [income] = await statement('income-statement', { limit: '1' });
    const [reported] = await rowsOf('income-statement-as-reported', { symbol: 'AAPL', limit: '1' });
    expect(reported).toMatchObject({
      symbol: 'AAPL',
      fiscalYear: Number(str(income, 'fiscalYear')),
      period: 'FY',
      date: str(income, 'date'),
    });
    const data = reported?.data as Record<string, number>;
    expect(data.revenuefromcontractwithcustomerexcludingassessedtax).toBe(num(income, 'revenue'));
    expect(data.netincomeloss).toBe(num(income, 'netIncome'));
    expect(data.earningspersharediluted).toBe(num(income, 'epsDiluted'));
  });

  it('puts all three statements of a period in one data object for the full statement', async () => {
    const [balance] = await statement('balance-sheet-statement', { period: 'quarter', limit: '1' });
    const [cashFlow] = await statement('cash-flow-statement', { period: 'quarter', limit: '1' });
    const [full] = await rowsOf('financial-statement-full-as-reported', {
      symbol: 'AAPL',
      period: 'quarter',
      limit: '1',
    });
    const data = full?.data as Record<string, number>;
    expect(data.assets).toBe(num(balance, 'totalAssets'));
    expect(data.netcashprovidedbyusedinoperatingactivities).toBe(
      num(cashFlow, 'netCashProvidedByOperatingActivities'),
    );
    expect(data.netincomeloss).toBeTypeOf('number');
    const refused = await get(
      'financial-statement-full-as-reported',
      { symbol: 'AAPL', period: 'quarter' },
      starterKey,
    );
    expect(refused.status).toBe(402);
  });

  it('dates every report with links to this API’s own report endpoints', async () => {
    const rows = await rowsOf('financial-reports-dates', { symbol: 'AAPL' }, freeKey);
    const years = await statement('income-statement', { limit: '10' });
    const quarters = await statement('income-statement', { period: 'quarter', limit: '100' });
    expect(rows).toHaveLength(years.length + quarters.length);
    const annual = rows.find((row) => row.period === 'FY');
    const year = String(annual?.fiscalYear);
    expect(annual?.linkJson).toBe(
      `http://localhost:4322/stable/financial-reports-json?symbol=AAPL&year=${year}&period=FY`,
    );
    expect(annual?.linkXlsx).toBe(
      `http://localhost:4322/stable/financial-reports-xlsx?symbol=AAPL&year=${year}&period=FY`,
    );
  });

  it('answers the annual report as a document of labelled lines with the stored figures', async () => {
    const [income] = await statement('income-statement', { limit: '1' });
    const year = str(income, 'fiscalYear');
    const [report] = await rowsOf('financial-reports-json', { symbol: 'AAPL', year, period: 'FY' }, freeKey);
    expect(Object.keys(report ?? {})).toEqual([
      'symbol',
      'period',
      'year',
      'Cover Page',
      'CONSOLIDATED STATEMENTS OF OPERATIONS',
      'CONSOLIDATED BALANCE SHEETS',
      'CONSOLIDATED STATEMENTS OF CASH FLOWS',
    ]);
    const operations = report?.['CONSOLIDATED STATEMENTS OF OPERATIONS'] as Record<string, number[]>[];
    expect(at(operations, 0)).toEqual({ Revenue: [num(income, 'revenue')] });
    const cover = report?.['Cover Page'] as Record<string, string[]>[];
    expect(cover).toContainEqual({ 'Document Type': ['10-K'] });
    expect(await rowsOf('financial-reports-json', { symbol: 'AAPL', year: '1990' }, freeKey)).toEqual([]);
    const quarterly = await get('financial-reports-json', { symbol: 'AAPL', year, period: 'Q1' }, starterKey);
    expect(quarterly.status).toBe(402);
    const badYear = await get('financial-reports-json', { symbol: 'AAPL', year: 'last' }, freeKey);
    expect(badYear.status).toBe(400);
    expect(badYear.error).toContain('year');
  });
});

describe('the financial report as an Excel workbook', () => {
  /** The newest annual report's year, as the income statement has it. */
  async function latestYear(): Promise<string> {
    const [income] = await statement('income-statement', { limit: '1' });
    return str(income, 'fiscalYear');
  }

  function workbook(query: Record<string, string>, key: string): Promise<Response> {
    return h.request('/stable/financial-reports-xlsx', { ...query, apikey: key });
  }

  it('sends the JSON form’s report as an .xlsx attachment: a cover page and one sheet per statement, with the same figures', async () => {
    const year = await latestYear();
    const res = await workbook({ symbol: 'AAPL', year, period: 'FY' }, freeKey);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="AAPL-${year}-FY.xlsx"`);
    expect(res.headers.get('x-data-source')).toBe('demo');
    const sheets = await readExcelFile(Buffer.from(await res.arrayBuffer()));
    expect(sheets.map((sheet) => sheet.sheet)).toEqual([
      'Cover Page',
      'Income Statement',
      'Balance Sheet',
      'Cash Flow Statement',
    ]);
    const [report] = await rowsOf('financial-reports-json', { symbol: 'AAPL', year, period: 'FY' }, freeKey);
    const operations = report?.['CONSOLIDATED STATEMENTS OF OPERATIONS'] as Record<string, number[]>[];
    const income = at(sheets, 1).data;
    expect(at(income, 0)).toEqual(['Line item', `FY ${year} (USD)`]);
    expect(at(income, 1)).toEqual(['Revenue', at(operations, 0).Revenue?.[0]]);
    // Every line of every statement, in the JSON form's order, with its value as a number.
    const sections = [
      'Cover Page',
      'CONSOLIDATED STATEMENTS OF OPERATIONS',
      'CONSOLIDATED BALANCE SHEETS',
      'CONSOLIDATED STATEMENTS OF CASH FLOWS',
    ];
    for (const [index, section] of sections.entries()) {
      const lines = (report?.[section] as Record<string, (string | number)[]>[]).map((line) =>
        Object.entries(line).map(([label, values]) => [label, values[0]]),
      );
      expect(at(sheets, index).data.slice(1)).toEqual(lines.flat());
    }
    expect(at(sheets, 0).data).toContainEqual(['Document Type', '10-K']);
  });

  it('refuses in JSON, like every endpoint: a bad year, a quarter beyond the plan, a datatype, a period without a report', async () => {
    const year = await latestYear();
    const refusals: [Record<string, string>, string, number, string][] = [
      [{ symbol: 'AAPL', year: 'last' }, freeKey, 400, 'Invalid value for parameter "year"'],
      [
        { symbol: 'AAPL', year, period: 'Q1' },
        starterKey,
        402,
        'does not cover quarterly reports. It is included in the Professional plan',
      ],
      [
        { symbol: 'AAPL', year, datatype: 'csv' },
        freeKey,
        400,
        'financial-reports-xlsx answers an Excel workbook only; financial-reports-json answers the same as JSON.',
      ],
      [
        { symbol: 'AAPL', year: '1990' },
        freeKey,
        404,
        'AAPL has no FY report for 1990: financial-reports-dates lists the periods with one.',
      ],
    ];
    for (const [query, key, status, message] of refusals) {
      const res = await workbook(query, key);
      expect(res.status, JSON.stringify(query)).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBeNull();
      const body = (await res.json()) as Record<string, string>;
      expect(Object.keys(body)).toEqual(['Error Message']);
      expect(body['Error Message']).toContain(message);
    }
    const quarterly = await workbook({ symbol: 'AAPL', year, period: 'Q1' }, professionalKey);
    expect(quarterly.status).toBe(200);
  });

  it('counts one call against the budget, in the usage report and in the request log; refusals count nothing', async () => {
    const key = await h.keyFor('free');
    const year = await latestYear();
    const res = await workbook({ symbol: 'AAPL', year, period: 'FY' }, key);
    const bytes = (await res.arrayBuffer()).byteLength;
    const policy = res.headers.get('ratelimit-policy') ?? '';
    const perMinute = Number(/"minute";q=(\d+)/.exec(policy)?.[1]);
    expect(res.headers.get('ratelimit')).toContain(`"minute";r=${String(perMinute - 1)};`);
    const refused = await workbook({ symbol: 'AAPL', year: '1990' }, key);
    expect(refused.status).toBe(404);
    expect(refused.headers.get('ratelimit')).toContain(`"minute";r=${String(perMinute - 2)};`);
    await h.api.meter.flush();
    await h.api.pipeline.requestLog.flush();
    const usage = await rowsOf('api-usage', {}, key);
    expect(usage.map(({ endpoint, calls, bytes: sent }) => ({ endpoint, calls, bytes: sent }))).toEqual([
      { endpoint: 'financial-reports-xlsx', calls: 1, bytes },
    ]);
    const logged = await h.db
      .select({ endpoint: apiRequests.endpoint, status: apiRequests.status, bytes: apiRequests.bytes })
      .from(apiRequests)
      .where(eq(apiRequests.userId, h.userOf(key)))
      .orderBy(apiRequests.id);
    expect(logged).toEqual([
      { endpoint: 'financial-reports-xlsx', status: 200, bytes },
      { endpoint: 'financial-reports-xlsx', status: 404, bytes: expect.any(Number) as number },
    ]);
    // The refusal's count was given back: after the workbook and this quote, two calls are spent.
    const next = await h.request('/stable/quote', { symbol: 'AAPL', apikey: key });
    expect(next.headers.get('ratelimit')).toContain(`"minute";r=${String(perMinute - 2)};`);
  });

  it('answers 304 to a client holding the same workbook, as the JSON form does', async () => {
    const year = await latestYear();
    const first = await workbook({ symbol: 'AAPL', year, period: 'FY' }, freeKey);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\//);
    const again = await h.request(
      '/stable/financial-reports-xlsx',
      { symbol: 'AAPL', year, period: 'FY', apikey: freeKey },
      { 'if-none-match': etag },
    );
    expect(again.status).toBe(304);
  });
});

describe('revenue segmentation', () => {
  it.each(['revenue-product-segmentation', 'revenue-geographic-segmentation'])(
    '%s splits each year’s revenue into segments that add up to the income statement’s revenue',
    async (path) => {
      const years = await statement('income-statement', { limit: '10' });
      const rows = await rowsOf(path, { symbol: 'AAPL', period: 'annual', structure: 'flat' }, freeKey);
      expect(rows.map((row) => row.date)).toEqual(years.map((row) => row.date));
      for (const [index, row] of rows.entries()) {
        expect(Object.keys(row)).toEqual([
          'symbol',
          'fiscalYear',
          'period',
          'reportedCurrency',
          'date',
          'data',
        ]);
        const parts = Object.values(row.data as Record<string, number>);
        expect(parts.length).toBeGreaterThanOrEqual(2);
        expect(parts.every((part) => part > 0)).toBe(true);
        expect(parts.reduce((sum, part) => sum + part, 0)).toBe(num(at(years, index), 'revenue'));
      }
    },
  );

  it('names the regions every company reports and keeps a company’s product lines from year to year', async () => {
    const [geographic] = await rowsOf('revenue-geographic-segmentation', { symbol: 'AAPL' }, freeKey);
    const regions = geographic?.data as Record<string, number>;
    expect(Object.keys(regions).sort()).toEqual(['Americas', 'Asia Pacific', 'Europe', 'Rest of World']);
    const revenues = Object.values(regions);
    expect(revenues).toEqual([...revenues].sort((a, b) => b - a));
    const products = await rowsOf('revenue-product-segmentation', { symbol: 'AAPL' }, freeKey);
    const names = products.map((row) =>
      Object.keys(row.data as object)
        .sort()
        .join(','),
    );
    expect(new Set(names).size).toBe(1);
  });

  it('serves quarterly segments for the Professional plan and refuses an unknown structure by name', async () => {
    const [quarter] = await statement('income-statement', { period: 'quarter', limit: '1' });
    const [row] = await rowsOf('revenue-product-segmentation', { symbol: 'AAPL', period: 'quarter' });
    expect(Object.values(row?.data as Record<string, number>).reduce((sum, part) => sum + part, 0)).toBe(
      num(quarter, 'revenue'),
    );
    expect(
      (await get('revenue-product-segmentation', { symbol: 'AAPL', period: 'quarter' }, starterKey)).status,
    ).toBe(402);
    const bad = await get('revenue-product-segmentation', { symbol: 'AAPL', structure: 'hierarchical' });
    expect(bad.status).toBe(400);
    expect(bad.error).toContain('structure');
  });
});
