import { useStore } from '@nanostores/react';
import { useEffect, useId, type ReactNode, type SyntheticEvent } from 'react';
import { formatDate, formatDateTime, formatNumber } from '../lib/format.ts';
import type { AccountKey } from '../lib/dashboard-data.ts';
import { AUTH_LINKS } from '../lib/routes.ts';
import {
  $apiKeys,
  $keyGroups,
  $keysNow,
  addKey,
  askFor,
  copyKey,
  GRACE_CHOICES,
  renameKey,
  revokeKey,
  rollKey,
  setNewName,
  shownKey,
  startApiKeys,
  toggleReveal,
  type GraceChoice,
} from '../lib/stores/api-keys.ts';
import { Dialog } from './parts/Dialog.tsx';
import './ApiKeys.css';

/** A key's value with its reveal and copy buttons. */
function KeyValue({ item }: { item: AccountKey }): ReactNode {
  const { revealed } = useStore($apiKeys);
  const open = revealed.includes(item.id);
  return (
    <div className="api-keys__value">
      <code>
        {open ? (
          item.key
        ) : (
          <>
            <span aria-hidden="true">{shownKey(item, revealed)}</span>
            <span className="visually-hidden">Hidden key ending in {item.last4}</span>
          </>
        )}
      </code>
      <div className="api-keys__buttons">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          aria-label={`${open ? 'Hide' : 'Reveal'} key “${item.name}”`}
          onClick={() => {
            toggleReveal(item.id);
          }}
        >
          {open ? 'Hide' : 'Reveal'}
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          aria-label={`Copy key “${item.name}”`}
          onClick={() => {
            void copyKey(item);
          }}
        >
          Copy
        </button>
      </div>
    </div>
  );
}

/** Created, last used and calls today, as a description list. */
function KeyFacts({ item }: { item: AccountKey }): ReactNode {
  return (
    <dl className="api-keys__facts">
      <div>
        <dt>Created</dt>
        <dd>{formatDate(item.createdAt)}</dd>
      </div>
      <div>
        <dt>Last used</dt>
        <dd>{item.lastUsedAt === null ? 'Never' : formatDate(item.lastUsedAt)}</dd>
      </div>
      <div>
        <dt>Calls today</dt>
        <dd>{formatNumber(item.callsToday)}</dd>
      </div>
    </dl>
  );
}

