import { map } from 'nanostores';
import { downloadFromUrl } from '../download.ts';
import { PLAN_REQUIRED_STATUS } from '../http.ts';
import { openPremiumPopup } from './auth.ts';
import {
  historyDownloadUrl,
  historyFilename,
  type HistoryFormat,
  type HistoryRange,
} from '../history-range.ts';

/**
 * The download buttons of the historical-prices pages: which download runs and what the visitor is
 * told about the last one (a live region reads it out).
 */

export type HistoryDownloadStatus = 'idle' | 'busy' | 'done' | 'fallback';

export interface HistoryDownloadState {
  status: HistoryDownloadStatus;
  /** The format being or last downloaded. */
  format: HistoryFormat | null;
  /** What the last download did, for the status line; '' before the first. */
  message: string;
  /** The symbol and range the message is about (see historyDownloadKey). */
  key: string;
}

export const $historyDownload = map<HistoryDownloadState>({
  status: 'idle',
  format: null,
  message: '',
  key: '',
});

/**
 * Which table a download belongs to. The store outlives page swaps, so a page shows the status
 * line only when it is about its own symbol and range.
 */
export function historyDownloadKey(symbol: string, range: HistoryRange): string {
  return `${symbol}|${range.from}|${range.to}`;
}

export interface HistoryDownloadRequest {
  symbol: string;
  range: HistoryRange;
  format: HistoryFormat;
  /** Column keys of the rows, in order (the CSV header). */
  columns: readonly string[];
  /** The rows the page shows, saved when the full range cannot be fetched. */
  fallback: readonly object[];
}

/**
 * Downloads every row of the range as a file. A second click while one runs is ignored. When the
 * server cannot answer, the page's own rows are saved and the status line says so; when the plan
 * does not cover the range, the premium dialog is offered too.
 */
export async function downloadHistory(request: HistoryDownloadRequest): Promise<void> {
  if ($historyDownload.get().status === 'busy') return;
  const filename = historyFilename(request.symbol, request.range, request.format);
  const key = historyDownloadKey(request.symbol, request.range);
  $historyDownload.set({ status: 'busy', format: request.format, message: `Preparing ${filename}…`, key });
  const result = await downloadFromUrl(historyDownloadUrl(request.symbol, request.range, request.format), {
    format: request.format,
    filename,
    fallback: request.fallback,
    columns: request.columns,
  });
  if (result.status === PLAN_REQUIRED_STATUS) openPremiumPopup();
  const rows = request.fallback.length;
  $historyDownload.set(
    result.usedFallback
      ? {
          status: 'fallback',
          format: request.format,
          message: `The full range could not be downloaded: ${result.error} ${filename} holds only the ${rows} ${rows === 1 ? 'row' : 'rows'} shown on this page.`,
          key,
        }
      : { status: 'done', format: request.format, message: `Downloaded ${filename}.`, key },
  );
}
