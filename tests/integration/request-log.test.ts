import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverSecret } from '../../src/server/auth/crypto.ts';
import { apiRequests } from '../../src/server/db/schema.ts';
import { apiKeyRoutes } from '../../src/server/routes/api-keys.ts';
import { requestLogRoutes } from '../../src/server/routes/request-log.ts';
import {
  REQUEST_LOG_DAYS,
  REQUEST_LOG_PER_ACCOUNT,
  REQUEST_LOG_PER_ACCOUNT_PER_WRITE,
  trimRequestLog,
} from '../../src/server/services/request-log.ts';
import type { RequestLogPage } from '../../src/lib/dashboard-data.ts';
import { accessTokenFor, accountsAppOn } from './accounts-app.ts';
import { openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

/*
 * The request log: the data API records each call made with a key through its one pipeline, in
 * batches, and the owner reads it filtered and paged through the accounts API.
 */

let h: DataApiHarness;
const accounts = () =>
  accountsAppOn(
    () => h.db,
    [
      ['/portal', apiKeyRoutes],
      ['/portal', requestLogRoutes],
    ],
  );

beforeAll(async () => {
  h = await openDataApiHarness({ secret: serverSecret() });
  h.clock.now = Date.now();
});

afterAll(async () => {
  await h.close();
});

async function owner(planCode = 'free') {
  const key = await h.keyFor(planCode);
  const userId = h.userOf(key);
  const token = await accessTokenFor(h.db, userId, planCode);
  const get = async (path: string) =>
    accounts().request(`/portal${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const post = async (path: string, body: unknown) =>
    accounts().request(`/portal${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const log = async (query = '') => {
    const res = await get(`/user/request-log${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as RequestLogPage;
  };
  return { key, userId, get, post, log };
}

describe('the request log', () => {
  it('records each call made with a key, answered or refused, with the key left out of the parameters', async () => {
    const me = await owner('free');
    await h.request('/stable/quote', { symbol: 'AAPL', apikey: me.key });
    await h.request('/stable/income-statement', { symbol: 'AAPL', period: 'quarter', apikey: me.key });
    await h.request('/stable/historical-price-eod/full', {
      symbol: 'AAPL',
      from: 'yesterday',
      apikey: me.key,
    });
    await h.request('/stable/profile', { symbol: 'MSFT' }, { apikey: me.key });
    // Calls without a known key belong to nobody's log.
    await h.request('/stable/quote', { symbol: 'AAPL', apikey: 'not-a-key' });
    await h.api.pipeline.requestLog.flush();

    const { entries, endpoints } = await me.log();
    expect(entries.map((entry) => [entry.endpoint, entry.status])).toEqual([
      ['profile', 200],
      ['historical-price-eod/full', 400],
      ['income-statement', 402],
      ['quote', 200],
    ]);
    expect(endpoints).toEqual(['historical-price-eod/full', 'income-statement', 'profile', 'quote']);
    for (const entry of entries) {
      expect(entry.params).not.toContain(me.key);
      expect(entry.params).not.toContain('apikey');
      expect(entry.keyName).toBe('Default key');
      expect(entry.keyLast4).toBe(me.key.slice(-4));
      expect(entry.bytes).toBeGreaterThan(0);
      expect(entry.latencyMs).toBeGreaterThanOrEqual(0);
    }
    expect(entries.find((entry) => entry.endpoint === 'quote')?.params).toBe('symbol=AAPL');
  });

  it('filters by status class, status, endpoint and key, and pages with the cursor it gives', async () => {
    const me = await owner('commercialEnterprise');
    const added = (await (await me.post('/user/api-keys', { name: 'Nightly job' })).json()) as { id: string };
    const named = (
      (await (await me.get('/user/api-keys')).json()) as { keys: { id: string; key: string }[] }
    ).keys.find((key) => key.id === added.id);
    for (const symbol of ['AAPL', 'MSFT', 'NVDA'])
      await h.request('/stable/quote', { symbol, apikey: me.key });
    await h.request('/stable/quote', { symbol: 'AMZN', apikey: named?.key ?? '' });
    await h.request('/stable/stock-list', { datatype: 'xml', apikey: me.key });
    await h.api.pipeline.requestLog.flush();

    expect((await me.log('?status=4xx')).entries.map((entry) => entry.endpoint)).toEqual(['stock-list']);
    expect((await me.log('?status=200')).entries).toHaveLength(4);
    const byKey = await me.log(`?key=${added.id}`);
    expect(byKey.entries.map((entry) => [entry.keyName, entry.params])).toEqual([
      ['Nightly job', 'symbol=AMZN'],
    ]);
    expect((await me.log('?endpoint=quote')).entries).toHaveLength(4);

    const first = await me.log('?limit=2');
    expect(first.entries).toHaveLength(2);
    expect(first.nextBefore).not.toBeNull();
    const second = await me.log(`?limit=2&before=${first.nextBefore ?? ''}`);
    const third = await me.log(`?limit=2&before=${second.nextBefore ?? ''}`);
    const ids = [...first.entries, ...second.entries, ...third.entries].map((entry) => entry.id);
    expect(new Set(ids).size).toBe(5);
    expect(third.nextBefore).toBeNull();

    const future = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await me.log(`?from=${future}`)).entries).toEqual([]);
    const bad = await me.get('/user/request-log?status=oops');
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('status must be a class such as 4xx');
  });

  it(`keeps ${String(REQUEST_LOG_DAYS)} days and at most ${String(REQUEST_LOG_PER_ACCOUNT)} requests per account, the newest`, async () => {
    const me = await owner();
    const now = Date.now();
    // Older than the window: removed whatever the count.
    await h.db.insert(apiRequests).values({
      userId: me.userId,
      at: new Date(now - (REQUEST_LOG_DAYS + 1) * 86_400_000),
      endpoint: 'quote',
      params: 'symbol=OLD',
      status: 200,
      latencyMs: 1,
      bytes: 10,
    });
    // Five more than the bound, a second apart, the oldest first.
    await h.db.execute(sql`
      insert into ${apiRequests} (user_id, at, endpoint, params, status, latency_ms, bytes)
      select ${me.userId}::uuid, to_timestamp(${String(Math.floor(now / 1000) - REQUEST_LOG_PER_ACCOUNT - 5)}::double precision + n), 'quote', 'symbol=N' || n, 200, 1, 10
      from generate_series(1, ${REQUEST_LOG_PER_ACCOUNT + 5}) as n`);
    await trimRequestLog(h.db, new Date(now));
    const [kept] = await h.db
      .select({ n: count() })
      .from(apiRequests)
      .where(eq(apiRequests.userId, me.userId));
    expect(kept?.n).toBe(REQUEST_LOG_PER_ACCOUNT);
    const { entries } = await me.log('?limit=1');
    expect(entries[0]?.params).toBe(`symbol=N${String(REQUEST_LOG_PER_ACCOUNT + 5)}`);
    const oldest = await h.db
      .select({ params: apiRequests.params })
      .from(apiRequests)
      .where(eq(apiRequests.userId, me.userId))
      .orderBy(apiRequests.at)
      .limit(1);
    expect(oldest[0]?.params).toBe('symbol=N6');
  });

  it('keeps at most a bounded number of one account’s requests per write, so a flood costs the database little', async () => {
    const me = await owner('commercialEnterprise');
    for (let call = 0; call < REQUEST_LOG_PER_ACCOUNT_PER_WRITE + 20; call += 1) {
      await h.request('/stable/quote', { symbol: 'AAPL', apikey: me.key });
    }
    await h.api.pipeline.requestLog.flush();
    await h.request('/stable/quote', { symbol: 'MSFT', apikey: me.key });
    await h.api.pipeline.requestLog.flush();
    const [kept] = await h.db
      .select({ n: count() })
      .from(apiRequests)
      .where(eq(apiRequests.userId, me.userId));
    expect(kept?.n).toBe(REQUEST_LOG_PER_ACCOUNT_PER_WRITE + 1);
  });
});
