import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { eq, min } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDataApi } from '../../src/server/data-api/app.ts';
import { defineEndpoint } from '../../src/server/data-api/endpoint.ts';
import { BULK_CALL_WEIGHT, bulkEndpoints } from '../../src/server/data-api/endpoints/bulk.ts';
import type { Database } from '../../src/server/db/client.ts';
import { etfHoldings, financialStatements, pricePlans, securities } from '../../src/server/db/schema.ts';
import { MemoryStore } from '../../src/server/middleware/rate-limit-store.ts';
import { etfHolderBatches, profileBatches } from '../../src/server/services/market-data/bulk-files.ts';
import { peerIndex, stockPeers } from '../../src/server/services/market-data/company.ts';
import { loadSymbolDirectory, SymbolDirectory } from '../../src/server/services/market-data/directory.ts';
import { DATA_TIERS } from '../../src/server/services/market-data/plan-access.ts';
import {
  HARNESS_AS_OF,
  HARNESS_SECRET,
  openDataApiHarness,
  stableAnswer,
  type DataApiHarness,
} from './data-api-harness.ts';
import { databaseTargets } from './databases.ts';

let h: DataApiHarness;
let powerKey: string;

beforeAll(async () => {
  h = await openDataApiHarness();
  powerKey = await h.keyFor('monthlyT3');
}, 120_000);

afterAll(async () => {
  await h.close();
});

// Each story starts with a fresh minute: one download spends fifty calls of it.
beforeEach(() => {
  h.clock.advance(61_000);
});

/** A bulk file as JSON rows. */
async function bulkRows(path: string, query: Record<string, string>): Promise<Record<string, unknown>[]> {
  const res = await h.request(`/stable/${path}`, { ...query, datatype: 'json', apikey: powerKey });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Record<string, unknown>[];
}

/** What the per-symbol endpoint answers for each symbol, concatenated in the order given. */
async function perSymbol(
  path: string,
  symbols: readonly string[],
  query: Record<string, string> = {},
): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (const symbol of symbols) {
    const answer = await stableAnswer(h, path, { ...query, symbol }, powerKey);
    expect(answer.status, answer.error).toBe(200);
    rows.push(...answer.rows);
  }
  return rows;
}

function symbolsOf(rows: readonly Record<string, unknown>[]): string[] {
  return [...new Set(rows.map((row) => String(row.symbol)))];
}

