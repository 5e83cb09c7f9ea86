import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountsApp } from '../../src/server/app/accounts-app.ts';
import { closeDatabase } from '../../src/server/db/client.ts';

const saved = { ...process.env };
const CONFIG_URL = 'http://localhost:4321/client-config';

beforeEach(() => {
  process.env.DATA_DIR = 'memory://';
  delete process.env.DATABASE_URL;
});

afterEach(async () => {
  await closeDatabase();
  process.env = { ...saved };
});

describe('client configuration', () => {
  it('tells the browser which Auth emulator the server uses', async () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:9699';
    const res = await accountsApp.request(CONFIG_URL);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ authEmulatorUrl: 'http://127.0.0.1:9699' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers null when the server uses the real identity provider', async () => {
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    const res = await accountsApp.request(CONFIG_URL);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ authEmulatorUrl: null });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
