import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { adminUserHref } from '../lib/admin.ts';
import { replyHref } from '../lib/admin-console.ts';
import { contactTopicLabel } from '../lib/contact-message-form.ts';
import { COMPANY_SIZES } from '../lib/enterprise-form.ts';
import { formatDate, formatDateTime } from '../lib/format.ts';
import { helpTopicLabel } from '../lib/help-topics.ts';
import { SITE_NAME } from '../lib/routes.ts';
import { $staffConfirmed } from '../lib/stores/admin-console.ts';
import {
  $adminMessages,
  loadMessages,
  loadOlderMessages,
  MESSAGE_TABS,
  showTab,
  startAdminMessages,
  type ContactPageMessage,
  type EnterpriseMessage,
  type HelpMessage,
  type JobApplicationMessage,
  type MessageList,
  type MessageTab,
} from '../lib/stores/admin-messages.ts';
import { LoadState } from './parts/AdminParts.tsx';
import './AdminMessages.css';

function Received({ at }: { at: string }): ReactNode {
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      {formatDate(at)}
    </time>
  );
}

function Account({ userId }: { userId: string | null }): ReactNode {
  if (userId === null) return <>Sent signed out</>;
  return <a href={adminUserHref(userId)}>The sender&apos;s account</a>;
}

function EnterpriseCard({ entry }: { entry: EnterpriseMessage }): ReactNode {
  const headingId = useId();
  const size = COMPANY_SIZES.find((item) => item.value === entry.companySize)?.label ?? 'Not given';
  return (
    <article className="admin-messages__card" aria-labelledby={headingId}>
      <header className="admin-messages__head">
        <h2 id={headingId}>
          {entry.name}
          {entry.company === '' ? '' : `, ${entry.company}`}
        </h2>
        <span className="admin-note">
          <Received at={entry.createdAt} />
        </span>
      </header>
      <dl className="admin-facts">
        <dt>Email</dt>
        <dd>{entry.email}</dd>
        <dt>Job title</dt>
        <dd>{entry.jobTitle === '' ? 'Not given' : entry.jobTitle}</dd>
        <dt>Company size</dt>
        <dd>{size}</dd>
        <dt>May be contacted</dt>
        <dd>{entry.consentedAt === null ? 'Not asked (sent before the form asked)' : 'Yes'}</dd>
        <dt>Account</dt>
        <dd>
          <Account userId={entry.userId} />
        </dd>
      </dl>
      <p className="admin-messages__text">{entry.message}</p>
      <p className="admin-messages__reply">
        <a className="btn btn-secondary btn-sm" href={replyHref(entry.email, `Your enquiry to ${SITE_NAME}`)}>
          Reply by email<span className="visually-hidden"> to {entry.name}</span>
        </a>
      </p>
    </article>
  );
}

function HelpCard({ entry }: { entry: HelpMessage }): ReactNode {
  const headingId = useId();
  return (
    <article className="admin-messages__card" aria-labelledby={headingId}>
      <header className="admin-messages__head">
        <h2 id={headingId}>
          {entry.name} · {helpTopicLabel(entry.topic)}
        </h2>
        <span className="admin-note">
          <Received at={entry.createdAt} />
        </span>
      </header>
      <dl className="admin-facts">
        <dt>Reference</dt>
        <dd>
          <code>{entry.reference}</code>
        </dd>
        <dt>Email</dt>
        <dd>{entry.email}</dd>
        <dt>Account</dt>
        <dd>
          <Account userId={entry.userId} />
        </dd>
      </dl>
      <p className="admin-messages__text">{entry.message}</p>
      <p className="admin-messages__reply">
        <a
          className="btn btn-secondary btn-sm"
          href={replyHref(entry.email, `${entry.reference}: your help request to ${SITE_NAME}`)}
        >
          Reply by email<span className="visually-hidden"> to {entry.name}</span>
        </a>
      </p>
    </article>
  );
}

function ContactCard({ entry }: { entry: ContactPageMessage }): ReactNode {
  const headingId = useId();
  return (
    <article className="admin-messages__card" aria-labelledby={headingId}>
      <header className="admin-messages__head">
        <h2 id={headingId}>
          {entry.name} · {contactTopicLabel(entry.topic)}
        </h2>
        <span className="admin-note">
          <Received at={entry.createdAt} />
        </span>
      </header>
      <dl className="admin-facts">
        <dt>Reference</dt>
        <dd>
          <code>{entry.reference}</code>
        </dd>
        <dt>Email</dt>
        <dd>{entry.email}</dd>
        <dt>Account</dt>
        <dd>
          <Account userId={entry.userId} />
        </dd>
      </dl>
      <p className="admin-messages__text">{entry.message}</p>
      <p className="admin-messages__reply">
        <a
          className="btn btn-secondary btn-sm"
          href={replyHref(entry.email, `${entry.reference}: your message to ${SITE_NAME}`)}
        >
          Reply by email<span className="visually-hidden"> to {entry.name}</span>
        </a>
      </p>
    </article>
  );
}

