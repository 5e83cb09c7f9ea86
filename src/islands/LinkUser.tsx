import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import type { AdminUserRow } from '../lib/admin.ts';
import {
  $adminConfirmed,
  $linkUser,
  askSwitch,
  cancelSwitch,
  confirmSwitch,
  searchUsers,
  setQuery,
  startLinkUserPage,
  SWITCH_MINUTES,
  switchRefusal,
} from '../lib/stores/link-user.ts';
import { Dialog } from './parts/Dialog.tsx';
import './LinkUser.css';

/** The confirmation of a switch: who, for how long, and that it is recorded. */
function SwitchDialog(): ReactNode {
  const { confirming: row, switching, switchError } = useStore($linkUser);
  return (
    <Dialog
      open={row !== null}
      onClose={cancelSwitch}
      title={`Switch to ${row?.username ?? ''}?`}
      description={`You will see the site as ${row?.username ?? ''} (${row?.email ?? ''}) sees it, for at most ${String(SWITCH_MINUTES)} minutes, and what you do acts on their account. The switch and your return are recorded in the audit trail; “Return to admin” at the top of every page brings you back.`}
      actions={
        <>
          <button type="button" className="btn btn-secondary" data-autofocus onClick={cancelSwitch}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-primary"
            aria-disabled={switching}
            onClick={() => {
              void confirmSwitch();
            }}
          >
            {switching ? 'Switching…' : 'Switch to this user'}
          </button>
        </>
      }
    >
      {switchError !== '' && <p className="link-user__problem">{switchError}</p>}
    </Dialog>
  );
}

/** One match: who it is and the switch, or why there is none. */
function UserRow({ row, preselected }: { row: AdminUserRow; preselected: boolean }): ReactNode {
  const refusal = switchRefusal(row);
  const nameId = useId();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (preselected) button.current?.focus();
  }, [preselected]);
  return (
    <tr className={preselected ? 'link-user__row link-user__row--preselected' : 'link-user__row'}>
      <th scope="row" id={nameId} data-label="Username">
        {row.username}
      </th>
      <td data-label="Email">{row.email}</td>
      <td data-label="Plan">{row.planCode}</td>
      <td data-label="Role">{row.role}</td>
      <td data-label="Blocked">{row.blocked ? 'Yes' : 'No'}</td>
      <td className="link-user__action">
        {refusal === null ? (
          <button
            ref={button}
            type="button"
            className="btn btn-primary btn-sm"
            aria-describedby={nameId}
            onClick={() => {
              askSwitch(row);
            }}
          >
            Switch to this user
          </button>
        ) : (
          <span className="link-user__refusal">{refusal}</span>
        )}
      </td>
    </tr>
  );
}

/** The matches of the last search, or what became of it. */
function Matches(): ReactNode {
  const { status, users, searched, error, preselected } = useStore($linkUser);
  if (status === 'searching') {
    return (
      <p role="status" className="link-user__note">
        Searching…
      </p>
    );
  }
  if (status === 'error') {
    return (
      <p role="alert" className="link-user__problem">
        {error}
      </p>
    );
  }
  if (status !== 'ready') return null;
  if (users.length === 0) {
    return (
      <p role="status" className="link-user__note">
        No user’s email address or username starts with “{searched}”, and no user has it as id.
      </p>
    );
  }
  return (
    <div className="link-user__table">
      <table>
        <caption>
          {users.length === 1 ? 'One user matches' : `${String(users.length)} users match`} “{searched}”
        </caption>
        <thead>
          <tr>
            <th scope="col">Username</th>
            <th scope="col">Email</th>
            <th scope="col">Plan</th>
            <th scope="col">Role</th>
            <th scope="col">Blocked</th>
            <th scope="col">
              <span className="visually-hidden">Switch</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((row) => (
            <UserRow key={row.id} row={row} preselected={row.id === preselected} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The Link User page (/profile-link, administrators only): a search by email address, username or
 * user id; each match with its plan, role and whether it is blocked, and "Switch to this user" behind
 * a confirmation. Administrators and blocked accounts cannot be viewed; the server refuses them too.
 */
export function LinkUser(): ReactNode {
  const state = useStore($linkUser);
  const confirmed = useStore($adminConfirmed);
  const inputId = useId();
  useEffect(() => startLinkUserPage(location.search), []);

  if (!confirmed) {
    return (
      <p role="status" className="link-user__note">
        Checking your access…
      </p>
    );
  }
  return (
    <div className="link-user">
      <form
        className="link-user__search"
        role="search"
        aria-label="Find a user"
        onSubmit={(event) => {
          event.preventDefault();
          void searchUsers();
        }}
      >
        <label htmlFor={inputId}>Email, username or user id</label>
        <div className="link-user__field">
          <input
            id={inputId}
            className="text-input"
            type="search"
            autoComplete="off"
            spellCheck={false}
            value={state.query}
            onChange={(event) => {
              setQuery(event.target.value);
            }}
          />
          <button type="submit" className="btn btn-primary" aria-disabled={state.status === 'searching'}>
            Search
          </button>
        </div>
        <p className="link-user__note">
          Matches the start of an email address or username, or a whole user id; up to 20 users are shown.
        </p>
      </form>
      <Matches />
      <SwitchDialog />
    </div>
  );
}
