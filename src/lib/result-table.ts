/**
 * The model of the API viewer's table (`src/islands/parts/ResultTable.tsx`): the rows an answer holds
 * and their columns, the cells as text, the order a column header sets, and the CSV of it all. An
 * answer is usually a list of flat rows; an envelope such as `{symbol, historical: [...]}` holds its
 * rows in its one list; a single object is one row; anything else has no table, and says why.
 */
import { toCsv } from './csv.ts';
import { formatExactNumber, MISSING_VALUE } from './format.ts';

/** One row as the answer gave it (a list of plain values becomes rows of one `value` field). */
export type ResultRow = Readonly<Record<string, unknown>>;

export interface ResultColumn {
  /** The field name, also the header and the CSV column. */
  key: string;
  /** Every value present is a number: right-aligned in tabular figures. */
  numeric: boolean;
  /** Numbers grouped in thousands; not for years and timestamps, which read as identifiers. */
  grouping: boolean;
}

export interface ResultTable {
  kind: 'table';
  rows: readonly ResultRow[];
  columns: readonly ResultColumn[];
  /** The envelope's property the rows come from (`historical`); null when the answer is the rows. */
  source: string | null;
}

/** An answer without a table shape, and the reason the viewer shows instead. */
export interface NoTable {
  kind: 'none';
  reason: string;
}

/** Most rows the table renders; the CSV download holds all of them. */
export const TABLE_ROW_LIMIT = 500;

/** Longest a nested object or list reads in a cell before it is cut with "…" (the CSV has it all). */
export const CELL_JSON_LENGTH = 80;

const NO_GROUPING = /year|timestamp/i;

/** A plain object (not a list, not null): a row. */
function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Absent, null or empty text: sorted last either way, shown as a dash (empty text stays empty). */
export function isMissing(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

/** The columns of these rows: every key, in the order first seen, typed by the values present. */
export function columnsOf(rows: readonly ResultRow[]): ResultColumn[] {
  const seen = new Map<string, { numbers: number; others: number }>();
  for (const row of rows) {
    for (const key in row) {
      if (!Object.hasOwn(row, key)) continue;
      let count = seen.get(key);
      if (count === undefined) {
        count = { numbers: 0, others: 0 };
        seen.set(key, count);
      }
      const value = row[key];
      if (typeof value === 'number') count.numbers += 1;
      else if (!isMissing(value)) count.others += 1;
    }
  }
  return [...seen].map(([key, count]) => {
    const numeric = count.numbers > 0 && count.others === 0;
    return { key, numeric, grouping: numeric && !NO_GROUPING.test(key) };
  });
}

function fromList(list: readonly unknown[], source: string | null): ResultTable | NoTable {
  const where = source === null ? 'The answer' : `The list “${source}”`;
  if (list.length === 0) return { kind: 'none', reason: `${where} is empty: there are no rows to show.` };
  let rows: readonly ResultRow[];
  if (list.every(isRecord)) rows = list;
  else if (list.every((item) => typeof item !== 'object' || item === null))
    rows = list.map((value) => ({ value }));
  else {
    return {
      kind: 'none',
      reason: `${where} holds lists or a mix of rows and single values, which make no table: see the tree.`,
    };
  }
  return { kind: 'table', rows, columns: columnsOf(rows), source };
}

/** The message of an error answer (`{"Error Message": "…"}`, `{error: "…"}`), or undefined. */
export function errorMessage(answer: Readonly<Record<string, unknown>>): string | undefined {
  const keys = Object.keys(answer);
  if (keys.length > 3) return undefined;
  const key = keys.find((name) => /error/i.test(name) && typeof answer[name] === 'string');
  const message = key === undefined ? undefined : answer[key];
  return typeof message === 'string' ? message : undefined;
}

/**
 * The table of an answer: a list's rows (plain values as rows of one `value` column), the rows of an
 * envelope's one list of rows, or a single object as one row (its lists of plain values as fields);
 * otherwise why there is none (an error answer, text, a single value, an empty list, several lists).
 */
export function tableFromAnswer(answer: unknown): ResultTable | NoTable {
  if (Array.isArray(answer)) return fromList(answer, null);
  if (typeof answer === 'string')
    return { kind: 'none', reason: 'The answer is text, not rows: see it as text.' };
  if (!isRecord(answer)) return { kind: 'none', reason: 'The answer is a single value, not rows.' };
  const error = errorMessage(answer);
  if (error !== undefined) return { kind: 'none', reason: `The answer is an error: ${error}` };
  // Lists of rows (or empty ones) make the envelope; a list of plain values is a field of one row.
  const lists = Object.keys(answer).filter((key) => {
    const value = answer[key];
    return Array.isArray(value) && value.every(isRecord);
  });
  const [only] = lists;
  if (lists.length > 1) {
    return {
      kind: 'none',
      reason: `The answer holds several lists (${lists.join(', ')}), so no single table: see the tree.`,
    };
  }
  if (only !== undefined) return fromList(answer[only] as readonly unknown[], only);
  if (Object.keys(answer).length === 0) return { kind: 'none', reason: 'The answer is an empty object.' };
  const rows = [answer];
  return { kind: 'table', rows, columns: columnsOf(rows), source: null };
}

/** A cell as it reads: numbers with every digit, null as a dash, nested values as compact JSON. */
export function cellText(value: unknown, column: Pick<ResultColumn, 'grouping'>): string {
  if (value === null || value === undefined) return MISSING_VALUE;
  if (typeof value === 'number') return formatExactNumber(value, { grouping: column.grouping });
  if (typeof value === 'string') return value;
  if (typeof value === 'object') {
    const json = JSON.stringify(value);
    return json.length > CELL_JSON_LENGTH ? `${json.slice(0, CELL_JSON_LENGTH - 1)}…` : json;
  }
  return typeof value === 'boolean' || typeof value === 'bigint' ? String(value) : typeof value;
}

export type SortDirection = 'ascending' | 'descending';

/** The order the table shows: by a column, or (null) the answer's own. */
export interface TableSort {
  key: string;
  direction: SortDirection;
}

/** After a click on a column's header: ascending, then descending, then the answer's order again. */
export function nextSort(current: TableSort | null, key: string): TableSort | null {
  if (current?.key !== key) return { key, direction: 'ascending' };
  return current.direction === 'ascending' ? { key, direction: 'descending' } : null;
}

/** Text sorts as people read it (case and accents after letters, "AAPL9" before "AAPL10"). */
const collator = new Intl.Collator('en-US', { numeric: true });

/** Where values of different types meet in one column: numbers, then booleans, text, nested values. */
function typeRank(value: unknown): number {
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 0;
    case 'boolean':
      return 1;
    case 'string':
      return 2;
    default:
      return 3;
  }
}

