import { useStore } from '@nanostores/react';
import { Fragment, useEffect, useId, type ReactNode } from 'react';
import { adminUserHref } from '../lib/admin.ts';
import { errorHeadline, reportOrigin, traceLines } from '../lib/admin-console.ts';
import { formatDate, formatDateTime, formatNumber } from '../lib/format.ts';
import { $staffConfirmed } from '../lib/stores/admin-console.ts';
import {
  $adminErrors,
  chooseGroupPeriod,
  GROUP_PERIODS,
  loadGroups,
  loadOlderReports,
  loadReports,
  openGroup,
  startAdminErrors,
  type ClientErrorReport,
  type GroupPeriod,
} from '../lib/stores/admin-errors.ts';
import { Dialog } from './parts/Dialog.tsx';
import { LoadState, TableBox } from './parts/AdminParts.tsx';
import './AdminErrors.css';

function When({ at }: { at: string }): ReactNode {
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      {formatDate(at)}
    </time>
  );
}

/** One report read in full: where it came from and its whole stack trace. */
function ReportBody({ report }: { report: ClientErrorReport }): ReactNode {
  const origin = reportOrigin(report.server);
  const facts: [string, string][] = [
    [origin.label, origin.value],
    ['Cron', report.cron],
    ['Fargate', report.fargate],
    ['Channel', report.discordChannel],
  ];
  return (
    <div className="admin-errors__report">
      <dl className="admin-facts">
        <dt>Reported</dt>
        <dd>{formatDateTime(report.createdAt)}</dd>
        <dt>Type</dt>
        <dd>{report.type}</dd>
        <dt>User</dt>
        <dd>
          {report.userId === null ? 'Signed out' : <a href={adminUserHref(report.userId)}>{report.userId}</a>}
        </dd>
        {facts
          .filter(([, value]) => value !== '')
          .map(([label, value]) => (
            <Fragment key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </Fragment>
          ))}
      </dl>
      <pre className="admin-pre" tabIndex={0} aria-label="Stack trace">
        {report.stackTrace === '' ? '(no stack trace)' : traceLines(report.stackTrace).join('\n')}
      </pre>
    </div>
  );
}

function Groups(): ReactNode {
  const state = useStore($adminErrors);
  const headingId = useId();
  const periodId = useId();
  return (
    <section className="admin-card" aria-labelledby={headingId}>
      <div className="admin-errors__heading">
        <h2 id={headingId}>Errors by message</h2>
        <div className="admin-errors__period">
          <label htmlFor={periodId}>Period</label>
          <select
            id={periodId}
            className="text-input"
            value={state.days}
            onChange={(event) => {
              chooseGroupPeriod(Number(event.target.value) as GroupPeriod);
            }}
          >
            {GROUP_PERIODS.map((days) => (
              <option key={days} value={days}>
                {days === 1 ? 'Last 24 hours' : `Last ${String(days)} days`}
              </option>
            ))}
          </select>
        </div>
      </div>
      <LoadState
        status={state.groupsStatus}
        error={state.groupsError}
        loading="Loading error groups…"
        onRetry={() => void loadGroups()}
      />
      {state.groupsStatus === 'ready' && state.groups.length === 0 && (
        <p className="admin-note">No browser errors were reported in this period.</p>
      )}
      {state.groupsStatus === 'ready' && state.groups.length > 0 && (
        <TableBox label="Error groups">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Message</th>
                <th scope="col">Type</th>
                <th scope="col" className="admin-table__number">
                  Reports
                </th>
                <th scope="col" className="admin-table__number">
                  Users
                </th>
                <th scope="col">First seen</th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {state.groups.map((group) => (
                <tr key={`${group.type}-${group.message}`}>
                  <th scope="row" className="admin-table__wrap">
                    <button
                      type="button"
                      className="admin-errors__open"
                      onClick={() => void openGroup(group)}
                    >
                      {errorHeadline(group.type, group.message)}
                    </button>
                  </th>
                  <td>{group.type}</td>
                  <td className="admin-table__number">{formatNumber(group.count)}</td>
                  <td className="admin-table__number">{formatNumber(group.users)}</td>
                  <td>
                    <When at={group.firstSeen} />
                  </td>
                  <td>
                    <When at={group.lastSeen} />
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

function GroupDialog(): ReactNode {
  const { open } = useStore($adminErrors);
  return (
    <Dialog
      open={open !== null}
      onClose={() => void openGroup(null)}
      title={open === null ? 'Error' : errorHeadline(open.group.type, open.group.message)}
      description={
        open === null
          ? undefined
          : `${formatNumber(open.group.count)} ${open.group.count === 1 ? 'report' : 'reports'} from ${formatNumber(open.group.users)} signed-in ${open.group.users === 1 ? 'user' : 'users'}, first ${formatDateTime(open.group.firstSeen)}, last ${formatDateTime(open.group.lastSeen)}. The latest reports in full:`
      }
      className="admin-errors__dialog"
    >
      {open !== null && (
        <div className="admin-errors__latest">
          {open.status === 'loading' && (
            <p role="status" className="admin-note">
              Loading the latest reports…
            </p>
          )}
          {open.status === 'error' && (
            <p role="alert" className="admin-problem-text">
              {open.error}
            </p>
          )}
          {open.status === 'ready' && open.reports.length === 0 && (
            <p className="admin-note">
              Its reports are no longer kept; the counts above cover the period chosen.
            </p>
          )}
          {open.reports.map((report) => (
            <ReportBody key={report.id} report={report} />
          ))}
        </div>
      )}
    </Dialog>
  );
}

function Reports(): ReactNode {
  const state = useStore($adminErrors);
  const headingId = useId();
  return (
    <section className="admin-card" aria-labelledby={headingId}>
      <h2 id={headingId}>All reports, newest first</h2>
      <LoadState
        status={state.reportsStatus}
        error={state.reportsError}
        loading="Loading reports…"
        onRetry={() => void loadReports()}
      />
      {state.reportsStatus === 'ready' && state.reports.length === 0 && (
        <p className="admin-note">No browser has reported an error.</p>
      )}
      {state.reports.length > 0 && (
        <ul className="admin-errors__list" role="list">
          {state.reports.map((report) => (
            <li key={report.id}>
              <details className="admin-errors__item">
                <summary>
                  <span className="admin-errors__when">
                    <When at={report.createdAt} />
                  </span>
                  <span className="admin-errors__type">{report.type}</span>
                  <span className="admin-errors__headline">
                    {errorHeadline(report.type, report.stackTrace)}
                  </span>
                </summary>
                <ReportBody report={report} />
              </details>
            </li>
          ))}
        </ul>
      )}
      {state.reportsStatus === 'ready' && state.nextBefore !== null && (
        <div className="admin-pager">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={state.loadingMore}
            onClick={() => void loadOlderReports()}
          >
            {state.loadingMore ? 'Loading…' : 'Show older reports'}
          </button>
        </div>
      )}
      {state.reportsStatus === 'ready' && state.reportsError !== '' && (
        <p role="alert" className="admin-problem-text">
          {state.reportsError}
        </p>
      )}
    </section>
  );
}

/**
 * The console's browser error log (/developer/docs/admin/errors): reports grouped by message, a
 * group's latest reports in full, and every report newest first. Nothing shows before the visitor is
 * confirmed as staff.
 */
export function AdminErrors(): ReactNode {
  const staff = useStore($staffConfirmed);
  useEffect(() => startAdminErrors(), []);
  if (!staff) return null;
  return (
    <div className="admin-errors">
      <Groups />
      <Reports />
      <GroupDialog />
    </div>
  );
}
