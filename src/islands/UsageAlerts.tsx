import { useStore } from '@nanostores/react';
import { useEffect, useId, type ReactNode, type SyntheticEvent } from 'react';
import { formatNumber } from '../lib/format.ts';
import { AUTH_LINKS } from '../lib/routes.ts';
import {
  $usageAlerts,
  saveThresholds,
  startUsageAlerts,
  toggleThreshold,
} from '../lib/stores/usage-alerts.ts';
import './UsageAlerts.css';

/** Today's reached alert, over the overview: how much of the day's calls is used and what to do. */
export function UsageAlertBanner(): ReactNode {
  const { alerts } = useStore($usageAlerts);
  useEffect(() => {
    startUsageAlerts();
  }, []);
  const highest = alerts?.reachedToday.at(-1);
  if (alerts === null || highest === undefined || alerts.perDay === null) return null;
  return (
    <aside className={`usage-banner${highest >= 100 ? ' usage-banner--full' : ''}`} aria-label="Usage alert">
      <p>
        <strong>
          You have used {formatNumber(alerts.callsToday)} of your {formatNumber(alerts.perDay)} calls today
        </strong>{' '}
        ({String(highest)}% alert).{' '}
        {highest >= 100
          ? 'Further calls are refused until the day ends at midnight UTC. '
          : 'The count starts again at midnight UTC. '}
        <a href={AUTH_LINKS.pricing}>Upgrade for more calls a day</a>.
      </p>
    </aside>
  );
}

/** The overview's settings of the usage alerts: which percentages of the daily calls send an email. */
export function UsageAlertSettings(): ReactNode {
  const state = useStore($usageAlerts);
  const ids = useId();
  useEffect(() => {
    startUsageAlerts();
  }, []);
  const { alerts } = state;
  if (alerts === null) return null;
  const onSubmit = (event: SyntheticEvent): void => {
    event.preventDefault();
    void saveThresholds();
  };
  const perDay = alerts.perDay;
  return (
    <section className="usage-alerts" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Usage alerts</h2>
      {perDay === null ? (
        <p className="usage-alerts__note">
          Your plan has no daily limit on calls, so there is nothing to alert you about.
        </p>
      ) : (
        <form onSubmit={onSubmit}>
          <fieldset>
            <legend>Email me when today’s calls reach (of {formatNumber(perDay)} a day)</legend>
            <div className="usage-alerts__choices">
              {alerts.choices.map((choice) => (
                <label key={choice}>
                  <input
                    type="checkbox"
                    checked={state.draft.includes(choice)}
                    onChange={(event) => {
                      toggleThreshold(choice, event.target.checked);
                    }}
                  />
                  {choice}% ({formatNumber(Math.ceil((perDay * choice) / 100))} calls)
                </label>
              ))}
            </div>
          </fieldset>
          <p className="usage-alerts__note">
            Each alert is emailed once a day, within a few seconds of being reached, and shown here until
            midnight UTC.
          </p>
          <div className="usage-alerts__actions">
            <button type="submit" className="btn btn-primary btn-sm" disabled={state.saving}>
              {state.saving ? 'Saving…' : 'Save alerts'}
            </button>
            <p
              role={state.messageType === 'error' ? 'alert' : 'status'}
              className={`usage-alerts__message usage-alerts__message--${state.messageType}`}
            >
              {state.message}
            </p>
          </div>
        </form>
      )}
    </section>
  );
}
