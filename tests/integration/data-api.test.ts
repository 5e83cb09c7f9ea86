import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished, vi } from 'vitest';
import readExcelFile from 'read-excel-file/node';
import { z } from 'zod';
import {
  BLOCKED_KEY_MESSAGE,
  INVALID_KEY_MESSAGE,
  MISSING_KEY_MESSAGE,
  REVOKED_KEY_MESSAGE,
  UNVERIFIED_KEY_MESSAGE,
} from '../../src/server/data-api/access.ts';
import { createDataApi } from '../../src/server/data-api/app.ts';
import { withoutKey } from '../../src/server/data-api/query.ts';
import { XLSX_CONTENT_TYPE } from '../../src/server/data-api/endpoint.ts';
import { ALL_ENDPOINTS, ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { accessKey } from '../../src/server/auth/tokens.ts';
import { apiUsageRoutes } from '../../src/server/routes/api-usage.ts';
import { MemoryStore, RedisStore } from '../../src/server/middleware/rate-limit-store.ts';
import { createApiKey } from '../../src/server/services/api-keys.ts';
import { startSession } from '../../src/server/auth/sessions.ts';
import { accessTokenKey, signAccessToken, signPublicToken } from '../../src/server/auth/tokens.ts';
import {
  HARNESS_AS_OF,
  HARNESS_SECRET,
  openDataApiHarness,
  freeLimits,
  updateAccount,
  type DataApiHarness,
} from './data-api-harness.ts';
import { accountsAppOn } from './accounts-app.ts';
import { setIdentityDisabled } from '../../src/server/auth/identity.ts';
import { findUserById } from '../../src/server/services/users.ts';
import { siteUrl } from '../../src/server/app/config.ts';
import { AUTH_LINKS } from '../../src/lib/routes.ts';
import { shiftIsoYears } from '../../src/lib/iso-date.ts';
import { pricePlans } from '../../src/server/db/schema.ts';

let h: DataApiHarness;
let commercialKey: string;
/** The Free plan's budgets as the catalogue has them (the limits stories spend them). */
let FREE_LIMITS: { perMinute: number; perDay: number };
/** Where a 402 sends the caller: the site's pricing page, by its full address. */
const PRICING_URL = `${siteUrl()}${AUTH_LINKS.pricing}`;

beforeAll(async () => {
  h = await openDataApiHarness();
  commercialKey = await h.keyFor('commercialEnterprise');
  FREE_LIMITS = await freeLimits(h.db);
});

afterAll(async () => {
  await h.close();
});

async function errorOf(res: Response): Promise<string> {
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['Error Message']);
  return String(body['Error Message']);
}