describe('bulk files as FMP serves them', () => {
  it('answers CSV by default, as an attachment whose header line is the documented row fields', async () => {
    const res = await h.request('/stable/income-statement-bulk', {
      year: '2025',
      period: 'annual',
      apikey: powerKey,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="income-statement-bulk-2025-annual.csv"',
    );
    const text = await res.text();
    const endpoint = bulkEndpoints.find((candidate) => candidate.path === 'income-statement-bulk');
    const [header] = text.split('\r\n');
    expect(header?.split(',')).toEqual(Object.keys(endpoint?.row.shape ?? {}));
    const records = parse<Record<string, string>>(text, { columns: true });
    const json = await bulkRows('income-statement-bulk', { year: '2025', period: 'annual' });
    expect(records.length).toBe(json.length);
    expect(records.length).toBeGreaterThan(5);
    expect(records.map((record) => record.symbol)).toEqual(json.map((row) => row.symbol));
  });

  it('lists each company’s annual statements of the year exactly as the per-symbol endpoint answers them', async () => {
    for (const [bulk, single] of [
      ['income-statement-bulk', 'income-statement'],
      ['balance-sheet-statement-bulk', 'balance-sheet-statement'],
      ['cash-flow-statement-bulk', 'cash-flow-statement'],
    ] as const) {
      const rows = await bulkRows(bulk, { year: '2025', period: 'annual' });
      const symbols = symbolsOf(rows);
      expect(symbols).toEqual([...symbols].sort());
      const expected = (await perSymbol(single, symbols, { period: 'annual', limit: '100' })).filter(
        (row) => row.fiscalYear === '2025',
      );
      expect(rows).toEqual(expected);
    }
  });

  it('lists a year’s quarters newest first within each company, as the quarterly statements answer them', async () => {
    const rows = await bulkRows('income-statement-bulk', { year: '2025', period: 'quarter' });
    const symbols = symbolsOf(rows);
    expect(symbols.length).toBeGreaterThan(0);
    const expected = (
      await perSymbol('income-statement', symbols, { period: 'quarter', limit: '100' })
    ).filter((row) => row.fiscalYear === '2025');
    expect(rows).toEqual(expected);
    expect(rows.every((row) => row.period !== 'FY')).toBe(true);
  });

  it('gives every security’s profile as the profile endpoint answers it', async () => {
    const rows = await bulkRows('profile-bulk', { part: '0' });
    const symbols = symbolsOf(rows);
    expect(symbols.length).toBe(rows.length);
    expect(await perSymbol('profile', symbols)).toEqual(rows);
    const stored = await h.db.select({ symbol: securities.symbol }).from(securities);
    // Every security with prices has a profile; the demo data prices every one of them.
    expect(symbols.length).toBe(stored.length);
  });

  it('splits the profiles into parts that together list every profile exactly once', async () => {
    const directory = await loadSymbolDirectory(h.db);
    const context = {
      db: h.db,
      symbols: directory,
      now: new Date(`${HARNESS_AS_OF}T21:00:00Z`),
      batchSize: 4,
    };
    const whole: string[] = [];
    for await (const batch of profileBatches(context, 0, 1_000_000))
      whole.push(...batch.map((row) => row.symbol));
    const parted: string[] = [];
    let part = 0;
    for (; ; part += 1) {
      const rows: string[] = [];
      for await (const batch of profileBatches(context, part, 7))
        rows.push(...batch.map((row) => row.symbol));
      if (rows.length === 0) break;
      expect(rows.length).toBeLessThanOrEqual(7);
      parted.push(...rows);
    }
    expect(part).toBe(Math.ceil(whole.length / 7));
    expect(parted).toEqual(whole);
    expect(new Set(parted).size).toBe(parted.length);
    // Over HTTP the part after the last is an empty file: the header line alone.
    const res = await h.request('/stable/profile-bulk', { part: '1', apikey: powerKey });
    expect((await res.text()).split('\r\n').filter((line) => line !== '')).toHaveLength(1);
  });

  it('gives every symbol’s bar of the day with the full chart’s prices and the dividend-adjusted close', async () => {
    const rows = await bulkRows('eod-bulk', { date: HARNESS_AS_OF });
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows.slice(0, 12)) {
      const range = { from: HARNESS_AS_OF, to: HARNESS_AS_OF };
      const [full] = await perSymbol('historical-price-eod/full', [String(row.symbol)], range);
      const [adjusted] = await perSymbol(
        'historical-price-eod/dividend-adjusted',
        [String(row.symbol)],
        range,
      );
      expect(row).toEqual({
        symbol: full?.symbol,
        date: HARNESS_AS_OF,
        open: full?.open,
        low: full?.low,
        high: full?.high,
        close: full?.close,
        adjClose: adjusted?.adjClose,
        volume: full?.volume,
      });
    }
    // A Sunday: no bar, an empty file.
    expect(await bulkRows('eod-bulk', { date: '2026-11-22' })).toEqual([]);
  });

  it('gives each company’s DCF and scores as their per-symbol endpoints answer them today', async () => {
    for (const [bulk, single] of [
      ['dcf-bulk', 'discounted-cash-flow'],
      ['scores-bulk', 'financial-scores'],
    ] as const) {
      const rows = await bulkRows(bulk, {});
      expect(rows.length).toBeGreaterThan(5);
      expect(await perSymbol(single, symbolsOf(rows))).toEqual(rows);
    }
  });

  it('gives a year’s reported earnings with the earnings endpoint’s figures, upcoming reports left out', async () => {
    const rows = await bulkRows('earnings-surprises-bulk', { year: '2026' });
    expect(rows.length).toBeGreaterThan(5);
    const expected = (await perSymbol('earnings', symbolsOf(rows)))
      .filter((row) => String(row.date).startsWith('2026') && row.epsActual !== null)
      .map(({ symbol, date, epsActual, epsEstimated, lastUpdated }) => ({
        symbol,
        date,
        epsActual,
        epsEstimated,
        lastUpdated,
      }));
    expect(rows).toEqual(expected);
  });

  it('gives each stock’s peers as the stock-peers endpoint lists them', async () => {
    const rows = await bulkRows('peers-bulk', {});
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.some((row) => row.peers !== '')).toBe(true);
    for (const row of rows) {
      const peers = await perSymbol('stock-peers', [String(row.symbol)]);
      expect(row.peers, String(row.symbol)).toBe(peers.map((peer) => peer.symbol).join(','));
    }
  });

  it('ranks peers within a crowded industry as stock-peers does, and fills a short industry from the sector', async () => {
    // The demo stocks in dollars gathered into one sector of two crowded industries and a small one,
    // so both ways the file ranks a stock (its industry alone, or the whole sector) are taken.
    const stored = (await loadSymbolDirectory(h.db)).all();
    const dollars = stored.filter(
      (security) => security.assetType === 'stock' && security.currency === 'USD',
    );
    expect(dollars.length).toBeGreaterThan(24);
    const industries = ['Crowded A', 'Crowded B', 'Small'];
    const crowded = new SymbolDirectory(
      stored.map((security) => {
        const at = dollars.indexOf(security);
        if (at < 0) return security;
        return { ...security, sector: 'Technology', industry: industries[at < 4 ? 2 : at % 2] ?? '' };
      }),
    );
    const now = new Date(`${HARNESS_AS_OF}T21:00:00Z`);
    const index = await peerIndex(h.db, crowded, now);
    for (const security of crowded.list('stock')) {
      const expected = await stockPeers(h.db, crowded, security.symbol, now);
      expect(index.peersOf(security.symbol), security.symbol).toEqual(expected);
    }
    const small = crowded.list('stock').find((security) => security.industry === 'Small');
    expect(index.peersOf(small?.symbol ?? '').length).toBe(10);
  });

  it('lists each company’s annual growth of the year exactly as the per-symbol growth endpoints answer it', async () => {
    for (const [bulk, single] of [
      ['income-statement-growth-bulk', 'income-statement-growth'],
      ['balance-sheet-statement-growth-bulk', 'balance-sheet-statement-growth'],
      ['cash-flow-statement-growth-bulk', 'cash-flow-statement-growth'],
    ] as const) {
      const rows = await bulkRows(bulk, { year: '2025', period: 'annual' });
      const symbols = symbolsOf(rows);
      expect(symbols.length, bulk).toBeGreaterThan(5);
      expect(symbols).toEqual([...symbols].sort());
      const expected = (await perSymbol(single, symbols, { period: 'annual', limit: '100' })).filter(
        (row) => row.fiscalYear === '2025',
      );
      expect(rows, bulk).toEqual(expected);
      // Growth from the year before, not zeros.
      expect(
        rows.some((row) => Object.values(row).some((value) => typeof value === 'number' && value !== 0)),
      ).toBe(true);
    }
  });

  it('gives a year’s quarterly growth (a first quarter against the fourth before it) and one quarter’s as the growth endpoint does', async () => {
    for (const period of ['quarter', 'Q1'] as const) {
      const rows = await bulkRows('income-statement-growth-bulk', { year: '2026', period });
      const symbols = symbolsOf(rows);
      expect(symbols.length, period).toBeGreaterThan(5);
      const expected = (await perSymbol('income-statement-growth', symbols, { period, limit: '100' })).filter(
        (row) => row.fiscalYear === '2026',
      );
      expect(rows, period).toEqual(expected);
      expect(rows.some((row) => row.period === 'Q1')).toBe(true);
    }
  });

  it('gives the first stored year zero growth, as the growth endpoint does for a period with none before it', async () => {
    const [first] = await h.db
      .select({ year: min(financialStatements.fiscalYear) })
      .from(financialStatements)
      .where(eq(financialStatements.period, 'FY'));
    const year = String(first?.year);
    const rows = await bulkRows('cash-flow-statement-growth-bulk', { year, period: 'annual' });
    expect(rows.length).toBeGreaterThan(5);
    const expected = (
      await perSymbol('cash-flow-statement-growth', symbolsOf(rows), { period: 'annual', limit: '100' })
    ).filter((row) => row.fiscalYear === year);
    expect(rows).toEqual(expected);
  });

  it('gives each company’s TTM ratios and key metrics, rating, price-target summary and recommendations as their per-symbol endpoints answer them today', async () => {
    for (const [bulk, single] of [
      ['ratios-ttm-bulk', 'ratios-ttm'],
      ['key-metrics-ttm-bulk', 'key-metrics-ttm'],
      ['rating-bulk', 'ratings-snapshot'],
      ['price-target-summary-bulk', 'price-target-summary'],
      ['upgrades-downgrades-consensus-bulk', 'grades-consensus'],
    ] as const) {
      const rows = await bulkRows(bulk, {});
      expect(rows.length, bulk).toBeGreaterThan(5);
      const symbols = symbolsOf(rows);
      expect(symbols.length, bulk).toBe(rows.length);
      expect(symbols).toEqual([...symbols].sort());
      expect(await perSymbol(single, symbols), bulk).toEqual(rows);
    }
  });

  it('gives every ETF’s holdings as etf/holdings answers them, each fund in one part, funds without holdings left out', async () => {
    const rows = await bulkRows('etf-holder-bulk', { part: '0' });
    const funds = symbolsOf(rows);
    expect(funds).toEqual([...funds].sort());
    expect(funds).toContain('SPY');
    expect(await perSymbol('etf/holdings', funds)).toEqual(rows);
    const stored = await h.db.selectDistinct({ etf: etfHoldings.etfSymbol }).from(etfHoldings);
    expect(funds.length).toBe(stored.length);
    // Parts of two funds read one fund at a time list the same funds, none twice.
    const context = {
      db: h.db,
      symbols: await loadSymbolDirectory(h.db),
      now: new Date(`${HARNESS_AS_OF}T21:00:00Z`),
    };
    const parted: string[] = [];
    for (let part = 0; ; part += 1) {
      const inPart: string[] = [];
      for await (const batch of etfHolderBatches(context, part, 2, 1)) {
        inPart.push(...new Set(batch.map((row) => row.symbol)));
      }
      if (inPart.length === 0) break;
      expect(inPart.length).toBeLessThanOrEqual(2);
      parted.push(...inPart);
    }
    expect(parted).toEqual(funds);
    // Over HTTP the part after the last is an empty file: the header line alone.
    const res = await h.request('/stable/etf-holder-bulk', { part: '1', apikey: powerKey });
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="etf-holder-bulk-part-1.csv"');
    expect((await res.text()).split('\r\n').filter((line) => line !== '')).toHaveLength(1);
  });

  it('answers each new file as CSV whose header is the per-symbol endpoint’s fields and whose rows are the JSON form’s', async () => {
    for (const [path, query] of [
      ['ratios-ttm-bulk', {}],
      ['key-metrics-ttm-bulk', {}],
      ['rating-bulk', {}],
      ['price-target-summary-bulk', {}],
      ['upgrades-downgrades-consensus-bulk', {}],
      ['etf-holder-bulk', { part: '0' }],
      ['income-statement-growth-bulk', { year: '2025', period: 'annual' }],
      ['balance-sheet-statement-growth-bulk', { year: '2025', period: 'quarter' }],
      ['cash-flow-statement-growth-bulk', { year: '2025', period: 'annual' }],
    ] as const) {
      // Two downloads of each file: a fresh minute for each file.
      h.clock.advance(61_000);
      const res = await h.request(`/stable/${path}`, { ...query, apikey: powerKey });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const text = await res.text();
      const endpoint = bulkEndpoints.find((candidate) => candidate.path === path);
      expect(text.split('\r\n')[0]?.split(','), path).toEqual(Object.keys(endpoint?.row.shape ?? {}));
      const records = parse<Record<string, string>>(text, { columns: true });
      const json = await bulkRows(path, query);
      expect(records.length, path).toBe(json.length);
      expect(records.map((record) => record.symbol)).toEqual(json.map((row) => String(row.symbol)));
    }
  });

  it('refuses a missing or malformed year with 400 naming the parameter', async () => {
    const missing = await stableAnswer(h, 'income-statement-bulk', { period: 'annual' }, powerKey);
    expect(missing).toMatchObject({
      status: 400,
      error: 'Missing required parameter "year": must be a year such as 2025.',
    });
    const bad = await stableAnswer(h, 'earnings-surprises-bulk', { year: 'last' }, powerKey);
    expect(bad).toMatchObject({
      status: 400,
      error: 'Invalid value for parameter "year": must be a year such as 2025.',
    });
  });
});

