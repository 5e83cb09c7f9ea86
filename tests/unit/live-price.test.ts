import { afterEach, describe, expect, it } from 'vitest';
import { $auth, PUBLIC_TOKEN, setAccessToken, signedIn } from '../../src/lib/stores/auth.ts';
import { $apiUrl } from '../../src/lib/stores/data-api-access.ts';
import {
  $livePrice,
  connectLivePrice,
  liveFigures,
  reconnectDelay,
  streamOf,
  streamUrl,
  watchLivePrice,
  type LiveSocket,
} from '../../src/lib/stores/live-price.ts';
import { clearUser } from '../../src/lib/stores/user.ts';

// The unit tests run without a data API, so the sockets are fakes that record what the store sends
// and let each test play the stream's side (the protocol as src/content/docs/websockets.md has it).
// The stream itself is tested against the real server in tests/integration.

class FakeSocket implements LiveSocket {
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly sent: unknown[] = [];
  closed = false;
  readonly url: string;
  constructor(url: string) {
    this.url = url;
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.closed = true;
  }
  /** The server accepts the connection. */
  accept(): void {
    this.onopen?.({});
  }
  receive(message: unknown): void {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }
  drop(code = 1006): void {
    this.onclose?.({ code });
  }
}

/** Fake sockets and timers the store is given, so a test decides when a reconnect runs. */
function harness(): {
  sockets: FakeSocket[];
  timers: { run: () => void; ms: number }[];
  open: (url: string) => FakeSocket;
  setTimer: (run: () => void, ms: number) => unknown;
  clearTimer: (timer: unknown) => void;
} {
  const sockets: FakeSocket[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  return {
    sockets,
    timers,
    open: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    setTimer: (run, ms) => {
      const timer = { run, ms };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      const index = timers.indexOf(timer as { run: () => void; ms: number });
      if (index >= 0) timers.splice(index, 1);
    },
  };
}

const URL_STOCKS = 'ws://localhost:4322/websockets/stocks';

/** Connects, accepts, and answers the login and subscription as the stream does when all is well. */
function liveOn(h: ReturnType<typeof harness>, symbol = 'AAPL'): { socket: FakeSocket; stop: () => void } {
  const stop = connectLivePrice({ url: URL_STOCKS, key: 'key-pro', symbol, ...h });
  const socket = h.sockets.at(-1);
  if (socket === undefined) throw new Error('no socket opened');
  socket.accept();
  socket.receive({ event: 'login', status: 200, message: 'Authenticated', timestamp: 1 });
  socket.receive({ event: 'subscribe', status: 200, message: 'Subscribed', timestamp: 2 });
  return { socket, stop };
}

afterEach(() => {
  $livePrice.set({ status: 'off', symbol: '', price: null, at: null });
  setAccessToken(PUBLIC_TOKEN);
  $auth.set({ ...$auth.get(), accessToken: PUBLIC_TOKEN });
  clearUser();
  $apiUrl.set('');
});

describe('which stream a symbol page follows', () => {
  it('is crypto for crypto, forex for currency pairs and the US stocks stream for everything else', () => {
    expect(streamOf('crypto')).toBe('crypto');
    expect(streamOf('forex')).toBe('forex');
    expect(streamOf('stock')).toBe('stocks');
    expect(streamOf('index')).toBe('stocks');
    expect(streamOf('commodity')).toBe('stocks');
  });

  it('is reached beside the data API: ws for http, wss for https, under the same path', () => {
    expect(streamUrl('http://localhost:4322', 'stocks')).toBe(URL_STOCKS);
    expect(streamUrl('https://data.example.com/v1/', 'crypto')).toBe(
      'wss://data.example.com/v1/websockets/crypto',
    );
  });
});

describe('the live price of one symbol', () => {
  it('logs in with the key, then subscribes to the symbol once the login is accepted', () => {
    const h = harness();
    connectLivePrice({ url: URL_STOCKS, key: 'key-pro', symbol: 'AAPL', ...h });
    const [socket] = h.sockets;
    expect(socket?.url).toBe(URL_STOCKS);
    expect($livePrice.get().status).toBe('connecting');
    socket?.accept();
    expect(socket?.sent).toEqual([{ event: 'login', data: { apiKey: 'key-pro' } }]);
    socket?.receive({ event: 'login', status: 200, message: 'Authenticated', timestamp: 1 });
    expect(socket?.sent.at(-1)).toEqual({ event: 'subscribe', data: { ticker: 'AAPL' } });
    socket?.receive({ event: 'subscribe', status: 200, message: 'Subscribed', timestamp: 2 });
    expect($livePrice.get()).toEqual({ status: 'live', symbol: 'AAPL', price: null, at: null });
  });

  it('takes the last trade of its symbol, in milliseconds, and ignores books, other tickers and junk', () => {
    const h = harness();
    const { socket } = liveOn(h);
    socket.receive({
      s: 'aapl',
      t: 1795726800123000000,
      type: 'T',
      ap: null,
      as: null,
      bp: null,
      bs: null,
      lp: 230.78,
      ls: 57,
    });
    expect($livePrice.get()).toEqual({ status: 'live', symbol: 'AAPL', price: 230.78, at: 1795726800123 });
    socket.receive({
      s: 'aapl',
      t: 1795726801000000000,
      type: 'Q',
      ap: 231,
      as: 1,
      bp: 230.5,
      bs: 2,
      lp: null,
      ls: null,
    });
    socket.receive({ s: 'msft', t: 1795726801000000000, type: 'T', lp: 410.1, ls: 3 });
    socket.receive('not json');
    socket.receive({ event: 'heartbeat', timestamp: 3 });
    expect($livePrice.get().price).toBe(230.78);
    socket.receive({ s: 'AAPL', t: 1795726802000, type: 'T', lp: 230.9, ls: 1 });
    expect($livePrice.get()).toMatchObject({ price: 230.9, at: 1795726802000 });
  });

  it('reconnects after a dropped connection, waiting longer each time, and starts over once subscribed', () => {
    const h = harness();
    const { socket } = liveOn(h);
    socket.drop();
    expect($livePrice.get().status).toBe('connecting');
    expect(h.timers.map(({ ms }) => ms)).toEqual([1_000]);
    h.timers.shift()?.run();
    expect(h.sockets).toHaveLength(2);
    h.sockets[1]?.drop();
    expect(h.timers.map(({ ms }) => ms)).toEqual([2_000]);
    h.timers.shift()?.run();
    const third = h.sockets[2];
    third?.accept();
    expect(third?.sent[0]).toEqual({ event: 'login', data: { apiKey: 'key-pro' } });
    third?.receive({ event: 'login', status: 200, message: 'Authenticated', timestamp: 1 });
    third?.receive({ event: 'subscribe', status: 200, message: 'Subscribed', timestamp: 2 });
    expect($livePrice.get().status).toBe('live');
    third?.drop();
    expect(h.timers.map(({ ms }) => ms)).toEqual([1_000]);
  });

  it('waits at most 30 seconds between attempts', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(reconnectDelay)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });

  it('stops for good, without reconnecting, when the stream refuses the plan', () => {
    const h = harness();
    connectLivePrice({ url: URL_STOCKS, key: 'key-basic', symbol: 'AAPL', ...h });
    const [socket] = h.sockets;
    socket?.accept();
    socket?.receive({
      event: 'login',
      status: 402,
      message: 'Your plan does not include the stocks stream.',
      timestamp: 1,
    });
    expect($livePrice.get().status).toBe('stopped');
    expect(socket?.closed).toBe(true);
    socket?.drop(1008);
    expect(h.timers).toHaveLength(0);
    expect(h.sockets).toHaveLength(1);
  });

  it('stops when a symbol beyond the plan is refused, or the server ends the connection by policy', () => {
    const h = harness();
    const refused = connectLivePrice({ url: URL_STOCKS, key: 'key-pro', symbol: 'XYZ', ...h });
    h.sockets[0]?.accept();
    h.sockets[0]?.receive({ event: 'login', status: 200, message: 'Authenticated', timestamp: 1 });
    h.sockets[0]?.receive({ event: 'subscribe', status: 404, message: 'Unknown ticker', timestamp: 2 });
    expect($livePrice.get().status).toBe('stopped');
    refused();

    const { socket } = liveOn(h, 'MSFT');
    socket.drop(1008);
    expect($livePrice.get().status).toBe('stopped');
    expect(h.timers).toHaveLength(0);
  });

  it('closes the socket and forgets the price when the page stops following it', () => {
    const h = harness();
    const { socket, stop } = liveOn(h);
    socket.receive({ s: 'AAPL', t: 1, type: 'T', lp: 230.78, ls: 1 });
    stop();
    expect(socket.closed).toBe(true);
    expect($livePrice.get()).toEqual({ status: 'off', symbol: '', price: null, at: null });
    socket.drop(1000);
    expect(h.timers).toHaveLength(0);
  });

  it('cancels a pending reconnect when stopped', () => {
    const h = harness();
    const { socket, stop } = liveOn(h);
    socket.drop();
    expect(h.timers).toHaveLength(1);
    stop();
    expect(h.timers).toHaveLength(0);
  });
});

