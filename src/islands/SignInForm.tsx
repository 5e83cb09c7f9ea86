import { useStore } from '@nanostores/react';
import { navigate } from 'astro:transitions/client';
import { useEffect, useId, type ReactNode, type SubmitEvent } from 'react';
import { AUTH_LINKS, SITE_NAME } from '../lib/routes.ts';
import { $auth, closeAuthPopup } from '../lib/stores/auth.ts';
import {
  $signIn,
  applySignInQuery,
  resetSignInForm,
  setSignInField,
  submitSignIn,
  takeReturnPath,
  type SignInFormKind,
} from '../lib/stores/sign-in.ts';
import { cancelGoogleEmail, startGoogleSignIn, submitGoogleEmail } from '../lib/stores/google-sign-in.ts';
import { $signUp, resetSignUp } from '../lib/stores/sign-up.ts';
import { prepareGoogleSignIn } from '../lib/stores/social-sign-in.ts';
import { GoogleEmailForm, GoogleLogo, Spinner, switchPopupView } from './parts/AuthParts.tsx';
import { Questionnaire } from './parts/Questionnaire.tsx';
import { useHydrated } from './parts/use-hydrated.ts';
import './parts/AuthForm.css';

export interface SignInFormProps {
  /** `page`: the full /login page with its heading; `popup`: the sign-in view of the auth dialog. */
  variant: SignInFormKind;
}

const AUTH_POPUP_KEYS: ['authPopup'] = ['authPopup'];
const SIGN_UP_KEYS: ['variant', 'phase'] = ['variant', 'phase'];

const GOOGLE_EMAIL_HINT =
  'This is the local test sign-in: the site runs against the Auth emulator, which has no Google window. ' +
  'Enter the email of the Google account to sign in as; a new address creates a test account.';

/**
 * On the page a sign-in moves on to where the visitor was going; the pop-up just closes, unless a
 * guard turned the visitor away from an account page, which it then opens.
 */
function afterSignIn(variant: SignInFormKind, signedIn: boolean): void {
  if (!signedIn) return;
  if (variant !== 'page' && $auth.get().preseturl === '') return;
  const path = takeReturnPath(variant === 'page' ? location.search : '');
  navigate(path).catch(() => {
    location.assign(path);
  });
}

/**
 * The sign-in screen (SPEC §2, §4): email-or-username and password, the forgot-password link, Sign
 * In, Google sign-in and the way to sign up, as a full page or inside the auth pop-up. The buttons
 * wait for hydration, because a click before it would submit the form natively.
 */
