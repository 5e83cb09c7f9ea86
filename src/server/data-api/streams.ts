import type { Db } from '../db/client.ts';
import type { Security } from '../db/schema.ts';
import { isoDay } from '../../lib/iso-date.ts';
import { symbolTier, type SymbolDirectory } from '../services/market-data/directory.ts';
import {
  liveMarket,
  type LiveMarket,
  type LiveTick,
  type StoredQuote,
} from '../services/market-data/live-market.ts';
import { marketKind } from '../services/market-data/market-session.ts';
import { DATA_TIERS } from '../services/market-data/plan-access.ts';
import { storedQuotes } from '../services/market-data/quotes.ts';
import type { DataCaller } from './access.ts';
import type { DataPipeline } from './pipeline.ts';

/**
 * FMP's websocket streams over the live market (demo prices): `/websockets/stocks`, `/websockets/crypto` and
 * `/websockets/forex`. A client logs in with its API key (the same key check as every REST call), subscribes
 * to tickers and receives top-of-book ("Q") and last-trade ("T") messages once a second while a symbol's
 * market trades, plus a snapshot of both when it subscribes. Knows nothing of HTTP: the server hands it
 * each accepted socket.
 */

/** The three streams, each its own path (FMP serves them from separate hosts). */
export const STREAM_NAMES = ['stocks', 'crypto', 'forex'] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

/** The lowest data tier that may open each stream: Professional streams US stocks, Power crypto and forex. */
export const STREAM_TIERS: Readonly<Record<StreamName, number>> = {
  stocks: DATA_TIERS.professional,
  crypto: DATA_TIERS.global,
  forex: DATA_TIERS.global,
};

/** How much one key may stream, by data tier: tickers per connection and connections at once. */
export interface StreamAllowance {
  symbolsPerConnection: number;
  connectionsPerKey: number;
}

/** Allowances of the tiers that stream (Professional, Power, Commercial). */
export const STREAM_ALLOWANCES: Readonly<Record<number, StreamAllowance>> = {
  [DATA_TIERS.professional]: { symbolsPerConnection: 50, connectionsPerKey: 2 },
  [DATA_TIERS.global]: { symbolsPerConnection: 200, connectionsPerKey: 5 },
  [DATA_TIERS.commercial]: { symbolsPerConnection: 1_000, connectionsPerKey: 20 },
};

/**
 * What the hub needs of a socket (the `ws` package's WebSocket has all but `cork` and `uncork`). A tick's
 * messages are sent as UTF-8 Buffers written once per round and shared by every subscriber, always as text
 * frames.
 */
export interface StreamSocket {
  readonly bufferedAmount: number;
  readonly readyState: number;
  send(data: string | Buffer, options: { binary: false }): void;
  close(code?: number, reason?: string): void;
  /**
   * Holds the socket's writes until `uncork` (the TCP socket's own cork), so a round's messages to one
   * subscriber leave in one write instead of one per message; a socket without them writes each message.
   */
  cork?(): void;
  uncork?(): void;
}

/** The options of every send: text frames, whether the data is a string or a UTF-8 Buffer. */
const TEXT = { binary: false } as const;

export interface StreamHubOptions {
  pipeline: DataPipeline;
  database: () => Promise<Db>;
  now?: (() => number) | undefined;
  market?: LiveMarket;
  /** How often subscribed symbols are priced and their changes sent (default 1 s, the walk's step). */
  tickIntervalMs?: number;
  /** How often a logged-in key is checked again (default 30 s: a blocked key stops within 60 s). */
  recheckIntervalMs?: number;
  /** How often an idle connection gets a heartbeat (default 30 s). */
  heartbeatIntervalMs?: number;
  /** How long a connection may stay without logging in (default 30 s). */
  loginTimeoutMs?: number;
  /** Bytes waiting to be sent beyond which a consumer is too slow and is closed (default 1 MiB). */
  maxBufferedBytes?: number;
  /** What each tier may stream (default STREAM_ALLOWANCES). */
  allowances?: Readonly<Record<number, StreamAllowance>>;
}

