import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { AUTH_LINKS, SITE_NAME } from '../lib/routes.ts';
import {
  $affiliate,
  copyReferralLink,
  currentReferralLink,
  joinProgramme,
  loadAffiliate,
  setAcceptTerms,
  startAffiliate,
} from '../lib/stores/affiliate.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import './AffiliateProgramme.css';

function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** The account's code, link and referred sign-ups; the heading is focused right after joining. */
function Member({
  code,
  signUps,
  justJoined,
}: {
  code: string;
  signUps: number;
  justJoined: boolean;
}): ReactNode {
  const { copied } = useStore($affiliate);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const baseId = useId();
  useEffect(() => {
    if (justJoined) headingRef.current?.focus();
  }, [justJoined]);
  const link = currentReferralLink();
  return (
    <section className="affiliate-panel" aria-labelledby={`${baseId}-title`}>
      <h2 id={`${baseId}-title`} ref={headingRef} tabIndex={-1} className="affiliate-panel__title">
        Your affiliate account
      </h2>
      {justJoined && (
        <p role="status" className="affiliate-panel__welcome">
          Welcome to the programme. Share your link below; every account created through it is counted here.
        </p>
      )}
      <dl className="affiliate-panel__facts">
        <div>
          <dt>Referral code</dt>
          <dd>
            <code>{code}</code>
          </dd>
        </div>
        <div>
          <dt>Referred sign-ups</dt>
          <dd className="affiliate-panel__count">{signUps.toLocaleString('en-US')}</dd>
        </div>
      </dl>
      <div className="affiliate-panel__link">
        <label htmlFor={`${baseId}-link`}>Your referral link</label>
        <div className="affiliate-panel__copy">
          <input
            id={`${baseId}-link`}
            type="text"
            readOnly
            value={link}
            onFocus={(event) => {
              event.currentTarget.select();
            }}
          />
          <button type="button" className="btn btn-secondary" onClick={() => void copyReferralLink()}>
            {copied ? 'Copied' : 'Copy link'}
          </button>
        </div>
        <p className="affiliate-panel__hint">
          Add <code>?ref={code}</code> to the address of any page (a guide, the pricing page, an article) to
          link there instead. {plural(signUps, 'account has', 'accounts have')} been created through your
          links so far.
        </p>
      </div>
    </section>
  );
}

/**
 * The /affiliates page's sign-up: signed-out visitors are asked to sign in or create an account;
 * a signed-in account without a code accepts the terms and joins; a member sees their code, their
 * link to share and how many accounts their links brought.
 */
export function AffiliateProgramme(): ReactNode {
  const state = useStore($affiliate);
  const hydrated = useHydrated();
  const baseId = useId();
  useEffect(() => startAffiliate(), []);

  if (state.view === 'checking' || state.view === 'loading') {
    return (
      <section className="affiliate-panel" aria-busy="true" aria-label="Your affiliate account">
        <p className="affiliate-panel__hint">Checking your account…</p>
      </section>
    );
  }

  if (state.view === 'signed-out') {
    return (
      <section className="affiliate-panel" aria-labelledby={`${baseId}-title`}>
        <h2 id={`${baseId}-title`} className="affiliate-panel__title">
          Join the programme
        </h2>
        <p>
          You join with your {SITE_NAME} account; creating one is free and takes a minute. Sign in or create
          an account, then come back to this page for your referral link.
        </p>
        <div className="affiliate-panel__actions">
          <a className="btn btn-primary" href={AUTH_LINKS.signIn}>
            Sign in
          </a>
          <a className="btn btn-secondary" href={AUTH_LINKS.signUp}>
            Create an account
          </a>
        </div>
      </section>
    );
  }

  if (state.view === 'error') {
    return (
      <section className="affiliate-panel" aria-labelledby={`${baseId}-title`}>
        <h2 id={`${baseId}-title`} className="affiliate-panel__title">
          Your affiliate account
        </h2>
        <p role="alert" className="affiliate-panel__error">
          {state.message}
        </p>
        <button type="button" className="btn btn-secondary" onClick={() => void loadAffiliate()}>
          Try again
        </button>
      </section>
    );
  }

  const code = state.status?.referralCode ?? null;
  if (state.view === 'member' && code !== null) {
    return <Member code={code} signUps={state.status?.referredSignUps ?? 0} justJoined={state.justJoined} />;
  }

  const termsId = `${baseId}-terms`;
  return (
    <form
      className="affiliate-panel"
      aria-labelledby={`${baseId}-title`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void joinProgramme();
      }}
    >
      <h2 id={`${baseId}-title`} className="affiliate-panel__title">
        Join the programme
      </h2>
      <p>Your account gets a referral code and a link to share at once. You can start linking today.</p>
      <div className="affiliate-panel__check">
        <input
          id={termsId}
          type="checkbox"
          checked={state.acceptTerms}
          aria-invalid={state.termsError !== ''}
          aria-describedby={state.termsError === '' ? undefined : `${termsId}-error`}
          onChange={(event) => {
            setAcceptTerms(event.currentTarget.checked);
          }}
        />
        <label htmlFor={termsId}>
          I accept the <a href="#terms">affiliate programme terms</a> on this page.
        </label>
      </div>
      {state.termsError !== '' && (
        <p id={`${termsId}-error`} className="affiliate-panel__error">
          {state.termsError}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={!hydrated || state.joining}>
        {state.joining ? 'Joining…' : 'Join and get my link'}
      </button>
      <p role="status" aria-atomic="true" className="affiliate-panel__error">
        {state.message}
      </p>
    </form>
  );
}
