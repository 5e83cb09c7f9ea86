import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGACY_ROUTES, legacyEndpointMessage } from '../../src/server/data-api/legacy.ts';
import { legacyGuide, legacyGuideMarkdown } from '../../src/server/data-api/legacy-guide.ts';
import { siteUrl } from '../../src/server/app/config.ts';
import { accessTokenKey, signPublicToken } from '../../src/server/auth/tokens.ts';
import {
  freeLimits,
  HARNESS_SECRET,
  openDataApiHarness,
  stableAnswer,
  updateAccount,
  type DataApiHarness,
} from './data-api-harness.ts';

/*
 * FMP's legacy style (/api/v3/…, symbol in the path) for accounts with the legacy flag: the same data
 * as /stable through the same key check, plan gates, budgets and metering.
 */

let h: DataApiHarness;
/** A legacy account on the top plan, and a current (non-legacy) one on the same plan. */
let legacyKey: string;
let currentKey: string;

beforeAll(async () => {
  h = await openDataApiHarness();
  legacyKey = await h.keyFor('commercialEnterprise', { legacy: true });
  currentKey = await h.keyFor('commercialEnterprise');
});

afterAll(async () => {
  await h.close();
});

type Row = Record<string, unknown>;

async function legacy(path: string, query: Record<string, string>, key: string): Promise<Response> {
  return h.request(`/api/v3/${path}`, { ...query, apikey: key });
}

async function legacyJson(
  path: string,
  query: Record<string, string> = {},
  key = legacyKey,
): Promise<unknown> {
  const res = await legacy(path, query, key);
  expect(res.status).toBe(200);
  return res.json();
}

async function stableRows(path: string, query: Record<string, string>, key = currentKey): Promise<Row[]> {
  const answer = await stableAnswer(h, path, query, key);
  expect(answer.status).toBe(200);
  expect(answer.rows.length).toBeGreaterThan(0);
  return answer.rows;
}

/** A stable row under FMP's legacy field names, in the same order. */
function renamed(row: Row, names: Record<string, string>): Row {
  return Object.fromEntries(Object.entries(row).map(([name, value]) => [names[name] ?? name, value]));
}

/** A stable row as the legacy envelope holds it: the symbol is said once, beside the rows. */
function withoutSymbol(row: Row): Row {
  return Object.fromEntries(Object.entries(row).filter(([name]) => name !== 'symbol'));
}

async function errorOf(res: Response): Promise<string> {
  const body = (await res.json()) as Row;
  expect(Object.keys(body)).toEqual(['Error Message']);
  return String(body['Error Message']);
}

const LEGACY_MESSAGE = (): string => legacyEndpointMessage(siteUrl());