/** Close codes the streams use (RFC 6455). */
export const CLOSE_CODES = { goingAway: 1001, policy: 1008, tryAgainLater: 1013 } as const;

/** Messages of one client waiting to be handled, at most (memory stays bounded whatever a client sends). */
const MAX_QUEUED_MESSAGES = 1_000;

/** Close reasons are limited to 123 bytes. */
function closeReason(message: string): string {
  return Buffer.byteLength(message) <= 123 ? message : `${message.slice(0, 118)}…`;
}

interface ControlAnswer {
  event: string;
  status: number;
  message: string;
  timestamp: number;
}

/** A subscribed ticker: the spelling the client used and what it last received (the messages without time). */
interface SeenTicker {
  name: string;
  quote: string;
  trade: string;
}

/** What a tick round reads from the database, read ahead by the round before it. */
interface RoundInputs {
  directory: SymbolDirectory;
  /** The UTC day the stored facts are as of. */
  day: string;
  /** The symbols read, found or not. */
  symbols: ReadonlySet<string>;
  stored: ReadonlyMap<string, StoredQuote>;
}

/** One client connection: its login, its tickers and what it last saw of each. */
class StreamSession {
  caller: Extract<DataCaller, { kind: 'key' }> | undefined;
  key: string | undefined;
  /** Subscribed symbols (directory spelling) with the spelling the client used and the last messages sent. */
  readonly tickers = new Map<string, SeenTicker>();
  loggingIn = false;
  /** The client's messages are handled one after the other, in the order sent. */
  queue: Promise<void> = Promise.resolve();
  queued = 0;
  lastSent: number;
  closed = false;

  readonly socket: StreamSocket;
  readonly stream: StreamName;
  readonly openedAt: number;

  constructor(socket: StreamSocket, stream: StreamName, openedAt: number) {
    this.socket = socket;
    this.stream = stream;
    this.openedAt = openedAt;
    this.lastSent = openedAt;
  }
}

/** The messages of a tick: FMP's "Q" (top of book) and "T" (last trade), in FMP's field order. */
function tickMessages(name: string, tick: LiveTick, stream: StreamName): { quote: string; trade: string } {
  // Stocks stamp in nanoseconds as FMP does; crypto and forex in milliseconds.
  const t = stream === 'stocks' ? `${String(tick.at)}000000` : String(tick.at);
  const s = JSON.stringify(name);
  return {
    quote: `{"s":${s},"t":${t},"type":"Q","ap":${String(tick.askPrice)},"as":${String(tick.askSize)},"bp":${String(tick.bidPrice)},"bs":${String(tick.bidSize)},"lp":null,"ls":null}`,
    trade: `{"s":${s},"t":${t},"type":"T","ap":null,"as":null,"bp":null,"bs":null,"lp":${String(tick.lastPrice)},"ls":${String(tick.lastSize)}}`,
  };
}

/**
 * A tick's two messages as sent (UTF-8, encoded once and shared by every subscriber of the round), with what
 * tells a change (the message without its time).
 */
interface WrittenTick {
  quote: Buffer;
  trade: Buffer;
  quoteBare: string;
  tradeBare: string;
}

function writtenTick(name: string, tick: LiveTick, stream: StreamName): WrittenTick {
  const { quote, trade } = tickMessages(name, tick, stream);
  return {
    quote: Buffer.from(quote),
    trade: Buffer.from(trade),
    quoteBare: withoutTime(quote),
    tradeBare: withoutTime(trade),
  };
}

/** A stream's messages of a round, written on first use: by symbol, then by the spelling a client used. */
class RoundMessages {
  private readonly written = new Map<string, Map<string, WrittenTick>>();
  private readonly ticks: ReadonlyMap<string, LiveTick>;
  private readonly stream: StreamName;

  constructor(ticks: ReadonlyMap<string, LiveTick>, stream: StreamName) {
    this.ticks = ticks;
    this.stream = stream;
  }

