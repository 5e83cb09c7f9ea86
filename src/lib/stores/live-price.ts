import { computed, map } from 'nanostores';
import type { SymbolKind } from '../symbol-routes.ts';
import { $apiUrl, $keyOwner, startApiUrl } from './data-api-access.ts';
import { $dataTier } from './plan-access.ts';

/*
 * The symbol pages' live price: the data API's websocket stream (FMP's protocol, see the websockets
 * guide) followed for the page's one symbol while the signed-in visitor's plan includes that stream.
 * The socket, its login and subscription, and reconnecting with backoff after a dropped connection
 * are this store's side effects; the island only renders $livePrice.
 */

/** The data API's three streams; which one carries a symbol follows from its kind. */
export type LiveStream = 'stocks' | 'crypto' | 'forex';

/** off: no socket (signed out, plan without the stream); stopped: the stream refused us for good. */
export type LiveStatus = 'off' | 'connecting' | 'live' | 'stopped';

export interface LivePrice {
  status: LiveStatus;
  /** The symbol followed, as the page spells it. */
  symbol: string;
  /** The last trade's price (the `quote` price); null until the stream sends one. */
  price: number | null;
  /** When that trade was, in ms. */
  at: number | null;
}

const IDLE: LivePrice = { status: 'off', symbol: '', price: null, at: null };

export const $livePrice = map<LivePrice>({ ...IDLE });

/** The stream of a symbol: crypto and forex have their own, everything listed in the US is on stocks. */
export function streamOf(kind: SymbolKind): LiveStream {
  if (kind === 'crypto') return 'crypto';
  if (kind === 'forex') return 'forex';
  return 'stocks';
}

/** The stream's address beside the data API's (http → ws, https → wss), e.g. ws://localhost:4322/websockets/stocks. */
export function streamUrl(apiUrl: string, stream: LiveStream): string {
  const base = apiUrl.replace(/\/+$/, '').replace(/^http(s?):/i, 'ws$1:');
  return `${base}/websockets/${stream}`;
}

/** Waits before reconnecting: 1 s, 2 s, 4 s … up to 30 s, so a restarting server is not hammered. */
export function reconnectDelay(attempt: number): number {
  return Math.min(30_000, 1_000 * 2 ** attempt);
}

/** What the store needs of a WebSocket (the browser's has it all). */
export interface LiveSocket {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number): void;
}

