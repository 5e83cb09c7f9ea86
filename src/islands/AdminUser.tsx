import { useStore } from '@nanostores/react';
import { useEffect, useId, type ReactNode, type SyntheticEvent } from 'react';
import { ADMIN_ROLES, REASON_MAX_LENGTH, adminUserHref, type AdminUserDetail } from '../lib/admin.ts';
import { fullName, KEY_STATUS_LABELS, keyStillWorks, planName, roleLabel } from '../lib/admin-console.ts';
import { describeUserAgent } from '../lib/device.ts';
import { formatDate, formatDateTime, formatNumber } from '../lib/format.ts';
import { AUTH_LINKS } from '../lib/routes.ts';
import { $canAct, $staffConfirmed } from '../lib/stores/admin-console.ts';
import { $user } from '../lib/stores/user.ts';
import {
  $adminUser,
  askFor,
  cancelAction,
  choose,
  confirmAction,
  loadUser,
  startAdminUser,
  type AdminActionKind,
  type PendingAction,
} from '../lib/stores/admin-user.ts';
import { Dialog } from './parts/Dialog.tsx';
import { AuditTable, Badge, DayChart, LoadState, TableBox } from './parts/AdminParts.tsx';
import './AdminUser.css';

type Detail = AdminUserDetail;

function When({ at }: { at: string | null }): ReactNode {
  if (at === null) return <>Never</>;
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      {formatDate(at)}
    </time>
  );
}

function ActionButton({
  kind,
  children,
  danger = false,
}: {
  kind: AdminActionKind;
  children: ReactNode;
  danger?: boolean;
}): ReactNode {
  return (
    <button
      type="button"
      className={`btn btn-sm ${danger ? 'btn-danger' : 'btn-secondary'}`}
      onClick={() => {
        askFor(kind);
      }}
    >
      {children}
    </button>
  );
}

/** Whether the page is the visitor's own account, which they may neither block nor change the role of. */
function useOwnAccount(detail: Detail): boolean {
  return useStore($user).userid === detail.user.id;
}

function Summary({ detail }: { detail: Detail }): ReactNode {
  const canAct = useStore($canAct);
  const own = useOwnAccount(detail);
  const { user } = detail;
  const name = fullName(user.firstName, user.lastName);
  return (
    <header className="admin-user__head">
      <div className="admin-user__title">
        <h1>{user.email}</h1>
        <p className="admin-note">
          {name === '' ? '' : `${name} · `}
          {user.username === '' ? 'no username' : `@${user.username}`} · {roleLabel(user.role)}
        </p>
        <span className="admin-badges">
          {user.blocked ? <Badge tone="danger">Blocked</Badge> : <Badge tone="success">Can sign in</Badge>}
          {user.emailVerified ? <Badge>Address verified</Badge> : <Badge>Address not verified</Badge>}
          {user.legacy && <Badge tone="brand">Legacy access</Badge>}
        </span>
      </div>
      {canAct && (
        <div className="admin-user__head-actions">
          {user.role !== 'admin' && !user.blocked && (
            <a
              className="btn btn-secondary btn-sm"
              href={`${AUTH_LINKS.linkUser}?user=${encodeURIComponent(user.id)}`}
            >
              View as this user
            </a>
          )}
          {user.blocked ? (
            <ActionButton kind="unblock">Unblock…</ActionButton>
          ) : (
            !own && (
              <ActionButton kind="block" danger>
                Block…
              </ActionButton>
            )
          )}
        </div>
      )}
    </header>
  );
}

function Profile({ detail }: { detail: Detail }): ReactNode {
  const canAct = useStore($canAct);
  const own = useOwnAccount(detail);
  const headingId = useId();
  const { user } = detail;
  return (
    <section className="admin-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Profile</h2>
      <dl className="admin-facts">
        <dt>User id</dt>
        <dd>
          <code>{user.id}</code>
        </dd>
        <dt>Email address</dt>
        <dd>
          {user.email} {user.emailVerified ? '(verified)' : '(not verified: their keys do not work yet)'}
        </dd>
        <dt>Username</dt>
        <dd>{user.username === '' ? 'None' : user.username}</dd>
        <dt>Name</dt>
        <dd>{fullName(user.firstName, user.lastName) || 'Not given'}</dd>
        <dt>Role</dt>
        <dd>{roleLabel(user.role)}</dd>
        <dt>Legacy access</dt>
        <dd>{user.legacy ? 'Yes: the legacy API documentation and viewer' : 'No'}</dd>
        <dt>Signed up</dt>
        <dd>{formatDateTime(user.createdAt)}</dd>
        <dt>Last changed</dt>
        <dd>{formatDateTime(user.updatedAt)}</dd>
      </dl>
      {canAct && (
        <div className="admin-user__actions">
          {!own && <ActionButton kind="role">Change role…</ActionButton>}
          <ActionButton kind="legacy">
            {user.legacy ? 'Clear legacy access…' : 'Set legacy access…'}
          </ActionButton>
          {!user.emailVerified && <ActionButton kind="resend">Resend verification…</ActionButton>}
        </div>
      )}
    </section>
  );
}

