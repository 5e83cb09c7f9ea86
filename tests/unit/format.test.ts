import { describe, expect, it } from 'vitest';
import {
  formatCents,
  formatDate,
  formatExactNumber,
  formatNumber,
  formatPercent,
  formatPrice,
} from '../../src/lib/format.ts';

const DASH = '–';

describe('formatNumber', () => {
  it('shows zero as 0', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(-0)).toBe('0');
  });

  it('shows values under 1,000 plainly with at most two decimals', () => {
    expect(formatNumber(999.5)).toBe('999.5');
    expect(formatNumber(12.3456)).toBe('12.35');
    expect(formatNumber(7)).toBe('7');
  });

  it('keeps the sign of negative values', () => {
    expect(formatNumber(-12.345)).toBe('-12.35');
    expect(formatNumber(-1_500_000)).toBe('-1.5M');
    expect(formatNumber(-50_000)).toBe('-50,000');
  });

  it('does not show a minus sign on a negative value that rounds to zero', () => {
    expect(formatNumber(-0.001)).toBe('0');
  });

  it('shows 1,000 in full with a thousands separator', () => {
    expect(formatNumber(1000)).toBe('1,000');
  });

  it('shows values up to 100,000 with full digits and separators', () => {
    expect(formatNumber(99_999.5)).toBe('99,999.5');
    expect(formatNumber(12_345.678)).toBe('12,345.68');
    expect(formatNumber(100_000)).toBe('100,000');
  });

  it('abbreviates values above 100,000', () => {
    expect(formatNumber(100_001)).toBe('100k');
    expect(formatNumber(250_500)).toBe('250.5k');
    expect(formatNumber(1_234_567)).toBe('1.23M');
    expect(formatNumber(4.5e9)).toBe('4.5B');
    expect(formatNumber(1e12)).toBe('1T');
    expect(formatNumber(2.5e15)).toBe('2.5P');
    expect(formatNumber(1e18)).toBe('1E');
  });

  it('carries to the next unit when rounding reaches 1,000', () => {
    expect(formatNumber(999_999)).toBe('1M');
    expect(formatNumber(999_995)).toBe('1M');
    expect(formatNumber(999_994)).toBe('999.99k');
    expect(formatNumber(999_999_999)).toBe('1B');
    expect(formatNumber(-999_999)).toBe('-1M');
  });

  it('carries according to the number of decimals asked for', () => {
    expect(formatNumber(999_400, { maximumFractionDigits: 0 })).toBe('999k');
    expect(formatNumber(999_600, { maximumFractionDigits: 0 })).toBe('1M');
  });

  it('stays in E with separators beyond the E range', () => {
    expect(formatNumber(1e21)).toBe('1,000E');
  });

  it('shows a dash for NaN, infinities, null and undefined', () => {
    expect(formatNumber(Number.NaN)).toBe(DASH);
    expect(formatNumber(Infinity)).toBe(DASH);
    expect(formatNumber(-Infinity)).toBe(DASH);
    expect(formatNumber(null)).toBe(DASH);
    expect(formatNumber(undefined)).toBe(DASH);
  });

  it('uses the separators of the locale asked for', () => {
    expect(formatNumber(12_345.5, { locale: 'de-DE' })).toBe('12.345,5');
    expect(formatNumber(1_234_567, { locale: 'de-DE' })).toBe('1,23M');
  });
});

describe('formatPrice', () => {
  it('shows two decimals with thousands separators', () => {
    expect(formatPrice(1234.5)).toBe('1,234.50');
    expect(formatPrice(0.129)).toBe('0.13');
    expect(formatPrice(-3)).toBe('-3.00');
  });

  it('shows a dash for non-finite values', () => {
    expect(formatPrice(Number.NaN)).toBe(DASH);
    expect(formatPrice(Infinity)).toBe(DASH);
    expect(formatPrice(null)).toBe(DASH);
  });
});

describe('formatPercent', () => {
  it('always shows the sign of a change with two decimals', () => {
    expect(formatPercent(1.25)).toBe('+1.25%');
    expect(formatPercent(-0.5)).toBe('-0.50%');
  });

  it('shows no sign for a change that rounds to zero', () => {
    expect(formatPercent(0)).toBe('0.00%');
    expect(formatPercent(-0.001)).toBe('0.00%');
  });

  it('shows a dash for non-finite values', () => {
    expect(formatPercent(Number.NaN)).toBe(DASH);
    expect(formatPercent(-Infinity)).toBe(DASH);
    expect(formatPercent(undefined)).toBe(DASH);
  });
});

