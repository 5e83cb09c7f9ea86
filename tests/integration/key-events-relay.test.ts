import { afterEach, describe, expect, it } from 'vitest';
import {
  createKeyEventsRelay,
  joinKeyEvents,
  type KeyEventsRelay,
} from '../../src/server/services/key-events-relay.ts';
import { announceAccountKeysChanged, onAccountKeysChanged } from '../../src/server/services/key-events.ts';

// Two relays in one test process stand for two instances: each delivers what it hears to its own list.
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const opened: KeyEventsRelay[] = [];

function relay(heard: string[], warnings: string[] = [], at = url): KeyEventsRelay {
  const made = createKeyEventsRelay({
    url: at,
    deliver: (userId) => heard.push(userId),
    warn: (message) => warnings.push(message),
  });
  opened.push(made);
  return made;
}

/** Until both relays are subscribed, a message could be published before anyone listens. */
async function connected(from: KeyEventsRelay, heard: string[]): Promise<void> {
  await expect
    .poll(
      () => {
        from.publish('ping');
        return heard.includes('ping');
      },
      { timeout: 5_000, interval: 100 },
    )
    .toBe(true);
}

/** What a relay heard apart from the pings that waited for the subscription. */
function news(heard: readonly string[]): string[] {
  return heard.filter((userId) => userId !== 'ping');
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((made) => made.close()));
});

describe('account-key changes relayed between instances through Redis', () => {
  it('reach the other instance and are not echoed back to the one that sent them', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const a = relay(first);
    const b = relay(second);
    await connected(a, second);
    a.publish('user-1');
    b.publish('user-2');
    await expect.poll(() => news(second)).toEqual(['user-1']);
    await expect.poll(() => news(first)).toEqual(['user-2']);
  });

  it('carry this process’s announcements once it has joined, and stop when it leaves', async () => {
    const other: string[] = [];
    const b = relay(other);
    const local: string[] = [];
    const stopListening = onAccountKeysChanged((userId) => local.push(userId));
    const leave = joinKeyEvents(url);
    try {
      await expect
        .poll(
          () => {
            announceAccountKeysChanged('joined');
            return other.includes('joined');
          },
          { timeout: 5_000, interval: 100 },
        )
        .toBe(true);
      // This process's own listeners hear an announcement directly, once, not again through Redis.
      announceAccountKeysChanged('once');
      await expect.poll(() => other.includes('once')).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(local.filter((userId) => userId === 'once')).toEqual(['once']);
      b.publish('from-elsewhere');
      await expect.poll(() => local.includes('from-elsewhere')).toBe(true);
    } finally {
      await leave();
      stopListening();
    }
    other.length = 0;
    announceAccountKeysChanged('after-leaving');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(other).toEqual([]);
  });

  it('never fail the change when Redis is unreachable, and say so once', async () => {
    const warnings: string[] = [];
    const unreachable = relay([], warnings, 'redis://:secret-word@127.0.0.1:1');
    expect(() => {
      unreachable.publish('user-1');
      unreachable.publish('user-2');
    }).not.toThrow();
    await expect.poll(() => warnings.length, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^key changes: .* unavailable .*; other instances apply them when their cached verdicts expire$/,
    );
    expect(warnings[0]).not.toContain('secret-word');
  });
});
