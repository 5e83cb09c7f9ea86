import { describe, expect, it } from 'vitest';
import {
  cellText,
  columnsOf,
  compareValues,
  nextSort,
  rowCountText,
  sortAnnouncement,
  sortRows,
  tableCsv,
  tableFromAnswer,
  type NoTable,
  type ResultRow,
  type ResultTable,
} from '../../src/lib/result-table.ts';

function asTable(answer: unknown): ResultTable {
  const table = tableFromAnswer(answer);
  if (table.kind !== 'table') throw new Error(`no table: ${table.reason}`);
  return table;
}

function reasonOf(answer: unknown): string {
  const table = tableFromAnswer(answer);
  if (table.kind === 'table') throw new Error('expected no table');
  return (table satisfies NoTable).reason;
}

function column(rows: readonly ResultRow[], key: string): unknown[] {
  return rows.map((row) => row[key]);
}

describe('the rows of an answer', () => {
  it('takes a list of rows as it is', () => {
    const answer = [
      { symbol: 'AAPL', price: 1.5 },
      { symbol: 'MSFT', price: 2 },
    ];
    const table = asTable(answer);
    expect(table.rows).toBe(answer);
    expect(table.source).toBeNull();
    expect(table.columns).toEqual([
      { key: 'symbol', numeric: false, grouping: false },
      { key: 'price', numeric: true, grouping: true },
    ]);
  });

  it('takes the rows of an envelope’s one list and names it', () => {
    const historical = [{ date: '2026-11-20', close: 1 }];
    const table = asTable({ symbol: 'AAPL', historical });
    expect(table.rows).toBe(historical);
    expect(table.source).toBe('historical');
    expect(table.columns.map((entry) => entry.key)).toEqual(['date', 'close']);
  });

  it('makes a single object one row, its nested values as fields', () => {
    const profile = { symbol: 'AAPL', tags: ['tech', 'large'], address: { city: 'Cupertino' } };
    const table = asTable(profile);
    expect(table.rows).toEqual([profile]);
    expect(table.columns.map((entry) => entry.key)).toEqual(['symbol', 'tags', 'address']);
  });

  it('makes a list of plain values rows of one value column', () => {
    const table = asTable(['AAPL', 'MSFT']);
    expect(table.rows).toEqual([{ value: 'AAPL' }, { value: 'MSFT' }]);
    expect(table.columns).toEqual([{ key: 'value', numeric: false, grouping: false }]);
  });

  it('unites the columns of all rows in the order first seen', () => {
    const table = asTable([{ a: 1 }, { b: 'x', a: 2 }, { c: null }, { d: 3, b: 'y' }]);
    expect(table.columns.map((entry) => entry.key)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('calls a column numeric when every value present is a number', () => {
    const columns = columnsOf([
      { n: 1, mixed: 1, empty: null, text: '', year: 2026, timestamp: 1764115200 },
      { n: null, mixed: '2', empty: null, text: 'a', year: 2025, timestamp: 1764201600 },
      { n: 3 },
    ]);
    expect(columns.map(({ key, numeric, grouping }) => [key, numeric, grouping])).toEqual([
      ['n', true, true],
      ['mixed', false, false],
      ['empty', false, false],
      ['text', false, false],
      ['year', true, false],
      ['timestamp', true, false],
    ]);
  });

  it('says why an error answer has no table', () => {
    expect(reasonOf({ 'Error Message': 'Invalid API KEY.' })).toBe(
      'The answer is an error: Invalid API KEY.',
    );
    expect(reasonOf({ error: 'Limit reached', status: 429 })).toBe('The answer is an error: Limit reached');
  });

  it('says why text, single values and empty answers have none', () => {
    expect(reasonOf('symbol,price\r\nAAPL,1\r\n')).toBe('The answer is text, not rows: see it as text.');
    for (const value of [null, 42, true, undefined]) {
      expect(reasonOf(value)).toBe('The answer is a single value, not rows.');
    }
    expect(reasonOf([])).toBe('The answer is empty: there are no rows to show.');
    expect(reasonOf({ symbol: 'AAPL', historical: [] })).toBe(
      'The list “historical” is empty: there are no rows to show.',
    );
    expect(reasonOf({})).toBe('The answer is an empty object.');
  });

  it('says why lists of lists, mixed lists and several lists have none', () => {
    expect(reasonOf([[1, 2]])).toMatch(/lists or a mix of rows and single values/);
    expect(reasonOf([{ a: 1 }, 2])).toMatch(/lists or a mix/);
    expect(reasonOf({ income: [{ a: 1 }], balance: [{ b: 2 }] })).toBe(
      'The answer holds several lists (income, balance), so no single table: see the tree.',
    );
  });
});

describe('cells', () => {
  const plain = { grouping: true };

  it('shows numbers with every digit, grouped unless the column is a year', () => {
    expect(cellText(383285000000, plain)).toBe('383,285,000,000');
    expect(cellText(0.30000000000000004, plain)).toBe('0.30000000000000004');
    expect(cellText(-1.25, plain)).toBe('-1.25');
    expect(cellText(2026, { grouping: false })).toBe('2026');
  });

  it('shows text as it is, null as a dash and booleans as words', () => {
    expect(cellText('2026-11-20', plain)).toBe('2026-11-20');
    expect(cellText('', plain)).toBe('');
    expect(cellText(null, plain)).toBe('–');
    expect(cellText(undefined, plain)).toBe('–');
    expect(cellText(false, plain)).toBe('false');
  });

  it('shows nested values as compact JSON, cut when long', () => {
    expect(cellText({ city: 'Cupertino' }, plain)).toBe('{"city":"Cupertino"}');
    expect(cellText([1, 2], plain)).toBe('[1,2]');
    const long = cellText({ text: 'x'.repeat(200) }, plain);
    expect(long).toHaveLength(80);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('sorting', () => {
  it('goes ascending, descending, then back to the answer’s order', () => {
    const first = nextSort(null, 'price');
    expect(first).toEqual({ key: 'price', direction: 'ascending' });
    const second = nextSort(first, 'price');
    expect(second).toEqual({ key: 'price', direction: 'descending' });
    expect(nextSort(second, 'price')).toBeNull();
    expect(nextSort(second, 'symbol')).toEqual({ key: 'symbol', direction: 'ascending' });
  });

  it('sorts numbers by value, not as text', () => {
    const rows = [{ n: 10 }, { n: 9 }, { n: -2 }, { n: 100 }, { n: 0.5 }];
    expect(column(sortRows(rows, { key: 'n', direction: 'ascending' }), 'n')).toEqual([-2, 0.5, 9, 10, 100]);
    expect(column(sortRows(rows, { key: 'n', direction: 'descending' }), 'n')).toEqual([100, 10, 9, 0.5, -2]);
  });

  it('sorts ISO dates and text as text, digits by value', () => {
    const rows = [{ d: '2026-11-20' }, { d: '2025-01-31' }, { d: '2026-02-01T09:30:00Z' }];
    expect(column(sortRows(rows, { key: 'd', direction: 'ascending' }), 'd')).toEqual([
      '2025-01-31',
      '2026-02-01T09:30:00Z',
      '2026-11-20',
    ]);
    const names = [{ s: 'b' }, { s: 'AAPL10' }, { s: 'AAPL9' }, { s: 'a' }];
    expect(column(sortRows(names, { key: 's', direction: 'ascending' }), 's')).toEqual([
      'a',
      'AAPL9',
      'AAPL10',
      'b',
    ]);
  });

  it('puts absent, null and empty values last in both directions', () => {
    const rows = [{ n: null }, { n: 2 }, {}, { n: '' }, { n: 1 }];
    expect(column(sortRows(rows, { key: 'n', direction: 'ascending' }), 'n')).toEqual([
      1,
      2,
      null,
      undefined,
      '',
    ]);
    expect(column(sortRows(rows, { key: 'n', direction: 'descending' }), 'n')).toEqual([
      2,
      1,
      null,
      undefined,
      '',
    ]);
  });

  it('is stable: equal values keep the answer’s order in both directions', () => {
    const rows = [
      { k: 1, id: 'a' },
      { k: 0, id: 'b' },
      { k: 1, id: 'c' },
      { k: 0, id: 'd' },
    ];
    expect(column(sortRows(rows, { key: 'k', direction: 'ascending' }), 'id')).toEqual(['b', 'd', 'a', 'c']);
    expect(column(sortRows(rows, { key: 'k', direction: 'descending' }), 'id')).toEqual(['a', 'c', 'b', 'd']);
  });

  it('orders mixed types numbers, booleans, text, nested values', () => {
    const rows = [{ v: 'x' }, { v: { a: 1 } }, { v: true }, { v: 3 }, { v: false }, { v: 1 }];
    expect(column(sortRows(rows, { key: 'v', direction: 'ascending' }), 'v')).toEqual([
      1,
      3,
      false,
      true,
      'x',
      { a: 1 },
    ]);
    expect(compareValues([1], [2])).toBeLessThan(0);
  });

  it('leaves the rows alone in the answer’s order and never changes them in place', () => {
    const rows = [{ n: 2 }, { n: 1 }];
    expect(sortRows(rows, null)).toBe(rows);
    sortRows(rows, { key: 'n', direction: 'ascending' });
    expect(column(rows, 'n')).toEqual([2, 1]);
  });

  it('says the new order', () => {
    expect(sortAnnouncement({ key: 'revenue', direction: 'descending' })).toBe(
      'Sorted by revenue, descending.',
    );
    expect(sortAnnouncement(null)).toBe('Rows in the answer’s order.');
  });
});

describe('the row count and the CSV', () => {
  it('counts the rows, and says when only the first 500 show', () => {
    expect(rowCountText(1)).toBe('1 row');
    expect(rowCountText(500)).toBe('500 rows');
    expect(rowCountText(10_000)).toBe('Showing the first 500 of 10,000 rows; download the CSV for all.');
    expect(rowCountText(250, 'historical')).toBe('250 rows of “historical”');
    expect(rowCountText(620, 'historical')).toBe(
      'Showing the first 500 of 620 rows of “historical”; download the CSV for all.',
    );
  });

  it('writes every row in the order shown, numbers in full and nested values as JSON', () => {
    const table = asTable([
      { symbol: 'MSFT', revenue: 245122000000, eps: null, tags: ['a'] },
      { symbol: 'AAPL', revenue: 391035000000.5, eps: 6.11 },
      { symbol: '=cmd', revenue: null, eps: -1 },
    ]);
    const rows = sortRows(table.rows, { key: 'revenue', direction: 'descending' });
    expect(tableCsv(table.columns, rows)).toBe(
      [
        'symbol,revenue,eps,tags',
        'AAPL,391035000000.5,6.11,',
        'MSFT,245122000000,,"[""a""]"',
        "'=cmd,,-1,",
        '',
      ].join('\r\n'),
    );
  });

  it('writes all of 10,000 rows, not the 500 shown', () => {
    const table = asTable(Array.from({ length: 10_000 }, (_, index) => ({ index })));
    const lines = tableCsv(table.columns, table.rows).split('\r\n');
    expect(lines).toHaveLength(10_002);
    expect(lines[10_000]).toBe('9999');
  });
});
