import { describe, expect, it } from 'vitest';
import { statusProbeIntervalMs } from '../../src/server/app/config.ts';
import {
  barLevel,
  barsSummary,
  barText,
  latencyText,
  percentText,
  stateLabel,
  type StatusDay,
} from '../../src/lib/status.ts';

function day(date: string, checks: number, ok: number): StatusDay {
  return { date, checks, ok };
}

describe('the status page’s words and bars', () => {
  it('never rounds a day with a failed check up to 100%', () => {
    expect(percentText(1440, 1440)).toBe('100%');
    expect(percentText(1439, 1440)).toBe('99.93%');
    expect(percentText(99_999, 100_000)).toBe('99.99%');
    expect(percentText(1, 2)).toBe('50%');
    expect(percentText(0, 3)).toBe('0%');
    expect(percentText(0, 0)).toBe('No data');
  });

  it('colours a day by the share of its checks that passed, and a day without checks as no data', () => {
    expect(barLevel(day('2026-11-20', 10, 10))).toBe('full');
    expect(barLevel(day('2026-11-20', 1000, 995))).toBe('partial');
    expect(barLevel(day('2026-11-20', 100, 90))).toBe('poor');
    expect(barLevel(day('2026-11-20', 0, 0))).toBe('none');
  });

  it('names each bar by its day and its share of passed checks', () => {
    expect(barText(day('2026-11-20', 60, 60))).toBe('2026-11-20: 100% of checks passed');
    expect(barText(day('2026-11-21', 0, 0))).toBe('2026-11-21: No data');
  });

  it('sums the bars up in one sentence that lists each day with failed checks', () => {
    expect(barsSummary([day('2026-11-19', 0, 0), day('2026-11-20', 4, 2), day('2026-11-21', 5, 5)])).toBe(
      'Last 3 days: every check passed on 1 day, some failed on 1 day, no data on 1 day. Days with failed checks: 2026-11-20 (50% passed).',
    );
  });

  it('writes states and latencies as a reader expects them', () => {
    expect(stateLabel('down')).toBe('Down');
    expect(stateLabel('unknown')).toBe('No data yet');
    expect(latencyText(null)).toBe('—');
    expect(latencyText(37.6)).toBe('38 ms');
    expect(latencyText(2_340)).toBe('2.3 s');
  });
});

describe('the status probe interval', () => {
  it('is a minute by default and what STATUS_PROBE_INTERVAL_MS says otherwise', () => {
    expect(statusProbeIntervalMs({})).toBe(60_000);
    expect(statusProbeIntervalMs({ STATUS_PROBE_INTERVAL_MS: '2000' })).toBe(2_000);
  });

  it('refuses an interval that is not a whole number of at least a second, naming the variable', () => {
    expect(() => statusProbeIntervalMs({ STATUS_PROBE_INTERVAL_MS: '500' })).toThrow(
      'STATUS_PROBE_INTERVAL_MS',
    );
    expect(() => statusProbeIntervalMs({ STATUS_PROBE_INTERVAL_MS: 'often' })).toThrow(
      'STATUS_PROBE_INTERVAL_MS',
    );
  });
});