describe('bulk files in the API description', () => {
  it('gives each file its call weight and CSV as the first format in the OpenAPI document', async () => {
    const res = await h.request('/stable/openapi.json');
    const document = (await res.json()) as {
      paths: Record<
        string,
        { get: Record<string, unknown> & { responses: Record<string, { content?: object }> } }
      >;
    };
    for (const endpoint of bulkEndpoints) {
      const operation = document.paths[`/stable/${endpoint.path}`]?.get;
      expect(operation?.['x-call-weight'], endpoint.path).toBe(BULK_CALL_WEIGHT);
      expect(operation?.tags).toEqual(['Bulk']);
      expect(Object.keys(operation?.responses['200']?.content ?? {})[0]).toBe('text/csv');
      expect(Object.keys(operation?.responses ?? {})).toEqual(
        expect.arrayContaining(['206', '402', '416', '429']),
      );
    }
  });

  it('refuses a bulk file asked for without HTTP (a tool call) with 400 pointing to the download, costing nothing', async () => {
    const endpoint = bulkEndpoints.find((candidate) => candidate.path === 'dcf-bulk');
    if (endpoint === undefined) throw new Error('no dcf-bulk');
    const key = await h.keyFor('monthlyT3');
    const outcome = await h.api.pipeline.call(endpoint, '', { key, client: () => 'tool' });
    expect(outcome).toMatchObject({
      ok: false,
      status: 400,
      message: 'dcf-bulk is a bulk file: download it over HTTP at /stable/dcf-bulk.',
    });
    const [plan] = await h.db.select().from(pricePlans).where(eq(pricePlans.code, 'monthlyT3'));
    const quote = await h.request('/stable/quote', { symbol: 'AAPL', apikey: key });
    expect(quote.headers.get('ratelimit')).toContain(`"minute";r=${(plan?.callsPerMinute ?? 0) - 1};`);
  });
});

