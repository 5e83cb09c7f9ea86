import { useStore } from '@nanostores/react';
import { useEffect, useId, type ReactNode, type SyntheticEvent } from 'react';
import { $staffConfirmed } from '../lib/stores/admin-console.ts';
import {
  $adminAudit,
  filterByUser,
  loadAudit,
  loadOlderAudit,
  startAdminAudit,
} from '../lib/stores/admin-audit.ts';
import { AuditTable, LoadState } from './parts/AdminParts.tsx';
import './AdminAudit.css';

/** An account of an entry: a link to its page, or words when the entry names no account. */
function Filter(): ReactNode {
  const { userId, filterProblem } = useStore($adminAudit);
  const ids = useId();
  const onSubmit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const typed = new FormData(event.currentTarget).get('userId');
    filterByUser(typeof typed === 'string' ? typed : '');
  };
  return (
    <form className="admin-audit__filter" aria-label="Filter the audit trail" onSubmit={onSubmit} noValidate>
      <label htmlFor={`${ids}-user`}>User id</label>
      <div className="admin-audit__filter-row">
        <input
          key={userId}
          id={`${ids}-user`}
          name="userId"
          className="text-input"
          defaultValue={userId}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={filterProblem !== '' || undefined}
          aria-describedby={`${ids}-hint`}
        />
        <button type="submit" className="btn btn-primary">
          Show
        </button>
        {userId !== '' && (
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => {
              filterByUser('');
            }}
          >
            Show everyone
          </button>
        )}
      </div>
      <p id={`${ids}-hint`} className={filterProblem === '' ? 'admin-note' : 'admin-problem-text'}>
        {filterProblem === ''
          ? 'What the user did and what was done to their account; leave empty for everyone.'
          : filterProblem}
      </p>
    </form>
  );
}

/**
 * The console's audit trail (/developer/docs/admin/audit): who did what to whose account, when and
 * why, newest first, for everyone or one user. Nothing shows before the visitor is confirmed as staff.
 */
export function AdminAudit(): ReactNode {
  const staff = useStore($staffConfirmed);
  const state = useStore($adminAudit);
  useEffect(() => startAdminAudit(), []);
  if (!staff) return null;
  return (
    <div className="admin-audit">
      <Filter />
      <LoadState
        status={state.status}
        error={state.error}
        loading="Loading the audit trail…"
        onRetry={() => void loadAudit()}
      />
      {state.status === 'ready' && state.entries.length === 0 && (
        <p className="admin-note">Nothing recorded{state.userId === '' ? '' : ' about this user'} yet.</p>
      )}
      {state.status === 'ready' && state.entries.length > 0 && (
        <AuditTable entries={state.entries} label="Audit trail" />
      )}
      {state.status === 'ready' && state.nextCursor !== null && (
        <div className="admin-pager">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={state.loadingMore}
            onClick={() => void loadOlderAudit()}
          >
            {state.loadingMore ? 'Loading…' : 'Show older entries'}
          </button>
        </div>
      )}
      {state.status === 'ready' && state.error !== '' && (
        <p role="alert" className="admin-problem-text">
          {state.error}
        </p>
      )}
    </div>
  );
}
