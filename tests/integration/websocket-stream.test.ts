import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { closeServer, startDataApi } from '../../src/server/app/serve.ts';
import { BLOCKED_KEY_MESSAGE, INVALID_KEY_MESSAGE } from '../../src/server/data-api/access.ts';
import { createDataApi, type DataApi } from '../../src/server/data-api/app.ts';
import { DATA_TIERS } from '../../src/server/services/market-data/plan-access.ts';
import {
  HARNESS_SECRET,
  openDataApiHarness,
  stableAnswer,
  updateAccount,
  type DataApiHarness,
} from './data-api-harness.ts';

type Message = Record<string, unknown>;

/** A `ws` client that keeps every message (raw text too) and can wait for the next one that matches. */
class Client {
  readonly ws: WebSocket;
  readonly texts: string[] = [];
  readonly messages: Message[] = [];
  /** Messages that came as binary frames (a browser would see a Blob instead of text). */
  binaryFrames = 0;
  private readonly waiters: {
    from: number;
    match: (message: Message) => boolean;
    resolve: (message: Message) => void;
  }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) this.binaryFrames += 1;
      const text = data.toString('utf8');
      const message = JSON.parse(text) as Message;
      this.texts.push(text);
      this.messages.push(message);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(message)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
      });
    });
  }

  send(event: string, data: unknown): void {
    this.ws.send(JSON.stringify({ event, data }));
  }

  /** The first message from index `from` on that matches, waiting for it if need be. */
  next(match: (message: Message) => boolean, from = 0): Promise<Message> {
    const seen = this.messages.slice(from).find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ from, match, resolve }));
  }

  /** Sends a control event and waits for its answer. */
  async ask(event: string, data: unknown): Promise<Message> {
    const from = this.messages.length;
    this.send(event, data);
    return this.next((message) => message.event === event, from);
  }
}

let h: DataApiHarness;
let api: DataApi;
let server: Server;
let base: string;
let commercialKey: string;
let powerKey: string;
let professionalKey: string;
let starterKey: string;
const clients: Client[] = [];

async function connect(stream: string): Promise<Client> {
  const ws = new WebSocket(`${base}/websockets/${stream}`);
  const client = new Client(ws);
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => {
      resolve();
    });
    ws.once('error', reject);
  });
  return client;
}

async function loggedIn(stream: string, key: string): Promise<Client> {
  const client = await connect(stream);
  const answer = await client.ask('login', { apiKey: key });
  expect(answer).toMatchObject({ event: 'login', status: 200, message: 'Authenticated' });
  return client;
}

const FRIDAY_CLOSE = Date.parse('2026-11-20T21:00:00Z');
const FRIDAY_MIDDAY = Date.parse('2026-11-20T17:00:00Z');

beforeAll(async () => {
  h = await openDataApiHarness();
  api = createDataApi({
    database: () => Promise.resolve(h.db),
    store: h.store,
    now: () => h.clock.now,
    secret: HARNESS_SECRET,
    flushIntervalMs: 60_000,
    streams: {
      tickIntervalMs: 50,
      recheckIntervalMs: 100,
      maxBufferedBytes: 64 * 1024,
      allowances: {
        [DATA_TIERS.professional]: { symbolsPerConnection: 3, connectionsPerKey: 2 },
        [DATA_TIERS.global]: { symbolsPerConnection: 200, connectionsPerKey: 5 },
        [DATA_TIERS.commercial]: { symbolsPerConnection: 1_000, connectionsPerKey: 20 },
      },
    },
  });
  const started = await startDataApi('127.0.0.1', 0, api);
  server = started.server;
  base = `ws://127.0.0.1:${String(started.port)}`;
  [commercialKey, powerKey, professionalKey, starterKey] = await Promise.all([
    h.keyFor('commercialEnterprise'),
    h.keyFor('monthlyT3'),
    h.keyFor('monthlyT2'),
    h.keyFor('starterT1'),
  ]);
});

afterAll(async () => {
  for (const client of clients) client.ws.terminate();
  api.streams.close();
  await closeServer(server, 1_000);
  await api.close();
  await h.close();
});

