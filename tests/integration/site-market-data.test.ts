import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChartAnswer } from '../../src/lib/price-chart.ts';
import { accessKey, signPublicToken } from '../../src/server/auth/tokens.ts';
import { SITE_CREDENTIAL_MESSAGE } from '../../src/server/data-api/site-calls.ts';
import { createMarketChartRoutes } from '../../src/server/routes/market-chart.ts';
import { createMarketHistoryRoutes } from '../../src/server/routes/market-history.ts';
import { recentDays, usageForUser } from '../../src/server/services/api-usage.ts';
import { accessTokenFor, accountsAppOn } from './accounts-app.ts';
import { siteUrl } from '../../src/server/app/config.ts';
import { AUTH_LINKS } from '../../src/lib/routes.ts';
import { shiftIsoYears } from '../../src/lib/iso-date.ts';
import {
  HARNESS_AS_OF,
  HARNESS_SECRET,
  openDataApiHarness,
  updateAccount,
  type DataApiHarness,
} from './data-api-harness.ts';

// The site's chart and history routes answer through the data pipeline with the visitor's own
// credential: the signed-in user's key, or the public token of a signed-out visitor.

/** Where a 402 sends the visitor: the site's pricing page, by its full address. */
const PRICING_URL = `${siteUrl()}${AUTH_LINKS.pricing}`;

let h: DataApiHarness;
let app: ReturnType<typeof accountsAppOn>;
const saved = { ...process.env };

/** A symbol of each kind the free sample leaves out. */
let outsideSample: string;

interface Visitor {
  headers: Record<string, string>;
  userId?: string;
}

/** A signed-in user on `planCode`: an account with a key, a session and its access token. */
async function signedIn(planCode: string, options: { verified?: boolean } = {}): Promise<Visitor> {
  const key = await h.keyFor(planCode, options);
  const userId = h.userOf(key);
  const token = await accessTokenFor(h.db, userId, planCode);
  const visitor: Visitor = { headers: { Authorization: `Bearer ${token}` }, userId };
  // The browser sends the public token alongside, whoever is signed in.
  visitor.headers['X-Public-Auth'] = await signPublicToken(accessKey());
  return visitor;
}

/** A signed-out visitor of the site, with the public token the browser fetched. */
async function visitor(): Promise<Visitor> {
  const token = await signPublicToken(accessKey());
  return { headers: { Authorization: `Bearer ${token}`, 'X-Public-Auth': token } };
}

let power: Visitor;

beforeAll(async () => {
  process.env.APP_SECRET = HARNESS_SECRET;
  h = await openDataApiHarness();
  const options = { pipeline: () => h.api.pipeline };
  app = accountsAppOn(
    () => h.db,
    [
      ['/market', createMarketChartRoutes(options)],
      ['/market', createMarketHistoryRoutes(options)],
    ],
  );
  const directory = await h.api.directory.get();
  const stock = directory.all().find((s) => s.assetType === 'stock' && s.exchange === 'NASDAQ' && !s.sample);
  if (stock === undefined) throw new Error('the demo data lacks a stock outside the sample');
  outsideSample = stock.symbol;
  power = await signedIn('monthlyT3');
});

afterAll(async () => {
  await h.close();
  process.env = { ...saved };
});

function chart(query: Record<string, string>, who: Visitor = power): Promise<Response> {
  return Promise.resolve(
    app.request(`/market/chart?${new URLSearchParams(query).toString()}`, { headers: who.headers }),
  );
}

function history(query: Record<string, string>, who: Visitor = power): Promise<Response> {
  return Promise.resolve(
    app.request(`/market/history?${new URLSearchParams(query).toString()}`, { headers: who.headers }),
  );
}

async function answer(symbol: string, range: string, who: Visitor = power): Promise<ChartAnswer> {
  const res = await chart({ symbol, range }, who);
  expect(res.status).toBe(200);
  return (await res.json()) as ChartAnswer;
}

async function errorOf(res: Response): Promise<string> {
  return ((await res.json()) as { error: string }).error;
}

function days(result: ChartAnswer): string[] {
  return [...new Set(result.bars.map((bar) => bar.time.slice(0, 10)))];
}

