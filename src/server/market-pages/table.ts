import type { AriaSort, MarketCell, MarketColumn, MarketTableView } from './view.ts';

/*
 * Sortable tables without script: each sortable header is a link to the same page with
 * `?sort=<column>&dir=asc|desc`, and the server sorts the rows before rendering them, so sorting
 * works in any browser and the sorted page can be linked and cached like any other.
 */

export type SortDirection = 'asc' | 'desc';

/** A column of rows of type R: its header, its cell and, when sortable, the value it sorts by. */
export interface ColumnDef<R> {
  key: string;
  label: string;
  numeric: boolean;
  cell: (row: R) => MarketCell;
  /** The value rows are ordered by; absent: the column is not sortable. Null sorts last either way. */
  sortValue?: (row: R) => number | string | null;
  /** The direction a first click sorts in (default: numbers descending, text ascending). */
  firstDirection?: SortDirection;
}

export interface SortState {
  key: string;
  dir: SortDirection;
}

/** Words for the caption: "sorted by Change, descending". */
const DIRECTION_WORDS: Readonly<Record<SortDirection, AriaSort>> = { asc: 'ascending', desc: 'descending' };

/**
 * The sort a request asks for: `sort` naming a sortable column and `dir` asc or desc. Anything else
 * (an unknown column, a missing or wrong direction) falls back to the page's default, so a stale or
 * hand-edited address still shows the table.
 */
export function parseSort<R>(
  params: URLSearchParams,
  columns: readonly ColumnDef<R>[],
  fallback: SortState,
): SortState {
  const key = params.get('sort');
  const column = columns.find((candidate) => candidate.key === key && candidate.sortValue !== undefined);
  if (column === undefined) return fallback;
  const dir = params.get('dir');
  return { key: column.key, dir: dir === 'asc' || dir === 'desc' ? dir : firstDirection(column) };
}

function firstDirection<R>(column: ColumnDef<R>): SortDirection {
  return column.firstDirection ?? (column.numeric ? 'desc' : 'asc');
}

function compareValues(a: number | string | null, b: number | string | null, dir: SortDirection): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const order = typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
  return dir === 'asc' ? order : -order;
}

/** Rows in the order a sort asks for; ties keep the order the rows came in (their own ranking). */
export function sortRows<R>(rows: readonly R[], columns: readonly ColumnDef<R>[], sort: SortState): R[] {
  const value = columns.find((column) => column.key === sort.key)?.sortValue;
  if (value === undefined) return [...rows];
  return rows
    .map((row, index) => ({ row, index, value: value(row) }))
    .sort((a, b) => compareValues(a.value, b.value, sort.dir) || a.index - b.index)
    .map((entry) => entry.row);
}

/** The page's address sorted by `key` in `dir`, keeping the request's other parameters. */
export function sortHref(path: string, params: URLSearchParams, key: string, dir: SortDirection): string {
  const next = new URLSearchParams(params);
  next.set('sort', key);
  next.set('dir', dir);
  return `${path}?${next.toString()}`;
}

export interface TableInput<R> {
  /** The page's path, for the sort links. */
  path: string;
  params: URLSearchParams;
  rows: readonly R[];
  columns: readonly ColumnDef<R>[];
  /** The order the page opens in. */
  defaultSort: SortState;
  /** What the rows are, for the caption ("Top gainers"). */
  subject: string;
  empty: string;
}

/**
 * A sorted table's view: headers with their sort links and `aria-sort`, the rows' cells in the
 * requested order, and a caption that says both what the rows are and how they are ordered.
 */
export function buildTable<R>(input: TableInput<R>): MarketTableView {
  const sort = parseSort(input.params, input.columns, input.defaultSort);
  const rows = sortRows(input.rows, input.columns, sort);
  const columns: MarketColumn[] = input.columns.map((column) => {
    const view: MarketColumn = { key: column.key, label: column.label, numeric: column.numeric };
    if (column.sortValue === undefined) return view;
    const current = column.key === sort.key;
    const next = current ? (sort.dir === 'asc' ? 'desc' : 'asc') : firstDirection(column);
    view.sortHref = sortHref(input.path, input.params, column.key, next);
    if (current) view.sort = DIRECTION_WORDS[sort.dir];
    return view;
  });
  const sortedBy = input.columns.find((column) => column.key === sort.key)?.label ?? sort.key;
  return {
    caption: `${input.subject}, sorted by ${sortedBy}, ${DIRECTION_WORDS[sort.dir]}`,
    columns,
    rows: rows.map((row) => input.columns.map((column) => column.cell(row))),
    empty: input.empty,
  };
}
