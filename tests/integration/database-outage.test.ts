import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi, type MockInstance } from 'vitest';
import { accountsApp } from '../../src/server/app/accounts-app.ts';
import { closeDatabase } from '../../src/server/db/client.ts';
import { DatabaseRelay } from './database-relay.ts';

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

interface ErrorBody {
  error: string;
}

interface ReadinessBody {
  status: string;
  checks: Record<string, string>;
}

async function timed(url: string): Promise<{ res: Response; ms: number }> {
  const started = performance.now();
  const res = await accountsApp.request(url);
  return { res, ms: performance.now() - started };
}

/** Asks again until the answer has the status wanted or the time is up; returns the last answer. */
async function pollUntil(url: string, status: number, withinMs: number): Promise<Response> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    const res = await accountsApp.request(url);
    if (res.status === status || performance.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const PLANS = 'http://localhost:4321/portal/account/get-price-plans';
const READYZ = 'http://localhost:4321/readyz';

describe.skipIf(testDatabaseUrl === undefined)('a PostgreSQL outage', () => {
  const url = new URL(testDatabaseUrl ?? 'postgres://127.0.0.1:5432/unused');
  const relay = new DatabaseRelay(url.hostname, url.port === '' ? 5432 : Number(url.port));
  const schema = `outage_${randomBytes(6).toString('hex')}`;
  const saved = { ...process.env };
  let warn: MockInstance<typeof console.warn>;

  async function withAdmin(statement: string): Promise<void> {
    const admin = postgres(url.href, { max: 1, onnotice: () => undefined });
    try {
      await admin.unsafe(statement);
    } finally {
      await admin.end();
    }
  }

  beforeAll(async () => {
    await closeDatabase();
    await withAdmin(`create schema ${schema}`);
    await relay.restore();
    const throughRelay = new URL(url.href);
    throughRelay.hostname = '127.0.0.1';
    throughRelay.port = String(relay.port);
    process.env.DATABASE_URL = throughRelay.href;
    process.env.DATABASE_SCHEMA = schema;
    process.env.DATA_DIR = 'memory://';
    process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
    // The API logs every request refused for want of a database as a warning; keep the output readable.
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });

  afterEach(async () => {
    await relay.restore();
  });

  afterAll(async () => {
    warn.mockRestore();
    await closeDatabase();
    await relay.cut();
    process.env = { ...saved };
    await withAdmin(`drop schema if exists ${schema} cascade`);
  });

  it('answers 503 with Retry-After and fails readiness while the database is away, then recovers without a restart', async () => {
    const before = await accountsApp.request(PLANS);
    expect(before.status).toBe(200);
    expect(((await before.json()) as { plans?: unknown }).plans).toBeDefined();
    expect((await accountsApp.request(READYZ)).status).toBe(200);

    warn.mockClear();
    await relay.cut();

    const down = await timed(PLANS);
    expect(down.ms).toBeLessThan(10_000);
    expect(down.res.status).toBe(503);
    expect(down.res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(down.res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    const body = (await down.res.json()) as ErrorBody;
    expect(body.error).toEqual(expect.any(String));
    expect(body.error).not.toBe('');
    expect(warn).toHaveBeenCalled();

    const downAgain = await timed(PLANS);
    expect(downAgain.ms).toBeLessThan(10_000);
    expect(downAgain.res.status).toBe(503);

    const notReady = await timed(READYZ);
    expect(notReady.ms).toBeLessThan(10_000);
    expect(notReady.res.status).toBe(503);
    const readiness = (await notReady.res.json()) as ReadinessBody;
    expect(readiness.status).toBe('unavailable');
    expect(readiness.checks.database).toBe('failing');
    expect(readiness.checks.identity).toBe('ok');

    await relay.restore();

    const back = await pollUntil(PLANS, 200, 15_000);
    expect(back.status).toBe(200);
    expect(((await back.json()) as { plans?: unknown }).plans).toBeDefined();
    const ready = await pollUntil(READYZ, 200, 15_000);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', identity: 'ok' } });
  });

  it('keeps refusing within seconds however long the outage lasts, and serves the first request once the database is back', async () => {
    expect((await accountsApp.request(PLANS)).status).toBe(200);
    await relay.cut();

    for (let attempt = 1; attempt <= 30; attempt += 1) {
      const { res, ms } = await timed(PLANS);
      expect(res.status, `status of attempt ${attempt}`).toBe(503);
      expect(ms, `milliseconds to answer attempt ${attempt}`).toBeLessThan(3_000);
    }

    await relay.restore();
    const first = await timed(PLANS);
    expect(first.res.status).toBe(200);
    expect(first.ms).toBeLessThan(3_000);
  }, 120_000);
});