function RollDialog(): ReactNode {
  const { pending, busy, problem } = useStore($apiKeys);
  const open = pending?.kind === 'roll';
  const grace: GraceChoice = pending?.kind === 'roll' ? pending.grace : '1h';
  const onSubmit = (event: SyntheticEvent): void => {
    event.preventDefault();
    void rollKey(grace);
  };
  return (
    <Dialog
      open={open}
      onClose={() => {
        askFor(null);
      }}
      title="Replace your primary key?"
      description="A new key is issued at once. Choose how long the old key keeps working, so every program can move to the new key before it stops."
    >
      <form id="roll-form" className="api-keys__dialog-form" onSubmit={onSubmit}>
        <fieldset>
          <legend>The old key</legend>
          {GRACE_CHOICES.map((choice) => (
            <label key={choice.value} className="api-keys__choice">
              <input
                type="radio"
                name="grace"
                value={choice.value}
                checked={grace === choice.value}
                onChange={() => {
                  askFor({ kind: 'roll', grace: choice.value });
                }}
              />
              {choice.label}
            </label>
          ))}
        </fieldset>
        {problem !== '' && (
          <p className="api-keys__problem" role="alert">
            {problem}
          </p>
        )}
        <div className="api-keys__dialog-actions">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => {
              askFor(null);
            }}
          >
            Keep the current key
          </button>
          <button type="submit" className="btn btn-danger" disabled={busy}>
            {busy ? 'Replacing…' : 'Replace key'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function RevokeDialog(): ReactNode {
  const { pending, busy, problem } = useStore($apiKeys);
  const key = pending?.kind === 'revoke' ? pending.key : null;
  const expiring = key?.expiresAt != null;
  return (
    <Dialog
      open={key !== null}
      onClose={() => {
        askFor(null);
      }}
      title={expiring ? 'Expire the old key now?' : `Revoke “${key?.name ?? ''}”?`}
      description={`Requests with the key ending in ${key?.last4 ?? ''} are refused from this moment. This cannot be undone.`}
      actions={
        <>
          <button
            type="button"
            className="btn btn-secondary"
            data-autofocus
            onClick={() => {
              askFor(null);
            }}
          >
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={busy}
            onClick={() => {
              if (key !== null) void revokeKey(key);
            }}
          >
            {expiring ? 'Expire now' : 'Revoke key'}
          </button>
        </>
      }
    >
      {problem !== '' && (
        <p className="api-keys__problem" role="alert">
          {problem}
        </p>
      )}
    </Dialog>
  );
}

function RenameDialog(): ReactNode {
  const { pending, busy, problem } = useStore($apiKeys);
  const rename = pending?.kind === 'rename' ? pending : null;
  const inputId = useId();
  const onSubmit = (event: SyntheticEvent): void => {
    event.preventDefault();
    if (rename !== null) void renameKey(rename.key, rename.name);
  };
  return (
    <Dialog
      open={rename !== null}
      onClose={() => {
        askFor(null);
      }}
      title="Rename key"
    >
      <form className="api-keys__dialog-form" onSubmit={onSubmit}>
        <label htmlFor={inputId}>Name</label>
        <input
          id={inputId}
          className="text-input api-keys__input"
          value={rename?.name ?? ''}
          maxLength={60}
          required
          data-autofocus
          onChange={(event) => {
            if (rename !== null) askFor({ ...rename, name: event.target.value });
          }}
        />
        {problem !== '' && (
          <p className="api-keys__problem" role="alert">
            {problem}
          </p>
        )}
        <div className="api-keys__dialog-actions">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => {
              askFor(null);
            }}
          >
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Save name
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * The API keys page: the primary key with its use and its replacement, replaced keys counting down
 * their grace with "Expire now", and named additional keys with rename and revoke.
 */
export function ApiKeys(): ReactNode {
  const state = useStore($apiKeys);
  const groups = useStore($keyGroups);
  const now = useStore($keysNow);
  const nameId = useId();
  useEffect(() => startApiKeys(), []);

  if (state.status === 'loading') {
    return (
      <p role="status" className="api-keys__note">
        Loading your keys…
      </p>
    );
  }
  if (state.status === 'error') {
    return (
      <p role="alert" className="api-keys__problem">
        {state.error}
      </p>
    );
  }
  const atLimit = state.additionalUsed >= state.additionalAllowed;
  const onAdd = (event: SyntheticEvent): void => {
    event.preventDefault();
    void addKey();
  };
  return (
    <div className="api-keys">
      <section className="api-keys__card" aria-labelledby="primary-key-title">
        <div className="api-keys__head">
          <h2 id="primary-key-title">Primary key</h2>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => {
              askFor({ kind: 'roll', grace: '1h' });
            }}
          >
            Replace key…
          </button>
        </div>
        <p className="api-keys__note">
          The key your dashboard, the API viewer and connected tools use. Replacing it issues a new key; the
          old one can keep working for a while so nothing breaks mid-move.
        </p>
        {groups.primary !== null && (
          <>
            <KeyValue item={groups.primary} />
            <KeyFacts item={groups.primary} />
          </>
        )}
      </section>

      {groups.expiring.length > 0 && (
        <section className="api-keys__card api-keys__card--expiring" aria-labelledby="expiring-keys-title">
          <h2 id="expiring-keys-title">Replaced keys still working</h2>
          <ul className="api-keys__list" role="list">
            {groups.expiring.map((item) => (
              <li key={item.id} className="api-keys__item">
                <p className="api-keys__expiry">
                  <span className="badge">Expiring</span> Key ending in {item.last4} stops working{' '}
                  <strong>{formatDate(item.expiresAt ?? '', new Date(now))}</strong> (
                  {formatDateTime(item.expiresAt ?? '')}).
                </p>
                <KeyValue item={item} />
                <KeyFacts item={item} />
                <button
                  type="button"
                  className="btn btn-danger btn-sm"
                  onClick={() => {
                    askFor({ kind: 'revoke', key: item });
                  }}
                >
                  Expire now
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section className="api-keys__card" aria-labelledby="additional-keys-title">
        <div className="api-keys__head">
          <h2 id="additional-keys-title">Additional keys</h2>
          <span className="api-keys__count">
            {state.additionalUsed} of {state.additionalAllowed} used
          </span>
        </div>
        <p className="api-keys__note">
          Give each program or environment a key of its own, so one can be revoked without touching the
          others. They share your plan and its limits; each key’s calls are counted under its name.
        </p>
        {groups.additional.filter((item) => item.expiresAt === null).length === 0 ? (
          <p className="api-keys__note">No additional keys yet.</p>
        ) : (
          <ul className="api-keys__list" role="list">
            {groups.additional
              .filter((item) => item.expiresAt === null)
              .map((item) => (
                <li key={item.id} className="api-keys__item">
                  <h3>{item.name}</h3>
                  <KeyValue item={item} />
                  <KeyFacts item={item} />
                  <div className="api-keys__buttons">
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      aria-label={`Rename key “${item.name}”`}
                      onClick={() => {
                        askFor({ kind: 'rename', key: item, name: item.name });
                      }}
                    >
                      Rename
                    </button>
                    <button
                      type="button"
                      className="btn btn-danger btn-sm"
                      aria-label={`Revoke key “${item.name}”`}
                      onClick={() => {
                        askFor({ kind: 'revoke', key: item });
                      }}
                    >
                      Revoke
                    </button>
                  </div>
                </li>
              ))}
          </ul>
        )}
        <form className="api-keys__add" onSubmit={onAdd} noValidate>
          <label htmlFor={nameId}>Name of a new key</label>
          <div className="api-keys__add-row">
            <input
              id={nameId}
              className="text-input api-keys__input"
              value={state.newName}
              placeholder="Production server"
              maxLength={60}
              disabled={atLimit}
              aria-describedby={`${nameId}-hint`}
              onChange={(event) => {
                setNewName(event.target.value);
              }}
            />
            <button type="submit" className="btn btn-primary" disabled={atLimit || state.busy}>
              Add key
            </button>
          </div>
          <p id={`${nameId}-hint`} className="api-keys__note">
            {atLimit ? (
              <>
                Your plan includes {state.additionalAllowed} additional key
                {state.additionalAllowed === 1 ? '' : 's'}. Revoke one to add another
                {state.additionalAllowed === 1 ? (
                  <>
                    , or <a href={AUTH_LINKS.pricing}>upgrade</a> for more
                  </>
                ) : null}
                .
              </>
            ) : (
              'Names help you tell keys apart; the key itself is generated.'
            )}
          </p>
          {state.problem !== '' && state.pending === null && (
            <p className="api-keys__problem" role="alert">
              {state.problem}
            </p>
          )}
        </form>
      </section>

      <RollDialog />
      <RevokeDialog />
      <RenameDialog />
    </div>
  );
}
