/**
 * CSV text as RFC 4180 writes it. Kept free of browser and server dependencies so the download
 * helpers (browser) and the history endpoint (server) write byte-identical files.
 */

/** One CSV column: the row field it reads and the header it is written under (the key by default). */
export interface CsvColumn {
  key: string;
  label?: string;
}

/** Line break between records, as RFC 4180 prescribes. */
export const CSV_LINE_BREAK = '\r\n';

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One field: quoted when it holds a comma, a quote, a line break or edge spaces; quotes doubled. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  else if (value instanceof Date) text = Number.isNaN(value.getTime()) ? '' : value.toISOString();
  else text = JSON.stringify(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Rows as CSV text: a header line of the column labels, then one line per row in column order.
 * Columns may be given as bare keys. Without rows the text is the header line alone, so an empty
 * download still says what it would have held.
 */
export function toCsv(rows: readonly object[], columns: readonly (CsvColumn | string)[]): string {
  const resolved = columns.map((column) => (typeof column === 'string' ? { key: column } : column));
  if (resolved.length === 0) return '';
  const lines = [resolved.map((column) => csvField(column.label ?? column.key)).join(',')];
  for (const row of rows) {
    const record = row as Readonly<Record<string, unknown>>;
    lines.push(resolved.map((column) => csvField(record[column.key])).join(','));
  }
  return lines.join(CSV_LINE_BREAK) + CSV_LINE_BREAK;
}
