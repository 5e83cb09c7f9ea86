import { fork } from 'node:child_process';
import WebSocket from 'ws';

/**
 * The subscribers of the websocket streams' benchmark (`scripts/bench/stream.ts`), run in child processes
 * so the clients' own work (reading frames, finding each tick's time) is not counted as the server's delay:
 * the requirement is about the server process. Each child connects its share of the subscribers, logs them
 * in, subscribes them and, when asked, records for a while each tick's delay: the receipt time (this
 * process's `Date.now()`, the same wall clock the server stamps `t` with) minus the tick's `t`.
 */

export interface StreamClientOptions {
  /** The stream's address, `ws://host:port/websockets/crypto`. */
  url: string;
  key: string;
  tickers: readonly string[];
  /** Subscribers this process holds. */
  count: number;
}

/** A child process of subscribers: ready once every one has subscribed; measures on demand. */
export interface StreamClients {
  ready: Promise<void>;
  /** Delays (ms) of every tick received during the next `ms` milliseconds. */
  measure(ms: number): Promise<Float64Array>;
  /** Disconnects the subscribers and ends the process. */
  stop(): Promise<void>;
}

type ParentMessage = { options: StreamClientOptions } | { measureMs: number };
type ChildMessage = { ready: true } | { delays: Float64Array } | { error: string };

/** Subscribers connected at once (the rest wait for them), so logins do not all queue at the server. */
const CONNECT_BATCH = 50;
const T_FIELD = Buffer.from('"t":');

/**
 * A tick's time from its message text without parsing the whole message (the server writes `"t":` as the
 * second field of every tick), or undefined for a message without one (control answers, heartbeats).
 */
export function tickTime(data: Buffer): number | undefined {
  const at = data.indexOf(T_FIELD);
  if (at < 0) return undefined;
  let value = 0;
  let index = at + T_FIELD.length;
  for (; index < data.length; index += 1) {
    const digit = (data[index] ?? 0) - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  return index === at + T_FIELD.length ? undefined : value;
}

/** Connects one subscriber, logs it in and subscribes it; resolves once the subscription is answered. */
function subscriber(
  options: StreamClientOptions,
  onTick: (received: number, data: Buffer) => void,
): Promise<WebSocket> {
  const ws = new WebSocket(options.url, { perMessageDeflate: false, skipUTF8Validation: true });
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => {
      ws.send(JSON.stringify({ event: 'login', data: { apiKey: options.key } }));
    });
    const setUp = (data: Buffer): void => {
      const message = JSON.parse(data.toString('utf8')) as { event?: string; status?: number };
      if (message.event === 'login') {
        if (message.status !== 200) reject(new Error(`login refused: ${data.toString('utf8')}`));
        else ws.send(JSON.stringify({ event: 'subscribe', data: { ticker: options.tickers } }));
      } else if (message.event === 'subscribe') {
        if (message.status !== 200) {
          reject(new Error(`subscribe refused: ${data.toString('utf8')}`));
          return;
        }
        // From here on the listener only stamps the receipt first and reads the tick's time.
        ws.off('message', setUp);
        ws.on('message', (tick: Buffer) => {
          onTick(Date.now(), tick);
        });
        resolve(ws);
      }
    };
    ws.on('message', setUp);
  });
}

/** The child's side: connects, reports ready, measures when asked. */
function runChild(): void {
  const sockets: WebSocket[] = [];
  let delays: number[] = [];
  let measuring = false;
  const onTick = (received: number, data: Buffer): void => {
    if (!measuring) return;
    const t = tickTime(data);
    if (t !== undefined) delays.push(received - t);
  };
  const reply = (message: ChildMessage): void => {
    process.send?.(message);
  };
  process.on('message', (message: ParentMessage) => {
    if ('options' in message) {
      void (async () => {
        const { options } = message;
        for (let index = 0; index < options.count; index += CONNECT_BATCH) {
          const batch = Math.min(CONNECT_BATCH, options.count - index);
          sockets.push(
            ...(await Promise.all(Array.from({ length: batch }, () => subscriber(options, onTick)))),
          );
        }
        reply({ ready: true });
      })().catch((error: unknown) => {
        reply({ error: String(error) });
      });
    } else {
      delays = [];
      measuring = true;
      setTimeout(() => {
        measuring = false;
        reply({ delays: Float64Array.from(delays) });
      }, message.measureMs);
    }
  });
  process.on('disconnect', () => {
    for (const socket of sockets) socket.terminate();
    process.exit(0);
  });
}

/** Starts a child process holding `options.count` subscribers. */
export function startStreamClients(options: StreamClientOptions): StreamClients {
  const child = fork(import.meta.filename, [], { serialization: 'advanced', stdio: 'inherit' });
  let waiting: { resolve: (message: ChildMessage) => void; reject: (error: Error) => void } | undefined;
  const next = (): Promise<ChildMessage> =>
    new Promise((resolve, reject) => {
      waiting = { resolve, reject };
    });
  const answer = (message: ChildMessage): void => {
    const current = waiting;
    waiting = undefined;
    if ('error' in message) current?.reject(new Error(message.error));
    else current?.resolve(message);
  };
  child.on('message', answer);
  child.on('exit', (code) => {
    waiting?.reject(new Error(`stream clients exited with code ${String(code)}`));
  });
  const ready = next().then(() => undefined);
  child.send({ options } satisfies ParentMessage);
  return {
    ready,
    measure: async (ms) => {
      const result = next();
      child.send({ measureMs: ms } satisfies ParentMessage);
      const message = await result;
      return 'delays' in message ? message.delays : new Float64Array();
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || !child.connected) {
          resolve();
          return;
        }
        child.once('exit', () => {
          resolve();
        });
        child.disconnect();
      }),
  };
}

if (import.meta.main) runChild();
