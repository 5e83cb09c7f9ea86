import { useId, type CSSProperties, type ReactNode } from 'react';
import { adminUserHref, type AdminAuditEntry } from '../../lib/admin.ts';
import { auditActionLabel, auditChange, auditReason, shares, total } from '../../lib/admin-console.ts';
import { formatDateTime, formatDay, formatNumber } from '../../lib/format.ts';
import './AdminParts.css';

/** A series' name inside a sentence: "Browser errors" reads "browser errors", "API errors" stays. */
function inSentence(name: string): string {
  return /^[A-Z]{2}/.test(name) ? name : name.charAt(0).toLowerCase() + name.slice(1);
}

/** One series of a chart: its name (the legend and the table's column) and its colour's class. */
export interface ChartSeries {
  name: string;
  tone: 'brand' | 'danger' | 'muted';
}

/** One day of a chart: the day (YYYY-MM-DD) and each series' value, in the order of the series. */
export interface ChartDay {
  day: string;
  values: number[];
}

/**
 * A chart of values per day drawn with CSS (stacked bars when there are several series), with its
 * text alternative: a sentence of totals under it and every value in a table to open. The bars are
 * hidden from assistive technology, which reads the table instead.
 */
export function DayChart({
  title,
  series,
  days,
  unit,
  headingLevel = 2,
}: {
  title: string;
  /** The chart's heading level in its page's outline. */
  headingLevel?: 2 | 3;
  series: readonly ChartSeries[];
  days: readonly ChartDay[];
  /** What is counted, plural ("sign-ups", "calls"). */
  unit: string;
}): ReactNode {
  const headingId = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const sums = days.map((day) => total(day.values));
  const heights = shares(sums);
  const totals = series.map((_, index) => total(days.map((day) => day.values[index] ?? 0)));
  const first = days[0];
  const last = days.at(-1);
  const summary =
    series.length === 1
      ? `${formatNumber(totals[0] ?? 0)} ${unit}`
      : series
          .map((item, index) => `${formatNumber(totals[index] ?? 0)} ${inSentence(item.name)}`)
          .join(', ');
  return (
    <section className="admin-card admin-chart" aria-labelledby={headingId}>
      <Heading id={headingId}>{title}</Heading>
      <figure className="admin-chart__figure">
        <ol className="admin-chart__bars" aria-hidden="true">
          {days.map((day, index) => {
            const sum = sums[index] ?? 0;
            return (
              <li
                key={day.day}
                className="admin-chart__bar"
                style={{ '--share': heights[index] ?? 0 } as CSSProperties}
                title={`${formatDay(day.day)}: ${series
                  .map(
                    (item, at) =>
                      `${formatNumber(day.values[at] ?? 0)} ${series.length === 1 ? unit : inSentence(item.name)}`,
                  )
                  .join(', ')}`}
              >
                {sum === 0 ? (
                  <span className="admin-chart__empty" />
                ) : (
                  series.map((item, at) => (
                    <span
                      key={item.name}
                      className={`admin-chart__part admin-chart__part--${item.tone}`}
                      style={{ flexGrow: day.values[at] ?? 0 }}
                    />
                  ))
                )}
              </li>
            );
          })}
        </ol>
        <div className="admin-chart__axis" aria-hidden="true">
          <span>{first === undefined ? '' : formatDay(first.day)}</span>
          <span>{last === undefined ? '' : formatDay(last.day)}</span>
        </div>
        {series.length > 1 && (
          <ul className="admin-chart__legend" aria-hidden="true">
            {series.map((item) => (
              <li key={item.name}>
                <span className={`admin-chart__swatch admin-chart__part--${item.tone}`} />
                {item.name}
              </li>
            ))}
          </ul>
        )}
        <figcaption className="admin-chart__caption">
          {summary}
          {first !== undefined && last !== undefined
            ? ` from ${formatDay(first.day)} to ${formatDay(last.day)} (UTC days).`
            : '.'}
        </figcaption>
      </figure>
      <details className="admin-chart__details">
        <summary>{title} as a table</summary>
        <TableBox label={`${title} as a table`}>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Day</th>
                {series.map((item) => (
                  <th key={item.name} scope="col" className="admin-table__number">
                    {item.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.day}>
                  <th scope="row">{formatDay(day.day)}</th>
                  {series.map((item, at) => (
                    <td key={item.name} className="admin-table__number">
                      {formatNumber(day.values[at] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      </details>
    </section>
  );
}

/**
 * A table's box: it scrolls sideways on its own when the table is wider than the screen, so the page
 * never does, and can be scrolled from the keyboard (a named, focusable region).
 */
export function TableBox({ label, children }: { label: string; children: ReactNode }): ReactNode {
  return (
    <div className="admin-table-box" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** A short state word beside a user or a key (Blocked, Unverified, Legacy, Active, …). */
export function Badge({
  tone = 'neutral',
  children,
}: {
  tone?: 'neutral' | 'danger' | 'success' | 'brand';
  children: ReactNode;
}): ReactNode {
  return <span className={`admin-badge admin-badge--${tone}`}>{children}</span>;
}

/** A page's loading line, failure (with a retry) or nothing. */
export function LoadState({
  status,
  error,
  loading,
  onRetry,
}: {
  status: 'loading' | 'ready' | 'error';
  error: string;
  loading: string;
  onRetry: () => void;
}): ReactNode {
  if (status === 'loading') {
    return (
      <p role="status" className="admin-note">
        {loading}
      </p>
    );
  }
  if (status === 'error') {
    return (
      <div className="admin-problem">
        <p role="alert">{error}</p>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  }
  return null;
}

function Person({ id, name, none }: { id: string | null; name: string | null; none: string }): ReactNode {
  if (id === null) return <>{name ?? none}</>;
  return <a href={adminUserHref(id)}>{name ?? id}</a>;
}

/**
 * Audit entries as a table: when, who, what (with the change), whom and why. On one user's page
 * (`subjectId`) the whom column is left out, and the user's own actions say so.
 */
export function AuditTable({
  entries,
  label,
  subjectId,
}: {
  entries: readonly AdminAuditEntry[];
  label: string;
  subjectId?: string;
}): ReactNode {
  return (
    <TableBox label={label}>
      <table className="admin-table admin-table--wrap">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            {subjectId === undefined && <th scope="col">Whom</th>}
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
              </td>
              <td>
                {subjectId !== undefined && entry.actorUserId === subjectId ? (
                  'The user'
                ) : (
                  <Person id={entry.actorUserId} name={entry.actor} none="The system" />
                )}
              </td>
              <th scope="row">
                {auditActionLabel(entry.action)}
                {auditChange(entry) !== '' && (
                  <span className="admin-table__detail">{auditChange(entry)}</span>
                )}
              </th>
              {subjectId === undefined && (
                <td>
                  <Person id={entry.targetUserId} name={entry.target} none="–" />
                </td>
              )}
              <td className="admin-table__wrap">{auditReason(entry)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}
