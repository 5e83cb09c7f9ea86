import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS, ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { LEGACY_ROUTES } from '../../src/server/data-api/legacy.ts';
import { legacyCatalogue, stableCatalogue } from '../../src/server/docs/playground.ts';
import { referencePage } from '../../src/server/docs/reference.ts';
import {
  formProblems,
  formatBytes,
  groupedEndpoints,
  isLimitHeader,
  maskKey,
  paramProblem,
  refusalAdvice,
  requestFromSearch,
  requestUrl,
  searchOf,
  seriesOf,
  withKey,
  withKeyText,
  type PlaygroundEndpoint,
  type PlaygroundParam,
} from '../../src/lib/playground.ts';

const API = 'http://localhost:4322';
const stable = stableCatalogue(API);
const legacy = legacyCatalogue(API);

function endpoint(id: string, catalogue = stable): PlaygroundEndpoint {
  const found = catalogue.endpoints.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no ${id}`);
  return found;
}

function param(id: string, name: string): PlaygroundParam {
  const found = endpoint(id).params.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no ${name}`);
  return found;
}

describe('the API viewer catalogue', () => {
  it('offers every stable endpoint once, with the reference page of each', () => {
    expect(stable.endpoints.map((item) => item.id)).toEqual(ALL_ENDPOINTS.map((item) => item.path));
    expect(endpoint('income-statement').reference).toBe('/developer/docs/stable/income-statement');
  });

  it('takes each parameter, its kind, allowed values and range from the definition', () => {
    expect(param('income-statement', 'symbol')).toMatchObject({ kind: 'symbol', required: true });
    expect(param('income-statement', 'period')).toMatchObject({
      kind: 'enum',
      required: false,
      defaultValue: 'annual',
    });
    expect(param('income-statement', 'period').options).toContain('quarter');
    expect(param('income-statement', 'limit')).toMatchObject({ kind: 'integer', min: 1, max: 100 });
    expect(param('batch-quote', 'symbols').kind).toBe('symbols');
    expect(param('historical-price-eod/full', 'from').kind).toBe('date');
  });

  it('opens every reference page’s "Try it" link on the same endpoint with the same values', () => {
    for (const definition of ALL_ENDPOINTS) {
      const tryIt = new URL(referencePage(definition, API).tryIt, 'http://site');
      const request = requestFromSearch(stable, tryIt.search);
      expect(request.named).toBe(true);
      expect(request.endpoint.id).toBe(definition.path);
      expect(searchOf(request.endpoint, request.values)).toBe(tryIt.search);
    }
  });

  it('names the cheapest plan of endpoints above the free sample', () => {
    const paid = stable.endpoints.filter((item) => item.tier > 0);
    expect(paid.length).toBeGreaterThan(0);
    for (const item of paid) expect(item.plan?.name).toMatch(/\w/);
  });

  it('marks the price series the chart view can draw, and only those', () => {
    expect(endpoint('historical-price-eod/full').chart).toBe(true);
    expect(endpoint('historical-chart/5min').chart).toBe(true);
    expect(endpoint('income-statement').chart).toBe(false);
    expect(endpoint('quote').chart).toBe(false);
  });

  it('offers the legacy endpoints with the symbol in the path', () => {
    expect(legacy.endpoints).toHaveLength(
      LEGACY_ROUTES.filter((route) => ENDPOINTS.some((e) => e.path === route.stable)).length,
    );
    const quote = endpoint('quote', legacy);
    expect(quote.path).toBe('/api/v3/quote/{symbol}');
    expect(quote.params.find((item) => item.name === 'symbol')).toMatchObject({
      inPath: true,
      required: true,
    });
    expect(requestUrl(API, quote, { symbol: 'AAPL' })).toBe(`${API}/api/v3/quote/AAPL`);
    expect(endpoint('historical-price-full', legacy).params.map((item) => item.name)).toContain('serietype');
    expect(endpoint('quote', legacy).reference).toBe('/developer/docs/legacy-endpoints#quote');
  });
});

describe('checking a form before sending', () => {
  it('refuses a missing required parameter and accepts a missing optional one', () => {
    expect(formProblems(endpoint('income-statement'), { symbol: '' })).toEqual({ symbol: 'is required' });
    expect(formProblems(endpoint('income-statement'), { symbol: 'AAPL' })).toEqual({});
  });

  it('speaks of tickers, dates, numbers and choices in the API’s own words', () => {
    expect(paramProblem(param('quote', 'symbol'), 'AA PL')).toBe(
      'must be a ticker such as AAPL, BRK-B or ^GSPC',
    );
    expect(paramProblem(param('batch-quote', 'symbols'), 'AAPL,MS FT')).toBe(
      'must list tickers such as AAPL,MSFT',
    );
    expect(paramProblem(param('historical-price-eod/full', 'from'), '2025-02-30')).toBe('is not a real date');
    expect(paramProblem(param('historical-price-eod/full', 'from'), '2/3/2025')).toBe(
      'must be a date written YYYY-MM-DD',
    );
    expect(paramProblem(param('income-statement', 'limit'), '1.5')).toBe('must be a whole number');
    expect(paramProblem(param('income-statement', 'limit'), '101')).toBe(
      'must be a whole number from 1 to 100',
    );
    expect(paramProblem(param('income-statement', 'period'), 'weekly')).toMatch(
      /^must be one of annual, quarter/,
    );
  });
});