describe('the legacy style answers the same data as /stable', () => {
  it('answers a quote, with FMP’s legacy changesPercentage', async () => {
    const stable = await stableRows('quote', { symbol: 'AAPL' });
    const rows = (await legacyJson('quote/AAPL')) as Row[];
    expect(rows).toEqual(stable.map((row) => renamed(row, { changePercentage: 'changesPercentage' })));
    expect(Object.keys(rows[0] ?? {})).toContain('changesPercentage');
  });

  it('answers the quotes of a comma list in the path, in the order asked', async () => {
    const stable = await stableRows('batch-quote', { symbols: 'MSFT,AAPL' });
    const rows = (await legacyJson('quote/MSFT,AAPL')) as Row[];
    expect(rows.map((row) => row.symbol)).toEqual(['MSFT', 'AAPL']);
    expect(rows).toEqual(stable.map((row) => renamed(row, { changePercentage: 'changesPercentage' })));
  });

  it('reads a lower-case symbol in the path as the ticker', async () => {
    const rows = (await legacyJson('quote-short/aapl')) as Row[];
    expect(rows).toEqual(await stableRows('quote-short', { symbol: 'AAPL' }));
  });

  it('answers a company profile under FMP’s legacy field names', async () => {
    const [stable] = await stableRows('profile', { symbol: 'AAPL' });
    const [row] = (await legacyJson('profile/AAPL')) as Row[];
    expect(row).toEqual(
      renamed(stable ?? {}, {
        marketCap: 'mktCap',
        lastDividend: 'lastDiv',
        change: 'changes',
        averageVolume: 'volAvg',
        exchangeFullName: 'exchange',
        exchange: 'exchangeShortName',
      }),
    );
    expect(row).toMatchObject({ exchangeShortName: stable?.exchange, exchange: stable?.exchangeFullName });
  });

  it('answers quarterly income statements with period and limit as the query says', async () => {
    const stable = await stableRows('income-statement', { symbol: 'AAPL', period: 'quarter', limit: '3' });
    const rows = (await legacyJson('income-statement/AAPL', { period: 'quarter', limit: '3' })) as Row[];
    expect(rows).toHaveLength(3);
    expect(rows).toEqual(
      stable.map((row) => renamed(row, { filingDate: 'fillingDate', fiscalYear: 'calendarYear' })),
    );
  });

  it('answers balance sheets, cash flows, key metrics and ratios from the same rows', async () => {
    for (const path of ['balance-sheet-statement', 'cash-flow-statement', 'key-metrics', 'ratios']) {
      const stable = await stableRows(path, { symbol: 'MSFT', limit: '2' });
      const rows = (await legacyJson(`${path}/MSFT`, { limit: '2' })) as Row[];
      expect(rows).toEqual(
        stable.map((row) => renamed(row, { filingDate: 'fillingDate', fiscalYear: 'calendarYear' })),
      );
    }
  });

  it('answers daily prices in FMP’s legacy shape: the symbol and its history', async () => {
    const range = { from: '2026-10-01', to: '2026-11-20' };
    const stable = await stableRows('historical-price-eod/full', { symbol: 'AAPL', ...range });
    const body = (await legacyJson('historical-price-full/AAPL', range)) as {
      symbol: string;
      historical: Row[];
    };
    expect(Object.keys(body)).toEqual(['symbol', 'historical']);
    expect(body.symbol).toBe('AAPL');
    expect(body.historical).toEqual(stable.map(withoutSymbol));
  });

  it('answers only dates and closes with serietype=line, and the latest days with timeseries', async () => {
    const stable = await stableRows('historical-price-eod/full', { symbol: 'MSFT' });
    const line = (await legacyJson('historical-price-full/MSFT', { serietype: 'line' })) as {
      historical: Row[];
    };
    expect(line.historical).toEqual(stable.map((row) => ({ date: row.date, close: row.close })));
    const latest = (await legacyJson('historical-price-full/MSFT', { timeseries: '5' })) as {
      historical: Row[];
    };
    expect(latest.historical.map((row) => row.date)).toEqual(stable.slice(0, 5).map((row) => row.date));
  });

  it('answers an empty object for the history of an unknown symbol, as FMP’s legacy API did', async () => {
    expect(await legacyJson('historical-price-full/NOSUCH')).toEqual({});
    expect(await legacyJson('quote/NOSUCH')).toEqual([]);
  });

  it('wraps dividends and splits in the same legacy shape', async () => {
    const dividends = await stableRows('dividends', { symbol: 'AAPL' });
    expect(await legacyJson('historical-price-full/stock_dividend/AAPL')).toEqual({
      symbol: 'AAPL',
      historical: dividends.map(withoutSymbol),
    });
  });

  it('searches with the query parameter and lists stocks under the legacy names', async () => {
    const found = await stableRows('search-symbol', { query: 'AAP', limit: '5' });
    expect(await legacyJson('search', { query: 'AAP', limit: '5' })).toEqual(
      found.map((row) => renamed(row, { exchangeFullName: 'stockExchange', exchange: 'exchangeShortName' })),
    );
    const stocks = await stableRows('stock-list', {});
    expect(await legacyJson('stock/list')).toEqual(
      stocks.map((row) => renamed(row, { companyName: 'name' })),
    );
  });

  it('takes the tickers of stock news as FMP’s legacy tickers parameter', async () => {
    const stable = await stableRows('news/stock', { symbols: 'AAPL', limit: '3' });
    expect(await legacyJson('stock_news', { tickers: 'AAPL', limit: '3' })).toEqual(stable);
  });

  it('answers intraday bars with the interval in the path', async () => {
    expect(await legacyJson('historical-chart/5min/AAPL')).toEqual(
      await stableRows('historical-chart/5min', { symbol: 'AAPL' }),
    );
  });

  it('assumes annual analyst estimates when no period is given, as FMP’s legacy API did', async () => {
    expect(await legacyJson('analyst-estimates/AAPL')).toEqual(
      await stableRows('analyst-estimates', { symbol: 'AAPL', period: 'annual' }),
    );
  });

  it('offers CSV where the stable endpoint does, with the legacy column names', async () => {
    const res = await legacy('income-statement/AAPL', { datatype: 'csv', limit: '1' }, legacyKey);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('text/csv');
    const header = (await res.text()).split('\r\n')[0]?.split(',') ?? [];
    expect(header).toContain('fillingDate');
    expect(header).toContain('calendarYear');
    expect(header).not.toContain('filingDate');
  });

  it('carries ETag and answers 304 to a matching If-None-Match, as /stable does', async () => {
    const first = await legacy('quote/AAPL', {}, legacyKey);
    const etag = first.headers.get('ETag') ?? '';
    expect(etag).not.toBe('');
    const again = await h.request('/api/v3/quote/AAPL', { apikey: legacyKey }, { 'if-none-match': etag });
    expect(again.status).toBe(304);
  });
});