describe('websocket streams', () => {
  it('logs in, subscribes, sends a snapshot equal to the quote of the same instant, ticks as the market moves, and stops after unsubscribing', async () => {
    h.clock.now = FRIDAY_CLOSE;
    const client = await loggedIn('crypto', powerKey);
    const subscribed = await client.ask('subscribe', { ticker: ['btcusd'] });
    expect(subscribed).toMatchObject({ event: 'subscribe', status: 200, message: 'Subscribed to btcusd' });
    const trade = await client.next((message) => message.type === 'T');
    const quote = await client.next((message) => message.type === 'Q');
    const { rows } = await stableAnswer(h, 'quote', { symbol: 'BTCUSD' }, commercialKey);
    expect(trade).toEqual({
      s: 'btcusd',
      t: FRIDAY_CLOSE,
      type: 'T',
      ap: null,
      as: null,
      bp: null,
      bs: null,
      lp: rows[0]?.price,
      ls: trade.ls,
    });
    expect(quote.bp as number).toBeLessThan(trade.lp as number);
    expect(quote.ap as number).toBeGreaterThan(trade.lp as number);

    h.clock.now = FRIDAY_CLOSE + 1_000;
    const moved = await client.next((message) => message.type === 'T' && message.t === FRIDAY_CLOSE + 1_000);
    expect(moved.lp).not.toBe(trade.lp);

    const unsubscribed = await client.ask('unsubscribe', { ticker: 'btcusd' });
    expect(unsubscribed).toMatchObject({ status: 200, message: 'Unsubscribed from btcusd' });
    const count = client.texts.length;
    h.clock.now = FRIDAY_CLOSE + 2_000;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.texts.length).toBe(count);
    client.ws.close();
  });

  it('sends the snapshot and the ticks as text frames, as a browser reads them', async () => {
    h.clock.now = FRIDAY_CLOSE;
    const client = await loggedIn('crypto', powerKey);
    await client.ask('subscribe', { ticker: ['btcusd', 'ethusd'] });
    await client.next((message) => message.type === 'T' && message.s === 'ethusd');
    h.clock.now = FRIDAY_CLOSE + 1_000;
    await client.next((message) => message.type === 'Q' && message.t === FRIDAY_CLOSE + 1_000);
    expect(client.texts.length).toBeGreaterThan(5);
    expect(client.binaryFrames).toBe(0);
    client.ws.close();
  });

  it('stamps stock ticks in nanoseconds and sends nothing more while the US market is closed', async () => {
    h.clock.now = FRIDAY_MIDDAY;
    const client = await loggedIn('stocks', professionalKey);
    await client.ask('subscribe', { ticker: 'aapl' });
    await client.next((message) => message.type === 'T');
    expect(client.texts.some((text) => text.includes(`"t":${String(FRIDAY_MIDDAY)}000000,`))).toBe(true);
    h.clock.now = FRIDAY_CLOSE + 60_000;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const count = client.texts.length;
    h.clock.now = FRIDAY_CLOSE + 120_000;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.texts.length).toBe(count);
    client.ws.close();
  });

  it('keeps the stocks stream quiet on a NYSE holiday and from 13:00 New York on an early close', async () => {
    // 2026-11-26 is Thanksgiving; the day after, the NYSE closes at 13:00 (18:00 UTC).
    const earlyClose = Date.parse('2026-11-27T18:00:00Z');
    const quietAfter = async (at: number): Promise<void> => {
      h.clock.now = at;
      await new Promise((resolve) => setTimeout(resolve, 200));
      const count = client.texts.length;
      h.clock.now = at + 60_000;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(client.texts.length).toBe(count);
    };
    h.clock.now = earlyClose - 60_000;
    const client = await loggedIn('stocks', professionalKey);
    await client.ask('subscribe', { ticker: 'aapl' });
    await client.next((message) => message.type === 'T');
    h.clock.now = earlyClose - 30_000;
    await expect
      .poll(() => client.texts.some((text) => text.includes(`"t":${String(earlyClose - 30_000)}000000,`)))
      .toBe(true);
    await quietAfter(earlyClose);
    await quietAfter(Date.parse('2026-11-26T16:00:00Z'));
    client.ws.close();
  });

  it('refuses an invalid key and closes the connection with 1008', async () => {
    const client = await connect('stocks');
    const answer = await client.ask('login', { apiKey: 'not-a-key' });
    expect(answer).toMatchObject({ event: 'login', status: 401, message: INVALID_KEY_MESSAGE });
    expect((await client.closed).code).toBe(1008);
  });

  it('refuses a plan below the stream with a 402 naming the plan that includes it', async () => {
    const stocks = await connect('stocks');
    const refused = await stocks.ask('login', { apiKey: starterKey });
    expect(refused.status).toBe(402);
    expect(refused.message).toMatch(
      /^Your Starter plan does not cover the stocks stream\. It is included in the .+ plan and above/,
    );
    expect((await stocks.closed).code).toBe(1008);
    const crypto = await connect('crypto');
    const alsoRefused = await crypto.ask('login', { apiKey: professionalKey });
    expect(alsoRefused.status).toBe(402);
    expect(alsoRefused.message).toContain('does not cover the crypto stream');
  });

  it('refuses a subscription before login, an unknown ticker and more tickers than the plan streams', async () => {
    const client = await connect('stocks');
    expect(await client.ask('subscribe', { ticker: 'aapl' })).toMatchObject({ status: 401 });
    await client.ask('login', { apiKey: professionalKey });
    expect(await client.ask('subscribe', { ticker: 'nosuch' })).toMatchObject({
      status: 404,
      message: 'Unknown ticker on the stocks stream: nosuch.',
    });
    expect(await client.ask('subscribe', { ticker: 'btcusd' })).toMatchObject({ status: 404 });
    expect(await client.ask('subscribe', { ticker: ['aapl', 'msft'] })).toMatchObject({ status: 200 });
    const refused = await client.ask('subscribe', { ticker: ['amzn', 'tsla'] });
    expect(refused).toMatchObject({
      status: 429,
      message: 'Your Professional plan streams at most 3 tickers per connection; this one has 2.',
    });
    client.ws.close();
  });

  it('refuses a connection beyond the plan allowance with 1013', async () => {
    const first = await loggedIn('stocks', professionalKey);
    const second = await loggedIn('stocks', professionalKey);
    const third = await connect('stocks');
    const refused = await third.ask('login', { apiKey: professionalKey });
    expect(refused.status).toBe(429);
    expect((await third.closed).code).toBe(1013);
    first.ws.close();
    second.ws.close();
  });

  it('meters a login as a call of the stream endpoint', async () => {
    const key = await h.keyFor('monthlyT3');
    const before = api.meter.pendingCalls;
    const client = await loggedIn('forex', key);
    expect(api.meter.pendingCalls).toBe(before + 1);
    client.ws.close();
  });

  it('disconnects a key whose account is blocked once its verdict expires', async () => {
    h.clock.now = FRIDAY_CLOSE;
    const key = await h.keyFor('monthlyT3');
    const client = await loggedIn('crypto', key);
    await updateAccount(h.db, h.userOf(key), { blocked: true });
    h.clock.now = FRIDAY_CLOSE + 61_000;
    const refusal = await client.next((message) => message.status === 403);
    expect(refusal).toMatchObject({ event: 'login', message: BLOCKED_KEY_MESSAGE });
    expect((await client.closed).code).toBe(1008);
  });

  it('closes a consumer that stops reading once its backlog passes the bound', async () => {
    h.clock.now = FRIDAY_MIDDAY;
    const client = await loggedIn('stocks', commercialKey);
    const onStream = new Set(['stock', 'etf', 'index', 'commodity', 'fund']);
    const tickers = (await api.directory.get())
      .all()
      .filter((security) => onStream.has(security.assetType))
      .map((security) => security.symbol.toLowerCase());
    client.ws.pause();
    // Each round's subscribe answers a snapshot of every ticker; rounds go in batches the server can queue.
    for (let batch = 0; batch < 6 && api.streams.size > 0; batch += 1) {
      for (let round = 0; round < 200; round += 1) {
        client.send('subscribe', { ticker: tickers });
        client.send('unsubscribe', { ticker: tickers });
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    // The server gives up on the connection without waiting for the client to read; reading again, the
    // client finds the close frame behind the backlog.
    const deadline = Date.now() + 50_000;
    while (api.streams.size > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.streams.size).toBe(0);
    client.ws.resume();
    const closed = await client.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toMatch(/^Consumer too slow/);
  }, 60_000);

  it('says going away (1001) to every client when the server stops', async () => {
    const client = await loggedIn('crypto', powerKey);
    api.streams.close();
    expect((await client.closed).code).toBe(1001);
  });
});
