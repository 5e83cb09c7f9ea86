import { useStore } from '@nanostores/react';
import { useEffect, useId, useState, type KeyboardEvent, type ReactNode, type SubmitEvent } from 'react';
import { AGREEMENT_MESSAGE } from '../lib/messages.ts';
import { AUTH_LINKS } from '../lib/routes.ts';
import { $auth } from '../lib/stores/auth.ts';
import {
  $signUp,
  applySignUpQuery,
  cancelGoogleSignUp,
  continueWithGoogle,
  resetSignUp,
  startGoogleSignUp,
  submitSignUp,
  type SignUpVariant,
} from '../lib/stores/sign-up.ts';
import { prepareGoogleSignIn } from '../lib/stores/social-sign-in.ts';
import { GoogleEmailForm, GoogleLogo, Spinner, switchPopupView } from './parts/AuthParts.tsx';
import { Questionnaire } from './parts/Questionnaire.tsx';
import { useHydrated } from './parts/use-hydrated.ts';
import './parts/AuthForm.css';

export interface SignUpFormProps {
  /** `page`: the full /register page with its heading; `popup`: the sign-up view of the auth dialog. */
  variant: SignUpVariant;
}

const AUTH_POPUP_KEYS: ['authPopup'] = ['authPopup'];

const GOOGLE_EMAIL_HINT =
  'This is the local test sign-up: the site runs against the Auth emulator, which has no Google window. ' +
  'Enter the email of the Google account to sign up with; a new address creates a test account.';

/**
 * The sign-up screen (SPEC §2): email and password, the agreement with the Terms of Use and the
 * privacy policy, Sign up, Continue with Google and the way to sign in, as a full page or inside
 * the auth pop-up; the questionnaire and the registration views take its place once it is sent.
 */
