import { useStore } from '@nanostores/react';
import { useEffect, useId, type SubmitEvent, type ReactNode } from 'react';
import { AUTH_LINKS } from '../lib/routes.ts';
import {
  $passwordReset,
  requestPasswordReset,
  resetPasswordResetForm,
} from '../lib/stores/password-reset.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import './parts/AuthForm.css';

/** Reads the address from the submitted form, so the field needs no React state of its own. */
function submit(event: SubmitEvent<HTMLFormElement>): void {
  event.preventDefault();
  const email = new FormData(event.currentTarget).get('email');
  void requestPasswordReset(typeof email === 'string' ? email : '');
}

/**
 * The forgot-password form (SPEC §2): one address, one request to the identity provider. The
 * button waits for hydration, because a click before it would submit the form natively and
 * reload the page instead.
 */
export function ForgotPasswordForm(): ReactNode {
  const { status, message } = useStore($passwordReset);
  const hydrated = useHydrated();
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const messageId = `${baseId}-message`;
  const sending = status === 'sending';

  // The store outlives client-side navigations; a later visit starts with a clean form.
  useEffect(() => resetPasswordResetForm, []);

  return (
    <form className="auth-form auth-form--page" aria-labelledby={titleId} noValidate onSubmit={submit}>
      <h1 id={titleId} className="auth-form__title">
        Reset your password
      </h1>
      <p className="auth-form__intro">
        Enter the email address of your account and we will send you a link to choose a new password.
      </p>
      <div className="auth-form__field">
        <label htmlFor={`${baseId}-email`}>Email</label>
        <input
          id={`${baseId}-email`}
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          aria-invalid={status === 'error'}
          aria-describedby={messageId}
        />
      </div>
      <button type="submit" className="btn btn-primary" disabled={!hydrated || sending}>
        {sending ? 'Sending…' : 'Send reset link'}
      </button>
      <p
        id={messageId}
        role="status"
        aria-live="polite"
        aria-atomic="true"
        className={`auth-form__message auth-form__message--${status}`}
      >
        {message}
      </p>
      <p className="auth-form__switch">
        Remembered it? <a href={AUTH_LINKS.signIn}>Back to sign in</a>
      </p>
    </form>
  );
}