/**
 * Ascending order of two present values: numbers by value, text (ISO dates included) by the collator,
 * false before true, nested values by their JSON; values of different types by type.
 */
export function compareValues(a: unknown, b: unknown): number {
  const rank = typeRank(a) - typeRank(b);
  if (rank !== 0) return rank;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return collator.compare(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return collator.compare(JSON.stringify(a), JSON.stringify(b));
}

/**
 * The rows in the order asked for, as a new list: stable (equal values keep the answer's order),
 * missing values (absent, null, empty text) last in both directions. Null keeps the answer's order.
 */
export function sortRows(rows: readonly ResultRow[], sort: TableSort | null): readonly ResultRow[] {
  if (sort === null) return rows;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const present: { row: ResultRow; value: unknown }[] = [];
  const missing: ResultRow[] = [];
  for (const row of rows) {
    const value = row[sort.key];
    if (isMissing(value)) missing.push(row);
    else present.push({ row, value });
  }
  present.sort((a, b) => sign * compareValues(a.value, b.value));
  return [...present.map((entry) => entry.row), ...missing];
}

/**
 * What the table's header says about its rows: their count and the envelope's list they come from,
 * or that only the first ones show.
 */
export function rowCountText(
  total: number,
  source: string | null = null,
  limit: number = TABLE_ROW_LIMIT,
): string {
  const count = (value: number): string => value.toLocaleString('en-US');
  const from = source === null ? '' : ` of “${source}”`;
  if (total > limit) {
    return `Showing the first ${count(limit)} of ${count(total)} rows${from}; download the CSV for all.`;
  }
  return `${count(total)} ${total === 1 ? 'row' : 'rows'}${from}`;
}

/** Said (politely) after a header click, since the order is not otherwise announced. */
export function sortAnnouncement(sort: TableSort | null): string {
  return sort === null ? 'Rows in the answer’s order.' : `Sorted by ${sort.key}, ${sort.direction}.`;
}

/**
 * The CSV download: every row in the order shown, through the site's one CSV writer (numbers in full,
 * nested values as JSON, formula-like text neutralised).
 */
export function tableCsv(columns: readonly ResultColumn[], rows: readonly ResultRow[]): string {
  return toCsv(
    rows,
    columns.map((column) => column.key),
  );
}
