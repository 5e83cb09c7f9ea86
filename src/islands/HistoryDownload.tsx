import { useStore } from '@nanostores/react';
import type { ReactNode } from 'react';
import type { HistoryFormat, HistoryRange } from '../lib/history-range.ts';
import { $historyDownload, downloadHistory, historyDownloadKey } from '../lib/stores/history-download.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import './HistoryDownload.css';

interface Props {
  symbol: string;
  range: HistoryRange;
  /** Column keys of the rows (the CSV header). */
  columns: readonly string[];
  /** The rows on the current page, saved if the full range cannot be fetched. */
  fallback: readonly object[];
}

const FORMATS: readonly { format: HistoryFormat; label: string }[] = [
  { format: 'csv', label: 'Download CSV' },
  { format: 'json', label: 'Download JSON' },
];

/**
 * "Download CSV" and "Download JSON" for the historical-prices table: each saves every row of the
 * selected range (not only the page shown), falling back to the page's rows when the server
 * cannot answer. The outcome is announced in a polite live region.
 */
export function HistoryDownload({ symbol, range, columns, fallback }: Props): ReactNode {
  const state = useStore($historyDownload);
  const hydrated = useHydrated();
  // The server rendered no status; a message about another table (or from before a page swap) stays hidden.
  const own = hydrated && state.key === historyDownloadKey(symbol, range);
  const busy = own && state.status === 'busy';
  return (
    <div className="history-download">
      <div className="history-download__buttons">
        {FORMATS.map(({ format, label }) => (
          <button
            key={format}
            type="button"
            className="btn btn-secondary btn-sm"
            aria-disabled={busy}
            onClick={() => {
              void downloadHistory({ symbol, range, format, columns, fallback });
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <p
        className={`history-download__status${own && state.status === 'fallback' ? ' history-download__status--warn' : ''}`}
        role="status"
      >
        {own ? state.message : ''}
      </p>
    </div>
  );
}