describe('every endpoint answers its documented contract', () => {
  it('lists at least the endpoints clients of the FMP stable API rely on', () => {
    const paths = new Set(ENDPOINTS.map((endpoint) => endpoint.path));
    for (const path of [
      'search-symbol',
      'search-name',
      'stock-list',
      'etf-list',
      'cryptocurrency-list',
      'forex-list',
      'commodities-list',
      'index-list',
      'quote',
      'quote-short',
      'batch-quote',
      'profile',
      'key-executives',
      'stock-peers',
      'historical-price-eod/light',
      'historical-price-eod/full',
      'historical-chart/1min',
      'historical-chart/5min',
      'historical-chart/15min',
      'historical-chart/30min',
      'historical-chart/1hour',
      'historical-chart/4hour',
      'income-statement',
      'balance-sheet-statement',
      'cash-flow-statement',
      'key-metrics',
      'ratios',
      'financial-scores',
      'owner-earnings',
      'enterprise-values',
      'discounted-cash-flow',
      'levered-discounted-cash-flow',
      'analyst-estimates',
      'price-target-consensus',
      'grades',
      'dividends',
      'splits',
      'earnings',
      'news/stock',
      'news/crypto',
      'news/forex',
      'earning-call-transcript',
      'biggest-gainers',
      'biggest-losers',
      'most-actives',
      'sector-performance-snapshot',
      'treasury-rates',
      'economic-indicators',
      'esg-ratings',
      'insider-trading/latest',
      'senate-latest',
      'institutional-ownership/symbol-positions-summary',
    ]) {
      expect(paths, path).toContain(path);
    }
  });

  it.each(ENDPOINTS.map((endpoint) => [endpoint.path, endpoint] as const))(
    '%s answers its example with rows of exactly the documented fields and types',
    async (path, endpoint) => {
      const query = Object.fromEntries(new URLSearchParams(endpoint.example));
      // Bulk files are CSV unless JSON is asked for: their rows are checked as JSON.
      if (endpoint.bulk !== undefined) query.datatype = 'json';
      const res = await h.request(`/stable/${path}`, { ...query, apikey: commercialKey });
      expect(res.status, await res.clone().text()).toBe(200);
      // A workbook endpoint answers a file, not rows: an .xlsx attachment a spreadsheet reader opens.
      if (endpoint.workbook !== undefined) {
        expect(res.headers.get('content-type')).toBe(XLSX_CONTENT_TYPE);
        expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]+\.xlsx"$/);
        const sheets = await readExcelFile(Buffer.from(await res.arrayBuffer()));
        expect(sheets.length).toBeGreaterThan(0);
        for (const sheet of sheets) expect(sheet.data.length, sheet.sheet).toBeGreaterThan(1);
        return;
      }
      const rows = (await res.json()) as unknown[];
      expect(Array.isArray(rows)).toBe(true);
      expect(rows.length).toBeGreaterThan(0);
      const strict = endpoint.row.strict();
      const fields = Object.keys(endpoint.row.shape);
      for (const row of rows) {
        const parsed = strict.safeParse(row);
        expect(parsed.success, parsed.error?.message).toBe(true);
        expect(Object.keys(row as object)).toEqual(fields);
        for (const value of Object.values(row as object)) {
          if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
        }
      }
    },
  );

  it('documents every field and parameter of every endpoint', () => {
    for (const endpoint of ENDPOINTS) {
      for (const [name, field] of Object.entries(endpoint.row.shape)) {
        expect((field as z.ZodType).description, `${endpoint.path} field ${name}`).toBeTruthy();
      }
      for (const [name, field] of Object.entries(endpoint.params.shape)) {
        expect((field as z.ZodType).description, `${endpoint.path} parameter ${name}`).toBeTruthy();
      }
    }
  });
});