describe('the header’s figures', () => {
  it('measure the live change from the rendered previous close (price − change)', () => {
    // Rendered 230.00, +2.00: previous close 228.00; live 231.14 is +3.14, 3.14 / 228 = 1.3772 %.
    const live = liveFigures({ price: 230, change: 2, changePercentage: 0.877 }, 231.14);
    expect(live.price).toBe(231.14);
    expect(live.change).toBeCloseTo(3.14, 10);
    expect(live.changePercentage).toBeCloseTo(1.3772, 4);
    expect(liveFigures({ price: 230, change: 2, changePercentage: 0.877 }, null).price).toBe(230);
  });
});

describe('who gets a socket', () => {
  const subject = {
    symbol: 'AAPL',
    stream: 'stocks' as const,
    tier: 2,
    builtApiUrl: 'http://localhost:4322',
  };

  it('nobody signed out: no socket is opened', () => {
    const h = harness();
    const stop = watchLivePrice(subject, h.open);
    expect(h.sockets).toHaveLength(0);
    expect($livePrice.get().status).toBe('off');
    stop();
  });

  it('not a signed-in plan below the stream', () => {
    const h = harness();
    signedIn('token-basic', { dataTier: 1, apiKey: 'key-basic' });
    const stop = watchLivePrice(subject, h.open);
    expect(h.sockets).toHaveLength(0);
    stop();
  });

  it('a plan that includes the stream, with the account’s key, until the visitor signs out', () => {
    const h = harness();
    signedIn('token-pro', { dataTier: 2, apiKey: 'key-pro' });
    const stop = watchLivePrice(subject, h.open);
    const [socket] = h.sockets;
    expect(socket?.url).toBe(URL_STOCKS);
    socket?.accept();
    expect(socket?.sent).toEqual([{ event: 'login', data: { apiKey: 'key-pro' } }]);
    setAccessToken(PUBLIC_TOKEN);
    expect(socket?.closed).toBe(true);
    expect($livePrice.get().status).toBe('off');
    stop();
    expect(h.sockets).toHaveLength(1);
  });
});
