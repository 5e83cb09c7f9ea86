import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { redactSecrets } from '../app/errors.ts';
import { describeRedisUrl, RedisStore } from '../middleware/rate-limit-store.ts';
import { notifyAccountKeysChanged, relayAccountKeyChanges } from './key-events.ts';

/** The Redis channel that carries account-key changes between instances. */
export const KEY_EVENTS_CHANNEL = 'market-data:account-keys-changed';

/** One instance's link to the others: publishes its changes, delivers theirs. */
export interface KeyEventsRelay {
  /** Tells the other instances that an account's keys changed. */
  publish(userId: string): void;
  close(): Promise<void>;
}

export interface KeyEventsRelayOptions {
  url: string;
  /** What to do with another instance's word (default: tell this process's listeners). */
  deliver?: (userId: string) => void;
  warn?: (message: string) => void;
}

interface Message {
  origin: string;
  userId: string;
}

function parse(text: string): Message | null {
  try {
    const value = JSON.parse(text) as Partial<Message>;
    return typeof value.origin === 'string' && typeof value.userId === 'string'
      ? { origin: value.origin, userId: value.userId }
      : null;
  } catch {
    return null;
  }
}

/**
 * Relays account-key changes (a key revoked, an account blocked) between instances over Redis pub/sub,
 * so a blocked key stops on every data API instance at once rather than when each one's cached verdict
 * runs out (30 s). Best effort: a message lost while Redis is down costs only that wait, so a failure
 * is logged once and never fails the change itself.
 */
export function createKeyEventsRelay(options: KeyEventsRelayOptions): KeyEventsRelay {
  const origin = randomUUID();
  const deliver = options.deliver ?? notifyAccountKeysChanged;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const label = describeRedisUrl(options.url);
  let warned = false;
  const report = (error: unknown): void => {
    if (warned) return;
    warned = true;
    const reason = error instanceof Error ? error.message : String(error);
    warn(
      redactSecrets(
        `key changes: ${label} unavailable (${reason}); other instances apply them when their cached verdicts expire`,
      ),
    );
  };
  const publisher: Redis = RedisStore.connect(options.url);
  // A subscribed connection sends no commands of its own, so it waits for messages without a timeout.
  const subscriber = new Redis(options.url, {
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 250, 5_000),
  });
  for (const client of [publisher, subscriber]) {
    client.on('error', report);
    client.on('ready', () => {
      warned = false;
    });
  }
  subscriber.on('message', (_channel: string, text: string) => {
    const message = parse(text);
    if (message !== null && message.origin !== origin) deliver(message.userId);
  });
  subscriber.subscribe(KEY_EVENTS_CHANNEL).catch(report);
  return {
    publish(userId) {
      publisher.publish(KEY_EVENTS_CHANNEL, JSON.stringify({ origin, userId })).catch(report);
    },
    async close() {
      const quit = async (client: Redis): Promise<void> => {
        if (client.status !== 'ready') {
          client.disconnect();
          return;
        }
        await client.quit().catch(() => {
          client.disconnect();
        });
      };
      await Promise.all([quit(publisher), quit(subscriber)]);
    },
  };
}

/**
 * Joins this process to the other instances' key changes when REDIS_URL is set: its announcements are
 * published and theirs reach its listeners. Returns the way to leave (nothing to do without Redis).
 */
export function joinKeyEvents(url: string | undefined): () => Promise<void> {
  if (url === undefined || url === '') return () => Promise.resolve();
  const relay = createKeyEventsRelay({ url });
  relayAccountKeyChanges((userId) => relay.publish(userId));
  return async () => {
    relayAccountKeyChanges(undefined);
    await relay.close();
  };
}
