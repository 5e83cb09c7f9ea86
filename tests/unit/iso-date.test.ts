import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  isIsoDate,
  isoDateInstant,
  isoDay,
  isoDayStart,
  isoDaysBetween,
  isoDaysThrough,
  isoWeekStart,
  shiftIsoDays,
  shiftIsoMonths,
  shiftIsoYears,
} from '../../src/lib/iso-date.ts';

describe('isoDay', () => {
  it('writes the UTC calendar day of an instant', () => {
    expect(isoDay(new Date('2026-11-20T23:59:59.999Z'))).toBe('2026-11-20');
    expect(isoDay(new Date('2026-11-21T00:00:00Z'))).toBe('2026-11-21');
    expect(isoDay(new Date('2026-11-20T23:30:00-05:00'))).toBe('2026-11-21');
  });

  it('answers the same day again, and the next day once it starts', () => {
    const day = Date.parse('2024-02-29T00:00:00Z');
    expect(isoDay(new Date(day + 1))).toBe('2024-02-29');
    expect(isoDay(new Date(day + DAY_MS - 1))).toBe('2024-02-29');
    expect(isoDay(new Date(day + DAY_MS))).toBe('2024-03-01');
    expect(isoDay(new Date(day - 1))).toBe('2024-02-28');
    expect(isoDay(new Date(-1))).toBe('1969-12-31');
  });

  it('refuses an invalid instant', () => {
    expect(() => isoDay(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('isIsoDate', () => {
  it('accepts real dates only', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2026-12-31')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('2026-04-31')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('2026-1-5')).toBe(false);
    expect(isIsoDate('0999-01-01')).toBe(false);
    expect(isIsoDate('2026-01-05T00:00:00Z')).toBe(false);
    expect(isIsoDate('')).toBe(false);
  });
});

describe('isoDayStart and isoDateInstant', () => {
  it('reads a date as its UTC midnight, and as noon for formatting', () => {
    expect(isoDayStart('2026-11-20')).toBe(Date.parse('2026-11-20T00:00:00Z'));
    expect(isoDateInstant('2026-11-20').toISOString()).toBe('2026-11-20T12:00:00.000Z');
  });

  it('gives NaN for text not written YYYY-MM-DD', () => {
    expect(isoDayStart('2026-11-20 10:00:00')).toBeNaN();
    expect(isoDayStart('20 Nov 2026')).toBeNaN();
    expect(isoDayStart('2026-13-01')).toBeNaN();
  });
});

describe('shiftIsoDays', () => {
  it('moves forward and back across months, years and leap days', () => {
    expect(shiftIsoDays('2026-11-20', 1)).toBe('2026-11-21');
    expect(shiftIsoDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(shiftIsoDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(shiftIsoDays('2023-03-01', -1)).toBe('2023-02-28');
    expect(shiftIsoDays('2026-01-01', -366)).toBe('2024-12-31');
    expect(shiftIsoDays('2026-11-20', 0)).toBe('2026-11-20');
  });
});

describe('shiftIsoMonths', () => {
  it('shifts months to the last day of a shorter month', () => {
    expect(shiftIsoMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(shiftIsoMonths('2026-05-20', -6)).toBe('2025-11-20');
  });

  it('clamps month ends in leap years and across year ends', () => {
    expect(shiftIsoMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(shiftIsoMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(shiftIsoMonths('2025-01-31', 1)).toBe('2025-02-28');
    expect(shiftIsoMonths('2026-05-31', -3)).toBe('2026-02-28');
    expect(shiftIsoMonths('2026-08-31', 1)).toBe('2026-09-30');
    expect(shiftIsoMonths('2026-01-15', -1)).toBe('2025-12-15');
    expect(shiftIsoMonths('2026-12-31', 2)).toBe('2027-02-28');
    expect(shiftIsoMonths('2026-03-31', -25)).toBe('2024-02-29');
  });

  it('keeps a day every month has', () => {
    expect(shiftIsoMonths('2026-02-28', 1)).toBe('2026-03-28');
    expect(shiftIsoMonths('2026-11-20', 0)).toBe('2026-11-20');
  });
});

describe('shiftIsoYears', () => {
  it('moves 29 February to the 28th in a common year, and keeps it in a leap year', () => {
    expect(shiftIsoYears('2024-02-29', -1)).toBe('2023-02-28');
    expect(shiftIsoYears('2024-02-29', 1)).toBe('2025-02-28');
    expect(shiftIsoYears('2024-02-29', 4)).toBe('2028-02-29');
    expect(shiftIsoYears('2024-02-29', -100)).toBe('1924-02-29');
  });

  it('shifts other days to the same day', () => {
    expect(shiftIsoYears('2026-11-20', -5)).toBe('2021-11-20');
    expect(shiftIsoYears('2026-12-31', 10)).toBe('2036-12-31');
  });
});

describe('isoDaysBetween', () => {
  it('counts whole days, negative when the end comes first', () => {
    expect(isoDaysBetween('2026-11-20', '2026-11-20')).toBe(0);
    expect(isoDaysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(isoDaysBetween('2023-02-28', '2023-03-01')).toBe(1);
    expect(isoDaysBetween('2025-01-01', '2026-01-01')).toBe(365);
    expect(isoDaysBetween('2024-01-01', '2025-01-01')).toBe(366);
    expect(isoDaysBetween('2026-03-01', '2026-02-01')).toBe(-28);
  });
});

describe('isoWeekStart', () => {
  it('finds the Monday of the week, a Sunday ending its week', () => {
    expect(isoWeekStart('2026-11-16')).toBe('2026-11-16');
    expect(isoWeekStart('2026-11-20')).toBe('2026-11-16');
    expect(isoWeekStart('2026-11-22')).toBe('2026-11-16');
    expect(isoWeekStart('2026-01-01')).toBe('2025-12-29');
  });
});

describe('isoDaysThrough', () => {
  it('lists every day of a range, both ends included', () => {
    expect(isoDaysThrough('2024-02-27', '2024-03-01')).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(isoDaysThrough('2026-11-20', '2026-11-20')).toEqual(['2026-11-20']);
  });

  it('lists nothing for a backwards or malformed range, and stops at the limit', () => {
    expect(isoDaysThrough('2026-11-21', '2026-11-20')).toEqual([]);
    expect(isoDaysThrough('soon', '2026-11-20')).toEqual([]);
    expect(isoDaysThrough('2000-01-01', '2026-11-20', 3)).toEqual(['2000-01-01', '2000-01-02', '2000-01-03']);
  });
});
