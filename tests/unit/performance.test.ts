import { describe, expect, it } from 'vitest';
import { performance, periodStart, type ClosePoint } from '../../src/server/symbol-pages/performance.ts';

/** Daily closes from `from` to `to` inclusive (every calendar day), rising by one a day from `start`. */
function dailyCloses(from: string, to: string, start = 100): ClosePoint[] {
  const points: ClosePoint[] = [];
  let close = start;
  for (
    let time = Date.parse(`${from}T00:00:00Z`);
    time <= Date.parse(`${to}T00:00:00Z`);
    time += 86_400_000
  ) {
    points.push({ date: new Date(time).toISOString().slice(0, 10), close });
    close += 1;
  }
  return points.reverse();
}

function byPeriod(closes: readonly ClosePoint[]) {
  return Object.fromEntries(performance(closes).map((row) => [row.period, row]));
}

describe('periodStart', () => {
  it('goes back a week, months and years from the latest close', () => {
    expect(periodStart('1W', '2026-03-10')).toBe('2026-03-03');
    expect(periodStart('1M', '2026-03-10')).toBe('2026-02-10');
    expect(periodStart('3M', '2026-03-10')).toBe('2025-12-10');
    expect(periodStart('1Y', '2026-03-10')).toBe('2025-03-10');
    expect(periodStart('5Y', '2026-03-10')).toBe('2021-03-10');
  });

  it('measures year to date from the last day of the previous year', () => {
    expect(periodStart('YTD', '2026-03-10')).toBe('2025-12-31');
  });

  it('falls back to the last day of a shorter month', () => {
    expect(periodStart('1M', '2026-03-31')).toBe('2026-02-28');
    expect(periodStart('1Y', '2024-02-29')).toBe('2023-02-28');
  });
});

describe('performance', () => {
  it('compares the latest close with the close on the period start', () => {
    const rows = byPeriod(dailyCloses('2025-01-01', '2026-03-10'));
    const latest = 100 + 433; // 2025-01-01 … 2026-03-10 is 434 days
    expect(rows['1W']?.startDate).toBe('2026-03-03');
    expect(rows['1W']?.startClose).toBe(latest - 7);
    expect(rows['1W']?.changePercent).toBeCloseTo((latest / (latest - 7) - 1) * 100, 10);
    expect(rows.YTD?.startDate).toBe('2025-12-31');
    expect(rows['1Y']?.startDate).toBe('2025-03-10');
  });

  it('uses the last close before a start that fell on a day without trading', () => {
    const closes = [
      { date: '2026-03-10', close: 110 },
      { date: '2026-03-06', close: 100 },
      { date: '2026-03-02', close: 90 },
    ];
    const week = byPeriod(closes)['1W'];
    expect(week?.startDate).toBe('2026-03-02');
    expect(week?.changePercent).toBeCloseTo((110 / 90 - 1) * 100, 10);
  });

  it('leaves out periods the history does not reach back to', () => {
    const rows = byPeriod(dailyCloses('2025-06-01', '2026-03-10'));
    expect(rows['3M']?.changePercent).not.toBeNull();
    expect(rows['1Y']?.changePercent).toBeNull();
    expect(rows['1Y']?.startDate).toBeNull();
    expect(rows['5Y']?.changePercent).toBeNull();
  });

  it('gives no change for a period that starts from a close of zero', () => {
    const rows = byPeriod([
      { date: '2026-03-10', close: 5 },
      { date: '2026-03-01', close: 0 },
    ]);
    expect(rows['1W']?.changePercent).toBeNull();
  });

  it('reads closes in any order', () => {
    const closes = dailyCloses('2025-01-01', '2026-03-10');
    expect(performance([...closes].reverse())).toEqual(performance(closes));
  });

  it('has no values without closes', () => {
    const rows = performance([]);
    expect(rows).toHaveLength(6);
    expect(rows.every((row) => row.changePercent === null && row.endClose === null)).toBe(true);
  });

  it('lists the periods shortest first with readable labels', () => {
    expect(performance([]).map((row) => row.label)).toEqual([
      '1 week',
      '1 month',
      '3 months',
      'Year to date',
      '1 year',
      '5 years',
    ]);
  });
});