describe('bulk files and plans', () => {
  it('refuses plans below Power with 402 naming the Power plan', async () => {
    const key = await h.keyFor('monthlyT2');
    const answer = await stableAnswer(h, 'peers-bulk', {}, key);
    expect(answer.status).toBe(402);
    expect(answer.error).toContain('Your Professional plan does not cover the peers-bulk endpoint.');
    expect(answer.error).toContain('It is included in the Power plan and above');
  });

  it(`counts one download as ${BULK_CALL_WEIGHT} calls in the minute budget and in the usage report`, async () => {
    const key = await h.keyFor('monthlyT3');
    const [plan] = await h.db.select().from(pricePlans).where(eq(pricePlans.code, 'monthlyT3'));
    const perMinute = plan?.callsPerMinute ?? 0;
    const res = await h.request('/stable/peers-bulk', { apikey: key });
    expect(res.status).toBe(200);
    const bytes = (await res.arrayBuffer()).byteLength;
    expect(res.headers.get('ratelimit')).toContain(`"minute";r=${perMinute - BULK_CALL_WEIGHT};`);
    await h.api.meter.flush();
    const usage = await h.request('/stable/api-usage', { apikey: key });
    const day = new Date(h.clock.now).toISOString().slice(0, 10);
    expect(await usage.json()).toEqual([
      { date: day, endpoint: 'peers-bulk', calls: BULK_CALL_WEIGHT, bytes },
    ]);
  });

  it('refuses a download whose weight no longer fits the minute with 429, while a single call still fits', async () => {
    const key = await h.keyFor('monthlyT3');
    const [plan] = await h.db.select().from(pricePlans).where(eq(pricePlans.code, 'monthlyT3'));
    const perMinute = plan?.callsPerMinute ?? 0;
    // Spend all but weight − 1 calls of the minute, as that many quote calls would.
    h.store.hitNow(
      `data-minute:account:${h.userOf(key)}`,
      60_000,
      perMinute,
      true,
      perMinute - BULK_CALL_WEIGHT + 1,
    );
    const refused = await stableAnswer(h, 'peers-bulk', {}, key);
    expect(refused.status).toBe(429);
    expect(refused.error).toContain(`allows ${perMinute} calls per minute`);
    const quote = await h.request('/stable/quote', { symbol: 'AAPL', apikey: key });
    expect(quote.status).toBe(200);
  });
});

