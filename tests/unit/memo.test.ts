import { describe, expect, it } from 'vitest';
import { Memo } from '../../src/server/services/market-data/memo.ts';

function clock(start = 0): { now: number; tick: () => number } {
  const state = { now: start, tick: () => state.now };
  return state;
}

describe('memo', () => {
  it('serves a stored value until its time to live has passed, then forgets it', () => {
    const time = clock();
    const memo = new Memo<number>({ max: 10, ttlMs: 15_000, clock: time.tick });
    memo.set('AAPL', 1);
    time.now = 14_999;
    expect(memo.get('AAPL')).toBe(1);
    time.now = 15_000;
    expect(memo.get('AAPL')).toBeUndefined();
    expect(memo.size).toBe(0);
  });

  it('drops the least recently used entry when full', () => {
    const memo = new Memo<string>({ max: 2, ttlMs: 60_000 });
    memo.set('a', 'A');
    memo.set('b', 'B');
    expect(memo.get('a')).toBe('A');
    memo.set('c', 'C');
    expect(memo.get('b')).toBeUndefined();
    expect(memo.get('a')).toBe('A');
    expect(memo.get('c')).toBe('C');
    expect(memo.size).toBe(2);
  });

  it('remembers null as an answer, so symbols without data are not read again', async () => {
    const memo = new Memo<number | null>({ max: 10, ttlMs: 60_000 });
    let loads = 0;
    const loader = (): Promise<number | null> => {
      loads += 1;
      return Promise.resolve(null);
    };
    expect(await memo.load('NODATA', loader)).toBeNull();
    expect(await memo.load('NODATA', loader)).toBeNull();
    expect(loads).toBe(1);
  });

  it('runs one load for concurrent callers of the same key', async () => {
    const memo = new Memo<number>({ max: 10, ttlMs: 60_000 });
    let loads = 0;
    let release: (value: number) => void = () => undefined;
    const loader = (): Promise<number> => {
      loads += 1;
      return new Promise<number>((resolve) => {
        release = resolve;
      });
    };
    const first = memo.load('MSFT', loader);
    const second = memo.load('MSFT', loader);
    release(42);
    expect(await Promise.all([first, second])).toEqual([42, 42]);
    expect(loads).toBe(1);
  });

  it('does not remember a failed load, so the next caller tries again', async () => {
    const memo = new Memo<number>({ max: 10, ttlMs: 60_000 });
    await expect(memo.load('TSLA', () => Promise.reject(new Error('database unavailable')))).rejects.toThrow(
      'database unavailable',
    );
    expect(await memo.load('TSLA', () => Promise.resolve(7))).toBe(7);
  });

  it('loads again once the stored value has expired', async () => {
    const time = clock();
    const memo = new Memo<number>({ max: 10, ttlMs: 1_000, clock: time.tick });
    let loads = 0;
    const loader = (): Promise<number> => Promise.resolve((loads += 1));
    expect(await memo.load('NVDA', loader)).toBe(1);
    time.now = 999;
    expect(await memo.load('NVDA', loader)).toBe(1);
    time.now = 1_000;
    expect(await memo.load('NVDA', loader)).toBe(2);
  });

  it('refuses a bound that is not a positive whole number', () => {
    expect(() => new Memo({ max: 0, ttlMs: 1 })).toThrow(RangeError);
  });
});
