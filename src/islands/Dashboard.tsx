import { useStore } from '@nanostores/react';
import { useEffect, useId, type ReactNode } from 'react';
import { formatDateTime } from '../lib/format.ts';
import type { PricePlan } from '../lib/price-plans.ts';
import { API_KEYS_PAGE, AUTH_LINKS } from '../lib/routes.ts';
import {
  $dashboard,
  $dashboardView,
  checkoutSuccessMessage,
  checkVerification,
  copyApiKey,
  resendVerificationEmail,
  resetDashboard,
  startDashboard,
  toggleKeyReveal,
} from '../lib/stores/dashboard.ts';
import { DEV_MAILBOX_PAGE } from '../lib/stores/dev-mailbox.ts';
import {
  $subscription,
  $subscriptionCard,
  askToCancel,
  cancelSubscription,
  CHANGE_PLAN_PAGE,
  closeCancelDialog,
  INVOICES_PAGE,
  manageCard,
  resumeSubscription,
} from '../lib/stores/subscription.ts';
import { Dialog } from './parts/Dialog.tsx';
import { SUPPORT_EMAIL } from '../lib/messages.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import './Dashboard.css';

type ReadyView = Extract<ReturnType<typeof $dashboardView.get>, { status: 'ready' }>;

/** Same-sized placeholders while the session is confirmed, so no account data shows before then. */
function DashboardSkeleton(): ReactNode {
  return (
    <div className="dashboard" aria-busy="true">
      <p role="status" className="visually-hidden">
        Loading your dashboard…
      </p>
      <span className="skeleton dashboard__skeleton-title" aria-hidden="true" />
      <div className="dashboard__grid" aria-hidden="true">
        <span className="skeleton dashboard__skeleton-card dashboard__card--wide" />
        <span className="skeleton dashboard__skeleton-card" />
        <span className="skeleton dashboard__skeleton-card" />
      </div>
    </div>
  );
}

function ApiKeyCard({ view }: { view: ReadyView }): ReactNode {
  const { keyRevealed } = useStore($dashboard);
  const headingId = useId();
  if (view.apiKey === '') {
    return (
      <section className="dashboard__card dashboard__card--wide" aria-labelledby={headingId}>
        <h2 id={headingId}>API key</h2>
        <p className="dashboard__text">
          Your account has no API key yet. Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>{' '}
          and we will issue one.
        </p>
      </section>
    );
  }
  return (
    <section className="dashboard__card dashboard__card--wide" aria-labelledby={headingId}>
      <div className="dashboard__card-head">
        <h2 id={headingId}>API key</h2>
        <span
          className={`dashboard__badge dashboard__badge--${view.keyStatus === 'active' ? 'active' : 'inactive'}`}
        >
          {view.keyStatus === 'active' ? 'Active' : 'Unverified'}
        </span>
      </div>
      <p className="dashboard__text">
        Your key identifies your account on every request to the data API. Keep it secret: anyone who has it
        can use your plan.
      </p>
      <div className="api-key">
        <code className="api-key__value">
          {keyRevealed ? (
            view.apiKey
          ) : (
            <>
              <span aria-hidden="true">{view.maskedKey}</span>
              <span className="visually-hidden">Hidden key ending in {view.apiKey.slice(-4)}</span>
            </>
          )}
        </code>
        <div className="api-key__actions">
          <button type="button" className="btn btn-secondary btn-sm" onClick={toggleKeyReveal}>
            {keyRevealed ? 'Hide key' : 'Reveal key'}
          </button>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() => {
              void copyApiKey();
            }}
          >
            Copy key
          </button>
          <a className="btn btn-secondary btn-sm" href={API_KEYS_PAGE}>
            Manage keys
          </a>
        </div>
      </div>
      {view.keyStatus === 'unverified' && (
        <p className="dashboard__hint">It answers calls once your email address is verified (see below).</p>
      )}
      {view.expiringKeys.map((key) => (
        <p key={`${key.last4}-${key.expiresAt}`} className="dashboard__hint">
          <span className="dashboard__badge dashboard__badge--neutral">Expiring</span> Your replaced key
          ending in {key.last4} keeps working until <strong>{formatDateTime(key.expiresAt)}</strong>: move
          your code to the key above before then.
        </p>
      ))}
    </section>
  );
}

