import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { cpus } from 'node:os';
import path from 'node:path';
import { closeServer, startDataApi } from '../../src/server/app/serve.ts';
import { createDataApi } from '../../src/server/data-api/app.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema.ts';
import { createApiKey } from '../../src/server/services/api-keys.ts';
import { DATA_TIERS } from '../../src/server/services/market-data/plan-access.ts';
import { seedDemoData } from '../../src/server/services/market-data/seed/index.ts';
import { machineBusyMs, processTreeCpuMs } from './machine.ts';
import { fixed, percentile } from './stats.ts';
import { startStreamClients, type StreamClients } from './stream-clients.ts';

/**
 * The websocket streams' fan-out: SUBSCRIBERS clients of one data API process (this one), each logged in and
 * subscribed to the crypto stream's BTCUSD and ETHUSD (crypto trades round the clock, so the ticks flow
 * whatever the hour), for a few seconds of ticks. The delay of a message is its receipt time minus its tick's
 * time (`t`, the instant the walk's step begins, which is when the server produces the tick); the verdict is
 * on the p99 against the 50 ms target. The requirement is about the server process, so the subscribers run
 * in CLIENT_PROCESSES child processes (`stream-clients.ts`): their own work does not hold up this process's
 * event loop, though they share the machine's cores with it. The demo data is the small set on a throwaway
 * in-memory PGlite; the key's plan allowance is raised so one key may hold every connection (the allowances
 * are not what is measured). The report also gives the server process's CPU time per tick round.
 * Runnable alone: `node scripts/bench/stream.ts`.
 */

export const STREAM_SUBSCRIBERS = 1_000;
/** The slowest a tick may reach its subscribers (p99), in milliseconds. */
export const STREAM_TARGET_MS = 50;
const SECRET = 'bench-stream-secret-0123456789abcdef0123';
const MEASURE_MS = 5_000;
/** Child processes the subscribers are spread over. */
const CLIENT_PROCESSES = 2;
const TICKERS = ['btcusd', 'ethusd'];

export interface StreamResult {
  subscribers: number;
  messages: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** CPU time (user and system) of the server process per second of ticks, in milliseconds. */
  serverCpuMsPerSecond: number;
  /** CPU the subscribers' processes used while measured, in percent of the machine (all cores). */
  clientsCpuPercent: number;
  /** CPU other work on the machine used while measured, in percent of the machine: it shares the cores. */
  otherCpuPercent: number;
  pass: boolean;
}

/** Seeds, starts a data API on an ephemeral port, connects the subscribers and measures a few seconds of ticks. */
export async function measureStreamDelivery(subscribers = STREAM_SUBSCRIBERS): Promise<StreamResult> {
  const database = openDatabase({
    dataDir: 'memory://',
    migrationsDir: path.resolve(import.meta.dirname, '../../db/migrations'),
  });
  await database.migrate();
  const { db } = database;
  await seedDemoData(db, { scale: 'test' });
  const [user] = await db
    .insert(users)
    .values({
      firebaseUid: `bench-${randomUUID()}`,
      email: `${randomUUID()}@example.com`,
      username: `bench-${randomUUID()}`,
      planCode: 'commercialEnterprise',
      emailVerified: true,
    })
    .returning({ id: users.id });
  if (user === undefined) throw new Error('no bench user');
  const issued = await createApiKey(db, user.id, { secret: SECRET });
  if (issued === null) throw new Error('no bench key');
  const api = createDataApi({
    database: () => Promise.resolve(db),
    secret: SECRET,
    streams: {
      allowances: {
        [DATA_TIERS.commercial]: { symbolsPerConnection: 1_000, connectionsPerKey: subscribers },
      },
    },
  });
  let server: Server | undefined;
  const clients: StreamClients[] = [];
  try {
    const started = await startDataApi('127.0.0.1', 0, api);
    server = started.server;
    const url = `ws://127.0.0.1:${String(started.port)}/websockets/crypto`;
    for (let index = 0; index < CLIENT_PROCESSES; index += 1) {
      const count =
        Math.floor(subscribers / CLIENT_PROCESSES) + (index < subscribers % CLIENT_PROCESSES ? 1 : 0);
      if (count > 0) clients.push(startStreamClients({ url, key: issued.key, tickers: TICKERS, count }));
    }
    await Promise.all(clients.map((client) => client.ready));
    const cpu = process.cpuUsage();
    const machineBefore = machineBusyMs();
    const treeBefore = processTreeCpuMs(process.pid);
    const measureStart = performance.now();
    const measured = await Promise.all(clients.map((client) => client.measure(MEASURE_MS)));
    const used = process.cpuUsage(cpu);
    const serverMs = (used.user + used.system) / 1000;
    const treeMs = processTreeCpuMs(process.pid) - treeBefore;
    const machineMs = machineBusyMs() - machineBefore;
    const elapsedMs = performance.now() - measureStart;
    const capacity = elapsedMs * cpus().length;
    const sorted = new Float64Array(measured.reduce((sum, delays) => sum + delays.length, 0));
    let offset = 0;
    for (const delays of measured) {
      sorted.set(delays, offset);
      offset += delays.length;
    }
    sorted.sort();
    const p99 = percentile(sorted, 99);
    return {
      subscribers,
      messages: sorted.length,
      p50Ms: percentile(sorted, 50),
      p99Ms: p99,
      maxMs: sorted.at(-1) ?? 0,
      serverCpuMsPerSecond: serverMs / (elapsedMs / 1000),
      clientsCpuPercent: ((treeMs - serverMs) / capacity) * 100,
      otherCpuPercent: Math.max(0, ((machineMs - treeMs) / capacity) * 100),
      pass: sorted.length > 0 && p99 <= STREAM_TARGET_MS,
    };
  } finally {
    await Promise.all(clients.map((client) => client.stop()));
    api.streams.close();
    if (server !== undefined) await closeServer(server, 1_000);
    await api.close();
    await database.close();
  }
}

/** The section's lines: what was measured and the verdict. */
export function streamReport(result: StreamResult): string {
  return [
    `Websocket streams: ${String(result.subscribers)} subscribers of ${TICKERS.join(' and ')} on one server process (the clients in ${String(CLIENT_PROCESSES)} others), ${String(MEASURE_MS / 1000)} s of ticks (target: p99 delivery at most ${String(STREAM_TARGET_MS)} ms)`,
    '',
    `messages ${String(result.messages)}  p50 ${fixed(result.p50Ms, 1)} ms  p99 ${fixed(result.p99Ms, 1)} ms  max ${fixed(result.maxMs, 1)} ms  ${result.pass ? 'PASS' : 'MISS'}`,
    `server CPU ${fixed(result.serverCpuMsPerSecond, 1)} ms per second of ticks; of the machine's ${String(cpus().length)} cores the subscribers took ${fixed(result.clientsCpuPercent, 0)} %, other work ${fixed(result.otherCpuPercent, 0)} %`,
  ].join('\n');
}

if (import.meta.main) {
  console.log(streamReport(await measureStreamDelivery()));
}
