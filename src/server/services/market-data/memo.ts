import type { Db } from '../../db/client.ts';

export interface MemoOptions {
  /** Most entries kept; the least recently used one goes first when a new one arrives. */
  max: number;
  /** How long an entry is served after it was stored. */
  ttlMs: number;
  /** Milliseconds clock (tests pass their own). */
  clock?: () => number;
}

interface Slot<V> {
  expiresAt: number;
  value: V;
}

/**
 * A small LRU with a time to live: hot endpoints answer the same symbol many times a second, and a
 * few seconds of staleness is invisible for end-of-day data, while the bound keeps a crawl over
 * thousands of symbols from holding them all in memory. Concurrent misses for one key share one load,
 * and a failed load is not remembered.
 */
export class Memo<V> {
  private readonly slots = new Map<string, Slot<V>>();
  /** The key at the most recently used end of `slots`. */
  private newest: string | undefined;
  private readonly pending = new Map<string, Promise<V>>();
  private readonly max: number;
  private readonly ttlMs: number;
  private readonly clock: () => number;

  constructor(options: MemoOptions) {
    if (!Number.isInteger(options.max) || options.max < 1)
      throw new RangeError('Memo max must be a positive integer');
    this.max = options.max;
    this.ttlMs = options.ttlMs;
    this.clock = options.clock ?? Date.now;
  }

  get size(): number {
    return this.slots.size;
  }

  /** The fresh value for `key`, marking it recently used; undefined when absent or expired. */
  get(key: string): V | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    if (slot.expiresAt <= this.clock()) {
      this.slots.delete(key);
      return undefined;
    }
    // Map keeps insertion order: re-inserting moves the key to the most recently used end, where
    // the key asked for again and again (the hot path) already is.
    if (key !== this.newest) {
      this.slots.delete(key);
      this.slots.set(key, slot);
      this.newest = key;
    }
    return slot.value;
  }

  /** Stores `value`; `ttlMs` shortens or lengthens its life from the memo's default. */
  set(key: string, value: V, ttlMs: number = this.ttlMs): void {
    this.slots.delete(key);
    this.slots.set(key, { expiresAt: this.clock() + ttlMs, value });
    this.newest = key;
    while (this.slots.size > this.max) {
      const oldest = this.slots.keys().next();
      if (oldest.done === true) break;
      this.slots.delete(oldest.value);
    }
  }

  /** The cached value, or the loader's (stored on success); callers waiting on one key share a load. */
  async load(key: string, loader: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const running = this.pending.get(key);
    if (running !== undefined) return running;
    const started = loader().then(
      (value) => {
        this.pending.delete(key);
        this.set(key, value);
        return value;
      },
      (error: unknown) => {
        this.pending.delete(key);
        throw error;
      },
    );
    this.pending.set(key, started);
    return started;
  }

  clear(): void {
    this.slots.clear();
    this.newest = undefined;
  }
}

/**
 * One memo per database: a process normally has one, but tests and the seed open several, and an
 * answer computed from one database must never be served from another.
 */
export function memoPerDatabase<V>(options: MemoOptions): (db: Db) => Memo<V> {
  const memos = new WeakMap<Db, Memo<V>>();
  return (db) => {
    let memo = memos.get(db);
    if (memo === undefined) {
      memo = new Memo<V>(options);
      memos.set(db, memo);
    }
    return memo;
  };
}