  /** The messages of a symbol's tick under a client's spelling, or undefined when the round has no tick. */
  get(symbol: string, name: string): WrittenTick | undefined {
    let byName = this.written.get(symbol);
    if (byName === undefined) {
      if (!this.ticks.has(symbol)) return undefined;
      byName = new Map();
      this.written.set(symbol, byName);
    }
    let messages = byName.get(name);
    if (messages === undefined) {
      const tick = this.ticks.get(symbol);
      if (tick === undefined) return undefined;
      messages = writtenTick(name, tick, this.stream);
      byName.set(name, messages);
    }
    return messages;
  }
}

/** The book and trade parts of a message, without the time, to tell whether anything changed. */
function withoutTime(message: string): string {
  return message.replace(/"t":\d+,/, '');
}

/** Whether a security belongs on a stream. */
function onStream(security: Pick<Security, 'assetType'>, stream: StreamName): boolean {
  const kind = marketKind(security.assetType);
  return stream === 'stocks' ? kind === 'exchange' : kind === stream;
}

/** The endpoint name a stream's logins and bytes are metered under. */
export function streamEndpoint(stream: StreamName): string {
  return `websockets/${stream}`;
}

/** The allowance of a tier, that of the nearest streaming tier below it. */
export function allowanceOf(
  tier: number,
  allowances: Readonly<Record<number, StreamAllowance>> = STREAM_ALLOWANCES,
): StreamAllowance {
  let found: StreamAllowance = { symbolsPerConnection: 0, connectionsPerKey: 0 };
  for (const [level, allowance] of Object.entries(allowances)) if (Number(level) <= tier) found = allowance;
  return found;
}

/** The tickers of a subscribe or unsubscribe: a string or a list of strings. */
function tickersOf(data: unknown): string[] | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const ticker = (data as { ticker?: unknown }).ticker;
  const list = typeof ticker === 'string' ? ticker.split(',') : ticker;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const names: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string' || item.trim() === '') return undefined;
    names.push(item.trim().toLowerCase());
  }
  return [...new Set(names)];
}

/** Every connection of a data API process, its timers and its shutdown. */
export class StreamHub {
  private readonly sessions = new Set<StreamSession>();
  private readonly pipeline: DataPipeline;
  private readonly database: () => Promise<Db>;
  private readonly now: () => number;
  private readonly market: LiveMarket;
  private readonly allowances: Readonly<Record<number, StreamAllowance>>;
  private readonly options: Required<
    Pick<
      StreamHubOptions,
      'tickIntervalMs' | 'recheckIntervalMs' | 'heartbeatIntervalMs' | 'loginTimeoutMs' | 'maxBufferedBytes'
    >
  >;
  private timers: NodeJS.Timeout[] = [];
  /** The next tick round's timer, and the step of the walk (by the clock) the last round started in. */
  private tickTimer: NodeJS.Timeout | undefined;
  private lastTickStep = -1;
  private ticking = false;
  /** What the last read-ahead found for the next round, and whether one is running. */
  private ahead: RoundInputs | undefined;
  private readingAhead = false;
  private closing = false;

  constructor(options: StreamHubOptions) {
    this.pipeline = options.pipeline;
    this.database = options.database;
    this.now = options.now ?? Date.now;
    this.market = options.market ?? liveMarket();
    this.allowances = options.allowances ?? STREAM_ALLOWANCES;
    this.options = {
      tickIntervalMs: options.tickIntervalMs ?? 1_000,
      recheckIntervalMs: options.recheckIntervalMs ?? 30_000,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 30_000,
      loginTimeoutMs: options.loginTimeoutMs ?? 30_000,
      maxBufferedBytes: options.maxBufferedBytes ?? 1024 * 1024,
    };
  }

  /** Connections open now. */
  get size(): number {
    return this.sessions.size;
  }

