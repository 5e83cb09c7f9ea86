/**
 * The one CSV writer: history downloads in the browser, the history endpoint and the data API's
 * `datatype=csv` all write through it, so the same rows give byte-identical files. It is csv-stringify
 * (its browser build, which also runs on the server) with one set of options; a streaming writer for
 * large downloads takes the same options from {@link csvOptions}.
 */
import { stringify, type Options } from 'csv-stringify/browser/esm/sync';

/** One CSV column: the row field it reads and the header it is written under (the key by default). */
export interface CsvColumn {
  key: string;
  label?: string;
}

/** Line break between records, as RFC 4180 prescribes. */
export const CSV_LINE_BREAK = '\r\n';

/** Fields with leading or trailing white space are quoted too, so they survive a round trip. */
const EDGE_SPACE = /^\s|\s$/;

/** Cells as text: non-finite numbers are empty, dates ISO 8601, booleans true/false, objects JSON. */
const CAST: NonNullable<Options['cast']> = {
  number: (value) => (Number.isFinite(value) ? String(value) : ''),
  boolean: (value) => String(value),
  date: (value) => (Number.isNaN(value.getTime()) ? '' : value.toISOString()),
};

/**
 * The writer's options for these columns: RFC 4180 quoting (a field holding a comma, a quote or a line
 * break is quoted, quotes doubled), CRLF after every record, a header line even without rows, and text
 * cells that a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage
 * return) prefixed with a single quote, as OWASP recommends; numbers, negative ones included, stay as
 * they are.
 */
export function csvOptions(columns: readonly (CsvColumn | string)[]): Options {
  return {
    columns: columns.map((column) =>
      typeof column === 'string' ? { key: column } : { key: column.key, header: column.label ?? column.key },
    ),
    header: true,
    eof: true,
    record_delimiter: CSV_LINE_BREAK,
    quote_record_delimiter: true,
    quoted_match: EDGE_SPACE,
    escape_formulas: true,
    cast: CAST,
  };
}

/**
 * Rows as CSV text: a header line of the column labels, then one line per row in column order.
 * Columns may be given as bare keys. Without rows the text is the header line alone, so an empty
 * download still says what it would have held; without columns it is empty.
 */
export function toCsv(rows: readonly object[], columns: readonly (CsvColumn | string)[]): string {
  if (columns.length === 0) return '';
  return stringify(rows as object[], csvOptions(columns));
}