function planLimits(plan: PricePlan): string {
  const perMinute =
    plan.callsPerMinute === null
      ? 'No per-minute limit'
      : `${plan.callsPerMinute.toLocaleString('en-US')} calls per minute`;
  const perDay =
    plan.callsPerDay === null
      ? 'no daily limit'
      : `${plan.callsPerDay.toLocaleString('en-US')} calls per day`;
  return `${perMinute}, ${perDay}.`;
}

function PlanCard({ view }: { view: ReadyView }): ReactNode {
  const headingId = useId();
  return (
    <section className="dashboard__card" aria-labelledby={headingId}>
      <h2 id={headingId}>Your plan</h2>
      <p className="dashboard__plan-name">{view.planName}</p>
      {view.plan && <p className="dashboard__text">{planLimits(view.plan)}</p>}
      <a className="dashboard__link" href={AUTH_LINKS.pricing}>
        {view.isPremium ? 'Compare plans' : 'Upgrade your plan'}
      </a>
      <a className="dashboard__link" href={AUTH_LINKS.invoices}>
        Invoices
      </a>
    </section>
  );
}

/** Where to go from the overview to build with the key: the first call, the docs, the API viewer. */
const START_LINKS = [
  { href: '/developer/docs/quickstart', label: 'Quickstart: your first call' },
  { href: '/developer/docs', label: 'API documentation' },
  { href: '/playground', label: 'API viewer' },
] as const;

function StartCard(): ReactNode {
  const headingId = useId();
  return (
    <section className="dashboard__card" aria-labelledby={headingId}>
      <h2 id={headingId}>Start building</h2>
      <p className="dashboard__text">
        Make your first call with your key, then find every endpoint in the documentation or try them in the
        API viewer.
      </p>
      {START_LINKS.map((link) => (
        <a key={link.href} className="dashboard__link" href={link.href}>
          {link.label}
        </a>
      ))}
    </section>
  );
}

/** Plan and billing: the subscription's state, what happens next, and cancel, resume, change plan, invoices. */
function BillingCard(): ReactNode {
  const card = useStore($subscriptionCard);
  const { busy, confirmingCancel, note, noteType } = useStore($subscription);
  const headingId = useId();
  const noteId = useId();
  if (card.kind === 'loading') return null;
  if (card.kind === 'none') {
    return (
      <section className="dashboard__card" aria-labelledby={headingId}>
        <h2 id={headingId}>Plan and billing</h2>
        <p className="dashboard__text">
          You have no paid subscription. Choose a plan for more data and calls.
        </p>
        <a className="dashboard__link" href={CHANGE_PLAN_PAGE}>
          See the plans
        </a>
      </section>
    );
  }
  return (
    <section className="dashboard__card dashboard__billing" aria-labelledby={headingId}>
      <div className="dashboard__card-head">
        <h2 id={headingId}>Plan and billing</h2>
        <span className={`dashboard__badge dashboard__badge--${card.tone}`}>{card.badge}</span>
      </div>
      <p className="dashboard__plan-name">{card.planName}</p>
      <p className="dashboard__text">{card.status}</p>
      <div className="dashboard__actions">
        {card.canCancel && (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={busy}
            aria-describedby={noteId}
            onClick={askToCancel}
          >
            Cancel subscription
          </button>
        )}
        {card.canResume && (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={busy}
            aria-describedby={noteId}
            onClick={() => {
              void resumeSubscription();
            }}
          >
            {busy ? 'Resuming…' : 'Resume subscription'}
          </button>
        )}
        <a className="btn btn-secondary btn-sm" href={CHANGE_PLAN_PAGE}>
          Change plan
        </a>
        {card.canManageCard && (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={busy}
            aria-describedby={noteId}
            onClick={() => {
              void manageCard();
            }}
          >
            Update payment method
          </button>
        )}
        <a className="btn btn-secondary btn-sm" href={INVOICES_PAGE}>
          Invoices
        </a>
      </div>
      <p
        id={noteId}
        role={noteType === 'error' ? 'alert' : 'status'}
        className={`dashboard__note dashboard__note--${noteType}`}
      >
        {note}
      </p>
      <Dialog
        open={confirmingCancel}
        onClose={closeCancelDialog}
        title="Cancel your subscription?"
        description={`You keep ${card.planName} until ${card.periodEnd}. After that your account moves to the Free plan and nothing more is charged. You can resume the subscription until then.`}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={closeCancelDialog} data-autofocus>
              Keep subscription
            </button>
            <button
              type="button"
              className="btn btn-danger"
              disabled={busy}
              onClick={() => {
                void cancelSubscription();
              }}
            >
              {busy ? 'Canceling…' : 'Cancel at period end'}
            </button>
          </>
        }
      />
    </section>
  );
}

