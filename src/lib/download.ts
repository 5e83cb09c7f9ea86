import { toCsv, type CsvColumn } from './csv.ts';
import { api, ApiError, NETWORK_ERROR_MESSAGE } from './http.ts';

/**
 * Generic file downloads (SPEC §7): fetch CSV, JSON or TXT from a URL by GET and save it; when the
 * call fails, save the data the page already holds (or an empty file of the right shape) so the
 * visitor still gets a file, and tell the caller that it was the fallback.
 */

export { toCsv, type CsvColumn } from './csv.ts';

export type DownloadFormat = 'csv' | 'json' | 'txt';

/** Rows of the fallback; their fields are named by `columns` for CSV. */
export type DownloadRows = readonly object[];

export interface DownloadOptions {
  format: DownloadFormat;
  /** The saved file's name, extension included. */
  filename: string;
  /** Saved when the GET fails: rows (written as JSON, CSV or JSON text) or ready text. */
  fallback?: DownloadRows | string | undefined;
  /** CSV columns of the fallback rows; without rows the CSV fallback is this header line alone. */
  columns?: readonly (CsvColumn | string)[] | undefined;
  signal?: AbortSignal | undefined;
}

export interface DownloadResult {
  filename: string;
  /** True when the URL could not be read and the fallback was saved instead. */
  usedFallback: boolean;
  /** Why the URL could not be read ('' when it was). */
  error: string;
  /** The refusal's HTTP status (402: the plan does not cover it); 0 when read or not reached. */
  status: number;
}

const MIME_TYPES: Readonly<Record<DownloadFormat, string>> = {
  csv: 'text/csv;charset=utf-8',
  json: 'application/json;charset=utf-8',
  txt: 'text/plain;charset=utf-8',
};

const ACCEPT: Readonly<Record<DownloadFormat, string>> = {
  csv: 'text/csv, text/plain;q=0.9',
  json: 'application/json',
  txt: 'text/plain, */*;q=0.5',
};

/** Said when the answer could not be read as the format asked for. */
export const UNEXPECTED_ANSWER_MESSAGE = 'The server answered in an unexpected format.';

/**
 * The file text of an answer, or undefined when it is not of the format asked for. JSON arrives
 * parsed (or as text when served without a JSON type) and is written back indented.
 */
export function answerText(format: DownloadFormat, data: unknown): string | undefined {
  if (format !== 'json') return typeof data === 'string' ? data : undefined;
  if (typeof data !== 'string') return data === undefined ? undefined : JSON.stringify(data, null, 2);
  try {
    return JSON.stringify(JSON.parse(data) as unknown, null, 2);
  } catch {
    return undefined;
  }
}

/**
 * The text saved when the GET fails: the supplied data in the file's format, or an empty array
 * (JSON), the header line (CSV with columns) or nothing (TXT) without it.
 */
export function fallbackText(
  format: DownloadFormat,
  fallback: DownloadRows | string | undefined,
  columns: readonly (CsvColumn | string)[] = [],
): string {
  if (typeof fallback === 'string') return fallback;
  const rows = fallback ?? [];
  if (format === 'csv') return toCsv(rows, columns);
  if (format === 'json') return JSON.stringify(rows, null, 2);
  return rows.length === 0 ? '' : JSON.stringify(rows, null, 2);
}

/** Hands text to the browser as a file of the format's type (see saveBlob). */
export function saveFile(text: string, filename: string, format: DownloadFormat): void {
  saveBlob(new Blob([text], { type: MIME_TYPES[format] }), filename);
}

/**
 * Hands a file the page fetched (a PDF read with the session's token) to the browser: a Blob
 * behind a temporary `<a download>` that is clicked and removed; the object URL is released once
 * the click has been handled.
 */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 0);
}

/**
 * Downloads `url` by GET through the site's HTTP client and saves it as `filename`. On any failure
 * (network, error status, unreadable answer) the fallback is saved instead; the result says which
 * happened, so the page can tell the visitor the file holds less than asked for.
 */
export async function downloadFromUrl(url: string, options: DownloadOptions): Promise<DownloadResult> {
  const { format, filename } = options;
  let text: string | undefined;
  let error = '';
  let status = 0;
  try {
    const data = await api<unknown>(url, {
      method: 'GET',
      headers: { Accept: ACCEPT[format] },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    text = answerText(format, data);
    if (text === undefined) error = UNEXPECTED_ANSWER_MESSAGE;
  } catch (caught) {
    error = caught instanceof ApiError ? caught.message : NETWORK_ERROR_MESSAGE;
    if (caught instanceof ApiError) status = caught.status;
  }
  const usedFallback = text === undefined;
  saveFile(text ?? fallbackText(format, options.fallback, options.columns), filename, format);
  return { filename, usedFallback, error, status };
}
