import { describe, expect, it } from 'vitest';
import {
  historyDownloadUrl,
  historyFilename,
  historyQuery,
  pageCount,
  parseHistoryRange,
  parsePageNumber,
} from '../../src/lib/history-range.ts';

const NOW = new Date('2026-11-22T15:00:00Z');

describe('parseHistoryRange', () => {
  it('defaults to the last year up to today', () => {
    expect(parseHistoryRange({}, NOW)).toEqual({
      range: { from: '2025-11-22', to: '2026-11-22' },
      problems: [],
    });
  });

  it('keeps a valid range as given', () => {
    expect(parseHistoryRange({ from: '2026-01-02', to: '2026-03-31' }, NOW).range).toEqual({
      from: '2026-01-02',
      to: '2026-03-31',
    });
  });

  it('starts a year before a given end when no start is given', () => {
    expect(parseHistoryRange({ to: '2026-03-31', from: '' }, NOW).range).toEqual({
      from: '2025-03-31',
      to: '2026-03-31',
    });
  });

  it('names an invalid date and falls back to the default range', () => {
    const parsed = parseHistoryRange({ from: '2026-02-30', to: '2026-03-31' }, NOW);
    expect(parsed.range).toEqual({ from: '2025-11-22', to: '2026-11-22' });
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]?.field).toBe('from');
    expect(parsed.problems[0]?.message).toContain('From');
  });

  it('reports both fields when both are invalid', () => {
    const parsed = parseHistoryRange({ from: 'soon', to: '31/12/2026' }, NOW);
    expect(parsed.problems.map((problem) => problem.field)).toEqual(['from', 'to']);
  });

  it('refuses a start after the end', () => {
    const parsed = parseHistoryRange({ from: '2026-05-01', to: '2026-04-01' }, NOW);
    expect(parsed.problems).toEqual([{ field: 'from', message: '“From” must be on or before “To”.' }]);
    expect(parsed.range).toEqual({ from: '2025-11-22', to: '2026-11-22' });
  });
});

describe('pages', () => {
  it('reads a positive whole page number and anything else as page 1', () => {
    expect(parsePageNumber('3')).toBe(3);
    expect(parsePageNumber('0')).toBe(1);
    expect(parsePageNumber('-2')).toBe(1);
    expect(parsePageNumber('2.5')).toBe(1);
    expect(parsePageNumber(null)).toBe(1);
  });

  it('counts at least one page of 25 rows', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(25)).toBe(1);
    expect(pageCount(26)).toBe(2);
  });

  it('writes the pager query with range and page', () => {
    expect(historyQuery({ from: '2026-01-01', to: '2026-02-01' }, 2)).toBe(
      '?from=2026-01-01&to=2026-02-01&page=2',
    );
  });
});

describe('downloads', () => {
  it('names the file after symbol and range', () => {
    expect(historyFilename('AAPL', { from: '2026-01-01', to: '2026-02-01' }, 'csv')).toBe(
      'AAPL-historical-2026-01-01-2026-02-01.csv',
    );
    expect(historyFilename('^GSPC', { from: '2026-01-01', to: '2026-02-01' }, 'json')).toBe(
      '^GSPC-historical-2026-01-01-2026-02-01.json',
    );
  });

  it('asks the history endpoint for the whole range', () => {
    expect(historyDownloadUrl('^GSPC', { from: '2026-01-01', to: '2026-02-01' }, 'csv')).toBe(
      '/api/market/history?symbol=%5EGSPC&from=2026-01-01&to=2026-02-01&format=csv',
    );
  });
});
