import { shiftIsoDays, shiftIsoMonths, shiftIsoYears } from '../../lib/iso-date.ts';

/**
 * Price performance over the usual periods (1 week … 5 years, year to date), computed from daily
 * closes: the latest close against the last close on or before the period's start. A period the
 * history does not reach back to has no value rather than a misleadingly short one.
 */

export type PerformancePeriod = '1W' | '1M' | '3M' | 'YTD' | '1Y' | '5Y';

export interface PerformancePeriodDefinition {
  period: PerformancePeriod;
  label: string;
}

/** The periods of the overview pages, shortest first. */
export const PERFORMANCE_PERIODS: readonly PerformancePeriodDefinition[] = [
  { period: '1W', label: '1 week' },
  { period: '1M', label: '1 month' },
  { period: '3M', label: '3 months' },
  { period: 'YTD', label: 'Year to date' },
  { period: '1Y', label: '1 year' },
  { period: '5Y', label: '5 years' },
];

/** One daily close; `date` is YYYY-MM-DD. */
export interface ClosePoint {
  date: string;
  close: number;
}

export interface PerformanceRow {
  period: PerformancePeriod;
  label: string;
  /** The day whose close the change is measured from; null when the history is too short. */
  startDate: string | null;
  startClose: number | null;
  /** The latest close. */
  endClose: number | null;
  /** Percent points (12.5 means +12.5 %); null when the history is too short or the start close is 0. */
  changePercent: number | null;
}

/**
 * The date a period is measured from, given the latest close's date: a week, months or years
 * back, or the last day of the previous year for year to date.
 */
export function periodStart(period: PerformancePeriod, latest: string): string {
  switch (period) {
    case '1W':
      return shiftIsoDays(latest, -7);
    case '1M':
      return shiftIsoMonths(latest, -1);
    case '3M':
      return shiftIsoMonths(latest, -3);
    case 'YTD':
      return `${String(Number(latest.slice(0, 4)) - 1).padStart(4, '0')}-12-31`;
    case '1Y':
      return shiftIsoYears(latest, -1);
    case '5Y':
      return shiftIsoYears(latest, -5);
  }
}

/**
 * Performance of each period from daily closes in any order. Each change is measured from the
 * last close on or before the period's start (a weekend or holiday start uses the trading day
 * before it); when the first close is later than that start, the period has no value.
 */
export function performance(
  closes: readonly ClosePoint[],
  periods: readonly PerformancePeriodDefinition[] = PERFORMANCE_PERIODS,
): PerformanceRow[] {
  const usable = closes.filter((point) => Number.isFinite(point.close));
  const newestFirst = [...usable].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  const latest = newestFirst[0];
  return periods.map(({ period, label }) => {
    if (latest === undefined) {
      return { period, label, startDate: null, startClose: null, endClose: null, changePercent: null };
    }
    const start = periodStart(period, latest.date);
    const base = newestFirst.find((point) => point.date <= start);
    if (base === undefined) {
      return {
        period,
        label,
        startDate: null,
        startClose: null,
        endClose: latest.close,
        changePercent: null,
      };
    }
    const changePercent = base.close === 0 ? null : (latest.close / base.close - 1) * 100;
    return {
      period,
      label,
      startDate: base.date,
      startClose: base.close,
      endClose: latest.close,
      changePercent,
    };
  });
}