function Plan({ detail }: { detail: Detail }): ReactNode {
  const canAct = useStore($canAct);
  const { plans } = useStore($adminUser);
  const headingId = useId();
  const { user, subscription } = detail;
  return (
    <section className="admin-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Plan and subscription</h2>
      <dl className="admin-facts">
        <dt>Plan</dt>
        <dd>
          {planName(plans, user.planCode)} <code>{user.planCode}</code>
        </dd>
        <dt>Subscription</dt>
        <dd>
          {subscription === null
            ? 'None'
            : `${planName(plans, subscription.planCode)}, ${subscription.status.replaceAll('_', ' ')}`}
        </dd>
        {subscription !== null && (
          <>
            <dt>{subscription.cancelAtPeriodEnd ? 'Ends' : 'Renews'}</dt>
            <dd>
              {subscription.currentPeriodEnd === null
                ? 'Not known'
                : formatDateTime(subscription.currentPeriodEnd)}
            </dd>
          </>
        )}
      </dl>
      {canAct && (
        <div className="admin-user__actions">
          <ActionButton kind="plan">Change plan…</ActionButton>
        </div>
      )}
    </section>
  );
}

function Keys({ detail }: { detail: Detail }): ReactNode {
  const canAct = useStore($canAct);
  const headingId = useId();
  return (
    <section className="admin-card admin-user__wide" aria-labelledby={headingId}>
      <h2 id={headingId}>API keys</h2>
      {detail.keys.length === 0 ? (
        <p className="admin-note">This account has no keys.</p>
      ) : (
        <TableBox label="The account's keys">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Stops working</th>
                {canAct && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {detail.keys.map((key) => (
                <tr key={key.id}>
                  <th scope="row">
                    <code>…{key.last4}</code>
                  </th>
                  <td>
                    {key.name}
                    {key.primary && (
                      <>
                        {' '}
                        <Badge tone="brand">Primary</Badge>
                      </>
                    )}
                  </td>
                  <td>
                    <Badge tone={keyStillWorks(key) ? 'success' : 'neutral'}>
                      {KEY_STATUS_LABELS[key.status]}
                    </Badge>
                  </td>
                  <td>
                    <When at={key.createdAt} />
                  </td>
                  <td>
                    <When at={key.lastUsedAt} />
                  </td>
                  <td>
                    {key.revokedAt !== null ? (
                      <>
                        Revoked <When at={key.revokedAt} />
                      </>
                    ) : key.expiresAt === null ? (
                      'Not set'
                    ) : (
                      <When at={key.expiresAt} />
                    )}
                  </td>
                  {canAct && (
                    <td>
                      {keyStillWorks(key) && (
                        <button
                          type="button"
                          className="btn btn-danger btn-sm"
                          aria-label={`Revoke the key ending in ${key.last4}`}
                          onClick={() => {
                            askFor('revoke', key);
                          }}
                        >
                          Revoke…
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
    </section>
  );
}

function Requests({ detail }: { detail: Detail }): ReactNode {
  const headingId = useId();
  return (
    <section className="admin-card admin-user__wide" aria-labelledby={headingId}>
      <h2 id={headingId}>Recent requests</h2>
      {detail.requests.length === 0 ? (
        <p className="admin-note">No data API requests in the last 30 days.</p>
      ) : (
        <TableBox label="The account's recent requests">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Endpoint</th>
                <th scope="col" className="admin-table__number">
                  Status
                </th>
                <th scope="col" className="admin-table__number">
                  Time taken
                </th>
              </tr>
            </thead>
            <tbody>
              {detail.requests.map((request, index) => (
                <tr key={`${request.at}-${String(index)}`}>
                  <td>
                    <When at={request.at} />
                  </td>
                  <th scope="row">
                    <code>{request.endpoint}</code>
                  </th>
                  <td className="admin-table__number">
                    <Badge tone={request.status >= 400 ? 'danger' : 'neutral'}>{request.status}</Badge>
                  </td>
                  <td className="admin-table__number">
                    {request.durationMs < 1 ? '<1 ms' : `${formatNumber(request.durationMs)} ms`}
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

function Sessions({ detail }: { detail: Detail }): ReactNode {
  const canAct = useStore($canAct);
  const headingId = useId();
  return (
    <section className="admin-card admin-user__wide" aria-labelledby={headingId}>
      <h2 id={headingId}>Sessions</h2>
      {detail.sessions.length === 0 ? (
        <p className="admin-note">Not signed in anywhere.</p>
      ) : (
        <TableBox label="The account's sessions">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last active</th>
                <th scope="col">Ends</th>
                <th scope="col">Address</th>
              </tr>
            </thead>
            <tbody>
              {detail.sessions.map((session) => (
                <tr key={session.id}>
                  <th scope="row">
                    {describeUserAgent(session.userAgent)}
                    {session.impersonatedBy !== null && (
                      <>
                        {' '}
                        <a href={adminUserHref(session.impersonatedBy)} className="admin-user__switched">
                          <Badge tone="brand">Switched in by an administrator</Badge>
                        </a>
                      </>
                    )}
                  </th>
                  <td>
                    <When at={session.createdAt} />
                  </td>
                  <td>
                    <When at={session.lastUsedAt} />
                  </td>
                  <td>
                    <When at={session.expiresAt} />
                  </td>
                  <td>{session.ip === '' ? 'Unknown' : session.ip}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
      {canAct && detail.sessions.length > 0 && (
        <div className="admin-user__actions">
          <ActionButton kind="sessions" danger>
            End all sessions…
          </ActionButton>
        </div>
      )}
    </section>
  );
}

function Audit({ detail }: { detail: Detail }): ReactNode {
  const headingId = useId();
  return (
    <section className="admin-card admin-user__wide" aria-labelledby={headingId}>
      <h2 id={headingId}>Audit trail</h2>
      {detail.audit.length === 0 ? (
        <p className="admin-note">Nothing recorded about this account yet.</p>
      ) : (
        <AuditTable entries={detail.audit} label="Audit trail of this account" subjectId={detail.user.id} />
      )}
      <p className="admin-note">
        <a href={`/developer/docs/admin/audit?userId=${encodeURIComponent(detail.user.id)}`}>
          The whole audit trail of this account
        </a>
      </p>
    </section>
  );
}

/** What each action does, in the dialog's words. */
function describe(pending: PendingAction, detail: Detail): { title: string; text: string; confirm: string } {
  const { user } = detail;
  const who = user.email;
  switch (pending.kind) {
    case 'block':
      return {
        title: `Block ${who}?`,
        text: 'They are signed out everywhere at once, cannot sign in, and their API keys are refused within a minute. You can unblock them later.',
        confirm: 'Block user',
      };
    case 'unblock':
      return {
        title: `Unblock ${who}?`,
        text: 'They can sign in again, and their API keys work again while their address is verified.',
        confirm: 'Unblock user',
      };
    case 'role':
      return {
        title: `Change the role of ${who}?`,
        text: 'Administrators can act in this console, analysts can read it, users cannot open it. The new role applies to their next call.',
        confirm: 'Change role',
      };
    case 'plan':
      return {
        title: `Change the plan of ${who}?`,
        text: 'Their limits and data change at once, including for calls with their keys. Nothing is charged or refunded, and a subscription with the payment provider is left as it is.',
        confirm: 'Change plan',
      };
    case 'legacy':
      return user.legacy
        ? {
            title: `Clear legacy access of ${who}?`,
            text: 'The legacy API documentation and viewer leave their menus.',
            confirm: 'Clear legacy access',
          }
        : {
            title: `Give ${who} legacy access?`,
            text: 'The legacy API documentation and viewer appear in their menus.',
            confirm: 'Set legacy access',
          };
    case 'resend':
      return {
        title: 'Resend the verification link?',
        text: `A new link to verify the address is emailed to ${who}. Their keys start working once they open it.`,
        confirm: 'Send link',
      };
    case 'revoke': {
      const replaced = pending.key?.primary === true && pending.key.expiresAt === null;
      return {
        title: `Revoke the key ending in ${pending.key?.last4 ?? ''}?`,
        text: replaced
          ? 'Calls with this key are refused from now on, and a new primary key replaces it. The owner is emailed, with your reason.'
          : 'Calls with this key are refused from now on; this cannot be undone. The owner is emailed, with your reason.',
        confirm: 'Revoke key',
      };
    }
    case 'sessions': {
      const count = detail.sessions.length;
      return {
        title: `End every session of ${who}?`,
        text: `They are signed out on ${count === 1 ? 'their one device' : `all ${String(count)} devices`} and must sign in again. Their API keys keep working.`,
        confirm: 'End sessions',
      };
    }
  }
}

function ActionDialog(): ReactNode {
  const { pending, detail, busy, problem, problemField, plans } = useStore($adminUser);
  const ids = useId();
  if (detail === null) return null;
  const words = pending === null ? null : describe(pending, detail);
  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const reason = new FormData(event.currentTarget).get('reason');
    void confirmAction(typeof reason === 'string' ? reason : '');
  };
  const danger = pending?.kind === 'block' || pending?.kind === 'revoke' || pending?.kind === 'sessions';
  return (
    <Dialog
      open={pending !== null}
      onClose={cancelAction}
      title={words?.title ?? ''}
      description={words?.text}
    >
      {pending !== null && words !== null && (
        <form
          key={`${pending.kind}-${pending.key?.id ?? ''}`}
          className="admin-user__dialog-form"
          onSubmit={onSubmit}
          noValidate
        >
          {pending.kind === 'role' && (
            <div className="admin-user__field">
              <label htmlFor={`${ids}-choice`}>New role</label>
              <select
                id={`${ids}-choice`}
                className="text-input"
                value={pending.choice}
                aria-invalid={problemField === 'choice' || undefined}
                onChange={(event) => {
                  choose(event.target.value);
                }}
              >
                {ADMIN_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {roleLabel(role)}
                    {role === detail.user.role ? ' (current)' : ''}
                  </option>
                ))}
              </select>
            </div>
          )}
          {pending.kind === 'plan' && (
            <div className="admin-user__field">
              <label htmlFor={`${ids}-choice`}>New plan</label>
              <select
                id={`${ids}-choice`}
                className="text-input"
                value={pending.choice}
                aria-invalid={problemField === 'choice' || undefined}
                onChange={(event) => {
                  choose(event.target.value);
                }}
              >
                {!plans.some((plan) => plan.code === detail.user.planCode) && (
                  <option value={detail.user.planCode}>{detail.user.planCode} (current)</option>
                )}
                {plans.map((plan) => (
                  <option key={plan.code} value={plan.code}>
                    {plan.name}
                    {plan.code === detail.user.planCode ? ' (current)' : ''}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="admin-user__field">
            <label htmlFor={`${ids}-reason`}>Reason</label>
            <textarea
              id={`${ids}-reason`}
              name="reason"
              className="text-input"
              rows={3}
              maxLength={REASON_MAX_LENGTH}
              required
              data-autofocus={pending.kind === 'role' || pending.kind === 'plan' ? undefined : true}
              aria-invalid={problemField === 'reason' || undefined}
              aria-describedby={`${ids}-reason-hint`}
            />
            <p id={`${ids}-reason-hint`} className="admin-note">
              Kept in the audit trail with your name and the time. Up to {REASON_MAX_LENGTH} characters.
            </p>
          </div>
          {problem !== '' && (
            <p className="admin-problem-text" role="alert">
              {problem}
            </p>
          )}
          <div className="admin-user__dialog-actions">
            <button type="button" className="btn btn-secondary" onClick={cancelAction} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} disabled={busy}>
              {busy ? 'Working…' : words.confirm}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/**
 * One user's page in the console (/developer/docs/admin/user?id=…): profile, plan and subscription,
 * keys (last four only), 30 days of usage, recent requests, sessions (an administrator's switch
 * marked) and the audit trail. Administrators also act on the account, each action confirmed in a
 * dialog with a reason; analysts see no actions. Nothing shows before the visitor is confirmed as staff.
 */
export function AdminUser(): ReactNode {
  const staff = useStore($staffConfirmed);
  const state = useStore($adminUser);
  useEffect(() => startAdminUser(), []);
  if (!staff) return null;
  const { detail } = state;
  return (
    <div className="admin-user">
      <p className="admin-user__back">
        <a href="/developer/docs/admin/users">← All users</a>
      </p>
      {detail === null && (
        <>
          <h1 className="admin-user__placeholder">User</h1>
          <LoadState
            status={state.status}
            error={state.error}
            loading="Loading the user…"
            onRetry={() => void loadUser()}
          />
        </>
      )}
      {detail !== null && (
        <>
          <Summary detail={detail} />
          <div className="admin-user__grid">
            <Profile detail={detail} />
            <Plan detail={detail} />
            <Keys detail={detail} />
            <div className="admin-user__wide">
              <DayChart
                title="Usage, last 30 days"
                unit="calls"
                series={[{ name: 'Calls', tone: 'brand' }]}
                days={detail.usage.map((day) => ({ day: day.day, values: [day.calls] }))}
              />
            </div>
            <Requests detail={detail} />
            <Sessions detail={detail} />
            <Audit detail={detail} />
          </div>
          <ActionDialog />
        </>
      )}
    </div>
  );
}
