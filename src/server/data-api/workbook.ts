/*
 * Workbook answers (a `workbook` block on the definition) as the bytes of an .xlsx file, written with
 * write-excel-file: small, kept up to date and with one dependency (fflate, a zip writer), where the
 * older all-in-one Excel libraries bring in dozens of unmaintained packages to read files we never read.
 */
import writeExcelFile, { type Cell, type Row, type Sheet } from 'write-excel-file/node';
import type { WorkbookSheet } from './endpoint.ts';

/** Thousands separated; decimals only where a figure has them (per-share amounts). */
const WHOLE_FORMAT = '#,##0';
const DECIMAL_FORMAT = '#,##0.00';

function cell(value: string | number): Cell {
  if (typeof value === 'string') return value;
  return { value, format: Number.isInteger(value) ? WHOLE_FORMAT : DECIMAL_FORMAT };
}

function sheetOf(sheet: WorkbookSheet): Sheet<Buffer> {
  const header: Row = sheet.header.map((value) => ({ value, fontWeight: 'bold' as const }));
  const data = [header, ...sheet.rows.map((row): Row => row.map((value) => cell(value)))];
  return {
    sheet: sheet.name,
    data,
    stickyRowsCount: 1,
    ...(sheet.widths === undefined ? {} : { columns: sheet.widths.map((width) => ({ width })) }),
  };
}

/** The workbook's bytes: one sheet per entry, in order, each with a bold header row that stays in view. */
export async function writeWorkbook(sheets: readonly WorkbookSheet[]): Promise<Uint8Array<ArrayBuffer>> {
  // Copied out of Node's shared buffer pool into bytes of their own, as a Response body takes them.
  return new Uint8Array(await writeExcelFile(sheets.map((sheet) => sheetOf(sheet))).toBuffer());
}
