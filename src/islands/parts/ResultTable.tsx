import { useId, useMemo, useState, type ReactNode } from 'react';
import { saveFile } from '../../lib/download.ts';
import {
  cellText,
  isMissing,
  nextSort,
  rowCountText,
  sortAnnouncement,
  sortRows,
  TABLE_ROW_LIMIT,
  tableCsv,
  tableFromAnswer,
  type TableSort,
} from '../../lib/result-table.ts';
import './ResultTable.css';

export interface ResultTableProps {
  /** The answer as parsed JSON: rows, an envelope holding them, or a single object. */
  answer: unknown;
  /** The CSV download's file name, extension included (`income-statement-AAPL.csv`). */
  filename: string;
  /** Names the table and its scrolling region ("Answer of /stable/income-statement"). */
  label: string;
}

interface SortState {
  answer: unknown;
  sort: TableSort | null;
  /** Said by the live region after a header click; empty until the first one. */
  announcement: string;
}

const SORT_ICONS = { ascending: '▲', descending: '▼' } as const;

/** Text longer than this wraps in a wide cell instead of stretching its column across the screen. */
const LONG_TEXT = 60;

/**
 * The API viewer's answer as a table: columns sortable from their headers (a button each, `aria-sort`
 * on the sorted one), the first 500 rows rendered, numbers right-aligned with every digit, a sticky
 * header in a scrolling region the keyboard can reach, and a CSV download of every row in the order
 * shown. An answer without rows says why instead.
 */
export function ResultTable({ answer, filename, label }: ResultTableProps): ReactNode {
  const table = useMemo(() => tableFromAnswer(answer), [answer]);
  const [state, setState] = useState<SortState>({ answer, sort: null, announcement: '' });
  // A new answer starts in its own order (the state is reset during render, as React recommends).
  const current = Object.is(state.answer, answer) ? state : { answer, sort: null, announcement: '' };
  if (current !== state) setState(current);
  const { sort } = current;
  const rows = useMemo(() => (table.kind === 'table' ? sortRows(table.rows, sort) : []), [table, sort]);
  const countId = useId();

  if (table.kind === 'none') return <p className="result-table__none">{table.reason}</p>;

  const shown = rows.slice(0, TABLE_ROW_LIMIT);
  return (
    <div className="result-table">
      <div className="result-table__bar">
        <p id={countId} className="result-table__count">
          {rowCountText(rows.length, table.source)}
        </p>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => {
            saveFile(tableCsv(table.columns, rows), filename, 'csv');
          }}
        >
          Download CSV
        </button>
      </div>
      <p role="status" className="visually-hidden">
        {current.announcement}
      </p>
      <div className="result-table__scroll" tabIndex={0} role="region" aria-label={label}>
        <table className="result-table__table" aria-describedby={countId}>
          <caption className="visually-hidden">{label}</caption>
          <thead>
            <tr>
              {table.columns.map((column) => {
                const direction = sort?.key === column.key ? sort.direction : undefined;
                return (
                  <th
                    key={column.key}
                    scope="col"
                    aria-sort={direction}
                    className={column.numeric ? 'result-table__num' : undefined}
                  >
                    <button
                      type="button"
                      className="result-table__sort"
                      onClick={() => {
                        const next = nextSort(sort, column.key);
                        setState({ answer, sort: next, announcement: sortAnnouncement(next) });
                      }}
                    >
                      {column.key}
                      <span className="result-table__sort-icon" aria-hidden="true">
                        {direction === undefined ? '↕' : SORT_ICONS[direction]}
                      </span>
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, index) => (
              // Rows have no identity of their own; their place in the order shown is their key.
              <tr key={index}>
                {table.columns.map((column) => {
                  const value = row[column.key];
                  const classes = [
                    column.numeric ? 'result-table__num' : '',
                    isMissing(value) ? 'result-table__missing' : '',
                    typeof value === 'string' && value.length > LONG_TEXT ? 'result-table__long' : '',
                  ].filter(Boolean);
                  return (
                    <td key={column.key} className={classes.length > 0 ? classes.join(' ') : undefined}>
                      {cellText(value, column)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
