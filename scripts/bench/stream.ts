import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import path from 'node:path';
import WebSocket from 'ws';
import { closeServer, startDataApi } from '../../src/server/app/serve.ts';
import { createDataApi } from '../../src/server/data-api/app.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema.ts';
import { createApiKey } from '../../src/server/services/api-keys.ts';
import { DATA_TIERS } from '../../src/server/services/market-data/plan-access.ts';
import { seedDemoData } from '../../src/server/services/market-data/seed/index.ts';
import { fixed, percentile } from './stats.ts';

/**
 * The websocket streams' fan-out: SUBSCRIBERS clients on one data API process, each logged in and subscribed
 * to the crypto stream's BTCUSD and ETHUSD (crypto trades round the clock, so the ticks flow whatever the
 * hour), for a few seconds of ticks. The delay of a message is its receipt minus its tick's time (`t`); the
 * verdict is on the p99 against the 50 ms target. Clients and server share this process (and its CPU), as
 * a worst case. The demo data is the small set on a throwaway in-memory PGlite; the key's plan allowance is
 * raised so one key may hold every connection (the allowances are not what is measured).
 * Runnable alone: `node scripts/bench/stream.ts`.
 */

export const STREAM_SUBSCRIBERS = 1_000;
/** The slowest a tick may reach its subscribers (p99), in milliseconds. */
export const STREAM_TARGET_MS = 50;
const SECRET = 'bench-stream-secret-0123456789abcdef0123';
const MEASURE_MS = 5_000;

export interface StreamResult {
  subscribers: number;
  messages: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  pass: boolean;
}

async function openClient(
  url: string,
  key: string,
  delays: number[],
  measuring: () => boolean,
): Promise<WebSocket> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (data: Buffer) => {
      const received = Date.now();
      const message = JSON.parse(data.toString('utf8')) as { event?: string; status?: number; t?: number };
      if (message.event === 'login') {
        if (message.status !== 200) reject(new Error(`login refused: ${JSON.stringify(message)}`));
        else ws.send(JSON.stringify({ event: 'subscribe', data: { ticker: ['btcusd', 'ethusd'] } }));
      } else if (message.event === 'subscribe') {
        if (message.status === 200) resolve();
        else reject(new Error(`subscribe refused: ${JSON.stringify(message)}`));
      } else if (message.t !== undefined && measuring()) {
        delays.push(received - message.t);
      }
    });
    ws.once('open', () => {
      ws.send(JSON.stringify({ event: 'login', data: { apiKey: key } }));
    });
  });
  return ws;
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
  const clients: WebSocket[] = [];
  try {
    const started = await startDataApi('127.0.0.1', 0, api);
    server = started.server;
    const url = `ws://127.0.0.1:${String(started.port)}/websockets/crypto`;
    const delays: number[] = [];
    let measuring = false;
    for (let index = 0; index < subscribers; index += 50) {
      const batch = Array.from({ length: Math.min(50, subscribers - index) }, () =>
        openClient(url, issued.key, delays, () => measuring),
      );
      clients.push(...(await Promise.all(batch)));
    }
    measuring = true;
    await new Promise((resolve) => setTimeout(resolve, MEASURE_MS));
    measuring = false;
    const sorted = Float64Array.from(delays).sort();
    const p99 = percentile(sorted, 99);
    return {
      subscribers,
      messages: sorted.length,
      p50Ms: percentile(sorted, 50),
      p99Ms: p99,
      maxMs: sorted.at(-1) ?? 0,
      pass: sorted.length > 0 && p99 <= STREAM_TARGET_MS,
    };
  } finally {
    for (const client of clients) client.terminate();
    api.streams.close();
    if (server !== undefined) await closeServer(server, 1_000);
    await api.close();
    await database.close();
  }
}

/** The section's lines: what was measured and the verdict. */
export function streamReport(result: StreamResult): string {
  return [
    `Websocket streams: ${String(result.subscribers)} subscribers of btcusd and ethusd on one process, ${String(MEASURE_MS / 1000)} s of ticks (target: p99 delivery at most ${String(STREAM_TARGET_MS)} ms)`,
    '',
    `messages ${String(result.messages)}  p50 ${fixed(result.p50Ms, 1)} ms  p99 ${fixed(result.p99Ms, 1)} ms  max ${fixed(result.maxMs, 1)} ms  ${result.pass ? 'PASS' : 'MISS'}`,
  ].join('\n');
}

if (import.meta.main) {
  console.log(streamReport(await measureStreamDelivery()));
}
