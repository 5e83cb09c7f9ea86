import { useStore } from '@nanostores/react';
import { useEffect, useId, type CSSProperties, type ReactNode } from 'react';
import {
  $usageView,
  copyExample,
  formatBytes,
  formatCalls,
  formatDay,
  formatShortDay,
  loadUsage,
  startUsage,
  USAGE_DAYS,
  type UsageSummary,
} from '../lib/stores/usage.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import './UsagePanel.css';

type ReadyView = Extract<ReturnType<typeof $usageView.get>, { status: 'ready' }>;

function UsageSkeleton(): ReactNode {
  return (
    <section id="usage" className="usage" aria-busy="true" aria-label="API usage">
      <p role="status" className="visually-hidden">
        Loading your API usage…
      </p>
      <span className="skeleton usage__skeleton-title" aria-hidden="true" />
      <div className="usage__grid" aria-hidden="true">
        <span className="skeleton usage__skeleton-card" />
        <span className="skeleton usage__skeleton-card" />
      </div>
    </section>
  );
}

function RefreshButton({ busy }: { busy: boolean }): ReactNode {
  return (
    <button
      type="button"
      className="btn btn-secondary btn-sm"
      disabled={busy}
      onClick={() => {
        void loadUsage();
      }}
    >
      Refresh
    </button>
  );
}

function TodayCard({ summary }: { summary: UsageSummary }): ReactNode {
  const headingId = useId();
  const { today } = summary;
  return (
    <section className="usage__card" aria-labelledby={headingId}>
      <h3 id={headingId}>Today</h3>
      <p className="usage__today">{today.text}</p>
      {today.limit !== null && (
        <div
          className="usage__meter"
          role="meter"
          aria-label="Calls today against the daily limit"
          aria-valuemin={0}
          aria-valuemax={today.limit}
          aria-valuenow={Math.min(today.calls, today.limit)}
          aria-valuetext={today.text}
        >
          <span
            className={`usage__meter-fill${today.share >= 0.9 ? ' usage__meter-fill--high' : ''}`}
            style={{ inlineSize: `${(today.share * 100).toFixed(2)}%` }}
          />
        </div>
      )}
      {summary.unlimitedDaily && <p className="usage__text">Your plan has no daily limit.</p>}
      {summary.perMinute !== null && <p className="usage__text">{summary.perMinute}</p>}
      <p className="usage__hint">Days are counted in UTC ({formatDay(summary.to)} today).</p>
    </section>
  );
}

function DailyChart({ summary }: { summary: UsageSummary }): ReactNode {
  const headingId = useId();
  const first = summary.days[0];
  return (
    <section className="usage__card" aria-labelledby={headingId}>
      <h3 id={headingId}>Last {USAGE_DAYS} days</h3>
      <figure className="usage__chart">
        <ol className="usage__bars" aria-hidden="true">
          {summary.days.map((day) => (
            <li
              key={day.date}
              className={`usage__bar${day.calls === 0 ? ' usage__bar--empty' : ''}`}
              style={{ '--share': day.share } as CSSProperties}
              title={`${formatDay(day.date)}: ${formatCalls(day.calls)}`}
            />
          ))}
        </ol>
        <div className="usage__axis" aria-hidden="true">
          <span>{first === undefined ? '' : formatShortDay(first.date)}</span>
          <span>Today</span>
        </div>
        <figcaption className="usage__text">
          {formatCalls(summary.totalCalls)} {summary.totalCalls === 1 ? 'call' : 'calls'} and{' '}
          {formatBytes(summary.totalBytes)} sent from {formatDay(summary.from)} to {formatDay(summary.to)}.
        </figcaption>
      </figure>
      <details className="usage__details">
        <summary>Calls per day as a table</summary>
        <table className="usage__table">
          <caption className="visually-hidden">Calls per day, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Calls</th>
            </tr>
          </thead>
          <tbody>
            {summary.days.map((day) => (
              <tr key={day.date}>
                <th scope="row">{formatDay(day.date)}</th>
                <td>{formatCalls(day.calls)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

function EndpointList({ summary }: { summary: UsageSummary }): ReactNode {
  const headingId = useId();
  return (
    <section className="usage__card usage__card--full" aria-labelledby={headingId}>
      <h3 id={headingId}>By endpoint</h3>
      <table className="usage__table">
        <caption className="visually-hidden">
          Calls and data sent per endpoint over the last {USAGE_DAYS} days, busiest first
        </caption>
        <thead>
          <tr>
            <th scope="col">Endpoint</th>
            <th scope="col">Calls</th>
            <th scope="col">Data sent</th>
          </tr>
        </thead>
        <tbody>
          {summary.endpoints.map((entry) => (
            <tr key={entry.endpoint}>
              <th scope="row">
                <code>{entry.endpoint}</code>
              </th>
              <td>{formatCalls(entry.calls)}</td>
              <td>{formatBytes(entry.bytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function EmptyState({ view }: { view: ReadyView }): ReactNode {
  const headingId = useId();
  return (
    <section className="usage__card" aria-labelledby={headingId}>
      <h3 id={headingId}>No calls yet</h3>
      <p className="usage__text">
        Try your first call: this command asks for Apple’s quote. It shows up here within a few seconds.
      </p>
      <pre className="code-block usage__example">
        <code>{view.example}</code>
      </pre>
      <div className="usage__actions">
        <button
          type="button"
          className="btn btn-primary btn-sm"
          onClick={() => {
            void copyExample(view.example);
          }}
        >
          Copy command
        </button>
      </div>
      <p className="usage__hint">
        {view.keyRevealed
          ? 'The command carries your API key: keep it to yourself.'
          : 'Replace YOUR_API_KEY with your key from the API key card above, or reveal the key there to fill it in.'}
      </p>
      {!view.keyActive && (
        <p className="usage__hint">Your key answers calls once your email address is verified.</p>
      )}
    </section>
  );
}

/**
 * The dashboard's API usage: today's calls against the plan's daily limit, the last 30 days per
 * day and per endpoint, and a first command to try while there is nothing to show. Counts are
 * written every few seconds, hence the Refresh button. Nothing shows for signed-out visitors.
 */
export function UsagePanel(): ReactNode {
  const view = useStore($usageView);
  const hydrated = useHydrated();
  const headingId = useId();

  useEffect(() => startUsage(), []);

  if (!hydrated || view.status === 'loading') return <UsageSkeleton />;
  if (view.status === 'hidden') return null;

  const busy = view.status === 'ready' && view.refreshing;
  return (
    <section id="usage" className="usage" aria-labelledby={headingId} aria-busy={busy}>
      <div className="usage__head">
        <h2 id={headingId} className="usage__title">
          API usage
        </h2>
        {view.status === 'ready' && <RefreshButton busy={busy} />}
      </div>
      <p className="usage__hint">Counts update within a few seconds of each call.</p>
      <p role="status" className="visually-hidden">
        {busy ? 'Refreshing your API usage…' : ''}
      </p>
      {view.status === 'error' ? (
        <div className="usage__card usage__error">
          <p role="alert">{view.error}</p>
          <div className="usage__actions">
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => {
                void loadUsage();
              }}
            >
              Try again
            </button>
          </div>
        </div>
      ) : (
        <>
          <p role="alert" className="usage__note usage__note--error">
            {view.error}
          </p>
          <div className="usage__grid">
            <TodayCard summary={view.summary} />
            {view.summary.totalCalls === 0 ? (
              <EmptyState view={view} />
            ) : (
              <>
                <DailyChart summary={view.summary} />
                <EndpointList summary={view.summary} />
              </>
            )}
          </div>
        </>
      )}
    </section>
  );
}
