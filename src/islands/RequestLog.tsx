import { useStore } from '@nanostores/react';
import { useEffect, useId, type ReactNode } from 'react';
import { formatDate, formatDateTime, formatNumber } from '../lib/format.ts';
import type { RequestLogEntry } from '../lib/dashboard-data.ts';
import { formatBytes } from '../lib/playground.ts';
import {
  $openRequest,
  $requestLog,
  copyCurl,
  loadOlder,
  openRequest,
  setFilter,
  startRequestLog,
  STATUS_FILTERS,
  TIME_RANGES,
  type TimeRange,
} from '../lib/stores/request-log.ts';
import { Dialog } from './parts/Dialog.tsx';
import './RequestLog.css';

function statusClass(status: number): string {
  if (status < 300) return 'ok';
  if (status < 400) return 'neutral';
  return 'refused';
}

function keyLabel(entry: RequestLogEntry): string {
  if (entry.keyName === null) return 'Deleted key';
  return `${entry.keyName} (…${entry.keyLast4 ?? ''})`;
}

/** The opened request: every field, and its curl command to copy. */
function RequestDetail(): ReactNode {
  const open = useStore($openRequest);
  return (
    <Dialog
      open={open !== null}
      onClose={() => {
        openRequest(null);
      }}
      title={open === null ? 'Request' : `${open.entry.endpoint} · ${String(open.entry.status)}`}
    >
      {open !== null && (
        <div className="request-log__detail">
          <dl>
            <div>
              <dt>Time</dt>
              <dd>{formatDateTime(open.entry.at)}</dd>
            </div>
            <div>
              <dt>Key</dt>
              <dd>{keyLabel(open.entry)}</dd>
            </div>
            <div>
              <dt>Endpoint</dt>
              <dd>
                <code>/stable/{open.entry.endpoint}</code>
              </dd>
            </div>
            <div>
              <dt>Parameters</dt>
              <dd>
                <code>{open.entry.params === '' ? '(none)' : open.entry.params}</code>
              </dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>{open.entry.status}</dd>
            </div>
            <div>
              <dt>Time taken</dt>
              <dd>{open.entry.latencyMs < 1 ? 'under 1 ms' : `${formatNumber(open.entry.latencyMs)} ms`}</dd>
            </div>
            <div>
              <dt>Size</dt>
              <dd>{formatBytes(open.entry.bytes)}</dd>
            </div>
          </dl>
          <p className="request-log__label">The request with curl</p>
          <pre tabIndex={0} aria-label="The request with curl">
            <code>{open.shown}</code>
          </pre>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() => {
              void copyCurl();
            }}
          >
            Copy curl command
          </button>
          {!open.keyWorks && (
            <p className="request-log__note">
              The key of this request no longer works, so the command has a placeholder for your key.
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}

/**
 * The Request log page: the account's data API requests with filters (status, endpoint, key, time
 * range), older pages on demand, and each request's detail with a curl command to run it again.
 */
export function RequestLog(): ReactNode {
  const state = useStore($requestLog);
  const ids = useId();
  useEffect(() => startRequestLog(), []);
  const { filters } = state;

  return (
    <div className="request-log">
      <form
        className="request-log__filters"
        aria-label="Filter requests"
        onSubmit={(event) => {
          event.preventDefault();
        }}
      >
        <div className="request-log__filter">
          <label htmlFor={`${ids}-status`}>Status</label>
          <select
            className="text-input"
            id={`${ids}-status`}
            value={filters.status}
            onChange={(event) => {
              setFilter('status', event.target.value);
            }}
          >
            {STATUS_FILTERS.map((item) => (
              <option key={item.value} value={item.value}>
                {item.label}
              </option>
            ))}
          </select>
        </div>
        <div className="request-log__filter">
          <label htmlFor={`${ids}-endpoint`}>Endpoint</label>
          <select
            className="text-input"
            id={`${ids}-endpoint`}
            value={filters.endpoint}
            onChange={(event) => {
              setFilter('endpoint', event.target.value);
            }}
          >
            <option value="">All endpoints</option>
            {state.endpoints.map((endpoint) => (
              <option key={endpoint} value={endpoint}>
                {endpoint}
              </option>
            ))}
          </select>
        </div>
        <div className="request-log__filter">
          <label htmlFor={`${ids}-key`}>Key</label>
          <select
            className="text-input"
            id={`${ids}-key`}
            value={filters.key}
            onChange={(event) => {
              setFilter('key', event.target.value);
            }}
          >
            <option value="">All keys</option>
            {state.keys.map((key) => (
              <option key={key.id} value={key.id}>
                {key.name} (…{key.last4})
              </option>
            ))}
          </select>
        </div>
        <div className="request-log__filter">
          <label htmlFor={`${ids}-range`}>Time</label>
          <select
            className="text-input"
            id={`${ids}-range`}
            value={filters.range}
            onChange={(event) => {
              setFilter('range', event.target.value as TimeRange);
            }}
          >
            {TIME_RANGES.map((item) => (
              <option key={item.value} value={item.value}>
                {item.label}
              </option>
            ))}
          </select>
        </div>
      </form>

      {state.status === 'loading' && (
        <p role="status" className="request-log__note">
          Loading requests…
        </p>
      )}
      {state.status === 'error' && (
        <p role="alert" className="request-log__problem">
          {state.error}
        </p>
      )}
      {state.status === 'ready' && state.entries.length === 0 && (
        <p className="request-log__note">
          No requests match. Requests show here within a few seconds of being made; try a longer time range,
          or make a call from the <a href="/playground">API viewer</a>.
        </p>
      )}
      {state.status === 'ready' && state.entries.length > 0 && (
        <div className="request-log__table" role="region" aria-label="Requests" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Status</th>
                <th scope="col">Request</th>
                <th scope="col">Key</th>
                <th scope="col" className="number">
                  Time taken
                </th>
                <th scope="col" className="number">
                  Size
                </th>
              </tr>
            </thead>
            <tbody>
              {state.entries.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <time dateTime={entry.at} title={formatDateTime(entry.at)}>
                      {formatDate(entry.at)}
                    </time>
                  </td>
                  <td>
                    <span className={`request-log__status request-log__status--${statusClass(entry.status)}`}>
                      {entry.status}
                    </span>
                  </td>
                  <td className="request-log__request">
                    <button
                      type="button"
                      className="request-log__open"
                      onClick={() => {
                        openRequest(entry.id);
                      }}
                    >
                      <code>{entry.endpoint}</code>
                      {entry.params !== '' && <span className="request-log__params">?{entry.params}</span>}
                    </button>
                  </td>
                  <td>{keyLabel(entry)}</td>
                  <td className="number">
                    {entry.latencyMs < 1 ? '<1 ms' : `${formatNumber(entry.latencyMs)} ms`}
                  </td>
                  <td className="number">{formatBytes(entry.bytes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {state.status === 'ready' && state.nextBefore !== null && (
        <button
          type="button"
          className="btn btn-secondary"
          disabled={state.loadingMore}
          onClick={() => void loadOlder()}
        >
          {state.loadingMore ? 'Loading…' : 'Load older requests'}
        </button>
      )}
      <RequestDetail />
    </div>
  );
}
