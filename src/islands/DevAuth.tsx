import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type ReactNode, type SubmitEvent } from 'react';
import { API_KEYS_PAGE, SITE_NAME } from '../lib/routes.ts';
import { $auth, $signedIn, openAuthPopup } from '../lib/stores/auth.ts';
import {
  $devauth,
  approveDevice,
  denyDevice,
  lookUpDevice,
  resetDevauth,
  setDevauthCode,
  startDevauth,
  type DevauthStep,
} from '../lib/stores/devauth.ts';
import { startSession } from '../lib/stores/session.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import './DevAuth.css';

const AUTH_KEYS: ['init'] = ['init'];

function submit(event: SubmitEvent<HTMLFormElement>): void {
  event.preventDefault();
  void lookUpDevice();
}

/** The time a code stops working, in the visitor's own clock and language. */
function expiryTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
}

/**
 * /devauth: where a developer lets a command-line tool or spreadsheet add-on use the account's API
 * key (device authorization). Signed-out visitors are asked to sign in first; then the code the tool
 * shows is looked up, the tool is named, and the owner approves or denies. Each new step takes focus,
 * so keyboard and screen-reader users follow along.
 */
export function DevAuth(): ReactNode {
  const { step, code, clientName, expiresAt, answering, message } = useStore($devauth);
  const { init } = useStore($auth, { keys: AUTH_KEYS });
  const signedIn = useStore($signedIn);
  const hydrated = useHydrated();
  const baseId = useId();
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const codeField = useRef<HTMLInputElement>(null);
  const previousStep = useRef<DevauthStep>(step);

  useEffect(() => {
    startSession();
    startDevauth(location.search);
  }, []);

  // The store outlives client-side navigations; a later visit starts afresh.
  useEffect(() => resetDevauth, []);

  useEffect(() => {
    const before = previousStep.current;
    previousStep.current = step;
    if (before === step) return;
    if (step === 'confirm' || step === 'approved' || step === 'denied') stepHeading.current?.focus();
    if (step === 'enter') codeField.current?.focus();
  }, [step]);

  const messageId = `${baseId}-message`;
  const known = hydrated && init;
  const busy = step === 'looking-up' || step === 'answering';

  const messageLine = (
    <p id={messageId} role="status" aria-live="polite" aria-atomic="true" className="devauth__message">
      {message}
    </p>
  );

  let action: ReactNode;
  if (!known) {
    action = <p className="devauth__checking">Checking whether you are signed in…</p>;
  } else if (!signedIn) {
    action = (
      <div className="devauth__panel">
        <p>
          Sign in to the account whose API key the tool should use. You will come back here to confirm the
          code.
        </p>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            openAuthPopup(1);
          }}
        >
          Sign in to continue
        </button>
      </div>
    );
  } else if (step === 'enter' || step === 'looking-up') {
    action = (
      <form className="devauth__panel" aria-label="Enter your code" noValidate onSubmit={submit}>
        <div className="devauth__field">
          <label htmlFor={`${baseId}-code`}>Code shown by your tool</label>
          <input
            ref={codeField}
            id={`${baseId}-code`}
            name="code"
            type="text"
            value={code}
            onChange={(event) => {
              setDevauthCode(event.currentTarget.value);
            }}
            readOnly={busy}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
            placeholder="BCDF-GHJK"
            className="devauth__code-input"
            aria-invalid={message !== ''}
            aria-describedby={messageId}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Checking…' : 'Continue'}
        </button>
        {messageLine}
      </form>
    );
  } else if (step === 'confirm' || step === 'answering') {
    const until = expiryTime(expiresAt);
    action = (
      <div className="devauth__panel">
        <h2 ref={stepHeading} tabIndex={-1} className="devauth__step-title">
          {clientName} wants access to your API key
        </h2>
        <p>
          Check that your tool shows the code <strong className="devauth__code">{code}</strong>. If you
          approve, {clientName} receives your API key and can call the data API under your plan until you
          replace the key.
        </p>
        {until !== '' && <p className="devauth__note">This code works until {until}.</p>}
        <div className="devauth__buttons">
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy}
            onClick={() => void approveDevice()}
          >
            {answering === 'approve' ? 'Approving…' : 'Approve'}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={busy}
            onClick={() => void denyDevice()}
          >
            {answering === 'deny' ? 'Denying…' : 'Deny'}
          </button>
        </div>
        {messageLine}
      </div>
    );
  } else {
    const approved = step === 'approved';
    action = (
      <div className="devauth__panel" data-outcome={step}>
        <h2 ref={stepHeading} tabIndex={-1} className="devauth__step-title">
          {approved ? 'Tool connected' : 'Access denied'}
        </h2>
        <p role="status">
          {approved
            ? `${clientName} is receiving your API key. You can return to ${clientName}.`
            : `${clientName} will not get your API key. You can return to ${clientName}.`}
        </p>
        <p className="devauth__note">
          {approved ? (
            <>
              Your key is always on your <a href={API_KEYS_PAGE}>API keys page</a>, where you can also replace
              it.
            </>
          ) : (
            'If you did not start this request yourself, nothing more is needed.'
          )}
        </p>
        <button type="button" className="btn btn-secondary" onClick={resetDevauth}>
          Connect another tool
        </button>
      </div>
    );
  }

  return (
    <section className="devauth" aria-labelledby={`${baseId}-title`}>
      <h1 id={`${baseId}-title`} className="devauth__title">
        Connect a tool to your account
      </h1>
      <p className="devauth__intro">
        Command-line tools, scripts and spreadsheet add-ons can use your {SITE_NAME} API key without you
        copying it. The tool shows a short code: enter it here, check which tool is asking and approve, and
        the tool receives your API key.
      </p>
      <p className="devauth__warning">
        Only enter a code shown by a tool you started yourself just now. Never enter a code someone sent you.
      </p>
      {action}
    </section>
  );
}