  /** Takes a new connection to a stream; answers the functions the transport calls on its messages and close. */
  connect(socket: StreamSocket, stream: StreamName): { receive(text: string): void; closed(): void } {
    const session = new StreamSession(socket, stream, this.now());
    if (this.closing) {
      socket.close(CLOSE_CODES.goingAway, 'Server shutting down');
      return { receive: () => undefined, closed: () => undefined };
    }
    this.sessions.add(session);
    this.start();
    return {
      receive: (text) => {
        if (session.queued >= MAX_QUEUED_MESSAGES) {
          this.drop(
            session,
            CLOSE_CODES.policy,
            'Too many messages waiting: wait for the answers before sending more.',
          );
          return;
        }
        session.queued += 1;
        session.queue = session.queue
          .then(() => (session.closed ? undefined : this.receive(session, text)))
          .catch(() => {
            this.answer(session, 'error', 500, 'Something went wrong on our side. Please try again later.');
          })
          .finally(() => {
            session.queued -= 1;
          });
      },
      closed: () => {
        session.closed = true;
        this.sessions.delete(session);
        if (this.sessions.size === 0) this.stop();
      },
    };
  }

  /** Closes every connection with 1001 (going away) and stops the timers: the server is stopping. */
  close(): void {
    this.closing = true;
    for (const session of this.sessions) this.drop(session, CLOSE_CODES.goingAway, 'Server shutting down');
    this.sessions.clear();
    this.stop();
  }

  private start(): void {
    if (this.timers.length > 0) return;
    const every = (ms: number, run: () => void): void => {
      const timer = setInterval(run, ms);
      timer.unref();
      this.timers.push(timer);
    };
    this.scheduleTick();
    every(this.options.recheckIntervalMs, () => {
      void this.recheck();
    });
    every(Math.min(this.options.heartbeatIntervalMs, this.options.loginTimeoutMs), () => {
      this.housekeeping();
    });
  }

