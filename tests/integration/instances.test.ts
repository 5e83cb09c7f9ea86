import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { instanceRefusal } from '../../src/server/app/config.ts';
import { freePort } from './free-port.ts';

/*
 * The process model of a scaled-out deployment: `npm run serve:data-api` and `npm run serve:site` start one
 * instance each, configured by the environment alone, on a shared PostgreSQL database. The processes are
 * started for real (node scripts/serve.ts) against the machine's PostgreSQL.
 */

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(args: string[], env: Record<string, string>): Started {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

async function waitFor(
  check: () => boolean | Promise<boolean>,
  withinMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('an instance started beside others', () => {
  it('refuses the embedded database, which serves one process, naming what to set', async () => {
    for (const role of ['site', 'data-api'] as const) {
      const started = run(['scripts/serve.ts', role], { DATABASE_URL: '' });
      expect(await started.exited).toBe(1);
      expect(started.output()).toContain(`npm run serve:${role} runs one instance beside others`);
      expect(started.output()).toContain('set DATABASE_URL');
    }
  });

  it('refuses a demo identity project without the shared Auth emulator', () => {
    const refusal = instanceRefusal('site', {
      DATABASE_URL: 'postgres://127.0.0.1:5432/app',
      FIREBASE_PROJECT_ID: 'demo-marketdata',
    });
    expect(refusal).toContain('set FIREBASE_AUTH_EMULATOR_HOST');
    expect(
      instanceRefusal('data-api', {
        DATABASE_URL: 'postgres://127.0.0.1:5432/app',
        FIREBASE_PROJECT_ID: 'demo-marketdata',
        FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
      }),
    ).toBeUndefined();
  });
});

describe.skipIf(testDatabaseUrl === undefined)('data API instances on PostgreSQL', () => {
  const url = testDatabaseUrl ?? '';
  const schema = `instances_${randomBytes(6).toString('hex')}`;
  let env: Record<string, string>;

  beforeAll(async () => {
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`create schema ${schema}`);
    await admin.end();
    env = {
      DATABASE_URL: url,
      DATABASE_SCHEMA: schema,
      FIREBASE_AUTH_EMULATOR_HOST: inject('authEmulatorHost'),
      REDIS_URL: '',
    };
  });

  afterAll(async () => {
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('migrates one database from two processes at once, each finishing without an error', async () => {
    const first = run(['scripts/db-migrate.ts'], env);
    const second = run(['scripts/db-migrate.ts'], env);
    expect([await first.exited, await second.exited], first.output() + second.output()).toEqual([0, 0]);
    expect(first.output()).toContain('Migrations applied to DATABASE_URL');
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    const [row] = await admin.unsafe<{ n: number }[]>(
      `select count(*)::int as n from information_schema.tables where table_schema = '${schema}' and table_name = 'users'`,
    );
    await admin.end();
    expect(row?.n).toBe(1);
  });

  it('says it is ready once it serves, and not ready while it drains on SIGTERM, before its port closes', async () => {
    const port = await freePort();
    const instance = run(['scripts/serve.ts', 'data-api'], {
      ...env,
      DATA_API_PORT: String(port),
      SHUTDOWN_DRAIN_MS: '1500',
    });
    const readyz = `http://127.0.0.1:${String(port)}/readyz`;
    try {
      await waitFor(() => instance.output().includes('Data API instance ready'), 60_000, 'the instance');
      const ready = await fetch(readyz);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { status: string }).status).toBe('ok');

      instance.child.kill('SIGTERM');
      await waitFor(
        async () => (await fetch(readyz).catch(() => undefined))?.status === 503,
        5_000,
        'readiness to fail',
      );
      const draining = await fetch(readyz);
      expect(draining.status).toBe(503);
      expect(((await draining.json()) as { reason: string }).reason).toContain('draining');
      // Still answering other requests while it drains.
      expect((await fetch(`http://127.0.0.1:${String(port)}/livez`)).status).toBe(200);

      expect(await instance.exited).toBe(0);
      await expect(fetch(readyz)).rejects.toThrow();
    } finally {
      if (instance.child.exitCode === null) instance.child.kill('SIGKILL');
    }
  }, 90_000);
});