function ApplicationCard({ entry }: { entry: JobApplicationMessage }): ReactNode {
  const headingId = useId();
  return (
    <article className="admin-messages__card" aria-labelledby={headingId}>
      <header className="admin-messages__head">
        <h2 id={headingId}>
          {entry.name} · {entry.roleTitle}
        </h2>
        <span className="admin-note">
          <Received at={entry.createdAt} />
        </span>
      </header>
      <dl className="admin-facts">
        <dt>Reference</dt>
        <dd>
          <code>{entry.reference}</code>
        </dd>
        <dt>Email</dt>
        <dd>{entry.email}</dd>
        <dt>Links</dt>
        <dd>
          <ul className="admin-messages__links">
            {entry.links.map((link) => (
              <li key={link}>
                <a href={link} rel="noopener noreferrer nofollow" target="_blank">
                  {link}
                </a>
              </li>
            ))}
          </ul>
        </dd>
        <dt>Account</dt>
        <dd>
          <Account userId={entry.userId} />
        </dd>
      </dl>
      <p className="admin-messages__text">{entry.coverNote}</p>
      <p className="admin-messages__reply">
        <a
          className="btn btn-secondary btn-sm"
          href={replyHref(entry.email, `${entry.reference}: your application for ${entry.roleTitle}`)}
        >
          Reply by email<span className="visually-hidden"> to {entry.name}</span>
        </a>
      </p>
    </article>
  );
}

function MessagePanel({
  tab,
  list,
  empty,
  children,
}: {
  tab: MessageTab;
  list: MessageList<unknown>;
  empty: string;
  children: ReactNode;
}): ReactNode {
  return (
    <>
      <LoadState
        status={list.status}
        error={list.error}
        loading="Loading messages…"
        onRetry={() => void loadMessages(tab)}
      />
      {list.status === 'ready' && list.entries.length === 0 && <p className="admin-note">{empty}</p>}
      {list.entries.length > 0 && <div className="admin-messages__list">{children}</div>}
      {list.status === 'ready' && list.nextBefore !== null && (
        <div className="admin-pager">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={list.loadingMore}
            onClick={() => void loadOlderMessages(tab)}
          >
            {list.loadingMore ? 'Loading…' : 'Show older messages'}
          </button>
        </div>
      )}
      {list.status === 'ready' && list.error !== '' && (
        <p role="alert" className="admin-problem-text">
          {list.error}
        </p>
      )}
    </>
  );
}

/**
 * The console's messages (/developer/docs/admin/messages): enterprise enquiries, help center
 * requests, contact page messages and job applications in four tabs, newest first, each read in full with a reply by email. Nothing shows before
 * the visitor is confirmed as staff.
 */
export function AdminMessages(): ReactNode {
  const staff = useStore($staffConfirmed);
  const state = useStore($adminMessages);
  const ids = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  useEffect(() => startAdminMessages(), []);
  if (!staff) return null;

  /** Arrow keys, Home and End move between the tabs (the ARIA tabs pattern). */
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const index = MESSAGE_TABS.findIndex((tab) => tab.id === state.tab);
    const last = MESSAGE_TABS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % MESSAGE_TABS.length
        : event.key === 'ArrowLeft'
          ? (index + last) % MESSAGE_TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : -1;
    const tab = MESSAGE_TABS[next];
    if (tab === undefined) return;
    event.preventDefault();
    showTab(tab.id);
    tabs.current[next]?.focus();
  };

  return (
    <div className="admin-messages">
      <div className="admin-messages__tabs" role="tablist" aria-label="Messages" onKeyDown={onKeyDown}>
        {MESSAGE_TABS.map((tab, index) => (
          <button
            key={tab.id}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${ids}-${tab.id}-tab`}
            aria-selected={state.tab === tab.id}
            aria-controls={`${ids}-${tab.id}-panel`}
            tabIndex={state.tab === tab.id ? 0 : -1}
            className="admin-messages__tab"
            onClick={() => {
              showTab(tab.id);
            }}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${ids}-enterprise-panel`}
        aria-labelledby={`${ids}-enterprise-tab`}
        hidden={state.tab !== 'enterprise'}
        className="admin-messages__panel"
      >
        <MessagePanel tab="enterprise" list={state.enterprise} empty="No enterprise enquiries yet.">
          {state.enterprise.entries.map((entry) => (
            <EnterpriseCard key={entry.id} entry={entry} />
          ))}
        </MessagePanel>
      </div>
      <div
        role="tabpanel"
        id={`${ids}-help-panel`}
        aria-labelledby={`${ids}-help-tab`}
        hidden={state.tab !== 'help'}
        className="admin-messages__panel"
      >
        <MessagePanel tab="help" list={state.help} empty="No help requests yet.">
          {state.help.entries.map((entry) => (
            <HelpCard key={entry.id} entry={entry} />
          ))}
        </MessagePanel>
      </div>
      <div
        role="tabpanel"
        id={`${ids}-contact-panel`}
        aria-labelledby={`${ids}-contact-tab`}
        hidden={state.tab !== 'contact'}
        className="admin-messages__panel"
      >
        <MessagePanel tab="contact" list={state.contact} empty="No contact messages yet.">
          {state.contact.entries.map((entry) => (
            <ContactCard key={entry.id} entry={entry} />
          ))}
        </MessagePanel>
      </div>
      <div
        role="tabpanel"
        id={`${ids}-applications-panel`}
        aria-labelledby={`${ids}-applications-tab`}
        hidden={state.tab !== 'applications'}
        className="admin-messages__panel"
      >
        <MessagePanel tab="applications" list={state.applications} empty="No job applications yet.">
          {state.applications.entries.map((entry) => (
            <ApplicationCard key={entry.id} entry={entry} />
          ))}
        </MessagePanel>
      </div>
    </div>
  );
}