describe('requests and addresses', () => {
  it('writes the request in the definition’s parameter order, the key last', () => {
    const url = requestUrl(API, endpoint('income-statement'), {
      limit: '4',
      period: 'quarter',
      symbol: 'AAPL',
    });
    expect(url).toBe(`${API}/stable/income-statement?symbol=AAPL&period=quarter&limit=4`);
    expect(withKey(url, 'k3y')).toBe(`${url}&apikey=k3y`);
    expect(withKey(`${API}/stable/stock-list`, 'k3y')).toBe(`${API}/stable/stock-list?apikey=k3y`);
    expect(withKeyText(url, 'k3y•••')).toBe(`${url}&apikey=k3y•••`);
  });

  it('reads an address back into the same request, ignoring parameters the endpoint does not take', () => {
    const request = requestFromSearch(stable, '?endpoint=batch-quote&symbols=AAPL,MSFT&colour=blue');
    expect(request.values).toEqual({ symbols: 'AAPL,MSFT' });
    expect(searchOf(request.endpoint, request.values)).toBe('?endpoint=batch-quote&symbols=AAPL,MSFT');
  });

  it('opens the default endpoint with its example for an address naming an unknown one', () => {
    const request = requestFromSearch(stable, '?endpoint=no-such-thing');
    expect(request.named).toBe(false);
    expect(request.endpoint.id).toBe('quote');
    expect(request.values).toEqual({ symbol: 'AAPL' });
  });

  it('masks a key on screen but keeps its ends recognisable', () => {
    expect(maskKey('abcd1234efgh5678')).toBe('abcd••••••••5678');
    expect(maskKey('short')).toBe('•••••');
  });
});

describe('finding an endpoint', () => {
  it('keeps the endpoints whose words all match, grouped in catalogue order', () => {
    const groups = groupedEndpoints(stable.endpoints, 'income state');
    expect(groups.flatMap((group) => group.endpoints.map((item) => item.id))).toContain('income-statement');
    expect(groups.every((group) => group.endpoints.length > 0)).toBe(true);
    expect(groupedEndpoints(stable.endpoints, 'zzzz')).toEqual([]);
  });
});

describe('reading an answer', () => {
  it('marks the call budget headers', () => {
    expect(isLimitHeader('RateLimit')).toBe(true);
    expect(isLimitHeader('ratelimit-policy')).toBe(true);
    expect(isLimitHeader('Retry-After')).toBe(true);
    expect(isLimitHeader('content-type')).toBe(false);
  });

  it('writes sizes as a reader expects', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1_234)).toBe('1.2 kB');
    expect(formatBytes(5_400_000)).toBe('5.4 MB');
  });

  it('advises on each refusal, with the wait a 429 names', () => {
    expect(refusalAdvice(402, true, null)).toMatch(/pricing page/);
    expect(refusalAdvice(429, true, '42')).toMatch(/in 42 seconds/);
    expect(refusalAdvice(401, false, null)).toMatch(/sign in/);
  });

  it('draws daily rows oldest first, as candles when every row has open, high and low', () => {
    const { points, intraday } = seriesOf([
      { date: '2025-01-03', open: 2, high: 3, low: 1, close: 2.5 },
      { date: '2025-01-02', open: 1, high: 2, low: 0.5, close: 1.5 },
    ]);
    expect(intraday).toBe(false);
    expect(points).toEqual([
      { time: Date.UTC(2025, 0, 2) / 1000, value: 1.5, open: 1, high: 2, low: 0.5 },
      { time: Date.UTC(2025, 0, 3) / 1000, value: 2.5, open: 2, high: 3, low: 1 },
    ]);
  });

  it('reads intraday times on the exchange clock and skips rows without a price', () => {
    const { points, intraday } = seriesOf([
      { date: '2025-01-02 09:35:00', price: 10 },
      { date: '2025-01-02 09:30:00', price: 9 },
      { date: '2025-01-02 09:40:00', price: null },
      'not a row',
    ]);
    expect(intraday).toBe(true);
    expect(points.map((point) => point.value)).toEqual([9, 10]);
    expect(points[0]?.time).toBe(Date.UTC(2025, 0, 2, 9, 30) / 1000);
  });
});
