import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import postgres from 'postgres';
import { DatabaseRelay } from '../integration/database-relay.ts';

// The production site on PostgreSQL through a relay that can be cut, as when the database goes
// away: the symbol pages must answer a retryable 503 with the site's own page, and come back
// without a restart once the database does.

const testDatabaseUrl = process.env.TEST_DATABASE_URL;
const ports = { site: 4381, dataApi: 4382, emulator: 9731 };
const site = `http://127.0.0.1:${ports.site}`;

test.describe('symbol pages during a database outage', () => {
  test.skip(testDatabaseUrl === undefined, 'needs PostgreSQL (TEST_DATABASE_URL)');
  test.describe.configure({ timeout: 180_000 });

  const url = new URL(testDatabaseUrl ?? 'postgres://127.0.0.1:5432/unused');
  const relay = new DatabaseRelay(url.hostname, url.port === '' ? 5432 : Number(url.port));
  const schema = `outage_site_${randomBytes(6).toString('hex')}`;
  let server: ChildProcess | undefined;
  let output = '';

  async function withAdmin(statement: string): Promise<void> {
    const admin = postgres(url.href, { max: 1, onnotice: () => undefined });
    try {
      await admin.unsafe(statement);
    } finally {
      await admin.end();
    }
  }

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    await withAdmin(`create schema ${schema}`);
    await relay.restore();
    const throughRelay = new URL(url.href);
    throughRelay.hostname = '127.0.0.1';
    throughRelay.port = String(relay.port);
    server = spawn(process.execPath, ['scripts/start.ts'], {
      env: {
        ...process.env,
        PORT: String(ports.site),
        DATA_API_PORT: String(ports.dataApi),
        FIREBASE_AUTH_EMULATOR_PORT: String(ports.emulator),
        FIREBASE_AUTH_EMULATOR_HOST: '',
        DATABASE_URL: throughRelay.href,
        DATABASE_SCHEMA: schema,
        SEED_SCALE: 'test',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output, { timeout: 150_000 }).toContain('Ctrl-C stops all of them');
  });

  test.afterAll(async () => {
    const running = server;
    if (running?.exitCode === null) {
      const exited = new Promise<boolean>((resolve) => running.once('exit', () => resolve(true)));
      running.kill('SIGTERM');
      const stopped = await Promise.race([
        exited,
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000)),
      ]);
      if (!stopped) running.kill('SIGKILL');
    }
    await relay.cut();
    await withAdmin(`drop schema if exists ${schema} cascade`);
  });

  test('a visitor sees the site’s own “back shortly” page with a retry hint, and the page again once the database returns', async ({
    page,
  }) => {
    expect((await fetch(`${site}/financial-summary/AAPL`)).status).toBe(200);

    await relay.cut();
    // A page not rendered before, so no cached copy stands in for the database.
    const down = await fetch(`${site}/income-statement/MSFT`);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(down.headers.get('cache-control')).toBe('no-store');
    expect(down.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await down.text()).toContain('We’ll be right back');

    const answer = await page.goto(`${site}/chart/MSFT`);
    expect(answer?.status()).toBe(503);
    await expect(page.getByRole('heading', { level: 1, name: 'We’ll be right back' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/chart/MSFT');
    await expect(page.getByRole('navigation', { name: 'Main' }).first()).toBeVisible();

    await relay.restore();
    await expect.poll(async () => (await fetch(`${site}/chart/MSFT`)).status, { timeout: 20_000 }).toBe(200);
    await page.getByRole('link', { name: 'Try again' }).click();
    await expect(page.getByRole('region', { name: 'Price Chart' })).toBeVisible();
  });
});
