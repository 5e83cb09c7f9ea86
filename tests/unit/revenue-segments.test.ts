import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitRevenue } from '../../src/server/services/market-data/seed/stmts.ts';

describe('splitting revenue into segments', () => {
  it('rounds each part and gives the last what the rounding left', () => {
    // 100 by 1:1:1 → 33, 33 and the remaining 34.
    expect(splitRevenue(100, ['a', 'b', 'c'], [1, 1, 1])).toEqual({ a: 33, b: 33, c: 34 });
  });

  it('always adds up to the revenue exactly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e12 }),
        fc.array(fc.double({ min: 0.05, max: 3, noNaN: true }), { minLength: 2, maxLength: 5 }),
        (revenue, weights) => {
          const parts = splitRevenue(
            revenue,
            weights.map((_, index) => `s${String(index)}`),
            weights,
          );
          expect(Object.values(parts).reduce((sum, part) => sum + part, 0)).toBe(revenue);
        },
      ),
    );
  });
});
