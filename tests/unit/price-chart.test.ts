import { describe, expect, it } from 'vitest';
import {
  chartSummary,
  hasVolume,
  isChartRange,
  rangeChange,
  recentRows,
  weeklyBars,
  type ChartBar,
} from '../../src/lib/price-chart.ts';
import { chartTime } from '../../src/lib/stores/price-chart.ts';
import { dailyWindow } from '../../src/server/symbol-pages/chart.ts';

function bar(time: string, open: number, close: number, volume = 100): ChartBar {
  return { time, open, close, high: Math.max(open, close) + 1, low: Math.min(open, close) - 1, volume };
}

const NOW = new Date('2026-11-20T21:00:00Z');

describe('price chart ranges', () => {
  it('accepts the eight ranges and nothing else', () => {
    for (const range of ['1D', '5D', '1M', '6M', 'YTD', '1Y', '5Y', 'Max'])
      expect(isChartRange(range)).toBe(true);
    expect(isChartRange('2W')).toBe(false);
    expect(isChartRange('max')).toBe(false);
    expect(isChartRange(undefined)).toBe(false);
  });

  it('ends daily windows on the latest bar and starts them the day after the same date earlier', () => {
    expect(dailyWindow('1Y', '2026-11-20')).toEqual({ from: '2025-11-21', to: '2026-11-20' });
    expect(dailyWindow('1M', '2026-03-31')).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(dailyWindow('YTD', '2026-11-20')).toEqual({ from: '2026-01-01', to: '2026-11-20' });
    expect(dailyWindow('Max', '2026-11-20').from).toBe('1900-01-01');
  });
});

describe('weeklyBars', () => {
  it('merges the days of each calendar week into one bar', () => {
    const weeks = weeklyBars([
      bar('2026-11-09', 10, 11, 5),
      bar('2026-11-10', 11, 14, 5),
      bar('2026-11-13', 14, 12, 5),
      bar('2026-11-16', 12, 13, 7),
    ]);
    expect(weeks).toEqual([
      { time: '2026-11-09', open: 10, high: 15, low: 9, close: 12, volume: 15 },
      { time: '2026-11-16', open: 12, high: 14, low: 11, close: 13, volume: 7 },
    ]);
  });

  it('keeps a Sunday with the week it ends', () => {
    expect(
      weeklyBars([bar('2026-11-14', 1, 2), bar('2026-11-15', 2, 3), bar('2026-11-16', 3, 4)]),
    ).toHaveLength(2);
  });
});

describe('chart texts', () => {
  it('measures the change from the first open to the last close', () => {
    expect(rangeChange([bar('2026-11-18', 100, 105), bar('2026-11-19', 105, 110)])).toBeCloseTo(10);
    expect(rangeChange([])).toBeNull();
  });

  it('summarises the range with its dates, low, high and change', () => {
    const text = chartSummary(
      {
        symbol: 'AAPL',
        range: '1Y',
        interval: '1day',
        bars: [bar('2025-11-21', 100, 105), bar('2026-11-19', 105, 110)],
      },
      'stock',
      NOW,
    );
    expect(text).toBe(
      'AAPL price chart, 1 year in daily bars, from November 21, 2025 to yesterday: low 99.00, high 111.00, change +10.00%.',
    );
  });

  it('says so when a range has no prices', () => {
    expect(chartSummary({ symbol: 'EURUSD', range: '1D', interval: '5min', bars: [] }, 'forex', NOW)).toBe(
      'EURUSD price chart, 1 day in 5-minute bars: no prices in this range.',
    );
  });

  it('gives the session hours of a one-day intraday range', () => {
    const text = chartSummary(
      {
        symbol: 'AAPL',
        range: '1D',
        interval: '5min',
        bars: [bar('2026-11-20 09:30:00', 100, 101), bar('2026-11-20 15:55:00', 101, 102)],
      },
      'stock',
      NOW,
    );
    expect(text).toContain('from 09:30 to 15:55 exchange time');
  });

  it('lists the newest days first with the change against the day before', () => {
    const rows = recentRows(
      [bar('2026-11-01', 10, 10), bar('2026-11-02', 10, 11), bar('2026-11-03', 11, 9.9)],
      'stock',
      2,
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(['Nov 3, 2026', '11.00', '12.00', '8.90', '9.90', '100', '-10.00%']);
    expect(rows[1]?.[6]).toBe('+10.00%');
  });

  it('shows forex prices with four decimals and no volume where none traded', () => {
    const rows = recentRows([bar('2026-11-02', 1.08, 1.0812, 0)], 'forex');
    expect(rows[0]?.[4]).toBe('1.0812');
    expect(rows[0]?.[5]).toBe('–');
    expect(rows[0]?.[6]).toBe('–');
    expect(hasVolume([bar('2026-11-02', 1, 1, 0)])).toBe(false);
  });

  it('reads intraday times on the exchange clock as UTC seconds', () => {
    expect(chartTime('2026-11-20 09:30:00')).toBe(Date.parse('2026-11-20T09:30:00Z') / 1000);
    expect(chartTime('2026-11-20')).toBe(Date.parse('2026-11-20T00:00:00Z') / 1000);
  });
});
