import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import postgres from 'postgres';
import { DatabaseRelay } from '../integration/database-relay.ts';

/** Ports of a site started on its own, apart from the end-to-end site's. */
export interface SitePorts {
  site: number;
  dataApi: number;
  emulator: number;
}

/** The PostgreSQL server the outage stories use (CI sets it); they are skipped without it. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/**
 * The production site (`npm start`) on PostgreSQL through a relay that can be cut, as when the
 * database goes away, in a schema of its own. Call it inside a `test.describe`: it registers the
 * hooks that start the site before the stories and stop it (and drop the schema) after them.
 */
export function siteBehindRelay(options: {
  ports: SitePorts;
  /** Names the throwaway schema, e.g. `outage_site`. */
  schemaPrefix: string;
  /** Settings of the started site beside the ones that wire it to the relay. */
  env?: Record<string, string>;
}): { relay: DatabaseRelay; site: string } {
  const url = new URL(TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432/unused');
  const relay = new DatabaseRelay(url.hostname, url.port === '' ? 5432 : Number(url.port));
  const schema = `${options.schemaPrefix}_${randomBytes(6).toString('hex')}`;
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
        PORT: String(options.ports.site),
        DATA_API_PORT: String(options.ports.dataApi),
        FIREBASE_AUTH_EMULATOR_PORT: String(options.ports.emulator),
        FIREBASE_AUTH_EMULATOR_HOST: '',
        DATABASE_URL: throughRelay.href,
        DATABASE_SCHEMA: schema,
        SEED_SCALE: 'test',
        ...options.env,
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

  return { relay, site: `http://127.0.0.1:${String(options.ports.site)}` };
}
