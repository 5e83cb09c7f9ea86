import { isIsoDate, isoDay, shiftIsoYears } from './iso-date.ts';

/**
 * The date range and page of the historical-prices pages and of their download endpoint, read the
 * same way in both so a download holds exactly the rows the table pages through.
 */

/** Rows per page of the historical prices table. */
export const HISTORY_PAGE_SIZE = 25;

/** Years shown when the visitor names no range. */
export const HISTORY_DEFAULT_YEARS = 1;

export interface HistoryRange {
  /** First day, YYYY-MM-DD (inclusive). */
  from: string;
  /** Last day, YYYY-MM-DD (inclusive). */
  to: string;
}

export type HistoryRangeField = 'from' | 'to';

/** A query value that could not be used, named by its parameter and explained in words. */
export interface HistoryRangeProblem {
  field: HistoryRangeField;
  message: string;
}

export interface ParsedHistoryRange {
  /** The range to show: the one asked for, or the default when any part of it was unusable. */
  range: HistoryRange;
  /** Empty when the query was usable. */
  problems: HistoryRangeProblem[];
}

const FIELD_LABELS: Readonly<Record<HistoryRangeField, string>> = { from: 'From', to: 'To' };

/** The last year up to today (UTC). */
export function defaultHistoryRange(now: Date): HistoryRange {
  const to = isoDay(now);
  return { from: shiftIsoYears(to, -HISTORY_DEFAULT_YEARS), to };
}

/**
 * Reads `from` and `to` (YYYY-MM-DD, each optional: `to` defaults to today, `from` to a year before
 * `to`). An invalid date, or a start after the end, is reported by field and the whole default
 * range is used instead, so a mistyped link still shows prices rather than an error page.
 */
export function parseHistoryRange(
  query: { from?: string | null | undefined; to?: string | null | undefined },
  now: Date,
): ParsedHistoryRange {
  const fallback = defaultHistoryRange(now);
  const problems: HistoryRangeProblem[] = [];
  const read = (field: HistoryRangeField): string | undefined => {
    const value = query[field]?.trim() ?? '';
    if (value === '') return undefined;
    if (isIsoDate(value)) return value;
    problems.push({
      field,
      message: `“${FIELD_LABELS[field]}” is not a valid date; use the form YYYY-MM-DD, for example ${fallback.to}.`,
    });
    return undefined;
  };
  const givenFrom = read('from');
  const givenTo = read('to');
  if (problems.length > 0) return { range: fallback, problems };
  const to = givenTo ?? fallback.to;
  const from = givenFrom ?? shiftIsoYears(to, -HISTORY_DEFAULT_YEARS);
  if (from > to) {
    return {
      range: fallback,
      problems: [{ field: 'from', message: '“From” must be on or before “To”.' }],
    };
  }
  return { range: { from, to }, problems };
}

/** The page asked for: a whole number from 1, anything else reads as the first page. */
export function parsePageNumber(value: string | null | undefined): number {
  const text = value?.trim() ?? '';
  if (!/^\d{1,6}$/.test(text)) return 1;
  return Math.max(1, Number(text));
}

/** Pages needed for `total` rows (at least one, so an empty range still has a page 1). */
export function pageCount(total: number, size: number = HISTORY_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / size));
}

/** The query string of one page of a range, as the pager links write it. */
export function historyQuery(range: HistoryRange, page: number): string {
  return `?${new URLSearchParams({ from: range.from, to: range.to, page: String(page) }).toString()}`;
}

export type HistoryFormat = 'csv' | 'json';

/** The download's file name: `AAPL-historical-2025-01-02-2025-12-31.csv`. */
export function historyFilename(symbol: string, range: HistoryRange, format: HistoryFormat): string {
  const safe = symbol.replace(/[^\w.^=-]/g, '_');
  return `${safe}-historical-${range.from}-${range.to}.${format}`;
}

/** The site endpoint that answers every row of a range (`GET /api/market/history`). */
export function historyDownloadUrl(symbol: string, range: HistoryRange, format: HistoryFormat): string {
  const query = new URLSearchParams({ symbol, from: range.from, to: range.to, format });
  return `/api/market/history?${query.toString()}`;
}
