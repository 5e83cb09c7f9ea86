import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import WebSocket from 'ws';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { pricePlans, statusChecks, users } from '../../src/server/db/schema.ts';
import { BLOCKED_KEY_MESSAGE } from '../../src/server/data-api/access.ts';
import { createApiKey } from '../../src/server/services/api-keys.ts';
import {
  dropInstanceSchema,
  InstanceProcess as Instance,
  prepareInstanceSchema,
} from '../../scripts/instance-process.ts';
import { RoundRobinProxy } from '../../scripts/bench/round-robin-proxy.ts';
import { freePort } from '../integration/free-port.ts';

/*
 * The product scaled out: two data API instances and two site instances, each its own process
 * (`npm run serve:data-api`, `npm run serve:site`), on one PostgreSQL database and one Redis, with the end-to-end
 * run's Auth emulator, behind a small round-robin balancer that follows each instance's readiness. Skipped
 * without TEST_DATABASE_URL (CI sets it).
 */

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const SECRET = `scale-out-secret-${randomBytes(16).toString('hex')}`;
const AUTH_EMULATOR_HOST = `127.0.0.1:${process.env.E2E_AUTH_EMULATOR_PORT ?? '9699'}`;
/** Plans the stories' keys are on: a small per-minute budget, and none for the steady load. */
const LIMITED = { code: 'scale-limited', perMinute: 12 };
const UNLIMITED = 'scale-unlimited';
const PASSWORD = 'Scale-out-password-1';

/** An account signed in through the site: its id, access token and refresh token (the cookie's value). */
interface SignedIn {
  userId: string;
  accessToken: string;
  refreshToken: string;
}

/** The refresh token an answer set as its cookie. */
function refreshCookieOf(res: Response): string {
  for (const header of res.headers.getSetCookie()) {
    const match = /^refreshToken=([^;]+)/.exec(header);
    if (match?.[1] !== undefined) return match[1];
  }
  throw new Error(`no refresh cookie was set (${String(res.status)})`);
}

/** A refresh through one site address with a refresh token, as the browser's cookie carries it. */
function refreshThrough(site: string, refreshToken: string): Promise<Response> {
  return fetch(`${site}/api/app/auth/refresh`, { headers: { cookie: `refreshToken=${refreshToken}` } });
}