describe('the OpenAPI document', () => {
  interface Operation {
    parameters: { name: string; required: boolean }[];
    responses: Record<
      string,
      { description?: string; content?: Record<string, { schema: { items?: { properties: object } } }> }
    >;
    'x-update-cadence': { frequency: string; label: string; when: string };
  }

  async function operations(): Promise<Record<string, { get: Operation }>> {
    const res = await h.request('/stable/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, { get: Operation }> };
    expect(doc.openapi).toBe('3.1.0');
    return doc.paths;
  }

  it('lists FMP’s catalogue: at least 180 endpoints under /stable, each with a data tier and a cadence', async () => {
    const paths = Object.entries(await operations()).filter(([path]) => path.startsWith('/stable/'));
    expect(paths.length).toBeGreaterThanOrEqual(180);
    for (const [path, item] of paths) {
      expect(item.get['x-update-cadence'].label, path).toBeTruthy();
      expect(typeof (item.get as unknown as Record<string, unknown>)['x-data-tier'], path).toBe('number');
    }
  });

  it('describes every endpoint with its parameters, the fields of its rows and the refusals it can answer', async () => {
    const paths = await operations();
    for (const endpoint of ALL_ENDPOINTS) {
      const operation = paths[`/stable/${endpoint.path}`]?.get;
      expect(operation, endpoint.path).toBeDefined();
      if (operation === undefined) continue;
      expect(operation.parameters.map((p) => p.name)).toEqual(
        expect.arrayContaining(Object.keys(endpoint.params.shape)),
      );
      const content = operation.responses['200']?.content;
      if (endpoint.workbook === undefined) {
        const items = content?.['application/json']?.schema.items;
        expect(Object.keys(items?.properties ?? {})).toEqual(Object.keys(endpoint.row.shape));
      } else {
        // A workbook is a file: binary xlsx, no JSON rows, and a 404 when there is nothing to write.
        expect(content, endpoint.path).toEqual({
          [XLSX_CONTENT_TYPE]: { schema: { type: 'string', format: 'binary' } },
        });
        expect(operation.responses['404'], `${endpoint.path} 404`).toBeDefined();
      }
      for (const status of ['400', '401', '403', '503']) {
        expect(operation.responses[status], `${endpoint.path} ${status}`).toBeDefined();
      }
      expect(operation.responses['429'] === undefined, `${endpoint.path} 429`).toBe(endpoint.free === true);
    }
  });

  it('lists a 402 only where a plan can fall short, and a 429 only where calls are counted', async () => {
    const paths = await operations();
    expect(paths['/stable/stock-list']?.get.responses['402']).toBeUndefined();
    expect(paths['/stable/quote']?.get.responses['402']?.description).toContain('symbol');
    expect(paths['/stable/income-statement']?.get.responses['402']?.description).toContain('quarterly');
    expect(paths['/stable/historical-price-eod/full']?.get.responses['402']?.description).toContain(
      'history',
    );
    expect(paths['/stable/api-usage']?.get.responses['429']).toBeUndefined();
    expect(paths['/stable/quote']?.get.responses['404']).toBeUndefined();
  });

  it('says how often each endpoint’s data is refreshed, as x-update-cadence', async () => {
    const paths = await operations();
    for (const endpoint of ALL_ENDPOINTS) {
      expect(paths[`/stable/${endpoint.path}`]?.get['x-update-cadence'], endpoint.path).toEqual({
        frequency: endpoint.cadence.frequency,
        label: expect.any(String) as string,
        when: endpoint.cadence.when,
      });
    }
    expect(paths['/stable/historical-price-eod/full']?.get['x-update-cadence'].label).toBe('End of day');
  });
});

describe('keys', () => {
  it('refuses a request without a key with 401 and says how to pass one', async () => {
    const res = await h.request('/stable/quote', { symbol: 'AAPL' });
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toBe(MISSING_KEY_MESSAGE);
  });

  it('refuses an unknown key with 401', async () => {
    const res = await h.request('/stable/quote', { symbol: 'AAPL', apikey: 'not-a-real-key' });
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toBe(INVALID_KEY_MESSAGE);
  });

  it('accepts the key in an apikey header as well as in the query', async () => {
    const key = await h.keyFor('free');
    const res = await h.request('/stable/quote', { symbol: 'AAPL' }, { apikey: key });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { symbol: string }[])[0]?.symbol).toBe('AAPL');
  });

  it('refuses an unverified account with 403 saying the email needs verifying', async () => {
    const key = await h.keyFor('free', { verified: false });
    const res = await h.request('/stable/quote', { symbol: 'AAPL', apikey: key });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toBe(UNVERIFIED_KEY_MESSAGE);
  });

  it('stops a key within 60 seconds of its account being blocked, with 403 saying so', async () => {
    const key = await h.keyFor('free');
    expect((await h.request('/stable/quote', { symbol: 'AAPL', apikey: key })).status).toBe(200);
    await updateAccount(h.db, h.userOf(key), { blocked: true });
    h.clock.advance(60_000);
    const res = await h.request('/stable/quote', { symbol: 'AAPL', apikey: key });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toBe(BLOCKED_KEY_MESSAGE);
  });

  it('stops a key within 60 seconds of its identity being disabled at the provider, and blocks the account', async () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
    const signUp = await fetch(
      `http://${inject('authEmulatorHost')}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `disabled-${randomUUID()}@example.test`,
          password: 'correct-horse-42',
        }),
      },
    );
    const { localId } = (await signUp.json()) as { localId: string };
    const key = await h.keyFor('free', { firebaseUid: localId });
    expect((await h.request('/stable/quote', { symbol: 'AAPL', apikey: key })).status).toBe(200);
    // An operator disables the identity in the provider's own console, not through this site.
    expect(await setIdentityDisabled(localId, true)).toEqual({ ok: true });
    h.clock.advance(60_000);
    await h.request('/stable/quote', { symbol: 'AAPL', apikey: key });
    await h.api.keys.settled();
    const res = await h.request('/stable/quote', { symbol: 'AAPL', apikey: key });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toBe(BLOCKED_KEY_MESSAGE);
    expect((await findUserById(h.db, h.userOf(key)))?.blocked).toBe(true);
  });

  it('stops a replaced key within 60 seconds, with 401 pointing at the current key', async () => {
    const key = await h.keyFor('free');
    expect((await h.request('/stable/quote', { symbol: 'AAPL', apikey: key })).status).toBe(200);
    const replacement = await createApiKey(h.db, h.userOf(key), { secret: HARNESS_SECRET });
    h.clock.advance(60_000);
    const res = await h.request('/stable/quote', { symbol: 'AAPL', apikey: key });
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toBe(REVOKED_KEY_MESSAGE);
    expect(
      (await h.request('/stable/quote', { symbol: 'AAPL', apikey: replacement?.key ?? '' })).status,
    ).toBe(200);
  });

  it('serves the signed-out public token the free sample with a small budget', async () => {
    const token = await signPublicToken(accessTokenKey(HARNESS_SECRET), { now: new Date(h.clock.now) });
    const res = await h.request('/stable/quote', { symbol: 'AAPL', apikey: token });
    expect(res.status).toBe(200);
    expect(res.headers.get('RateLimit-Policy')).toBe('"minute";q=10;w=60, "day";q=100;w=86400');
    const statements = await h.request('/stable/income-statement', { symbol: 'AAPL', apikey: token });
    expect(statements.status).toBe(200);
    const executives = await h.request('/stable/key-executives', { symbol: 'AAPL', apikey: token });
    expect(executives.status).toBe(402);
  });
});

describe('plans', () => {
  it('answers 402 naming the cheapest plan that covers the endpoint and linking to the pricing page', async () => {
    const key = await h.keyFor('free');
    const res = await h.request('/stable/key-executives', { symbol: 'AAPL', apikey: key });
    expect(res.status).toBe(402);
    expect(await errorOf(res)).toBe(
      `Your Free plan does not cover the key-executives endpoint. It is included in the Starter plan and above: see ${PRICING_URL}.`,
    );
  });

  it('answers 402 for a symbol outside the plan and names the plan that covers it', async () => {
    const sample = (await h.api.directory.get()).all();
    const usStock = sample.find((s) => s.assetType === 'stock' && s.exchange === 'NASDAQ' && !s.sample);
    const pair = sample.find((s) => s.assetType === 'forex' && !s.sample);
    if (usStock === undefined || pair === undefined)
      throw new Error('the demo data lacks symbols outside the sample');
    const free = await h.keyFor('free');
    const outside = await h.request('/stable/quote', { symbol: usStock.symbol, apikey: free });
    expect(outside.status).toBe(402);
    expect(await errorOf(outside)).toBe(
      `Your Free plan does not cover the symbol ${usStock.symbol}. It is included in the Starter plan and above: see ${PRICING_URL}.`,
    );
    const starter = await h.keyFor('starterT1');
    expect((await h.request('/stable/quote', { symbol: usStock.symbol, apikey: starter })).status).toBe(200);
    const res = await h.request('/stable/quote', { symbol: pair.symbol, apikey: starter });
    expect(res.status).toBe(402);
    expect(await errorOf(res)).toBe(
      `Your Starter plan does not cover the symbol ${pair.symbol}. It is included in the Power plan and above: see ${PRICING_URL}.`,
    );
  });

  it('answers 402 for quarterly statements on an annual-only plan', async () => {
    const key = await h.keyFor('starterT1');
    expect((await h.request('/stable/income-statement', { symbol: 'AAPL', apikey: key })).status).toBe(200);
    const res = await h.request('/stable/income-statement', {
      symbol: 'AAPL',
      period: 'quarter',
      apikey: key,
    });
    expect(res.status).toBe(402);
    expect(await errorOf(res)).toContain('Professional');
  });

  it('applies a plan change within 60 seconds', async () => {
    const key = await h.keyFor('free');
    const quarterly = { symbol: 'AAPL', period: 'quarter', apikey: key };
    expect((await h.request('/stable/income-statement', quarterly)).status).toBe(402);
    await updateAccount(h.db, h.userOf(key), { planCode: 'monthlyT2' });
    h.clock.advance(60_000);
    const res = await h.request('/stable/income-statement', quarterly);
    expect(res.status).toBe(200);
    expect(res.headers.get('RateLimit-Policy')).toBe('"minute";q=120;w=60, "day";q=50000;w=86400');
  });
});

describe('the Free plan', () => {
  it('answers a typical FMP client’s first calls on a Free key with 200, none refused for the plan or the limit', async () => {
    const key = await h.keyFor('free');
    const fiveYearsBack = shiftIsoYears(HARNESS_AS_OF, -5);
    const calls: [string, Record<string, string>][] = [
      ['quote', { symbol: 'AAPL' }],
      ['profile', { symbol: 'AAPL' }],
      ['historical-price-eod/full', { symbol: 'AAPL', from: fiveYearsBack }],
      ['income-statement', { symbol: 'AAPL' }],
      ['balance-sheet-statement', { symbol: 'AAPL', period: 'annual' }],
      ['cash-flow-statement', { symbol: 'AAPL', limit: '5' }],
      ['key-metrics', { symbol: 'AAPL' }],
      ['ratios', { symbol: 'AAPL' }],
    ];
    // In quick succession, as a script runs them: the clock does not move.
    for (const [path, query] of calls) {
      const res = await h.request(`/stable/${path}`, { ...query, apikey: key });
      expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
      expect(((await res.json()) as unknown[]).length, path).toBeGreaterThan(0);
    }
    const last = await h.request('/stable/quote-short', { symbol: 'AAPL', apikey: key });
    expect(last.headers.get('RateLimit')).toMatch(
      new RegExp(`^"minute";r=${FREE_LIMITS.perMinute - calls.length - 1};`),
    );
  });

  it('answers quarterly statements on a Free key with 402 naming Professional and the pricing page', async () => {
    const key = await h.keyFor('free');
    const res = await h.request('/stable/income-statement', {
      symbol: 'AAPL',
      period: 'quarter',
      apikey: key,
    });
    expect(res.status).toBe(402);
    expect(await errorOf(res)).toBe(
      `Your Free plan does not cover quarterly statements. It is included in the Professional plan and above: see ${PRICING_URL}.`,
    );
  });

  it('names in every 402 a plan that then answers the same call, with the pricing page’s address', async () => {
    const directory = (await h.api.directory.get()).all();
    const usStock = directory.find((s) => s.assetType === 'stock' && s.exchange === 'NASDAQ' && !s.sample);
    const pair = directory.find((s) => s.assetType === 'forex' && !s.sample);
    if (usStock === undefined || pair === undefined)
      throw new Error('the demo data lacks symbols outside the sample');
    const free = await h.keyFor('free');
    const guest = await signPublicToken(accessTokenKey(HARNESS_SECRET), { now: new Date(h.clock.now) });
    const refusals: [string, Record<string, string>, string, string][] = [
      ['key-executives', { symbol: 'AAPL' }, free, 'Starter'],
      ['income-statement', { symbol: usStock.symbol }, free, 'Starter'],
      ['ratios', { symbol: 'AAPL', period: 'quarter' }, free, 'Professional'],
      [
        'historical-price-eod/full',
        { symbol: 'AAPL', from: shiftIsoYears(HARNESS_AS_OF, -6) },
        free,
        'Starter',
      ],
      ['historical-price-eod/light', { symbol: 'AAPL', from: '2000-01-03' }, free, 'Professional'],
      ['historical-chart/5min', { symbol: 'AAPL' }, free, 'Professional'],
      ['quote', { symbol: pair.symbol }, free, 'Power'],
      [
        'historical-price-eod/full',
        { symbol: 'AAPL', from: shiftIsoYears(HARNESS_AS_OF, -3) },
        guest,
        'Free',
      ],
    ];
    const plans = await h.db.select().from(pricePlans);
    for (const [path, query, credential, expected] of refusals) {
      const refused = await h.request(`/stable/${path}`, { ...query, apikey: credential });
      expect(refused.status, path).toBe(402);
      const message = await errorOf(refused);
      expect(message, path).toMatch(
        new RegExp(
          `It is included in the ${expected} plan and above: see ${PRICING_URL.replaceAll('.', '\\.')}\\.$`,
        ),
      );
      const named = plans.find((plan) => plan.name === expected);
      if (named === undefined) throw new Error(`no plan called ${expected}`);
      const opened = await h.request(`/stable/${path}`, { ...query, apikey: await h.keyFor(named.code) });
      expect(opened.status, `${path} on ${expected}`).toBe(200);
    }
  });
});

describe('errors', () => {
  it('answers an unknown endpoint with 404 in the FMP shape', async () => {
    const res = await h.request('/stable/no-such-thing', { apikey: commercialKey });
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toContain('/stable/no-such-thing');
  });

  it('finds an endpoint whatever the case a client writes its path in', async () => {
    const exact = await h.request('/stable/historical-price-eod/light', {
      symbol: 'AAPL',
      apikey: commercialKey,
    });
    const camel = await h.request('/stable/Historical-Price-EOD/Light', {
      symbol: 'AAPL',
      apikey: commercialKey,
    });
    expect(camel.status).toBe(200);
    expect(await camel.text()).toBe(await exact.text());
  });

  it('never repeats a key that a malformed address carries in its path', async () => {
    for (const path of [
      `/stable/quote&apikey=${commercialKey}`,
      `/stable/quote%26apikey%3D${commercialKey}`,
      `/api/v3/no-such-thing&apikey=${commercialKey}`,
    ]) {
      const res = await h.request(path);
      expect(res.status, path).toBe(404);
      const message = await errorOf(res);
      expect(message, path).toMatch(/^Unknown endpoint /);
      expect(message, path).not.toContain(commercialKey);
    }
  });

  it('answers a missing parameter with 400 naming it', async () => {
    const res = await h.request('/stable/quote', { apikey: commercialKey });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe('Missing required parameter "symbol".');
  });

  it('answers an invalid parameter with 400 naming it and the rule', async () => {
    const res = await h.request('/stable/historical-price-eod/full', {
      symbol: 'AAPL',
      from: '2026-02-30',
      apikey: commercialKey,
    });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe('Invalid value for parameter "from": is not a real date.');
  });

  it('refuses CSV on an endpoint that only answers JSON', async () => {
    const res = await h.request('/stable/quote', { symbol: 'AAPL', datatype: 'csv', apikey: commercialKey });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toContain('"datatype"');
  });
});

describe('limits', () => {
  it('refuses the first call beyond the free plan’s minute with 429 and Retry-After, then lets calls through again', async () => {
    const key = await h.keyFor('free');
    const { perMinute, perDay } = FREE_LIMITS;
    for (let call = 1; call <= perMinute; call += 1) {
      const res = await h.request('/stable/quote-short', { symbol: 'AAPL', apikey: key });
      expect(res.status).toBe(200);
      // t counts down to the moment the oldest call of the window leaves it (calls are 1 s apart).
      expect(res.headers.get('RateLimit')).toBe(
        `"minute";r=${perMinute - call};t=${61 - call}, "day";r=${perDay - call};t=${86_401 - call}`,
      );
      h.clock.advance(1000);
    }
    const refused = await h.request('/stable/quote-short', { symbol: 'AAPL', apikey: key });
    expect(refused.status).toBe(429);
    const wait = 60 - perMinute;
    expect(refused.headers.get('Retry-After')).toBe(String(wait));
    // Every window is reported on the refusal, the day's unchanged by it.
    expect(refused.headers.get('RateLimit')).toBe(
      `"minute";r=0;t=${wait}, "day";r=${perDay - perMinute};t=${86_400 - perMinute}`,
    );
    expect(await errorOf(refused)).toBe(
      `Limit reached: the Free plan allows ${perMinute} calls per minute. Try again in ${wait} seconds, or upgrade your plan for higher limits.`,
    );
    h.clock.advance(wait * 1000);
    expect((await h.request('/stable/quote-short', { symbol: 'AAPL', apikey: key })).status).toBe(200);
  });

  it('refuses the first call beyond the free plan’s day until the oldest call leaves the 24-hour window', async () => {
    const key = await h.keyFor('free');
    const start = h.clock.now;
    for (let call = 1; call <= FREE_LIMITS.perDay; call += 1) {
      const res = await h.request('/stable/quote-short', { symbol: 'AAPL', apikey: key });
      expect(res.status).toBe(200);
      h.clock.advance(15_000);
    }
    const refused = await h.request('/stable/quote-short', { symbol: 'AAPL', apikey: key });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBe(Math.ceil((start + 86_400_000 - h.clock.now) / 1000));
    expect(await errorOf(refused)).toContain(`${FREE_LIMITS.perDay} calls per day`);
    h.clock.advance(retryAfter * 1000);
    expect((await h.request('/stable/quote-short', { symbol: 'AAPL', apikey: key })).status).toBe(200);
  });

  it('charges only answered calls: refusals for the plan or the parameters leave the budgets as they were', async () => {
    const outside = (await h.api.directory.get()).all().find((s) => s.assetType === 'stock' && !s.sample);
    if (outside === undefined) throw new Error('the demo data lacks symbols outside the sample');
    const key = await h.keyFor('free');
    for (let call = 0; call < 8; call += 1) {
      const uncovered = await h.request('/stable/quote-short', { symbol: outside.symbol, apikey: key });
      expect(uncovered.status).toBe(402);
      const missing = await h.request('/stable/quote-short', { apikey: key });
      expect(missing.status).toBe(400);
    }
    const answered = await h.request('/stable/quote-short', { symbol: 'AAPL', apikey: key });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('RateLimit')).toMatch(
      new RegExp(
        `^"minute";r=${FREE_LIMITS.perMinute - 1};t=\\d+, "day";r=${FREE_LIMITS.perDay - 1};t=\\d+$`,
      ),
    );
  });
});

describe('limits shared through Redis', () => {
  it('count the calls of one key against one budget across two instances of the service', async () => {
    const prefix = `data-api-test:${randomUUID()}:`;
    const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const stores = [
      new RedisStore(url, { prefix, fallback: new MemoryStore() }),
      new RedisStore(url, { prefix, fallback: new MemoryStore() }),
    ];
    const instances = stores.map((store) =>
      createDataApi({ database: () => Promise.resolve(h.db), store, secret: HARNESS_SECRET }),
    );
    try {
      const key = await h.keyFor('free');
      const statuses: number[] = [];
      for (let call = 0; call <= FREE_LIMITS.perMinute; call += 1) {
        const instance = instances[call % 2];
        const res = await instance?.app.request(`/stable/quote-short?symbol=AAPL&apikey=${key}`);
        statuses.push(res?.status ?? 0);
      }
      expect(statuses).toEqual([...Array<number>(FREE_LIMITS.perMinute).fill(200), 429]);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});

describe('usage', () => {
  it('counts calls and bytes per endpoint and day, readable through the usage endpoint', async () => {
    const key = await h.keyFor('commercialEnterprise');
    let quoteBytes = 0;
    for (let call = 0; call < 3; call += 1) {
      const res = await h.request('/stable/quote', { symbol: 'MSFT', apikey: key });
      quoteBytes += (await res.arrayBuffer()).byteLength;
    }
    const profile = await h.request('/stable/profile', { symbol: 'MSFT', apikey: key });
    const profileBytes = (await profile.arrayBuffer()).byteLength;
    // A refused call is not usage: only answered calls count.
    const refused = await h.request('/stable/quote', { apikey: key });
    expect(refused.status).toBe(400);
    await h.api.meter.flush();
    const res = await h.request('/stable/api-usage', { apikey: key });
    expect(res.status).toBe(200);
    const day = new Date(h.clock.now).toISOString().slice(0, 10);
    expect(await res.json()).toEqual([
      { date: day, endpoint: 'profile', calls: 1, bytes: profileBytes },
      { date: day, endpoint: 'quote', calls: 3, bytes: quoteBytes },
    ]);
  });
});

describe('usage on the dashboard', () => {
  it('shows the signed-in owner the calls of every key the account has had, and nobody else', async () => {
    const key = await h.keyFor('commercialEnterprise');
    const userId = h.userOf(key);
    const before = await h.request('/stable/quote', { symbol: 'NVDA', apikey: key });
    const replacement = await createApiKey(h.db, userId, { secret: HARNESS_SECRET });
    const after = await h.request('/stable/quote', { symbol: 'NVDA', apikey: replacement?.key ?? '' });
    const bytes = (await before.arrayBuffer()).byteLength + (await after.arrayBuffer()).byteLength;
    await h.api.meter.flush();

    const accounts = accountsAppOn(() => h.db, [['/portal', apiUsageRoutes]]);
    // The dashboard reads the days up to today: today is the day the data API's clock metered.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(h.clock.now);
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const session = await startSession(h.db, userId);
    const token = await signAccessToken(accessKey(), {
      userId,
      role: 'user',
      plan: 'commercialEnterprise',
      sessionId: session.sessionId,
    });
    const res = await accounts.request('/portal/user/api-usage?days=7', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { from: string; to: string; usage: unknown[] };
    expect(body.usage).toEqual([
      {
        date: new Date(h.clock.now).toISOString().slice(0, 10),
        endpoint: 'quote',
        calls: 2,
        bytes,
      },
    ]);
    expect((await accounts.request('/portal/user/api-usage')).status).toBe(401);
    const tooMany = await accounts.request('/portal/user/api-usage?days=1000', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(tooMany.status).toBe(400);
  });
});

describe('answers', () => {
  it('are shared by every key for the same query, and never by different queries', () => {
    expect(withoutKey('symbol=AAPL&apikey=abc')).toBe('symbol=AAPL');
    expect(withoutKey('apikey=abc&symbol=AAPL')).toBe('symbol=AAPL');
    expect(withoutKey('apikey=abc')).toBe('');
    expect(withoutKey('symbol=AAPL')).toBe('symbol=AAPL');
    expect(withoutKey('query=apikey&apikey=abc')).toBe('query=apikey');
    expect(withoutKey('symbol=AAPL&apikeys=1')).toBe('symbol=AAPL&apikeys=1');
    expect(withoutKey('symbol=AAPL&apikey=a&apikey=b')).toBe('symbol=AAPL');
  });

  it('carry ETag, Cache-Control, open CORS and the demo-data label, and a matching If-None-Match gets 304', async () => {
    const res = await h.request('/stable/quote', { symbol: 'AAPL', apikey: commercialKey });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(res.headers.get('Access-Control-Allow-Credentials')).toBeNull();
    expect(res.headers.get('X-Data-Source')).toBe('demo');
    expect(res.headers.get('Cache-Control')).toMatch(/^private, max-age=\d+$/);
    const etag = res.headers.get('ETag') ?? '';
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await h.request(
      '/stable/quote',
      { symbol: 'AAPL', apikey: commercialKey },
      { 'If-None-Match': etag },
    );
    expect(again.status).toBe(304);
  });

  it('answer a CORS preflight for the apikey header', async () => {
    const res = await h.api.app.request('/stable/quote', {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.org', 'Access-Control-Request-Headers': 'apikey' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Headers')).toContain('apikey');
  });

  it('come as CSV with a header row when datatype=csv is asked of a list', async () => {
    const res = await h.request('/stable/stock-list', { datatype: 'csv', apikey: commercialKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('text/csv');
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe('symbol,companyName');
    expect(lines).toContain('AAPL,Apple Inc.');
  });

  it('keep only the fields asked for, in that order, as CSV columns and as JSON keys', async () => {
    const csv = await h.request('/stable/stock-list', {
      datatype: 'csv',
      fields: 'companyName, symbol',
      apikey: commercialKey,
    });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('companyName,symbol');
    expect(lines).toContain('Apple Inc.,AAPL');

    const json = await h.request('/stable/stock-list', { fields: 'companyName', apikey: commercialKey });
    expect(json.status).toBe(200);
    const rows = (await json.json()) as Record<string, unknown>[];
    expect(rows).toContainEqual({ companyName: 'Apple Inc.' });
    expect(rows.every((row) => Object.keys(row).join() === 'companyName')).toBe(true);
  });

  it('refuse a field the rows do not have, naming it and the fields there are', async () => {
    const res = await h.request('/stable/stock-list', {
      datatype: 'csv',
      fields: 'symbol,ceo',
      apikey: commercialKey,
    });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe(
      'Invalid value for parameter "fields": stock-list has no field "ceo". Its fields are symbol, companyName.',
    );
  });

  it('are logged without the API key', async () => {
    const lines: string[] = [];
    const logged = createDataApi({
      database: () => Promise.resolve(h.db),
      store: h.store,
      now: () => h.clock.now,
      secret: HARNESS_SECRET,
      accessLog: (line) => lines.push(line),
    });
    await logged.app.request(`/stable/quote?symbol=AAPL&apikey=${commercialKey}`);
    await logged.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('/stable/quote?symbol=AAPL&apikey=');
    expect(lines[0]).not.toContain(commercialKey);
  });
});
