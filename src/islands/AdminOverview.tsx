import { useStore } from '@nanostores/react';
import { useEffect, useId, type CSSProperties, type ReactNode } from 'react';
import type { AdminOverview as Overview } from '../lib/admin.ts';
import { shares, total } from '../lib/admin-console.ts';
import { formatNumber } from '../lib/format.ts';
import { $staffConfirmed } from '../lib/stores/admin-console.ts';
import {
  $adminOverview,
  choosePeriod,
  loadOverview,
  OVERVIEW_PERIODS,
  startAdminOverview,
} from '../lib/stores/admin-overview.ts';
import { DayChart, LoadState, TableBox } from './parts/AdminParts.tsx';
import './AdminOverview.css';

function PeriodChoice(): ReactNode {
  const { days, status } = useStore($adminOverview);
  return (
    <fieldset className="admin-overview__period">
      <legend>Period</legend>
      {OVERVIEW_PERIODS.map((choice) => (
        <label key={choice} className="admin-overview__period-choice">
          <input
            type="radio"
            name="overview-days"
            value={choice}
            checked={days === choice}
            disabled={status === 'loading' && days !== choice}
            onChange={() => {
              choosePeriod(choice);
            }}
          />
          <span>Last {choice} days</span>
        </label>
      ))}
    </fieldset>
  );
}

function Totals({ overview }: { overview: Overview }): ReactNode {
  const signUps = total(overview.signUps.map((day) => day.count));
  const calls = total(overview.calls.map((day) => day.count));
  const apiErrors = total(overview.errors.map((day) => day.api));
  const browserErrors = total(overview.errors.map((day) => day.browser));
  const figures = [
    { label: 'Users', value: overview.totalUsers, note: 'all accounts' },
    { label: 'Active keys', value: overview.activeKeys, note: 'keys that answer calls now' },
    { label: 'Sign-ups', value: signUps, note: `last ${overview.days} days` },
    { label: 'Data API calls', value: calls, note: `last ${overview.days} days` },
    {
      label: 'Errors',
      value: apiErrors + browserErrors,
      note: `${formatNumber(apiErrors)} API, ${formatNumber(browserErrors)} browser`,
    },
  ];
  return (
    <dl className="admin-overview__totals">
      {figures.map((figure) => (
        <div key={figure.label} className="admin-overview__total">
          <dt>{figure.label}</dt>
          <dd>
            <span className="admin-overview__figure">{formatNumber(figure.value)}</span>
            <span className="admin-overview__figure-note">{figure.note}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function TopEndpoints({ overview }: { overview: Overview }): ReactNode {
  const headingId = useId();
  const widths = shares(overview.topEndpoints.map((entry) => entry.calls));
  return (
    <section className="admin-card admin-overview__wide" aria-labelledby={headingId}>
      <h2 id={headingId}>Top endpoints</h2>
      {overview.topEndpoints.length === 0 ? (
        <p className="admin-note">No data API calls in the last {overview.days} days.</p>
      ) : (
        <TableBox label={`Top endpoints, last ${overview.days} days`}>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col" className="admin-table__number">
                  Calls
                </th>
                <th scope="col" className="admin-overview__meter-cell">
                  <span className="visually-hidden">Share of the busiest</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {overview.topEndpoints.map((entry, index) => (
                <tr key={entry.endpoint}>
                  <th scope="row">
                    <code>{entry.endpoint}</code>
                  </th>
                  <td className="admin-table__number">{formatNumber(entry.calls)}</td>
                  <td className="admin-overview__meter-cell">
                    <span
                      className="admin-overview__meter"
                      aria-hidden="true"
                      style={{ '--share': widths[index] ?? 0 } as CSSProperties}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
    </section>
  );
}

/**
 * The console's overview (/developer/docs/admin): the accounts and working keys, and per day over the
 * chosen period the sign-ups, data API calls and errors (API refusals and failures, browser errors),
 * with the busiest endpoints. Every chart has its numbers in a table. Nothing shows before the
 * visitor is confirmed as staff.
 */
export function AdminOverview(): ReactNode {
  const staff = useStore($staffConfirmed);
  const state = useStore($adminOverview);
  useEffect(() => startAdminOverview(), []);
  if (!staff) return null;
  const { overview } = state;
  return (
    <div className="admin-overview">
      <PeriodChoice />
      <LoadState
        status={overview === null ? state.status : state.status === 'error' ? 'error' : 'ready'}
        error={state.error}
        loading="Loading the overview…"
        onRetry={() => void loadOverview()}
      />
      {overview !== null && (
        <div className="admin-overview__body" aria-busy={state.status === 'loading'}>
          <Totals overview={overview} />
          <div className="admin-overview__charts">
            <DayChart
              title="Sign-ups per day"
              unit="sign-ups"
              series={[{ name: 'Sign-ups', tone: 'brand' }]}
              days={overview.signUps.map((day) => ({ day: day.day, values: [day.count] }))}
            />
            <DayChart
              title="Data API calls per day"
              unit="calls"
              series={[{ name: 'Calls', tone: 'brand' }]}
              days={overview.calls.map((day) => ({ day: day.day, values: [day.count] }))}
            />
            <DayChart
              title="Errors per day"
              unit="errors"
              series={[
                { name: 'API errors', tone: 'danger' },
                { name: 'Browser errors', tone: 'muted' },
              ]}
              days={overview.errors.map((day) => ({ day: day.day, values: [day.api, day.browser] }))}
            />
            <TopEndpoints overview={overview} />
          </div>
        </div>
      )}
    </div>
  );
}