test.describe('the product scaled out to two instances of each server', () => {
  test.skip(DATABASE_URL === undefined, 'needs TEST_DATABASE_URL (PostgreSQL)');
  test.describe.configure({ mode: 'serial' });

  const schema = `scale_${randomBytes(6).toString('hex')}`;
  let database: Database;
  let env: Record<string, string>;
  let dataApis: Instance[] = [];
  let sites: Instance[] = [];
  let dataProxy: RoundRobinProxy;
  let dataApiUrl: string;
  let siteProxy: RoundRobinProxy;
  let siteUrl: string;

  /**
   * A new account signed in with a password through one site address, as the sign-in form does: the
   * identity provider's account first, then the site's sign-in, which opens the account here.
   */
  async function signedIn(site: string): Promise<SignedIn> {
    const email = `scale-${randomUUID()}@example.com`;
    const signUp = await fetch(
      `http://${AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
      },
    );
    expect(signUp.status, await signUp.clone().text()).toBe(200);
    const res = await fetch(`${site}/api/app/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: email, password: PASSWORD }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const json = (await res.json()) as { userid: string; accessToken: string };
    return { userId: json.userid, accessToken: json.accessToken, refreshToken: refreshCookieOf(res) };
  }

  /** A key of an account, moved to `planCode` and verified, stored with the instances' secret. */
  async function keyFor(userId: string, planCode: string): Promise<{ key: string; keyId: string }> {
    await database.db.update(users).set({ planCode, emailVerified: true }).where(eq(users.id, userId));
    const issued = await createApiKey(database.db, userId, { secret: SECRET });
    if (issued === null) throw new Error('no key was issued');
    return { key: issued.key, keyId: issued.id };
  }

  /** A key of a new verified account on `planCode` that never signs in. */
  async function keyOn(planCode: string): Promise<{ key: string; keyId: string }> {
    const id = randomUUID();
    const [user] = await database.db
      .insert(users)
      .values({
        firebaseUid: `scale-${id}`,
        email: `${id}@example.com`,
        username: `scale-${id.slice(0, 8)}`,
        planCode,
        emailVerified: true,
      })
      .returning({ id: users.id });
    return keyFor(user?.id ?? '', planCode);
  }

  /**
   * Restarts each instance in turn, as an orchestrator rolls out a release (SIGTERM, start again, back in
   * the balancer), while `workers` callers each ask for the next of `urls` every 20 ms; answers how the
   * requests ended, by status or failure.
   */
  async function rollingRestart(
    instances: readonly Instance[],
    balancer: RoundRobinProxy,
    urls: readonly string[],
    workers: number,
  ): Promise<Map<string, number>> {
    const outcomes = new Map<string, number>();
    let running = true;
    const worker = async (first: number): Promise<void> => {
      for (let call = first; running; call += 1) {
        const outcome = await fetch(urls[call % urls.length] ?? '', { redirect: 'manual' })
          .then(async (res) => {
            await res.arrayBuffer();
            return String(res.status);
          })
          .catch((error: unknown) => `failed: ${error instanceof Error ? error.message : String(error)}`);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const load = Promise.all(Array.from({ length: workers }, (_, index) => worker(index)));
    try {
      for (const [index, instance] of instances.entries()) {
        expect(await instance.stop(), instance.output).toBe(0);
        await instance.start();
        await expect.poll(() => balancer.readiness()[index], { timeout: 10_000 }).toBe(true);
      }
    } finally {
      running = false;
      await load;
    }
    return outcomes;
  }

  /** One site instance's own address (not the balancer's). */
  function siteAt(index: number): string {
    return `http://127.0.0.1:${String(sites[index]?.port)}`;
  }

  /** One data API instance's own address. */
  function dataApiAt(index: number): string {
    return `http://127.0.0.1:${String(dataApis[index]?.port)}`;
  }

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    env = {
      DATABASE_URL: DATABASE_URL ?? '',
      DATABASE_SCHEMA: schema,
      REDIS_URL: 'redis://127.0.0.1:6379',
      APP_SECRET: SECRET,
      FIREBASE_AUTH_EMULATOR_HOST: AUTH_EMULATOR_HOST,
      STATUS_PROBE_INTERVAL_MS: '2000',
      SHUTDOWN_DRAIN_MS: '1000',
      HOST: '127.0.0.1',
    };
    await prepareInstanceSchema(env);
    database = openDatabase({ url: DATABASE_URL, schema, migrationsDir: path.resolve('db/migrations') });
    await database.db.insert(pricePlans).values([
      {
        code: LIMITED.code,
        name: 'Scale-out limited',
        planType: 'commercial',
        billingInterval: 'month',
        priceCents: 0,
        callsPerMinute: LIMITED.perMinute,
        callsPerDay: null,
        dataTier: 4,
        historyYears: null,
        active: false,
      },
      {
        code: UNLIMITED,
        name: 'Scale-out unlimited',
        planType: 'commercial',
        billingInterval: 'month',
        priceCents: 0,
        callsPerMinute: null,
        callsPerDay: null,
        dataTier: 4,
        historyYears: null,
        active: false,
      },
    ]);
    const [apiA, apiB, siteA, siteB] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    dataApis = [new Instance('data-api', apiA, env), new Instance('data-api', apiB, env)];
    sites = [siteA, siteB].map((port) => new Instance('site', port, { ...env, DATA_API_PORT: String(apiA) }));
    await Promise.all([...dataApis, ...sites].map((instance) => instance.start()));
    dataProxy = new RoundRobinProxy([apiA, apiB], '/readyz');
    dataApiUrl = await dataProxy.start();
    siteProxy = new RoundRobinProxy([siteA, siteB], '/api/readyz');
    siteUrl = await siteProxy.start();
    await expect.poll(() => dataProxy.readiness().every(Boolean), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => siteProxy.readiness().every(Boolean), { timeout: 10_000 }).toBe(true);
  });

  test.afterAll(async () => {
    await Promise.all([dataProxy.stop(), siteProxy.stop()]);
    await Promise.all([...dataApis, ...sites].map((instance) => instance.stop().catch(() => undefined)));
    await database.close();
    await dropInstanceSchema(env);
  });

  test('a key’s per-minute budget is exact across both data API instances, and the dashboard shows every call answered', async () => {
    const developer = await signedIn(siteAt(0));
    const { key } = await keyFor(developer.userId, LIMITED.code);
    const statuses: number[] = [];
    for (let call = 0; call <= LIMITED.perMinute; call += 1) {
      const res = await fetch(`${dataApiUrl}/stable/quote?symbol=AAPL&apikey=${key}`);
      statuses.push(res.status);
    }
    // Round-robin: the calls alternate between the instances, which count in one Redis budget.
    expect(statuses.slice(0, LIMITED.perMinute)).toEqual(Array<number>(LIMITED.perMinute).fill(200));
    expect(statuses[LIMITED.perMinute]).toBe(429);
    // Each instance meters its own calls in batches; together they add up to the calls answered, which the
    // dashboard reads through the other site instance than the one the developer signed in through.
    await expect
      .poll(
        async () => {
          const res = await fetch(`${siteAt(1)}/api/portal/user/api-usage?days=1`, {
            headers: { authorization: `Bearer ${developer.accessToken}` },
          });
          const { usage } = (await res.json()) as { usage: { endpoint: string; calls: number }[] };
          return usage.map((row) => `${row.endpoint}: ${String(row.calls)}`);
        },
        { timeout: 20_000 },
      )
      .toEqual([`quote: ${String(LIMITED.perMinute)}`]);
  });

  test('a session signed in through one site instance refreshes through the other, and an account blocked through one is refused everywhere', async () => {
    const developer = await signedIn(siteAt(0));
    const refreshed = await refreshThrough(siteAt(1), developer.refreshToken);
    expect(refreshed.status).toBe(200);
    // The rotated refresh token carries on through the first instance.
    const rotated = refreshCookieOf(refreshed);
    const again = await refreshThrough(siteAt(0), rotated);
    expect(again.status).toBe(200);
    const session = {
      accessToken: ((await again.json()) as { accessToken: string }).accessToken,
      refreshToken: refreshCookieOf(again),
    };

    // Both data API instances have answered the key, so each holds its verdict.
    const { key } = await keyFor(developer.userId, UNLIMITED);
    const quoteAt = (index: number): Promise<string> =>
      fetch(`${dataApiAt(index)}/stable/quote?symbol=AAPL&apikey=${key}`).then(async (res) =>
        res.status === 200 ? '200' : `${String(res.status)} ${JSON.stringify(await res.json())}`,
      );
    expect([await quoteAt(0), await quoteAt(1)]).toEqual(['200', '200']);

    const staff = await signedIn(siteAt(1));
    await database.db.update(users).set({ role: 'admin' }).where(eq(users.id, staff.userId));
    const blocked = await fetch(`${siteAt(0)}/api/admin/users/${developer.userId}/block`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${staff.accessToken}` },
      body: JSON.stringify({ reason: 'Scale-out story: the account is blocked.' }),
    });
    expect(blocked.status, await blocked.clone().text()).toBe(200);

    // Neither site instance refreshes the session or honours its access token.
    for (const index of [0, 1]) {
      expect(
        (await refreshThrough(siteAt(index), session.refreshToken)).status,
        `site ${String(index)}`,
      ).toBe(401);
      const usage = await fetch(`${siteAt(index)}/api/portal/user/api-usage?days=1`, {
        headers: { authorization: `Bearer ${session.accessToken}` },
      });
      expect(usage.status, `site ${String(index)}`).toBe(403);
    }
    // Both data API instances refuse the key well within a minute: word of the block reaches them through
    // Redis, before their cached verdicts (30 s) run out.
    await expect
      .poll(async () => [await quoteAt(0), await quoteAt(1)], { timeout: 10_000 })
      .toEqual(Array<string>(2).fill(`403 ${JSON.stringify({ 'Error Message': BLOCKED_KEY_MESSAGE })}`));
  });

  test('a stream subscriber on each data API instance receives the same ticks', async () => {
    const { key } = await keyOn(UNLIMITED);
    const listen = (port: number): Promise<Map<number, number>> =>
      new Promise((resolve, reject) => {
        const ticks = new Map<number, number>();
        const socket = new WebSocket(`ws://127.0.0.1:${String(port)}/websockets/crypto`);
        socket.on('open', () => {
          socket.send(JSON.stringify({ event: 'login', data: { apiKey: key } }));
          socket.send(JSON.stringify({ event: 'subscribe', data: { ticker: ['btcusd'] } }));
        });
        socket.on('message', (data: Buffer) => {
          const message = JSON.parse(data.toString()) as { type?: string; t?: number; lp?: number };
          if (message.type === 'T' && message.t !== undefined && message.lp !== undefined)
            ticks.set(message.t, message.lp);
        });
        socket.on('error', reject);
        setTimeout(() => {
          socket.close();
          resolve(ticks);
        }, 4_000);
      });
    const [first, second] = await Promise.all(dataApis.map((instance) => listen(instance.port)));
    const shared = [...(first ?? new Map<number, number>()).keys()].filter((t) => second?.has(t));
    expect(shared.length).toBeGreaterThanOrEqual(2);
    for (const t of shared) expect(second?.get(t), `tick at ${String(t)}`).toBe(first?.get(t));
  });

  test('the status probes run once per interval, not once per site instance', async () => {
    // Both site instances have probed every 2 s since they started; a round runs where its lock is taken.
    const rows = await database.db
      .selectDistinct({ at: statusChecks.checkedAt })
      .from(statusChecks)
      .where(eq(statusChecks.component, 'site'))
      .orderBy(statusChecks.checkedAt);
    const rounds = rows.map((row) => row.at.getTime());
    expect(rounds.length).toBeGreaterThanOrEqual(3);
    const gaps = rounds.slice(1).map((at, index) => at - (rounds[index] ?? at));
    expect(Math.min(...gaps), `gaps between rounds: ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(1_700);
  });

  test('a rolling restart of the data API under steady load loses no request', async () => {
    test.setTimeout(180_000);
    const { key } = await keyOn(UNLIMITED);
    const outcomes = await rollingRestart(
      dataApis,
      dataProxy,
      [`${dataApiUrl}/stable/quote?symbol=MSFT&apikey=${key}`],
      4,
    );
    expect(Object.fromEntries(outcomes)).toEqual({ '200': outcomes.get('200') });
    expect(outcomes.get('200') ?? 0).toBeGreaterThan(50);
  });

  test('a rolling restart of the site under steady load loses no page and no API answer', async () => {
    test.setTimeout(180_000);
    const urls = ['/', '/developer/docs/', '/api/status'].map((path) => `${siteUrl}${path}`);
    const outcomes = await rollingRestart(sites, siteProxy, urls, 3);
    expect(Object.fromEntries(outcomes)).toEqual({ '200': outcomes.get('200') });
    expect(outcomes.get('200') ?? 0).toBeGreaterThan(30);
  });
});
