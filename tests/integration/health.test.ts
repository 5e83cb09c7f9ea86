import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { accountsApp } from '../../src/server/app/accounts-app.ts';
import { resetServingState, setServingState } from '../../src/server/app/lifecycle.ts';
import { closeDatabase, getDatabase } from '../../src/server/db/client.ts';
import { sharedDataApi } from '../../src/server/data-api/app.ts';
import {
  closeSharedRateLimitStore,
  sharedRateLimitStore,
} from '../../src/server/middleware/rate-limit-store.ts';

const saved = { ...process.env };

beforeEach(() => {
  process.env.DATA_DIR = 'memory://';
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
});

afterEach(async () => {
  await closeDatabase();
  process.env = { ...saved };
});

describe('site health', () => {
  it('says the process is alive without touching any dependency', async () => {
    process.env.DATABASE_URL = 'postgres://127.0.0.1:1/nowhere';
    const res = await accountsApp.request('/livez');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('is ready when the database and the identity provider answer', async () => {
    // Opened (and migrated) first: a first open on a busy machine can outlast the probe's time limit.
    await getDatabase();
    const res = await accountsApp.request('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', checks: { database: 'ok', identity: 'ok' } });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('is not ready while the instance starts or drains, whatever its dependencies say', async () => {
    await getDatabase();
    try {
      setServingState('starting');
      const starting = await accountsApp.request('/readyz');
      expect(starting.status).toBe(503);
      expect(((await starting.json()) as { reason: string }).reason).toContain('starting');
      setServingState('serving');
      expect((await accountsApp.request('/readyz')).status).toBe(200);
      setServingState('draining');
      setServingState('serving');
      const draining = await accountsApp.request('/readyz');
      expect(draining.status).toBe(503);
      expect(((await draining.json()) as { reason: string }).reason).toContain('draining');
      expect((await accountsApp.request('/livez')).status).toBe(200);
    } finally {
      resetServingState();
    }
  });

  it('answers 503 naming the identity provider when it is unreachable', async () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:1';
    const res = await accountsApp.request('/readyz');
    expect(res.status).toBe(503);
    const body = (await res.json()) as { status: string; reason: string; checks: Record<string, string> };
    expect(body.status).toBe('unavailable');
    expect(body.reason).toContain('Firebase Auth emulator at 127.0.0.1:1');
    expect(body.checks).toEqual({ database: 'ok', identity: 'failing' });
  });

  it('answers 503 naming the database when it cannot be reached', async () => {
    process.env.DATABASE_URL = 'postgres://127.0.0.1:1/nowhere';
    const res = await accountsApp.request('/readyz');
    expect(res.status).toBe(503);
    const body = (await res.json()) as { reason: string; checks: Record<string, string> };
    expect(body.reason).toMatch(/^database: /);
    expect(body.checks.database).toBe('failing');
  });

  it('reports the rate limits as degraded, and stays ready, while the configured Redis is down', async () => {
    process.env.REDIS_URL = 'redis://127.0.0.1:1';
    await closeSharedRateLimitStore();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const res = await accountsApp.request('/readyz');
      expect(res.status).toBe(200);
      const body = (await res.json()) as { status: string; reason: string; checks: Record<string, string> };
      expect(body.status).toBe('degraded');
      expect(body.checks).toEqual({ database: 'ok', identity: 'ok', limits: 'degraded' });
      expect(body.reason).toMatch(/^rate limits: redis:\/\/127\.0\.0\.1:1 \w+; counting in this process/);
    } finally {
      await closeSharedRateLimitStore();
      warn.mockRestore();
    }
  });

  it('reports the rate limits as ok once the configured Redis answers', async () => {
    process.env.REDIS_URL = 'redis://127.0.0.1:6379';
    await closeSharedRateLimitStore();
    try {
      const store = sharedRateLimitStore();
      await store.hit(`health-${Date.now()}`, 1000, 10);
      const res = await accountsApp.request('/readyz');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: 'ok',
        checks: { database: 'ok', identity: 'ok', limits: 'ok' },
      });
    } finally {
      await closeSharedRateLimitStore();
    }
  });

  it('answers unknown API paths with a JSON 404 that names the path', async () => {
    const res = await accountsApp.request('/no-such-thing', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'No API route for POST /no-such-thing' });
  });
});

describe('data API health', () => {
  it('is alive and ready on the embedded database', async () => {
    expect((await sharedDataApi().app.request('/livez')).status).toBe(200);
    const res = await sharedDataApi().app.request('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('answers an unknown endpoint in the FMP error shape with 404', async () => {
    const res = await sharedDataApi().app.request('/stable/no-such-endpoint');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      'Error Message':
        'Unknown endpoint /stable/no-such-endpoint. The list of endpoints is at /stable/openapi.json.',
    });
  });
});