export function SignInForm({ variant }: SignInFormProps): ReactNode {
  const state = useStore($signIn);
  const { authPopup } = useStore($auth, { keys: AUTH_POPUP_KEYS, ssr: 'initial' });
  const hydrated = useHydrated();
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const messageId = `${baseId}-message`;
  const mine = state.form === variant;
  const loading = mine && state.status === 'loading';
  const busy = state.status === 'loading';
  const message = mine ? state.message : '';
  const invalid = mine && state.status === 'error';
  const askingGoogleEmail = mine && state.askingGoogleEmail;
  const isPage = variant === 'page';
  const signUp = useStore($signUp, { keys: SIGN_UP_KEYS });
  // A new Google account goes on to the sign-up questionnaire; on the page it takes the form's place
  // (the pop-up shows it in its sign-up view).
  const signingUp = isPage && signUp.variant === 'page' && signUp.phase !== 'form';

  useEffect(() => {
    if (!isPage) return undefined;
    applySignInQuery(location.search);
    // The store outlives client-side navigations; a later visit starts with a clean form, and a
    // questionnaire left unfinished is abandoned as on the sign-up page.
    return () => {
      resetSignInForm('page');
      resetSignUp('page');
    };
  }, [isPage]);

  // A closed pop-up keeps neither the password nor an old message for the next time it opens.
  useEffect(() => {
    if (!isPage && authPopup === false) resetSignInForm('popup');
  }, [isPage, authPopup]);

  if (signingUp) {
    return (
      <div className="auth-form__questionnaire">
        <Questionnaire variant="page" />
      </div>
    );
  }

  const submit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    void submitSignIn(variant).then((signedIn) => {
      afterSignIn(variant, signedIn);
    });
  };

  const google = (): void => {
    void startGoogleSignIn(variant).then((signedIn) => {
      afterSignIn(variant, signedIn);
    });
  };

  const fields = (
    <form
      className="auth-form__form"
      noValidate
      onSubmit={submit}
      {...(isPage ? { 'aria-labelledby': titleId } : { 'aria-label': 'Sign in' })}
    >
      <div className="auth-form__field">
        <label htmlFor={`${baseId}-login`}>Email or username</label>
        <input
          id={`${baseId}-login`}
          name="login"
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={mine ? state.login : ''}
          onChange={(event) => {
            setSignInField(variant, 'login', event.currentTarget.value);
          }}
          aria-invalid={invalid}
          aria-describedby={messageId}
          data-autofocus={isPage ? undefined : true}
        />
      </div>
      <div className="auth-form__field">
        <div className="auth-form__label-row">
          <label htmlFor={`${baseId}-password`}>Password</label>
          <a href={AUTH_LINKS.forgotPassword} onClick={isPage ? undefined : closeAuthPopup}>
            Forgot password?
          </a>
        </div>
        <input
          id={`${baseId}-password`}
          name="password"
          type="password"
          autoComplete="current-password"
          value={mine ? state.password : ''}
          onChange={(event) => {
            setSignInField(variant, 'password', event.currentTarget.value);
          }}
          aria-invalid={invalid}
          aria-describedby={messageId}
        />
      </div>
      <p id={messageId} role="alert" aria-atomic="true" className="auth-form__message">
        {message}
      </p>
      <button
        type="submit"
        className="btn btn-primary auth-form__submit"
        disabled={!hydrated || busy}
        aria-busy={loading && state.method === 'password'}
      >
        {loading && state.method === 'password' ? <Spinner className="auth-form__spinner" /> : null}
        Sign In
      </button>
    </form>
  );

  return (
    <div className={`auth-form auth-form--${variant}`}>
      {isPage ? (
        <div className="auth-form__header">
          <h1 id={titleId} className="auth-form__title">
            Sign in to {SITE_NAME}
          </h1>
          <p className="auth-form__intro">
            Welcome back. Sign in to reach your dashboard, your API key and the API viewer.
          </p>
        </div>
      ) : null}
      {fields}
      <p className="auth-form__divider">
        <span>or</span>
      </p>
      {askingGoogleEmail ? (
        <GoogleEmailForm
          title="Sign in with Google"
          hint={GOOGLE_EMAIL_HINT}
          submitLabel="Continue with Google"
          loading={loading && state.method === 'google'}
          onSubmit={(email) => {
            void submitGoogleEmail(variant, email).then((signedIn) => {
              afterSignIn(variant, signedIn);
            });
          }}
          onCancel={cancelGoogleEmail}
        />
      ) : (
        <button
          type="button"
          className="btn btn-secondary auth-form__google"
          disabled={!hydrated || busy}
          aria-busy={loading && state.method === 'google'}
          onClick={google}
          onPointerEnter={prepareGoogleSignIn}
          onFocus={prepareGoogleSignIn}
        >
          {loading && state.method === 'google' ? <Spinner className="auth-form__spinner" /> : <GoogleLogo />}
          Sign in with Google
        </button>
      )}
      <p className="auth-form__switch">
        Don&rsquo;t have an account?{' '}
        <a
          href={AUTH_LINKS.signUp}
          onClick={
            isPage
              ? undefined
              : (event) => {
                  switchPopupView(event, 2);
                }
          }
        >
          Sign up
        </a>
      </p>
    </div>
  );
}
