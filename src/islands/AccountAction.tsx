import { useStore } from '@nanostores/react';
import { navigate } from 'astro:transitions/client';
import { useEffect, useId, type ReactNode, type SubmitEvent } from 'react';
import { MIN_PASSWORD_LENGTH } from '../lib/form-rules.ts';
import { SUPPORT_EMAIL } from '../lib/messages.ts';
import { AUTH_LINKS, SETTINGS_PAGE } from '../lib/routes.ts';
import {
  $accountAction,
  resetAccountAction,
  retryAccountAction,
  startAccountAction,
  submitNewPassword,
  type AccountActionState,
} from '../lib/stores/account-action.ts';
import { $signedIn } from '../lib/stores/auth.ts';
import { Spinner } from './parts/AuthParts.tsx';
import { useHydrated } from './parts/use-hydrated.ts';
import './parts/AuthForm.css';

/** The page's heading: what the link is for, and once done, what happened. */
function heading({ step, mode }: AccountActionState): string {
  if (step === 'starting') return 'Opening your link';
  if (mode === 'resetPassword') {
    return step === 'signing-in' || step === 'changed' ? 'Password changed' : 'Reset your password';
  }
  if (mode === 'verifyEmail')
    return step === 'verified' ? 'Email address verified' : 'Verify your email address';
  if (mode === 'verifyAndChangeEmail')
    return step === 'verified' ? 'Email address changed' : 'Change your email address';
  return 'This link cannot be opened';
}

/** The sign-in page with the account's address filled in. */
function signInHref(email: string): string {
  return email === ''
    ? AUTH_LINKS.signIn
    : `${AUTH_LINKS.signIn}?${new URLSearchParams({ email }).toString()}`;
}

function goTo(path: string): void {
  navigate(path).catch(() => {
    location.assign(path);
  });
}

/** Where the visitor can go from here: one main way forward, and sign-in as the way back. */
function NextSteps({ state, signedIn }: { state: AccountActionState; signedIn: boolean }): ReactNode {
  const { step, mode, failure, email, continuePath } = state;
  if (step === 'verified') {
    return (
      <div className="auth-form__actions">
        {signedIn ? (
          <a className="btn btn-primary" href={continuePath ?? AUTH_LINKS.dashboard}>
            Go to your dashboard
          </a>
        ) : (
          <a className="btn btn-primary" href={signInHref(email)}>
            Sign in
          </a>
        )}
      </div>
    );
  }
  if (step === 'changed') {
    return (
      <div className="auth-form__actions">
        <a className="btn btn-primary" href={signInHref(email)}>
          Sign in with your new password
        </a>
      </div>
    );
  }
  if (step !== 'failed') return null;
  if (failure === 'retry') {
    return (
      <div className="auth-form__actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            void retryAccountAction();
          }}
        >
          Try again
        </button>
      </div>
    );
  }
  if (failure === 'blocked') {
    return (
      <div className="auth-form__actions">
        <a className="btn btn-primary" href={`mailto:${SUPPORT_EMAIL}`}>
          Contact support
        </a>
      </div>
    );
  }
  if (mode === 'verifyAndChangeEmail') {
    return (
      <div className="auth-form__actions">
        <a className="btn btn-primary" href={signedIn ? SETTINGS_PAGE : AUTH_LINKS.signIn}>
          {signedIn ? 'Ask again from your settings' : 'Sign in to ask again'}
        </a>
      </div>
    );
  }
  if (mode === 'verifyEmail') {
    return (
      <div className="auth-form__actions">
        {signedIn ? (
          <a className="btn btn-primary" href={AUTH_LINKS.dashboard}>
            Send a new link from your dashboard
          </a>
        ) : (
          <a className="btn btn-primary" href={AUTH_LINKS.signIn}>
            Sign in to send a new link
          </a>
        )}
      </div>
    );
  }
  return (
    <div className="auth-form__actions">
      <a className="btn btn-primary" href={AUTH_LINKS.forgotPassword}>
        Request a new link
      </a>
      <a className="btn btn-secondary" href={AUTH_LINKS.signIn}>
        Back to sign in
      </a>
    </div>
  );
}

/** The two new-password fields; the values stay in the form, so they need no React state. */
function NewPasswordFields({ state, baseId }: { state: AccountActionState; baseId: string }): ReactNode {
  const hintId = `${baseId}-hint`;
  const messageId = `${baseId}-message`;
  return (
    <>
      {/* Tells password managers which account the new password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={state.email} readOnly hidden />
      <div className="auth-form__field">
        <label htmlFor={`${baseId}-password`}>New password</label>
        <input
          id={`${baseId}-password`}
          name="password"
          type="password"
          autoComplete="new-password"
          aria-invalid={state.field === 'password'}
          aria-describedby={`${hintId} ${messageId}`}
        />
        <p id={hintId} className="auth-form__hint">
          At least {MIN_PASSWORD_LENGTH} characters.
        </p>
      </div>
      <div className="auth-form__field">
        <label htmlFor={`${baseId}-confirm`}>Confirm new password</label>
        <input
          id={`${baseId}-confirm`}
          name="confirm"
          type="password"
          autoComplete="new-password"
          aria-invalid={state.field === 'confirm'}
          aria-describedby={messageId}
        />
      </div>
    </>
  );
}

function submit(event: SubmitEvent<HTMLFormElement>): void {
  event.preventDefault();
  const data = new FormData(event.currentTarget);
  const password = data.get('password');
  const confirm = data.get('confirm');
  void submitNewPassword(
    typeof password === 'string' ? password : '',
    typeof confirm === 'string' ? confirm : '',
  ).then((path) => {
    if (path !== undefined) goTo(path);
  });
}

/**
 * The page the links in the identity provider's emails open (/auth/action): it sets a new password
 * and signs the account in, or confirms an address, and for a link that cannot be completed says
 * why and offers the way forward. The logic is in the account-action store.
 */
export function AccountAction(): ReactNode {
  const state = useStore($accountAction);
  const signedIn = useStore($signedIn);
  const hydrated = useHydrated();
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const messageId = `${baseId}-message`;
  const form = state.step === 'choosing' || state.step === 'saving';
  const busy = state.step === 'saving' || state.step === 'signing-in';

  useEffect(() => {
    void startAccountAction(location.search, location.origin);
    // The store outlives client-side navigations; a later visit reads its own link.
    return resetAccountAction;
  }, []);

  return (
    <div className="auth-form auth-form--page">
      <h1 id={titleId} className="auth-form__title">
        {heading(state)}
      </h1>
      {form ? (
        <form className="auth-form__form" aria-labelledby={titleId} noValidate onSubmit={submit}>
          <p className="auth-form__intro">
            Choose a new password for <strong>{state.email}</strong>.
          </p>
          <NewPasswordFields state={state} baseId={baseId} />
          <p className="auth-form__hint">Saving signs you in here and signs you out on every other device.</p>
          <button
            type="submit"
            className="btn btn-primary auth-form__submit"
            disabled={!hydrated || busy}
            aria-busy={busy}
          >
            {busy ? <Spinner className="auth-form__spinner" /> : null}
            Save new password
          </button>
        </form>
      ) : null}
      {/* One live region for every step, so each new message is announced where it stands. */}
      <p
        id={messageId}
        role="status"
        aria-live="polite"
        aria-atomic="true"
        className={`auth-form__message auth-form__message--${state.tone}`}
      >
        {state.message}
      </p>
      <NextSteps state={state} signedIn={hydrated && signedIn} />
    </div>
  );
}
