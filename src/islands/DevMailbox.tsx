import { useStore } from '@nanostores/react';
import { useEffect, useId, type ReactNode } from 'react';
import {
  $devMailbox,
  $visibleMessages,
  linkLabel,
  loadMailbox,
  messageKind,
  setMailboxFilter,
  type DevMailboxState,
  type MailboxMessage,
} from '../lib/stores/dev-mailbox.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import './DevMailbox.css';

function sentAt(createdAt: string | undefined): ReactNode {
  if (createdAt === undefined) return null;
  const date = new Date(createdAt);
  return (
    <time className="mailbox__time" dateTime={createdAt}>
      {date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}
    </time>
  );
}

function Message({ message }: { message: MailboxMessage }): ReactNode {
  return (
    <li className="mailbox__message">
      <div className="mailbox__meta">
        <span className="mailbox__kind">{messageKind(message.requestType)}</span>
        {sentAt(message.createdAt)}
      </div>
      <p className="mailbox__address">
        To <strong>{message.email}</strong>
      </p>
      {message.subject === undefined ? null : <p className="mailbox__subject">{message.subject}</p>}
      {message.body === undefined ? null : <p className="mailbox__body">{message.body}</p>}
      <a className="mailbox__link" href={message.link} target="_blank" rel="noopener noreferrer">
        {linkLabel(message.requestType)}
        <span className="visually-hidden"> for {message.email} (opens in a new tab)</span>
      </a>
    </li>
  );
}

/** The one-line state of the list, read out politely whenever it changes. */
function summary(state: DevMailboxState, visible: number): string {
  const { status, messages, filter, error } = state;
  if (status === 'unavailable') return error;
  if (status === 'error') return '';
  if (status !== 'ready') return messages.length === 0 ? 'Loading messages…' : 'Refreshing messages…';
  if (messages.length === 0) {
    return 'No messages yet. Emails the site sends, such as address verification, password reset and help request confirmations, appear here.';
  }
  if (visible === 0) return `No messages to addresses containing “${filter.trim()}”.`;
  return `${visible === 1 ? '1 message' : `${String(visible)} messages`}, newest first.`;
}

function Listing(): ReactNode {
  const state = useStore($devMailbox);
  const visible = useStore($visibleMessages);
  return (
    <>
      <p role="status" className="mailbox__notice">
        {summary(state, visible.length)}
      </p>
      {state.status === 'error' && (
        <p role="alert" className="mailbox__notice mailbox__notice--error">
          {state.error}
        </p>
      )}
      {visible.length > 0 && state.status !== 'error' && (
        <ul className="mailbox__list" role="list">
          {visible.map((message) => (
            <Message key={message.id ?? message.link} message={message} />
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * The local mailbox: while the site runs against the Auth emulator, which delivers no email, it
 * lists the messages that would have been sent, with the links that complete them, so the sign-up
 * and verification can be tried without a mail server. Against a real project it explains why
 * there is nothing to show.
 */
export function DevMailbox(): ReactNode {
  const { status, filter } = useStore($devMailbox);
  const hydrated = useHydrated();
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const loading = status === 'loading';

  useEffect(() => {
    void loadMailbox();
  }, []);

  return (
    <section className="mailbox" aria-labelledby={titleId}>
      <h1 id={titleId}>Local mailbox</h1>
      <p className="mailbox__intro">
        When you try the product locally, the site runs against the Firebase Auth emulator, which sends no
        email. This page stands in for your inbox: it lists the emails the site would have sent, such as the
        link that verifies your address, and following a link does what the email would do.
      </p>
      {status !== 'unavailable' && (
        <div className="mailbox__controls">
          <div className="mailbox__field">
            <label htmlFor={`${baseId}-filter`}>Filter by address</label>
            <input
              id={`${baseId}-filter`}
              type="search"
              autoComplete="off"
              spellCheck={false}
              value={filter}
              onChange={(event) => {
                setMailboxFilter(event.currentTarget.value);
              }}
            />
          </div>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={!hydrated || loading}
            onClick={() => {
              void loadMailbox();
            }}
          >
            {loading ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
      )}
      <div className="mailbox__results">
        {hydrated ? <Listing /> : <p className="mailbox__notice">Loading messages…</p>}
      </div>
    </section>
  );
}
