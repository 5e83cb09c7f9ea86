/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; null and undefined are empty. */
function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Rows as CSV with a header line, columns in the endpoint's documented order, so a spreadsheet gets
 * the same fields as the JSON answer (an empty answer still has its header).
 */
export function toCsv(rows: readonly Record<string, unknown>[], columns: readonly string[]): string {
  const lines = [columns.map(field).join(',')];
  for (const row of rows) lines.push(columns.map((column) => field(row[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