describe('GET /market/chart', () => {
  it('answers a year of daily bars, oldest first, privately cacheable for a minute', async () => {
    const res = await chart({ symbol: 'AAPL', range: '1Y' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('private, max-age=60');
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
    expect((max.bars[0]?.time ?? '') <= (fiveYears.bars[0]?.time ?? '')).toBe(true);
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
    expect(await errorOf(res)).toContain('"2W" is not a chart range');
  });

  it('answers 404 for an unknown symbol', async () => {
    const res = await chart({ symbol: 'NOPE123', range: '1Y' });
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toBe('Unknown symbol "NOPE123".');
  });

  it('refuses a request without a symbol with 400', async () => {
    const res = await chart({ range: '1Y' });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe('Missing required parameter "symbol".');
  });
});

describe('what the site serves each visitor', () => {
  it('refuses a caller with neither a session nor the site’s visitor token', async () => {
    const res = await chart({ symbol: 'AAPL', range: '1M' }, { headers: {} });
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toBe(SITE_CREDENTIAL_MESSAGE);
  });

  it('serves a signed-out visitor the free sample, and a year of it', async () => {
    const guest = await visitor();
    expect((await chart({ symbol: 'AAPL', range: '6M' }, guest)).status).toBe(200);
    const max = await answer('AAPL', 'Max', guest);
    expect(max.interval).toBe('1day');
    expect((max.bars[0]?.time ?? '') >= '2025-11-21').toBe(true);
  });

  it('refuses a signed-out visitor a symbol outside the free sample with 402 naming the plan', async () => {
    const res = await chart({ symbol: outsideSample, range: 'Max' }, await visitor());
    expect(res.status).toBe(402);
    expect(await errorOf(res)).toBe(
      `Your Public plan does not cover the symbol ${outsideSample}. It is included in the Starter plan and above: see ${PRICING_URL}.`,
    );
  });

  it('serves five years to a Free account but not to a signed-out visitor, whom it points to Free, and intraday bars to neither', async () => {
    const guest = await visitor();
    const guestFiveYears = await chart({ symbol: 'AAPL', range: '5Y' }, guest);
    expect(guestFiveYears.status).toBe(402);
    expect(await errorOf(guestFiveYears)).toBe(
      `Your Public plan does not cover 5 years of daily history. It is included in the Free plan and above: see ${PRICING_URL}.`,
    );
    const free = await signedIn('free');
    const fiveYears = await answer('AAPL', '5Y', free);
    // The test data holds about three years: more than the visitor's year, all within five.
    expect((fiveYears.bars[0]?.time ?? '') < shiftIsoYears(HARNESS_AS_OF, -2)).toBe(true);
    const intraday = await chart({ symbol: 'AAPL', range: '1D' }, free);
    expect(intraday.status).toBe(402);
    expect(await errorOf(intraday)).toBe(
      `Your Free plan does not cover intraday bars. It is included in the Professional plan and above: see ${PRICING_URL}.`,
    );
  });

  it('serves a starter subscriber ten years and the symbols of every US listing', async () => {
    const starter = await signedIn('starterT1');
    const fiveYears = await answer(outsideSample, '5Y', starter);
    expect(fiveYears.bars.length).toBeGreaterThan(0);
    const max = await answer('AAPL', 'Max', starter);
    expect((max.bars[0]?.time ?? '') >= '2016-11-21').toBe(true);
  });

  it('counts a signed-in user’s chart calls as their usage, and refused ones not at all', async () => {
    const starter = await signedIn('starterT1');
    expect((await chart({ symbol: 'AAPL', range: '1M' }, starter)).status).toBe(200);
    expect((await chart({ symbol: 'AAPL', range: '1D' }, starter)).status).toBe(402);
    await h.api.meter.flush();
    const usage = await usageForUser(h.db, starter.userId ?? '', recentDays(1, new Date(h.clock.now)));
    expect(usage.map(({ endpoint, calls }) => ({ endpoint, calls }))).toEqual([
      { endpoint: 'site/chart', calls: 1 },
    ]);
  });

  it('limits a signed-out visitor to the public budget and says when to come back', async () => {
    const guest = await visitor();
    guest.headers['X-Forwarded-For'] = '203.0.113.77';
    let last: Response | undefined;
    for (let call = 0; call < 11; call += 1) last = await chart({ symbol: 'MSFT', range: '1M' }, guest);
    expect(last?.status).toBe(429);
    expect(Number(last?.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(last?.headers.get('RateLimit')).toContain('"minute";r=0');
    h.clock.advance(61_000);
    expect((await chart({ symbol: 'MSFT', range: '1M' }, guest)).status).toBe(200);
  });

  it('serves a user whose address is not verified as a signed-out visitor', async () => {
    const unverified = await signedIn('monthlyT3', { verified: false });
    expect((await chart({ symbol: 'AAPL', range: '1M' }, unverified)).status).toBe(200);
    expect((await chart({ symbol: 'AAPL', range: '5Y' }, unverified)).status).toBe(402);
    await updateAccount(h.db, unverified.userId ?? '', { emailVerified: true });
    expect((await chart({ symbol: 'AAPL', range: '5Y' }, unverified)).status).toBe(200);
  });
});

describe('GET /market/history', () => {
  it('downloads a range as CSV with the table’s columns and a file name naming it', async () => {
    const res = await history({ symbol: 'aapl', from: '2026-10-01', to: '2026-10-31', format: 'csv' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('Content-Disposition')).toBe(
      'attachment; filename="AAPL-historical-2026-10-01-2026-10-31.csv"',
    );
    const lines = (await res.text()).trim().split(/\r?\n/);
    expect(lines[0]).toBe('date,open,high,low,close,adjClose,volume,change,changePercent');
    expect(lines[1]?.startsWith('2026-10-30,')).toBe(true);
    expect(lines.at(-1)?.startsWith('2026-10-01,')).toBe(true);
  });

  it('downloads JSON rows without the adjusted close, a stock’s column, for a currency pair', async () => {
    const res = await history({ symbol: 'EURUSD', from: '2026-11-02', to: '2026-11-06' });
    expect(res.status).toBe(200);
    const rows = (await res.json()) as Record<string, unknown>[];
    expect(rows).toHaveLength(5);
    expect(Object.keys(rows[0] ?? {})).toEqual(expect.arrayContaining(['date', 'open', 'close', 'change']));
    expect(Object.keys(rows[0] ?? {})).not.toContain('adjClose');
  });

  it('refuses a bad format, a bad date and a range that ends before it starts, naming the parameter', async () => {
    const format = await history({ symbol: 'AAPL', format: 'xlsx' });
    expect(format.status).toBe(400);
    expect(await errorOf(format)).toBe('Parameter "format" must be "csv" or "json".');
    const date = await history({ symbol: 'AAPL', from: '2026-02-30' });
    expect(date.status).toBe(400);
    expect(await errorOf(date)).toBe('Invalid value for parameter "from": is not a real date.');
    const order = await history({ symbol: 'AAPL', from: '2026-06-01', to: '2026-01-01' });
    expect(order.status).toBe(400);
    expect(await errorOf(order)).toBe('Parameter "from" must be on or before "to".');
  });

  it('refuses a signed-out visitor history before the free year, and a symbol outside the sample', async () => {
    const guest = await visitor();
    const old = await history({ symbol: 'AAPL', from: '1990-01-01', format: 'csv' }, guest);
    expect(old.status).toBe(402);
    expect(await errorOf(old)).toMatch(
      /^Your Public plan does not cover daily history before \d{4}-\d{2}-\d{2}\./,
    );
    const outside = await history({ symbol: outsideSample, format: 'csv' }, guest);
    expect(outside.status).toBe(402);
    expect((await history({ symbol: 'AAPL', format: 'csv' }, guest)).status).toBe(200);
  });

  it('serves the whole history to a plan with full history', async () => {
    const res = await history({ symbol: 'AAPL', from: '1990-01-01' });
    expect(res.status).toBe(200);
    const rows = (await res.json()) as { date: string }[];
    // The test data set holds about three years: all of it, not the free year.
    expect(rows.length).toBeGreaterThan(500);
  });
});
