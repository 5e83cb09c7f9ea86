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

/** The data API on its default port, on the host the test's requests name. */
const LOCAL_DATA_API = 'http://localhost:4322';

describe('client configuration', () => {
  it('tells the browser which Auth emulator the server uses', async () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:9699';
    const res = await accountsApp.request(CONFIG_URL);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      authEmulatorUrl: 'http://127.0.0.1:9699',
      dataApiUrl: LOCAL_DATA_API,
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers null when the server uses the real identity provider', async () => {
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    const res = await accountsApp.request(CONFIG_URL);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ authEmulatorUrl: null, dataApiUrl: LOCAL_DATA_API });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('tells the browser where to reach the data API: the published address, else its port on the page’s host', async () => {
    delete process.env.PUBLIC_DATA_API_URL;
    process.env.DATA_API_PORT = '4552';
    const local = await accountsApp.request(CONFIG_URL);
    expect(((await local.json()) as { dataApiUrl: string }).dataApiUrl).toBe('http://localhost:4552');
    process.env.PUBLIC_DATA_API_URL = 'https://data.example.com/';
    const published = await accountsApp.request(CONFIG_URL);
    expect(((await published.json()) as { dataApiUrl: string }).dataApiUrl).toBe('https://data.example.com');
  });
});
