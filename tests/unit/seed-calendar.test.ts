import { describe, expect, it } from 'vitest';
import { latestSettledWeekday } from '../../src/server/services/market-data/seed/calendar.ts';

describe('the default "as of" date of the demo data', () => {
  it('is yesterday during a New York session, so today’s unfinished bar is never stored', () => {
    // Wednesday 2026-11-25, 15:00 UTC: New York is open until 21:00 UTC.
    expect(latestSettledWeekday(new Date('2026-11-25T15:00:00Z'))).toBe('2026-11-24');
  });

  it('stays yesterday after New York closes, while the crypto day is still in progress', () => {
    expect(latestSettledWeekday(new Date('2026-11-25T23:59:59Z'))).toBe('2026-11-24');
  });

  it('becomes the day just ended at midnight UTC', () => {
    expect(latestSettledWeekday(new Date('2026-11-26T00:00:00Z'))).toBe('2026-11-25');
  });

  it('is the Friday before on a weekend and on the Monday after it', () => {
    expect(latestSettledWeekday(new Date('2026-11-28T12:00:00Z'))).toBe('2026-11-27');
    expect(latestSettledWeekday(new Date('2026-11-29T12:00:00Z'))).toBe('2026-11-27');
    expect(latestSettledWeekday(new Date('2026-11-30T12:00:00Z'))).toBe('2026-11-27');
  });
});