describe('bulk downloads over HTTP', () => {
  const query = { year: '2025', period: 'annual' };

  async function whole(): Promise<{ bytes: Buffer; etag: string | null }> {
    const res = await h.request('/stable/balance-sheet-statement-bulk', { ...query, apikey: powerKey });
    return { bytes: Buffer.from(await res.arrayBuffer()), etag: res.headers.get('etag') };
  }

  it('compresses the stream with gzip when the client accepts it, to the same bytes', async () => {
    const plain = await whole();
    const res = await h.request(
      '/stable/balance-sheet-statement-bulk',
      { ...query, apikey: powerKey },
      { 'accept-encoding': 'gzip, deflate' },
    );
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const zipped = Buffer.from(await res.arrayBuffer());
    expect(zipped.length).toBeLessThan(plain.bytes.length / 2);
    expect(gunzipSync(zipped).equals(plain.bytes)).toBe(true);
  });

  it('resumes with Range from any byte: 206 with the tail of the full download, its length and position', async () => {
    const full = await whole();
    // The first complete download has taught the file's tag; the next one carries it.
    const { etag } = await whole();
    expect(etag).toMatch(/^"[\w-]+"$/);
    const start = Math.floor(full.bytes.length * 0.6);
    const res = await h.request(
      '/stable/balance-sheet-statement-bulk',
      { ...query, apikey: powerKey },
      { range: `bytes=${start}-`, 'if-range': etag ?? '' },
    );
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(
      `bytes ${start}-${full.bytes.length - 1}/${full.bytes.length}`,
    );
    const tail = Buffer.from(await res.arrayBuffer());
    expect(tail.equals(full.bytes.subarray(start))).toBe(true);
  });

  it('sends the whole file again when If-Range names another version of it', async () => {
    const full = await whole();
    const res = await h.request(
      '/stable/balance-sheet-statement-bulk',
      { ...query, apikey: powerKey },
      { range: 'bytes=100-', 'if-range': '"an-older-file"' },
    );
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(full.bytes)).toBe(true);
  });

  it('answers a range starting beyond the end with 416 and the file’s length', async () => {
    const key = await h.keyFor('monthlyT3');
    const res = await h.request(
      '/stable/cash-flow-statement-bulk',
      { year: '2025', period: 'annual', apikey: key },
      { range: 'bytes=99999999-' },
    );
    expect(res.status).toBe(416);
    const full = await h.request('/stable/cash-flow-statement-bulk', {
      year: '2025',
      period: 'annual',
      apikey: key,
    });
    const length = (await full.arrayBuffer()).byteLength;
    expect(res.headers.get('content-range')).toBe(`bytes */${length}`);
    // The refused range costs nothing: only the full download is counted.
    const [plan] = await h.db.select().from(pricePlans).where(eq(pricePlans.code, 'monthlyT3'));
    expect(full.headers.get('ratelimit')).toContain(
      `"minute";r=${(plan?.callsPerMinute ?? 0) - BULK_CALL_WEIGHT};`,
    );
  });
});