export interface LiveConnection {
  url: string;
  key: string;
  symbol: string;
  /** Opens a socket; the browser's WebSocket unless a test passes another. */
  open?: (url: string) => LiveSocket;
  /** Timers for reconnecting (tests pass fake ones). */
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/** Answers that will not change by trying again: bad key (401), plan (402), blocked (403), unknown ticker (404). */
const FINAL_STATUSES = new Set([401, 402, 403, 404]);

/** Close code of a refusal by policy (revoked key, plan below the stream): reconnecting would be refused again. */
const POLICY_CLOSE = 1008;

/** A stream message's fields the store reads. */
interface StreamMessage {
  event?: unknown;
  status?: unknown;
  type?: unknown;
  s?: unknown;
  lp?: unknown;
  t?: unknown;
}

function parse(data: unknown): StreamMessage | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Stocks stamp trades in nanoseconds, crypto and forex in milliseconds: both read as ms. */
function milliseconds(t: unknown): number | null {
  if (typeof t !== 'number' || !Number.isFinite(t)) return null;
  return t > 1e15 ? Math.round(t / 1e6) : t;
}

function browserSocket(url: string): LiveSocket {
  return new WebSocket(url) as unknown as LiveSocket;
}

/**
 * Follows one symbol on one stream: logs in with the key, subscribes, keeps $livePrice at its last
 * trade, reconnects after a dropped connection with growing pauses, and stops for good (status
 * `stopped`) when the stream refuses the key, the plan or the symbol. Returns the stop, which closes
 * the socket and sets the store back to `off`.
 */
export function connectLivePrice(connection: LiveConnection): () => void {
  const open = connection.open ?? browserSocket;
  const setTimer = connection.setTimer ?? ((run: () => void, ms: number): unknown => setTimeout(run, ms));
  const clearTimer =
    connection.clearTimer ??
    ((timer: unknown): void => {
      clearTimeout(timer as ReturnType<typeof setTimeout>);
    });
  const { symbol } = connection;
  let socket: LiveSocket | undefined;
  let timer: unknown;
  let attempt = 0;
  let ended = false;

  const finish = (status: 'off' | 'stopped'): void => {
    ended = true;
    if (timer !== undefined) clearTimer(timer);
    timer = undefined;
    const current = socket;
    socket = undefined;
    if (current !== undefined) {
      current.onclose = null;
      current.onmessage = null;
      current.close();
    }
    $livePrice.set(status === 'off' ? { ...IDLE } : { ...$livePrice.get(), status });
  };

  const handle = (message: StreamMessage): void => {
    if (message.event === 'login') {
      if (message.status === 200) {
        socket?.send(JSON.stringify({ event: 'subscribe', data: { ticker: symbol } }));
      } else if (typeof message.status === 'number' && FINAL_STATUSES.has(message.status)) finish('stopped');
      return;
    }
    if (message.event === 'subscribe') {
      if (message.status === 200) {
        attempt = 0;
        $livePrice.setKey('status', 'live');
      } else if (typeof message.status === 'number' && FINAL_STATUSES.has(message.status)) finish('stopped');
      return;
    }
    if (message.type !== 'T' || typeof message.s !== 'string') return;
    if (message.s.toUpperCase() !== symbol.toUpperCase()) return;
    if (typeof message.lp !== 'number' || !Number.isFinite(message.lp)) return;
    $livePrice.set({ status: 'live', symbol, price: message.lp, at: milliseconds(message.t) });
  };

  const connect = (): void => {
    timer = undefined;
    $livePrice.setKey('status', 'connecting');
    const current = open(connection.url);
    socket = current;
    current.onopen = () => {
      current.send(JSON.stringify({ event: 'login', data: { apiKey: connection.key } }));
    };
    current.onmessage = (event) => {
      const message = parse(event.data);
      if (message !== undefined && !ended) handle(message);
    };
    current.onerror = () => undefined;
    current.onclose = (event) => {
      if (ended || socket !== current) return;
      socket = undefined;
      if (event.code === POLICY_CLOSE) {
        finish('stopped');
        return;
      }
      $livePrice.setKey('status', 'connecting');
      timer = setTimer(connect, reconnectDelay(attempt));
      attempt += 1;
    };
  };

  $livePrice.set({ status: 'connecting', symbol, price: null, at: null });
  connect();
  return () => {
    if (!ended) finish('off');
  };
}

/** A header's price, change and change in percent. */
export interface Figures {
  price: number | null;
  change: number | null;
  changePercentage: number | null;
}

/** A live price's change against the same previous close as the rendered one (price − change). */
export function liveFigures(rendered: Figures, live: number | null): Figures {
  if (live === null || rendered.price === null || rendered.change === null) return rendered;
  const previousClose = rendered.price - rendered.change;
  const change = live - previousClose;
  return {
    price: live,
    change,
    changePercentage: previousClose === 0 ? rendered.changePercentage : (change / previousClose) * 100,
  };
}

/** What a symbol page follows: its symbol, the stream and the plan tier the stream needs. */
export interface LiveSubject {
  symbol: string;
  stream: LiveStream;
  /** The lowest data tier that may open the stream (STREAM_TIERS on the server). */
  tier: number;
  /** The data API's address the page was rendered with, until the running server names its own. */
  builtApiUrl: string;
}

/** The signed-in account's key when the plan includes the stream; undefined for everyone else. */
export function streamKey(
  owner: { kind: 'account'; key: string } | { kind: 'visitor' },
  planTier: number,
  streamTier: number,
): string | undefined {
  return owner.kind === 'account' && planTier >= streamTier ? owner.key : undefined;
}

/**
 * Follows a page's symbol while the visitor is signed in with a plan that includes its stream:
 * opens the socket when that becomes true (the session restored, a sign-in), closes it when it no
 * longer is (sign-out), and never opens one for anybody else. Returns the stop for the island's
 * unmount.
 */
export function watchLivePrice(subject: LiveSubject, open?: (url: string) => LiveSocket): () => void {
  void startApiUrl(subject.builtApiUrl);
  const $target = computed([$keyOwner, $dataTier, $apiUrl], (owner, planTier, apiUrl) => {
    const key = streamKey(owner, planTier, subject.tier);
    return key === undefined || apiUrl === '' ? '' : `${streamUrl(apiUrl, subject.stream)}\n${key}`;
  });
  let stop: (() => void) | undefined;
  let following = '';
  const unsubscribe = $target.subscribe((target) => {
    if (target === following) return;
    stop?.();
    stop = undefined;
    following = target;
    if (target === '') return;
    const [url = '', key = ''] = target.split('\n');
    stop = connectLivePrice({ url, key, symbol: subject.symbol, ...(open === undefined ? {} : { open }) });
  });
  return () => {
    unsubscribe();
    stop?.();
    stop = undefined;
  };
}
