import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChartAnswer } from '../../src/lib/price-chart.ts';
import { createMarketChartRoutes } from '../../src/server/routes/market-chart.ts';
import { loadSymbolDirectory } from '../../src/server/services/market-data/directory.ts';
import { HARNESS_AS_OF, openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

let h: DataApiHarness;
let routes: ReturnType<typeof createMarketChartRoutes>;

beforeAll(async () => {
  h = await openDataApiHarness();
  const directory = await loadSymbolDirectory(h.db);
  routes = createMarketChartRoutes({
    database: () => Promise.resolve(h.db),
    directory: () => Promise.resolve(directory),
    now: () => new Date(`${HARNESS_AS_OF}T21:00:00Z`),
  });
});

afterAll(async () => {
  await h.close();
});

function chart(query: Record<string, string>): Promise<Response> {
  return Promise.resolve(routes.request(`/chart?${new URLSearchParams(query).toString()}`));
}

async function answer(symbol: string, range: string): Promise<ChartAnswer> {
  const res = await chart({ symbol, range });
  expect(res.status).toBe(200);
  return (await res.json()) as ChartAnswer;
}

function days(result: ChartAnswer): string[] {
  return [...new Set(result.bars.map((bar) => bar.time.slice(0, 10)))];
}

describe('GET /chart', () => {
  it('answers a year of daily bars, oldest first, cacheable for a minute', async () => {
    const res = await chart({ symbol: 'AAPL', range: '1Y' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=60');
    const body = (await res.json()) as ChartAnswer;
    expect(body).toMatchObject({ symbol: 'AAPL', range: '1Y', interval: '1day' });
    const times = body.bars.map((bar) => bar.time);
    expect(times.length).toBeGreaterThan(200);
    expect(times).toEqual([...times].sort());
    expect(times.at(-1)).toBe(HARNESS_AS_OF);
    expect((times[0] ?? '') > '2025-11-20').toBe(true);
    for (const bar of body.bars) {
      expect(bar.high).toBeGreaterThanOrEqual(Math.max(bar.open, bar.close));
      expect(bar.low).toBeLessThanOrEqual(Math.min(bar.open, bar.close));
    }
  });

  it('uses the year-to-date window from the first of January', async () => {
    const body = await answer('MSFT', 'YTD');
    expect(body.bars[0]?.time.slice(0, 4)).toBe(HARNESS_AS_OF.slice(0, 4));
    expect(body.bars.at(-1)?.time).toBe(HARNESS_AS_OF);
  });

  it('answers the latest session in 5-minute bars for 1D', async () => {
    const body = await answer('AAPL', '1D');
    expect(body.interval).toBe('5min');
    expect(days(body)).toEqual([HARNESS_AS_OF]);
    expect(body.bars[0]?.time).toBe(`${HARNESS_AS_OF} 09:30:00`);
    expect(body.bars).toHaveLength(78);
  });

  it('answers the latest five sessions in 30-minute bars for 5D', async () => {
    const body = await answer('BTCUSD', '5D');
    expect(body.interval).toBe('30min');
    expect(days(body)).toHaveLength(5);
    expect(days(body).at(-1)).toBe(HARNESS_AS_OF);
  });

  it('answers no intraday bars for a symbol without intraday prices', async () => {
    const body = await answer('EURUSD', '1D');
    expect(body.bars).toEqual([]);
  });

  it('thins the whole history to weekly bars only beyond 1,500 daily points', async () => {
    const max = await answer('AAPL', 'Max');
    const fiveYears = await answer('AAPL', '5Y');
    expect(max.bars.length).toBeLessThanOrEqual(1500);
    expect(fiveYears.bars.length).toBeGreaterThan(0);
    if (max.interval === '1week') {
      const weekStarts = max.bars.map((bar) => Date.parse(`${bar.time}T00:00:00Z`));
      for (let index = 1; index < weekStarts.length; index += 1) {
        expect((weekStarts[index] ?? 0) - (weekStarts[index - 1] ?? 0)).toBeGreaterThanOrEqual(86_400_000);
      }
    } else {
      expect(max.interval).toBe('1day');
    }
  });

  it('finds a symbol whatever its case and names it canonically', async () => {
    const body = await answer('eurusd', '1M');
    expect(body.symbol).toBe('EURUSD');
    expect(body.bars.length).toBeGreaterThan(15);
  });

  it('refuses an unknown range with 400, naming it', async () => {
    const res = await chart({ symbol: 'AAPL', range: '2W' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string };
    expect(body.error).toContain('"2W"');
  });

  it('answers 404 for an unknown symbol', async () => {
    const res = await chart({ symbol: 'NOPE123', range: '1Y' });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: string };
    expect(body.error).toMatch(/^Unknown symbol/);
  });

  it('refuses a request without a symbol with 400', async () => {
    const res = await chart({ range: '1Y' });
    expect(res.status).toBe(400);
  });
});