describe('bulk downloads that fail or are abandoned', () => {
  /** A file of three batches whose reading is watched (or fails at the second batch). */
  function watchedEndpoint(failAt: number | undefined, seen: { batches: number; closed: boolean }) {
    return defineEndpoint({
      path: 'watched-bulk',
      dataset: 'market-data-historic',
      group: 'Bulk',
      summary: 'A watched file',
      description: 'Three batches of rows.',
      tier: DATA_TIERS.sample,
      params: z.object({}),
      row: z.object({ n: z.number().describe('Row number') }),
      csv: true,
      maxAge: 0,
      cadence: { frequency: 'daily', when: 'Never.' },
      example: '',
      handler: () => Promise.resolve([]),
      bulk: {
        weight: 2,
        fileName: () => 'watched',
        resume: 'Range.',
        async *batches() {
          try {
            await Promise.resolve();
            for (let batch = 0; batch < 3; batch += 1) {
              if (batch === failAt) throw new Error('connection to the database lost');
              seen.batches += 1;
              yield Array.from({ length: 2000 }, (_, n) => ({ n: batch * 2000 + n }));
            }
          } finally {
            seen.closed = true;
          }
        },
      },
    });
  }

  function apiWith(failAt: number | undefined, seen: { batches: number; closed: boolean }) {
    const store = new MemoryStore();
    const api = createDataApi({
      database: () => Promise.resolve(h.db),
      store,
      secret: HARNESS_SECRET,
      endpoints: [watchedEndpoint(failAt, seen)],
      flushIntervalMs: 60_000,
    });
    return { api, close: () => api.close().then(() => store.close()) };
  }

  it('cuts the response off when the database fails mid-stream: the read fails, no stack reaches the client', async () => {
    const seen = { batches: 0, closed: false };
    const { api, close } = apiWith(1, seen);
    const logged: string[] = [];
    const original = console.error;
    console.error = (line: string) => logged.push(line);
    try {
      const res = await api.app.request('/stable/watched-bulk', { headers: { apikey: powerKey } });
      expect(res.status).toBe(200);
      await expect(res.text()).rejects.toThrow();
      expect(seen).toEqual({ batches: 1, closed: true });
      expect(logged.join('\n')).toContain('watched-bulk download cut off');
      expect(logged.join('\n')).toContain('connection to the database lost');
    } finally {
      console.error = original;
      await close();
    }
  });

  it('stops reading the database when the client goes away', async () => {
    const seen = { batches: 0, closed: false };
    const { api, close } = apiWith(undefined, seen);
    try {
      const res = await api.app.request('/stable/watched-bulk', { headers: { apikey: powerKey } });
      const reader = res.body?.getReader();
      await reader?.read();
      await reader?.cancel();
      expect(seen.closed).toBe(true);
      expect(seen.batches).toBeLessThan(3);
    } finally {
      await close();
    }
  });
});