describe('who may call the legacy style', () => {
  it('refuses the key of an account without the legacy flag with 403 and FMP’s Legacy Endpoint message', async () => {
    const res = await legacy('quote/AAPL', {}, currentKey);
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toBe(LEGACY_MESSAGE());
    expect(LEGACY_MESSAGE()).toMatch(
      /^Legacy Endpoint : Due to Legacy endpoints being no longer supported - This endpoint is only available for legacy users who have valid subscriptions prior August 31, 2025\. Please visit our documentation page \S+\/developer\/docs for our current APIs\.$/,
    );
  });

  it('refuses the signed-out public token with the same 403', async () => {
    const token = await signPublicToken(accessTokenKey(HARNESS_SECRET), { now: new Date(h.clock.now) });
    const res = await legacy('quote/AAPL', {}, token);
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toBe(LEGACY_MESSAGE());
  });

  it('checks the key first: no key is 401 as on /stable', async () => {
    const res = await h.request('/api/v3/quote/AAPL');
    expect(res.status).toBe(401);
  });

  it('charges nothing for a refused legacy call', async () => {
    const key = await h.keyFor('free');
    for (let call = 0; call < 6; call += 1) {
      expect((await legacy('quote/AAPL', {}, key)).status).toBe(403);
    }
    const res = await h.request('/stable/quote', { symbol: 'AAPL', apikey: key });
    expect(res.status).toBe(200);
    const { perMinute, perDay } = await freeLimits(h.db);
    expect(res.headers.get('RateLimit')).toMatch(
      new RegExp(`^"minute";r=${perMinute - 1};t=\\d+, "day";r=${perDay - 1};t=\\d+$`),
    );
  });

  it('follows a change of the legacy flag within 60 seconds, both ways', async () => {
    const key = await h.keyFor('free', { legacy: true });
    expect((await legacy('quote/AAPL', {}, key)).status).toBe(200);
    await updateAccount(h.db, h.userOf(key), { legacy: false });
    h.clock.advance(60_000);
    const refused = await legacy('quote/AAPL', {}, key);
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toBe(LEGACY_MESSAGE());
    await updateAccount(h.db, h.userOf(key), { legacy: true });
    h.clock.advance(60_000);
    expect((await legacy('quote/AAPL', {}, key)).status).toBe(200);
  });
});

