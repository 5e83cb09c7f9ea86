import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adx,
  dema,
  ema,
  rsi,
  sma,
  standardDeviation,
  tema,
  williams,
  wma,
  type IndicatorSeries,
} from '../../src/server/services/market-data/technical-indicators.ts';

/** Compares a series with hand-computed values, `undefined` where the indicator is still warming up. */
function expectSeries(actual: IndicatorSeries, expected: (number | undefined)[]): void {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((value, index) => {
    if (value === undefined) expect(actual[index], `bar ${String(index)}`).toBeUndefined();
    else expect(actual[index], `bar ${String(index)}`).toBeCloseTo(value, 6);
  });
}

const u = undefined;

describe('moving averages', () => {
  it('the SMA is the mean of the last n closes, from the n-th bar on', () => {
    expectSeries(sma([1, 2, 3, 4, 5], 3), [u, u, 2, 3, 4]);
  });

  it('the EMA starts at the SMA of the first n closes and then moves half-way to each close when n is 3', () => {
    // α = 2 / (3 + 1) = 0.5; seed (2 + 4 + 6) / 3 = 4; then 0.5·8 + 0.5·4 = 6; 0.5·12 + 0.5·6 = 9.
    expectSeries(ema([2, 4, 6, 8, 12], 3), [u, u, 4, 6, 9]);
  });

  it('the WMA weighs the newest close n times the oldest', () => {
    // (1·1 + 2·2 + 3·3) / 6 and (1·2 + 2·3 + 3·4) / 6.
    expectSeries(wma([1, 2, 3, 4], 3), [u, u, 14 / 6, 20 / 6]);
  });

  it('the DEMA is twice the EMA less the EMA of the EMA, from bar 2n − 1', () => {
    // α = 2/3. EMA: 3, 5, 7, 31/3. EMA of it: seed (3 + 5) / 2 = 4, then 6, then 80/9.
    expectSeries(dema([2, 4, 6, 8, 12], 2), [u, u, 2 * 5 - 4, 2 * 7 - 6, (2 * 31) / 3 - 80 / 9]);
  });

  it('the TEMA adds the EMA of the EMA of the EMA, from bar 3n − 2', () => {
    // Third EMA over 4, 6, 80/9: seed 5, then (2/3)·(80/9) + (1/3)·5 = 205/27.
    expectSeries(tema([2, 4, 6, 8, 12], 2), [u, u, u, 3 * 7 - 3 * 6 + 5, 31 - 80 / 3 + 205 / 27]);
  });

  it('an SMA over a constant price is that price, whatever the length', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 1, max: 1000, noNaN: true }),
        (n, price) => {
          const values = Array.from({ length: n + 5 }, () => price);
          for (const series of [sma(values, n), ema(values, n), wma(values, n)])
            for (const value of series.slice(n - 1)) expect(value).toBeCloseTo(price, 6);
        },
      ),
    );
  });
});

describe('oscillators', () => {
  it('the RSI averages the first n gains and losses plainly, then smooths them the Wilder way', () => {
    // Changes +1, −0.5, +1, +0.5. Bar 2: gain 0.5, loss 0.25, RS 2 → 66.67. Bar 3: gain (0.5 + 1) / 2 =
    // 0.75, loss 0.125, RS 6 → 85.71. Bar 4: gain 0.625, loss 0.0625, RS 10 → 90.91.
    expectSeries(rsi([10, 11, 10.5, 11.5, 12], 2), [u, u, 100 - 100 / 3, 100 - 100 / 7, 100 - 100 / 11]);
  });

  it('the RSI is 100 without losses and 50 without any move', () => {
    expectSeries(rsi([1, 2, 3], 2), [u, u, 100]);
    expectSeries(rsi([5, 5, 5], 2), [u, u, 50]);
  });

  it('the standard deviation divides by n (population)', () => {
    expectSeries(standardDeviation([2, 4, 4, 4, 5, 5, 7, 9], 8), [u, u, u, u, u, u, u, 2]);
    expectSeries(standardDeviation([1, 3, 3], 2), [u, 1, 0]);
  });

  it('Williams %R places the close in the range of the last n bars, 0 at the high and −100 at the low', () => {
    const bars = [
      { high: 10, low: 8, close: 9 },
      { high: 11, low: 9, close: 10 },
      { high: 12, low: 10, close: 10 },
      { high: 12, low: 12, close: 12 },
    ];
    // Bar 1: (11 − 10) / (11 − 8) · −100; bar 2: (12 − 10) / (12 − 9) · −100; bar 3: (12 − 12) / (12 − 10).
    expectSeries(williams(bars, 2), [u, -100 / 3, -200 / 3, -0]);
    expectSeries(williams([{ high: 5, low: 5, close: 5 }], 1), [-50]);
  });

  it('the ADX averages the first n DX values and then smooths them the Wilder way', () => {
    const bars = [
      { high: 10, low: 8, close: 9 },
      { high: 11, low: 9, close: 10 }, // TR 2, +DM 1
      { high: 12, low: 10, close: 11 }, // TR 2, +DM 1 → sums TR 4, +DM 2, −DM 0: DX 100
      { high: 11, low: 9, close: 9.5 }, // TR 2, −DM 1 → TR 4, +DM 1, −DM 1: DX 0, ADX (100 + 0) / 2
      { high: 10, low: 7, close: 7.5 }, // TR 3, −DM 2 → TR 5, +DM 0.5, −DM 2.5: DI 10 / 50, DX 66.67
    ];
    expectSeries(adx(bars, 2), [u, u, u, 50, (50 + 200 / 3) / 2]);
  });
});