describe('formatDate', () => {
  // Noon UTC keeps the calendar date the same in every time zone from UTC-11 to UTC+11.
  const now = new Date('2026-11-22T12:00:00Z');
  const ago = (ms: number): Date => new Date(now.getTime() - ms);
  const SECOND = 1000;
  const MINUTE = 60 * SECOND;
  const HOUR = 60 * MINUTE;
  const DAY = 24 * HOUR;

  it('shows "just now" for a date 30 seconds ago', () => {
    expect(formatDate(ago(30 * SECOND), now)).toBe('just now');
  });

  it('counts minutes from 45 seconds on', () => {
    expect(formatDate(ago(45 * SECOND), now)).toBe('1 minute ago');
  });

  it('shows a date 5 minutes ago as "5 minutes ago"', () => {
    expect(formatDate(ago(5 * MINUTE), now)).toBe('5 minutes ago');
  });

  it('shows a date 3 hours ago as "3 hours ago"', () => {
    expect(formatDate(ago(3 * HOUR + 59 * MINUTE), now)).toBe('3 hours ago');
  });

  it('shows a date one day ago as "yesterday"', () => {
    expect(formatDate(ago(DAY), now)).toBe('yesterday');
  });

  it('still shows relative time 7 days 23 hours ago', () => {
    expect(formatDate(ago(7 * DAY + 23 * HOUR), now)).toBe('7 days ago');
  });

  it('shows relative time for dates in the near future', () => {
    expect(formatDate(new Date(now.getTime() + 3 * HOUR), now)).toBe('in 3 hours');
  });

  it('shows a long date from exactly 8 days ago on', () => {
    expect(formatDate(ago(8 * DAY), now)).toBe('November 14, 2026');
    expect(formatDate(ago(40 * DAY), now)).toBe('October 13, 2026');
  });

  it('shows a long date for dates 8 days or more in the future', () => {
    expect(formatDate(new Date(now.getTime() + 8 * DAY), now)).toBe('November 30, 2026');
  });

  it('accepts ISO strings and timestamps', () => {
    expect(formatDate('2026-11-22T07:00:00Z', now)).toBe('5 hours ago');
    expect(formatDate(now.getTime() - 2 * DAY, now)).toBe('2 days ago');
  });

  it('uses the locale asked for', () => {
    expect(formatDate(ago(40 * DAY), now, 'de-DE')).toBe('13. Oktober 2026');
    expect(formatDate(ago(2 * DAY), now, 'de-DE')).toBe('vorgestern');
  });

  it('shows a dash for an invalid date', () => {
    expect(formatDate('not a date', now)).toBe(DASH);
    expect(formatDate(Number.NaN, now)).toBe(DASH);
    expect(formatDate(new Date(Number.NaN), now)).toBe(DASH);
  });
});

describe('formatCents', () => {
  it('states a charge with its cents, and a round list price without them when asked', () => {
    expect(formatCents(3900, 'usd')).toBe('$39.00');
    expect(formatCents(3900, 'usd', { wholeUnits: true })).toBe('$39');
    expect(formatCents(3120, 'usd', { wholeUnits: true })).toBe('$31.20');
    expect(formatCents(2925, 'usd')).toBe('$29.25');
  });
});

describe('formatExactNumber', () => {
  it('keeps every digit and groups the integer part', () => {
    expect(formatExactNumber(383285000000)).toBe('383,285,000,000');
    expect(formatExactNumber(-1234.5)).toBe('-1,234.5');
    expect(formatExactNumber(0.30000000000000004)).toBe('0.30000000000000004');
    expect(formatExactNumber(Number.MAX_SAFE_INTEGER)).toBe('9,007,199,254,740,991');
    expect(formatExactNumber(0.000412)).toBe('0.000412');
    expect(formatExactNumber(-0)).toBe('0');
  });

  it('leaves grouping out when asked (years, identifiers)', () => {
    expect(formatExactNumber(2026, { grouping: false })).toBe('2026');
  });

  it('keeps the exponent form of very small and very large values', () => {
    expect(formatExactNumber(1.5e-7)).toBe('1.5e-7');
    expect(formatExactNumber(1e21)).toBe('1e+21');
  });

  it('shows a dash for missing and non-finite values', () => {
    expect(formatExactNumber(null)).toBe('–');
    expect(formatExactNumber(Number.NaN)).toBe('–');
  });
});