function VerificationBox({ view }: { view: ReadyView }): ReactNode {
  const { sending, checking, note, noteType, mailboxAvailable } = useStore($dashboard);
  const headingId = useId();
  const noteId = useId();
  if (view.emailVerified) {
    return (
      <section className="dashboard__card dashboard__verification--ok" aria-labelledby={headingId}>
        <h2 id={headingId}>Email verification</h2>
        <p className="dashboard__text">
          <strong>{view.email}</strong> is verified. Your API key is active.
        </p>
        <p role="status" className="dashboard__note dashboard__note--success">
          {note}
        </p>
      </section>
    );
  }
  return (
    <section className="dashboard__card dashboard__verification--pending" aria-labelledby={headingId}>
      <h2 id={headingId}>Email verification</h2>
      <p className="dashboard__text">
        Your API key is inactive until you verify <strong>{view.email}</strong>. Follow the link in the
        verification email we sent you.
      </p>
      {mailboxAvailable && (
        <p className="dashboard__text">
          This site runs against the local Auth emulator, which delivers no email:{' '}
          <a href={DEV_MAILBOX_PAGE}>open the local mailbox</a> to find the link.
        </p>
      )}
      <div className="dashboard__actions">
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={sending}
          aria-describedby={noteId}
          onClick={() => {
            void resendVerificationEmail();
          }}
        >
          {sending ? 'Sending…' : 'Resend verification email'}
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={checking}
          aria-describedby={noteId}
          onClick={() => {
            void checkVerification();
          }}
        >
          {checking ? 'Checking…' : 'Check again'}
        </button>
      </div>
      <p className="dashboard__hint">Followed the link already? Check again to activate your key.</p>
      <p
        id={noteId}
        role={noteType === 'error' ? 'alert' : 'status'}
        className={`dashboard__note dashboard__note--${noteType}`}
      >
        {note}
      </p>
    </section>
  );
}

/**
 * The developer dashboard (SPEC §2): a greeting, the API key (masked until revealed, with copy)
 * with its state (active, unverified, a replaced key expiring), whether the email is verified, the
 * plan with its limits and the way to upgrade, billing, and where to start building (quickstart,
 * docs, API viewer). Until the session is
 * confirmed it shows a skeleton; signed-out visitors are sent away by the session's route guard.
 */
export function Dashboard(): ReactNode {
  const view = useStore($dashboardView);
  const { checkoutSucceeded } = useStore($dashboard);
  const hydrated = useHydrated();

  useEffect(() => {
    startDashboard();
    return resetDashboard;
  }, []);

  if (!hydrated || view.status === 'loading') return <DashboardSkeleton />;

  return (
    <div className="dashboard">
      <h1 className="dashboard__title">{view.greeting}</h1>
      {checkoutSucceeded && (
        <p role="status" className="dashboard__checkout">
          {checkoutSuccessMessage(view.planName)} Thank you: your API key has the new plan&apos;s data and
          limits within a minute, and your receipt is on its way by email.
        </p>
      )}
      <div className="dashboard__grid">
        <ApiKeyCard view={view} />
        <VerificationBox view={view} />
        <PlanCard view={view} />
        <BillingCard />
        <StartCard />
      </div>
    </div>
  );
}