const postgresTarget = databaseTargets().find((target) => target.name === 'PostgreSQL');

describe.skipIf(postgresTarget === undefined)(
  'bulk files on PostgreSQL, read by a server-side cursor',
  () => {
    let pg: DataApiHarness;
    let database: Database;
    let key: string;

    beforeAll(async () => {
      if (postgresTarget === undefined) throw new Error('no PostgreSQL target');
      database = await postgresTarget.open();
      pg = await openDataApiHarness({ database });
      key = await pg.keyFor('monthlyT3');
    }, 180_000);

    afterAll(async () => {
      await pg.close();
      await database.close();
    });

    it('reads the same profiles in small cursor batches as in one, across parts', async () => {
      const directory = await loadSymbolDirectory(pg.db);
      const now = new Date(`${HARNESS_AS_OF}T21:00:00Z`);
      const read = async (batchSize: number, part: number, size: number): Promise<string[]> => {
        const symbols: string[] = [];
        for await (const batch of profileBatches(
          { db: pg.db, symbols: directory, now, batchSize },
          part,
          size,
        )) {
          symbols.push(...batch.map((row) => row.symbol));
        }
        return symbols;
      };
      const whole = await read(10_000, 0, 1_000_000);
      expect(whole.length).toBeGreaterThan(20);
      const parted: string[] = [];
      for (let part = 0; ; part += 1) {
        const symbols = await read(3, part, 10);
        if (symbols.length === 0) break;
        parted.push(...symbols);
      }
      expect(parted).toEqual(whole);
    });

    it('streams a statements file whose rows are the per-symbol answers', async () => {
      const res = await pg.request('/stable/income-statement-bulk', {
        year: '2025',
        period: 'annual',
        datatype: 'json',
        apikey: key,
      });
      expect(res.status).toBe(200);
      const rows = (await res.json()) as Record<string, unknown>[];
      expect(rows.length).toBeGreaterThan(5);
      const expected: Record<string, unknown>[] = [];
      for (const symbol of symbolsOf(rows)) {
        const answer = await stableAnswer(
          pg,
          'income-statement',
          { symbol, period: 'annual', limit: '100' },
          key,
        );
        expected.push(...answer.rows.filter((row) => row.fiscalYear === '2025'));
      }
      expect(rows).toEqual(expected);
    });
  },
);