describe('plans and budgets apply to the legacy style exactly as to /stable', () => {
  it('answers 402 naming the plan that covers the endpoint', async () => {
    const key = await h.keyFor('free', { legacy: true });
    const stable = await h.request('/stable/key-executives', { symbol: 'AAPL', apikey: key });
    const res = await legacy('key-executives/AAPL', {}, key);
    expect(res.status).toBe(402);
    expect(await errorOf(res)).toBe(
      (await errorOf(stable)).replace('the key-executives endpoint', 'the api/v3/key-executives endpoint'),
    );
  });

  it('answers 402 for quarterly statements on an annual-only plan, and for a symbol outside the plan', async () => {
    const starter = await h.keyFor('starterT1', { legacy: true });
    expect((await legacy('income-statement/AAPL', {}, starter)).status).toBe(200);
    const quarterly = await legacy('income-statement/AAPL', { period: 'quarter' }, starter);
    expect(quarterly.status).toBe(402);
    expect(await errorOf(quarterly)).toContain('Professional');

    const outside = (await h.api.directory.get()).all().find((s) => s.assetType === 'stock' && !s.sample);
    if (outside === undefined) throw new Error('the demo data lacks symbols outside the sample');
    const free = await h.keyFor('free', { legacy: true });
    const stable = await h.request('/stable/quote', { symbol: outside.symbol, apikey: free });
    const res = await legacy(`quote/${outside.symbol}`, {}, free);
    expect(res.status).toBe(402);
    expect(await errorOf(res)).toBe(await errorOf(stable));
  });

  it('spends the same budget as /stable and refuses the first call beyond the free plan’s minute with 429', async () => {
    const key = await h.keyFor('free', { legacy: true });
    const { perMinute } = await freeLimits(h.db);
    for (let call = 1; call <= perMinute; call += 1) {
      const res =
        call % 2 === 0
          ? await h.request('/stable/quote', { symbol: 'AAPL', apikey: key })
          : await legacy('quote/AAPL', {}, key);
      expect(res.status).toBe(200);
      expect(res.headers.get('RateLimit')).toMatch(new RegExp(`^"minute";r=${perMinute - call};`));
    }
    const refused = await legacy('quote/AAPL', {}, key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).not.toBeNull();
    expect(await errorOf(refused)).toMatch(
      new RegExp(`^Limit reached: the Free plan allows ${perMinute} calls per minute\\.`),
    );
  });

  it('answers 400 naming a bad parameter by its legacy name', async () => {
    const series = await legacy('historical-price-full/AAPL', { serietype: 'candle' }, legacyKey);
    expect(series.status).toBe(400);
    expect(await errorOf(series)).toBe(
      'Invalid value for parameter "serietype": must be line (dates and closing prices only) or left out.',
    );
    const news = await legacy('stock_news', {}, legacyKey);
    expect(news.status).toBe(400);
    expect(await errorOf(news)).toMatch(/^Missing required parameter "tickers"/);
    const csv = await legacy('historical-price-full/AAPL', { datatype: 'csv' }, legacyKey);
    expect(csv.status).toBe(400);
  });
});

describe('usage and unknown paths', () => {
  it('meters calls under the legacy path, so the usage report shows what was called', async () => {
    const key = await h.keyFor('commercialEnterprise', { legacy: true });
    let bytes = 0;
    for (const path of ['quote/AAPL', 'quote/MSFT,AAPL']) {
      bytes += (await (await legacy(path, {}, key)).arrayBuffer()).byteLength;
    }
    const history = await legacy('historical-price-full/AAPL', { timeseries: '3' }, key);
    const historyBytes = (await history.arrayBuffer()).byteLength;
    await h.api.meter.flush();
    const res = await h.request('/stable/api-usage', { apikey: key });
    const day = new Date(h.clock.now).toISOString().slice(0, 10);
    expect(await res.json()).toEqual([
      { date: day, endpoint: 'api/v3/historical-price-full', calls: 1, bytes: historyBytes },
      { date: day, endpoint: 'api/v3/quote', calls: 2, bytes },
    ]);
  });

  it('answers an unknown legacy path with 404 in FMP’s error shape, naming where the list is', async () => {
    for (const path of ['/api/v3/no-such-thing/AAPL', '/api/v3/quote', '/api/v3/sec_filings/AAPL']) {
      const res = await h.request(path, { apikey: legacyKey });
      expect(res.status).toBe(404);
      const message = await errorOf(res);
      expect(message).toContain(path);
      expect(message).toContain('/developer/docs/legacy-endpoints');
    }
  });
});

describe('the migration guide', () => {
  it('lists every legacy endpoint, and each example it shows answers in both styles', async () => {
    const entries = legacyGuide().flatMap((group) => group.entries);
    expect(entries.map((entry) => entry.legacy.path)).toEqual(
      LEGACY_ROUTES.map((route) => `/api/v3/${route.path}`),
    );
    for (const entry of entries) {
      const examples = [
        { url: entry.legacy.example, key: legacyKey },
        { url: entry.stable.example, key: currentKey },
        ...(entry.batch === undefined ? [] : [{ url: entry.batch.example, key: currentKey }]),
      ];
      for (const { url, key } of examples) {
        const res = await h.request(url, {}, { apikey: key });
        expect(res.status, url).toBe(200);
      }
    }
  });

  it('reads the same as Markdown, for tools that rewrite legacy calls', () => {
    const markdown = legacyGuideMarkdown(legacyGuide(), 'https://api.example.test');
    for (const route of LEGACY_ROUTES) expect(markdown).toContain(`### \`/api/v3/${route.path}\``);
    expect(markdown).toContain('- Stable: `/stable/historical-price-eod/full?symbol=AAPL`');
    expect(markdown).toContain('`https://api.example.test/api/v3`');
  });
});