  private stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    if (this.tickTimer !== undefined) clearTimeout(this.tickTimer);
    this.tickTimer = undefined;
  }

  /**
   * Starts the next tick round just after the next step of the walk begins, so a tick leaves as soon as it
   * exists. Each round is aimed at its own step boundary by the clock (an interval timer would drift later
   * with every round), and a timer that fires before the boundary (Node counts from the start of the loop
   * turn that set it) waits for it rather than run the step that was already sent.
   */
  private scheduleTick(): void {
    const interval = this.options.tickIntervalMs;
    const wait = (): number => interval - (Date.now() % interval);
    const fire = (): void => {
      const step = Math.floor(Date.now() / interval);
      if (step === this.lastTickStep) {
        this.tickTimer = setTimeout(fire, wait());
        this.tickTimer.unref();
        return;
      }
      this.lastTickStep = step;
      this.tickTimer = undefined;
      void this.tick();
      if (this.timers.length > 0) this.scheduleTick();
    };
    this.tickTimer = setTimeout(fire, wait());
    this.tickTimer.unref();
  }

  private drop(session: StreamSession, code: number, reason: string): void {
    session.closed = true;
    this.sessions.delete(session);
    session.socket.close(code, closeReason(reason));
  }

  /** Sends a message unless the consumer has fallen too far behind, in which case it is closed. */
  private send(session: StreamSession, message: string | Buffer): boolean {
    if (!this.writable(session)) return false;
    session.socket.send(message, TEXT);
    session.lastSent = this.now();
    return true;
  }

  /** Whether a session may be sent more: open and not too far behind (a slow consumer is closed here). */
  private writable(session: StreamSession): boolean {
    if (session.closed) return false;
    if (session.socket.bufferedAmount <= this.options.maxBufferedBytes) return true;
    this.drop(
      session,
      CLOSE_CODES.policy,
      `Consumer too slow: more than ${String(this.options.maxBufferedBytes)} bytes waiting`,
    );
    return false;
  }

  private answer(session: StreamSession, event: string, status: number, message: string): void {
    const body: ControlAnswer = { event, status, message, timestamp: this.now() };
    this.send(session, JSON.stringify(body));
  }

  private async receive(session: StreamSession, text: string): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.answer(session, 'error', 400, 'Messages are JSON: {"event":"login","data":{"apiKey":"…"}}.');
      return;
    }
    const { event, data } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as {
      event?: unknown;
      data?: unknown;
    };
    if (event === 'login') await this.login(session, data);
    else if (event === 'subscribe') await this.subscribe(session, data);
    else if (event === 'unsubscribe') this.unsubscribe(session, data);
    else
      this.answer(
        session,
        typeof event === 'string' ? event : 'error',
        400,
        'Unknown event: use "login", "subscribe" or "unsubscribe".',
      );
  }

  private async login(session: StreamSession, data: unknown): Promise<void> {
    const key = (data as { apiKey?: unknown } | undefined)?.apiKey;
    if (session.caller !== undefined || session.loggingIn) {
      this.answer(session, 'login', 400, 'Already logged in on this connection.');
      return;
    }
    if (typeof key !== 'string' || key === '') {
      this.answer(session, 'login', 401, 'Missing API key: send {"event":"login","data":{"apiKey":"…"}}.');
      return;
    }
    session.loggingIn = true;
    const caller = await this.pipeline.authorize(key);
    session.loggingIn = false;
    if (session.closed) return;
    if (!('kind' in caller) || caller.kind !== 'key') {
      const message = 'kind' in caller ? 'Streams need an API key.' : caller.message;
      this.answer(session, 'login', 'kind' in caller ? 401 : caller.status, message);
      this.drop(session, CLOSE_CODES.policy, message);
      return;
    }
    const tier = STREAM_TIERS[session.stream];
    if (caller.plan.dataTier < tier) {
      const message = await this.pipeline.planMessage(caller, tier, `the ${session.stream} stream`);
      this.answer(session, 'login', 402, message);
      this.drop(session, CLOSE_CODES.policy, message);
      return;
    }
    const allowance = allowanceOf(caller.plan.dataTier, this.allowances);
    let open = 0;
    for (const other of this.sessions) if (other.caller?.keyId === caller.keyId) open += 1;
    if (open >= allowance.connectionsPerKey) {
      const message = `Your ${caller.plan.name} plan streams over at most ${String(allowance.connectionsPerKey)} connections per key at once; close one first.`;
      this.answer(session, 'login', 429, message);
      this.drop(session, CLOSE_CODES.tryAgainLater, message);
      return;
    }
    session.caller = caller;
    session.key = key;
    const answer: ControlAnswer = {
      event: 'login',
      status: 200,
      message: 'Authenticated',
      timestamp: this.now(),
    };
    const body = JSON.stringify(answer);
    this.pipeline.meter.record(caller.keyId, streamEndpoint(session.stream), Buffer.byteLength(body));
    this.send(session, body);
  }

  private async subscribe(session: StreamSession, data: unknown): Promise<void> {
    const caller = session.caller;
    if (caller === undefined) {
      this.answer(session, 'subscribe', 401, 'Log in first: {"event":"login","data":{"apiKey":"…"}}.');
      return;
    }
    const names = tickersOf(data);
    if (names === undefined) {
      this.answer(
        session,
        'subscribe',
        400,
        'Name the tickers: {"event":"subscribe","data":{"ticker":["aapl"]}}.',
      );
      return;
    }
    const directory = await this.pipeline.directory.get();
    const found: { name: string; security: Security }[] = [];
    for (const name of names) {
      const security = directory.get(name.toUpperCase());
      if (security === undefined || !onStream(security, session.stream)) {
        this.answer(session, 'subscribe', 404, `Unknown ticker on the ${session.stream} stream: ${name}.`);
        return;
      }
      if (caller.plan.dataTier < symbolTier(security)) {
        const message = await this.pipeline.planMessage(
          caller,
          symbolTier(security),
          `the symbol ${security.symbol}`,
        );
        this.answer(session, 'subscribe', 402, message);
        return;
      }
      found.push({ name, security });
    }
    const fresh = found.filter(({ security }) => !session.tickers.has(security.symbol));
    const allowance = allowanceOf(caller.plan.dataTier, this.allowances);
    if (session.tickers.size + fresh.length > allowance.symbolsPerConnection) {
      this.answer(
        session,
        'subscribe',
        429,
        `Your ${caller.plan.name} plan streams at most ${String(allowance.symbolsPerConnection)} tickers per connection; this one has ${String(session.tickers.size)}.`,
      );
      return;
    }
    for (const { name, security } of fresh)
      session.tickers.set(security.symbol, { name, quote: '', trade: '' });
    this.answer(session, 'subscribe', 200, `Subscribed to ${names.join(', ')}`);
    await this.snapshot(
      session,
      fresh.map(({ security }) => security),
    );
  }

  private unsubscribe(session: StreamSession, data: unknown): void {
    if (session.caller === undefined) {
      this.answer(session, 'unsubscribe', 401, 'Log in first: {"event":"login","data":{"apiKey":"…"}}.');
      return;
    }
    const names = tickersOf(data);
    if (names === undefined) {
      this.answer(
        session,
        'unsubscribe',
        400,
        'Name the tickers: {"event":"unsubscribe","data":{"ticker":["aapl"]}}.',
      );
      return;
    }
    for (const name of names) session.tickers.delete(name.toUpperCase());
    this.answer(session, 'unsubscribe', 200, `Unsubscribed from ${names.join(', ')}`);
  }

  /**
   * Prices every subscribed symbol once and sends what changed. The round reads nothing from the database
   * when the previous one read ahead for it, so its ticks leave as soon as the step begins; then it reads
   * ahead for the next.
   */
  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const at = this.now();
      const directory =
        this.pipeline.directory.fresh() ?? this.ahead?.directory ?? (await this.pipeline.directory.get());
      const wanted = this.wanted(directory);
      if (wanted.length === 0) return;
      const stored = this.readAheadFor(wanted, at) ?? (await this.storedFor(wanted, at));
      this.deliver([...this.sessions], wanted, stored, at, false);
    } finally {
      this.ticking = false;
    }
    void this.readAhead();
  }

  /** The securities some session subscribed to. */
  private wanted(directory: SymbolDirectory): Security[] {
    const wanted = new Map<string, Security>();
    for (const session of this.sessions)
      for (const symbol of session.tickers.keys()) {
        if (wanted.has(symbol)) continue;
        const security = directory.get(symbol);
        if (security !== undefined) wanted.set(symbol, security);
      }
    return [...wanted.values()];
  }

  /** The stored facts of securities as of an instant's day (cached for a while by the quotes service). */
  private async storedFor(
    securities: readonly Security[],
    at: number,
  ): Promise<ReadonlyMap<string, StoredQuote>> {
    return storedQuotes(
      await this.database(),
      securities.map((security) => security.symbol),
      new Date(at),
    );
  }

  /** The facts read ahead, when they were read for this instant's day and cover every security. */
  private readAheadFor(
    securities: readonly Security[],
    at: number,
  ): ReadonlyMap<string, StoredQuote> | undefined {
    const ahead = this.ahead;
    if (ahead?.day !== isoDay(new Date(at))) return undefined;
    for (const security of securities) if (!ahead.symbols.has(security.symbol)) return undefined;
    return ahead.stored;
  }

  /**
   * Reads what the next round needs (the directory and the stored facts of the subscribed symbols, as of the
   * day of the next step) while nothing is due, so a cache expiring never holds up a round's ticks.
   */
  private async readAhead(): Promise<void> {
    if (this.readingAhead) return;
    this.readingAhead = true;
    try {
      const directory = await this.pipeline.directory.get();
      const wanted = this.wanted(directory);
      const next = this.now() + this.options.tickIntervalMs;
      const stored = await this.storedFor(wanted, next);
      this.ahead = {
        directory,
        day: isoDay(new Date(next)),
        symbols: new Set(wanted.map((security) => security.symbol)),
        stored,
      };
    } catch {
      // The next round reads for itself (and meets the same failure where it is handled).
      this.ahead = undefined;
    } finally {
      this.readingAhead = false;
    }
  }

  /** Sends a new subscriber a snapshot of its new tickers: both messages of each, trading or not. */
  private async snapshot(session: StreamSession, securities: readonly Security[]): Promise<void> {
    const at = this.now();
    const stored = await this.storedFor(securities, at);
    this.deliver([session], securities, stored, at, true);
  }

  /** Sends the ticks of `securities` at `at` to the sessions subscribed to them (all of them on a snapshot). */
  private deliver(
    sessions: readonly StreamSession[],
    securities: readonly Security[],
    stored: ReadonlyMap<string, StoredQuote>,
    at: number,
    snapshot: boolean,
  ): void {
    const ticks = new Map<string, LiveTick>();
    for (const security of securities) {
      const facts = stored.get(security.symbol);
      if (facts === undefined) continue;
      const tick = this.market.tick(security, facts, at);
      if (snapshot || tick.trading) ticks.set(security.symbol, tick);
    }
    if (ticks.size === 0) return;
    // Each message is written once per round and shared by every session that subscribed the same way; the
    // bytes are metered once per key and stream.
    const rounds: Record<StreamName, RoundMessages> = {
      stocks: new RoundMessages(ticks, 'stocks'),
      crypto: new RoundMessages(ticks, 'crypto'),
      forex: new RoundMessages(ticks, 'forex'),
    };
    const metered = new Map<string, { keyId: string; endpoint: string; bytes: number }>();
    const sentAt = this.now();
    for (const session of sessions) {
      const caller = session.caller;
      if (caller === undefined || !this.writable(session)) continue;
      const bytes = this.sendRound(session, rounds[session.stream], snapshot);
      if (bytes === 0) continue;
      session.lastSent = sentAt;
      const endpoint = streamEndpoint(session.stream);
      const id = `${caller.keyId}|${endpoint}`;
      const entry = metered.get(id);
      if (entry === undefined) metered.set(id, { keyId: caller.keyId, endpoint, bytes });
      else entry.bytes += bytes;
    }
    for (const { keyId, endpoint, bytes } of metered.values())
      this.pipeline.meter.record(keyId, endpoint, bytes, 0);
  }

  /**
   * Sends one session the round's messages of its tickers that changed (all of them on a snapshot), corked
   * so they leave in one write; answers the bytes sent. A session found too slow is closed midway.
   */
  private sendRound(session: StreamSession, round: RoundMessages, snapshot: boolean): number {
    const socket = session.socket;
    let bytes = 0;
    socket.cork?.();
    try {
      for (const [symbol, seen] of session.tickers) {
        const messages = round.get(symbol, seen.name);
        if (messages === undefined) continue;
        if (snapshot || messages.quoteBare !== seen.quote) {
          // The caller checked the session before its first message.
          if (bytes > 0 && !this.writable(session)) break;
          socket.send(messages.quote, TEXT);
          seen.quote = messages.quoteBare;
          bytes += messages.quote.length;
        }
        if (snapshot || messages.tradeBare !== seen.trade) {
          if (bytes > 0 && !this.writable(session)) break;
          socket.send(messages.trade, TEXT);
          seen.trade = messages.tradeBare;
          bytes += messages.trade.length;
        }
      }
    } finally {
      socket.uncork?.();
    }
    return bytes;
  }

  /** Checks every logged-in key again: a blocked, revoked or downgraded key is disconnected. */
  private async recheck(): Promise<void> {
    for (const session of [...this.sessions]) {
      if (session.key === undefined || session.closed) continue;
      const caller = await this.pipeline.authorize(session.key);
      if (!this.sessions.has(session)) continue;
      if (!('kind' in caller)) {
        this.answer(session, 'login', caller.status, caller.message);
        this.drop(session, CLOSE_CODES.policy, caller.message);
      } else if (caller.plan.dataTier < STREAM_TIERS[session.stream]) {
        const message = await this.pipeline.planMessage(
          caller,
          STREAM_TIERS[session.stream],
          `the ${session.stream} stream`,
        );
        this.answer(session, 'login', 402, message);
        this.drop(session, CLOSE_CODES.policy, message);
      }
    }
  }

  /** Heartbeats on quiet connections; connections that never logged in are closed. */
  private housekeeping(): void {
    const now = this.now();
    for (const session of [...this.sessions]) {
      if (
        session.caller === undefined &&
        !session.loggingIn &&
        now - session.openedAt >= this.options.loginTimeoutMs
      ) {
        this.drop(
          session,
          CLOSE_CODES.policy,
          `Log in within ${String(Math.round(this.options.loginTimeoutMs / 1000))} s of connecting.`,
        );
      } else if (now - session.lastSent >= this.options.heartbeatIntervalMs) {
        this.send(session, JSON.stringify({ event: 'heartbeat', timestamp: now }));
      }
    }
  }
}