export function SignUpForm({ variant }: SignUpFormProps): ReactNode {
  const state = useStore($signUp);
  const { authPopup } = useStore($auth, { keys: AUTH_POPUP_KEYS, ssr: 'initial' });
  const hydrated = useHydrated();
  const baseId = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [agreement, setAgreement] = useState(true);
  const isPage = variant === 'page';
  const mine = state.variant === variant;
  const phase = mine ? state.phase : 'form';
  const busy = state.loading || state.phase === 'preparing';
  const loading = mine && state.loading;
  const message = mine ? state.message : '';
  const askingGoogleEmail = mine && state.askingGoogleEmail;
  const titleId = `${baseId}-title`;
  const messageId = `${baseId}-message`;
  const hintId = `${baseId}-password-hint`;
  const empty = email.trim() === '' || password === '';
  const invalid = message !== '' && message !== AGREEMENT_MESSAGE;

  useEffect(() => {
    if (!isPage) return undefined;
    const prefill = applySignUpQuery(location.search);
    if (prefill !== '') setEmail(prefill);
    // The store outlives client-side navigations; a later visit starts with a clean form.
    return () => {
      resetSignUp('page');
    };
  }, [isPage]);

  // A closed pop-up abandons an unfinished sign-up; a finished one ends on its own schedule.
  useEffect(() => {
    if (!isPage && authPopup === false && $signUp.get().phase !== 'done') resetSignUp('popup');
  }, [isPage, authPopup]);

  // A finished sign-up leaves nothing typed behind for the next one.
  useEffect(() => {
    if (phase !== 'done') return;
    setEmail('');
    setPassword('');
  }, [phase]);

  if (phase !== 'form') return <Questionnaire variant={variant} />;

  const submit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    void submitSignUp(variant, { email, password, agreement });
  };

  /**
   * With a field empty the Sign up button is disabled, which makes browsers ignore Enter in the
   * fields; the visitor is told what is missing instead of nothing happening.
   */
  const enterWithEmptyField = (event: KeyboardEvent<HTMLFormElement>): void => {
    if (event.key !== 'Enter' || !empty || busy) return;
    if (!(event.target instanceof HTMLInputElement) || event.target.type === 'checkbox') return;
    event.preventDefault();
    void submitSignUp(variant, { email, password, agreement });
  };

  return (
    <div className={`auth-form auth-form--${variant}${variant === 'page' ? ' auth-form--beside' : ''}`}>
      {isPage ? (
        <div className="auth-form__header">
          <h1 id={titleId} className="auth-form__title">
            Sign up for a free API key
          </h1>
          <p className="auth-form__intro">
            Create your account to get your API key and start pulling market data in minutes.
          </p>
        </div>
      ) : null}
      <form
        className="auth-form__form"
        noValidate
        onSubmit={submit}
        onKeyDown={enterWithEmptyField}
        {...(isPage ? { 'aria-labelledby': titleId } : { 'aria-label': 'Sign up' })}
      >
        <div className="auth-form__field">
          <label htmlFor={`${baseId}-email`}>Email</label>
          <input
            id={`${baseId}-email`}
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            value={email}
            onChange={(event) => {
              setEmail(event.currentTarget.value);
            }}
            aria-invalid={invalid}
            aria-describedby={messageId}
            data-autofocus={isPage ? undefined : true}
          />
        </div>
        <div className="auth-form__field">
          <label htmlFor={`${baseId}-password`}>Password</label>
          <input
            id={`${baseId}-password`}
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
            }}
            aria-invalid={invalid}
            aria-describedby={`${hintId} ${messageId}`}
          />
          <p id={hintId} className="auth-form__hint">
            At least 6 characters.
          </p>
        </div>
        <div className="auth-form__agreement">
          <input
            id={`${baseId}-agreement`}
            name="agreement"
            type="checkbox"
            checked={agreement}
            onChange={(event) => {
              setAgreement(event.currentTarget.checked);
            }}
          />
          <label htmlFor={`${baseId}-agreement`}>
            I agree to the{' '}
            <a href={AUTH_LINKS.terms} target="_blank" rel="noopener">
              Terms of Use<span className="visually-hidden"> (opens in a new tab)</span>
            </a>{' '}
            and the{' '}
            <a href={AUTH_LINKS.privacy} target="_blank" rel="noopener">
              Privacy Policy<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
            .
          </label>
        </div>
        <p id={messageId} role="alert" aria-atomic="true" className="auth-form__message">
          {message}
        </p>
        <button
          type="submit"
          className="btn btn-primary auth-form__submit"
          disabled={!hydrated || busy || empty}
          aria-busy={loading && state.method === 'password'}
        >
          {loading && state.method === 'password' ? <Spinner className="auth-form__spinner" /> : null}
          Sign up
        </button>
      </form>
      <p className="auth-form__divider">
        <span>or</span>
      </p>
      {askingGoogleEmail ? (
        <GoogleEmailForm
          title="Continue with Google"
          hint={GOOGLE_EMAIL_HINT}
          submitLabel="Continue"
          loading={loading && state.method === 'google'}
          onSubmit={(email) => {
            void continueWithGoogle(variant, agreement, email);
          }}
          onCancel={cancelGoogleSignUp}
        />
      ) : (
        <button
          type="button"
          className="btn btn-secondary auth-form__google"
          disabled={!hydrated || busy}
          aria-busy={loading && state.method === 'google'}
          onClick={() => {
            void startGoogleSignUp(variant, agreement);
          }}
          onPointerEnter={prepareGoogleSignIn}
          onFocus={prepareGoogleSignIn}
        >
          {loading && state.method === 'google' ? <Spinner className="auth-form__spinner" /> : <GoogleLogo />}
          Continue with Google
        </button>
      )}
      <p className="auth-form__switch">
        Already have an account?{' '}
        <a
          href={AUTH_LINKS.signIn}
          onClick={
            isPage
              ? undefined
              : (event) => {
                  switchPopupView(event, 1);
                }
          }
        >
          Sign in
        </a>
      </p>
    </div>
  );
}
