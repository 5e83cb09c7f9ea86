import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { count, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { accountsApp } from '../../src/server/app/accounts-app.ts';
import { closeDatabase, getDatabase, openDatabase, type Database } from '../../src/server/db/client.ts';
import { statusChecks, statusDays, users } from '../../src/server/db/schema.ts';
import { CORE_COMPONENTS, statusGroups } from '../../src/server/status/components.ts';
import { registerStatusMonitor, StatusMonitor } from '../../src/server/status/monitor.ts';
import { STATUS_ACCOUNT, statusProbes, type StatusProbe } from '../../src/server/status/probes.ts';
import { pruneChecks, readDayCounts, recordChecks, type CheckResult } from '../../src/server/status/store.ts';
import { STATUS_DAYS, type StatusAnswer } from '../../src/lib/status.ts';
import { DatabaseRelay } from './database-relay.ts';
import { HARNESS_SECRET, openDataApiHarness } from './data-api-harness.ts';
import { databaseTargets } from './databases.ts';

const COMPONENT_IDS = [
  ...CORE_COMPONENTS.map((component) => component.id),
  ...statusGroups().map((group) => group.id),
];

/** Probes that answer as `states` says (operational for components not named). */
function fakeProbes(states: Record<string, CheckResult['state']> = {}): StatusProbe[] {
  return COMPONENT_IDS.map((component) => ({
    component,
    run: () => {
      const state = states[component] ?? 'operational';
      return Promise.resolve({ state, detail: state === 'operational' ? '' : `${component} is ${state}` });
    },
  }));
}

function byId(answer: StatusAnswer, id: string) {
  const found = [...answer.components, ...answer.groups].find((item) => item.id === id);
  if (found === undefined) throw new Error(`no ${id} in the answer`);
  return found;
}

function result(
  component: string,
  checkedAt: string,
  state: CheckResult['state'] = 'operational',
): CheckResult {
  return { component, checkedAt: new Date(checkedAt), state, latencyMs: 12, detail: '' };
}

for (const target of databaseTargets()) {
  describe(`status probes and storage on ${target.name}`, () => {
    let database: Database;

    beforeAll(async () => {
      database = await target.open();
    });

    afterAll(async () => {
      registerStatusMonitor(undefined);
      await database.close();
    });

    afterEach(async () => {
      await database.db.delete(statusChecks);
      await database.db.delete(statusDays);
    });

    it('counts each stored check in its component’s UTC day, a degraded check as passed and a down one as failed', async () => {
      await recordChecks(database.db, [
        result('database', '2026-11-20T23:59:00Z'),
        result('database', '2026-11-20T23:59:30Z', 'degraded'),
        result('database', '2026-11-21T00:00:10Z', 'down'),
      ]);
      await recordChecks(database.db, [result('database', '2026-11-21T00:01:10Z')]);
      const counts = await readDayCounts(database.db, new Date('2026-11-21T12:00:00Z'));
      expect(counts.toSorted((a, b) => a.day.localeCompare(b.day))).toEqual([
        { component: 'database', day: '2026-11-20', checks: 2, passed: 2 },
        { component: 'database', day: '2026-11-21', checks: 2, passed: 1 },
      ]);
    });

    it('keeps 90 days of checks and deletes older ones', async () => {
      const now = new Date('2026-11-26T10:00:00Z');
      await recordChecks(database.db, [
        result('site', '2026-08-28T23:59:59Z'),
        result('site', '2026-08-29T00:00:00Z'),
        result('site', '2026-11-26T09:59:00Z'),
      ]);
      await pruneChecks(database.db, now);
      const kept = await database.db.select({ at: statusChecks.checkedAt }).from(statusChecks);
      expect(kept.map((row) => row.at.toISOString()).sort()).toEqual([
        '2026-08-29T00:00:00.000Z',
        '2026-11-26T09:59:00.000Z',
      ]);
      const days = await database.db.select({ day: statusDays.day }).from(statusDays);
      expect(days.map((row) => row.day).sort()).toEqual(['2026-08-29', '2026-11-26']);
    });

    it('stores a round of every component and answers each one’s state, latency and 90 daily bars', async () => {
      const monitor = new StatusMonitor({
        probes: fakeProbes({ 'group:news': 'down' }),
        database: () => Promise.resolve(database),
        intervalMs: 60_000,
      });
      expect(await monitor.runRound()).toBe('stored');
      const [stored] = await database.db.select({ n: count() }).from(statusChecks);
      expect(stored?.n).toBe(COMPONENT_IDS.length);

      const answer = await monitor.answer();
      expect(answer.components.map((item) => item.name)).toEqual([
        'Website',
        'Accounts API',
        'Data API',
        'Database',
        'Identity provider',
      ]);
      expect(answer.groups.map((item) => item.id)).toEqual(statusGroups().map((group) => group.id));
      expect(answer.state).toBe('degraded');
      expect(answer.probeIntervalMs).toBe(60_000);
      const site = byId(answer, 'site');
      expect(site.state).toBe('operational');
      expect(site.latencyMs).toEqual(expect.any(Number));
      expect(site.uptime90d).toBe(100);
      expect(site.days).toHaveLength(STATUS_DAYS);
      expect(site.days.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), checks: 1, ok: 1 });
      expect(site.days[0]).toMatchObject({ checks: 0, ok: 0 });
      expect(byId(answer, 'group:news')).toMatchObject({ state: 'down', uptime90d: 0 });
      // The public answer never carries the probes' reasons (addresses, errors).
      expect(JSON.stringify(answer)).not.toContain('is down');
    });

    it('answers GET /api/status as JSON that is never cached', async () => {
      const monitor = new StatusMonitor({
        probes: fakeProbes({ database: 'down' }),
        database: () => Promise.resolve(database),
        intervalMs: 60_000,
      });
      registerStatusMonitor(monitor);
      await monitor.runRound();
      const res = await accountsApp.request('/status');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const answer = (await res.json()) as StatusAnswer;
      expect(answer.state).toBe('down');
      expect(byId(answer, 'database').state).toBe('down');
      expect(answer.checkedAt).toEqual(byId(answer, 'database').checkedAt);
    });

    it('stops probing on a stop, after the round in flight has finished', async () => {
      let runs = 0;
      let finished = 0;
      const probes = fakeProbes().map((probe) => ({
        ...probe,
        run: async () => {
          runs += 1;
          await new Promise((resolve) => setTimeout(resolve, 300));
          finished += 1;
          return probe.run();
        },
      }));
      const monitor = new StatusMonitor({
        probes,
        database: () => Promise.resolve(database),
        intervalMs: 1_000,
      });
      monitor.start();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await monitor.stop();
      expect(finished).toBe(runs);
      expect(runs).toBe(COMPONENT_IDS.length);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(runs).toBe(COMPONENT_IDS.length);
    });

    it('counts a probe that does not answer in time as down', async () => {
      const probes = fakeProbes();
      probes[3] = { component: 'database', run: () => new Promise(() => undefined) };
      // The time limit is 5 s in service; a shorter one shows the same rule without the wait.
      const monitor = new StatusMonitor({
        probes,
        database: () => Promise.resolve(database),
        intervalMs: 60_000,
        probeTimeoutMs: 300,
      });
      await monitor.runRound();
      const answer = byId(await monitor.answer(), 'database');
      expect(answer.state).toBe('down');
      expect(answer.latencyMs).toBeGreaterThanOrEqual(290);
    });

    it('probes every endpoint group with a real call through the data pipeline on the status account’s key', async () => {
      const harness = await openDataApiHarness({ database, seed: true });
      const dataApi = createAdaptorServer({ fetch: harness.api.app.fetch }) as Server;
      const site = createAdaptorServer({
        fetch: new Hono().get('/', (c) => c.text('home')).route('/api', accountsApp).fetch,
      }) as Server;
      const listen = (server: Server) =>
        new Promise<string>((resolve) => {
          server.listen(0, '127.0.0.1', () =>
            resolve(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}`),
          );
        });
      const saved = { ...process.env };
      process.env.DATA_DIR = 'memory://';
      delete process.env.DATABASE_URL;
      process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
      try {
        const probes = statusProbes({
          siteUrl: await listen(site),
          dataApiUrl: await listen(dataApi),
          pipeline: () => harness.api.pipeline,
          database: () => Promise.resolve(database.db),
          secret: HARNESS_SECRET,
          checkDatabase: async () => {
            await database.ping();
            return { ok: true };
          },
        });
        expect(probes.map((probe) => probe.component)).toEqual(COMPONENT_IDS);
        // The accounts API's readiness asks its own (process-wide) database, which a server opens and
        // migrates as it starts; opened here first, so the probe times an answer, not a cold start.
        await getDatabase();
        const monitor = new StatusMonitor({
          probes,
          database: () => Promise.resolve(database),
          intervalMs: 60_000,
        });
        await monitor.runRound();
        const answer = await monitor.answer();
        const notWorking = [...answer.components, ...answer.groups].filter((item) => item.state === 'down');
        expect(notWorking.map((item) => item.id)).toEqual([]);
        expect(answer.state).not.toBe('unknown');
        const [account] = await database.db
          .select({ plan: users.planCode, verified: users.emailVerified })
          .from(users)
          .where(eq(users.firebaseUid, STATUS_ACCOUNT.firebaseUid));
        expect(account).toEqual({ plan: 'commercialEnterprise', verified: true });
      } finally {
        await closeDatabase();
        process.env = { ...saved };
        await Promise.all(
          [site, dataApi].map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))),
        );
        await harness.api.close();
      }
    }, 60_000);
  });
}

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(testDatabaseUrl === undefined)('status during a PostgreSQL outage', () => {
  const url = new URL(testDatabaseUrl ?? 'postgres://127.0.0.1:5432/unused');
  const relay = new DatabaseRelay(url.hostname, url.port === '' ? 5432 : Number(url.port));
  const schema = `status_${randomBytes(6).toString('hex')}`;
  let database: Database;

  async function withAdmin(statement: string): Promise<void> {
    const admin = postgres(url.href, { max: 1, onnotice: () => undefined });
    try {
      await admin.unsafe(statement);
    } finally {
      await admin.end();
    }
  }

  /** Probes that are all fine except the database, which is asked for real through the relay. */
  function probes(): StatusProbe[] {
    return fakeProbes().map((probe) =>
      probe.component === 'database'
        ? {
            component: 'database',
            run: async () => {
              try {
                await database.ping();
                return { state: 'operational', detail: '' };
              } catch (error) {
                return { state: 'down', detail: String(error) };
              }
            },
          }
        : probe,
    );
  }

  beforeAll(async () => {
    await withAdmin(`create schema ${schema}`);
    await relay.restore();
    const throughRelay = new URL(url.href);
    throughRelay.hostname = '127.0.0.1';
    throughRelay.port = String(relay.port);
    database = openDatabase({ url: throughRelay.href, schema, migrationsDir: path.resolve('db/migrations') });
    await database.migrate();
  });

  afterEach(async () => {
    await relay.restore();
  });

  afterAll(async () => {
    await relay.restore();
    await database.close();
    await relay.cut();
    await withAdmin(`drop schema if exists ${schema} cascade`);
  });

  it('shows the database down from the next round while it is cut, and stores that round once it is back', async () => {
    const logged: string[] = [];
    const monitor = new StatusMonitor({
      probes: probes(),
      database: () => Promise.resolve(database),
      intervalMs: 1_000,
      log: (line) => logged.push(line),
    });
    expect(await monitor.runRound()).toBe('stored');
    expect(byId(await monitor.answer(), 'database').state).toBe('operational');

    await relay.cut();
    expect(await monitor.runRound()).toBe('unstored');
    const during = await monitor.answer();
    expect(during.state).toBe('down');
    expect(byId(during, 'database').state).toBe('down');
    // The bars keep the days read before the outage and add the round that could not be stored.
    expect(byId(during, 'database').days.at(-1)).toMatchObject({ checks: 2, ok: 1 });

    await relay.restore();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await monitor.runRound()).toBe('stored');
    const rows = await database.db
      .select({ state: statusChecks.state })
      .from(statusChecks)
      .where(eq(statusChecks.component, 'database'))
      .orderBy(statusChecks.checkedAt);
    expect(rows.map((row) => row.state)).toEqual(['operational', 'down', 'operational']);
    expect(logged).toEqual([
      expect.stringMatching(/^\[status\] probe results cannot be stored: /),
      '[status] the probe results are stored again',
    ]);
  }, 60_000);

  it('lets one instance probe per interval when several share the database', async () => {
    await database.db.delete(statusChecks);
    const slowProbes = fakeProbes().map((probe) => ({
      ...probe,
      run: async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        return probe.run();
      },
    }));
    const first = new StatusMonitor({
      probes: slowProbes,
      database: () => Promise.resolve(database),
      intervalMs: 60_000,
    });
    const second = new StatusMonitor({
      probes: slowProbes,
      database: () => Promise.resolve(database),
      intervalMs: 60_000,
    });
    const outcomes = await Promise.all([first.runRound(), second.runRound()]);
    expect(outcomes.toSorted()).toEqual(['stored', 'taken']);
    // A round later in the same interval is left to the instance that probed.
    expect(await second.runRound()).toBe('taken');
    const [stored] = await database.db.select({ n: count() }).from(statusChecks);
    expect(stored?.n).toBe(COMPONENT_IDS.length);
    // The instance that did not probe answers from the stored round.
    expect(byId(await second.answer(), 'site').state).toBe('operational');
  }, 30_000);
});
