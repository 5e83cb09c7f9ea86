import { useStore } from '@nanostores/react';
import { useEffect, useId, useState, type ReactNode, type SubmitEvent } from 'react';
import type { AccountSession } from '../lib/dashboard-data.ts';
import { formatDate, formatDateTime } from '../lib/format.ts';
import { CHOSEN_USERNAME_MAX_LENGTH, MIN_PASSWORD_LENGTH } from '../lib/form-rules.ts';
import { AUTH_LINKS } from '../lib/routes.ts';
import {
  $settings,
  cancelGoogleLink,
  changePassword,
  deleteAccount,
  describeUserAgent,
  downloadExport,
  endSession,
  linkGoogle,
  requestEmailChange,
  saveProfile,
  sendPasswordResetLink,
  signOutOtherSessions,
  startSettings,
  unlinkGoogle,
  type SettingsSection,
} from '../lib/stores/settings.ts';
import { Dialog } from './parts/Dialog.tsx';
import './AccountSettings.css';

function field(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value : '';
}

/** A section's outcome under its form: an alert for a refusal, a status line for a success. */
function Outcome({ section }: { section: SettingsSection }): ReactNode {
  const { message, tone } = useStore($settings).sections[section];
  if (message === '') return null;
  return (
    <p
      className={`settings__message settings__message--${tone}`}
      role={tone === 'error' ? 'alert' : 'status'}
    >
      {message}
    </p>
  );
}

/** An input with its label, marked invalid (and described by the message) when the refusal names it. */
function Field({
  section,
  name,
  label,
  hint,
  ...input
}: {
  section: SettingsSection;
  name: string;
  label: string;
  hint?: string;
  type?: string;
  defaultValue?: string;
  autoComplete?: string;
  maxLength?: number;
  minLength?: number;
  required?: boolean;
}): ReactNode {
  const id = useId();
  const state = useStore($settings).sections[section];
  const invalid = state.tone === 'error' && state.field === name;
  return (
    <div className="settings__field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        className="text-input"
        aria-invalid={invalid || undefined}
        aria-describedby={hint === undefined ? undefined : `${id}-hint`}
        {...input}
      />
      {hint !== undefined && (
        <p id={`${id}-hint`} className="settings__note">
          {hint}
        </p>
      )}
    </div>
  );
}

function ProfileSection(): ReactNode {
  const { account, sections } = useStore($settings);
  if (account === null) return null;
  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const form = event.currentTarget;
    void saveProfile({
      username: field(form, 'username'),
      firstName: field(form, 'firstName'),
      lastName: field(form, 'lastName'),
    });
  };
  return (
    <section className="settings__card card" aria-labelledby="settings-profile">
      <h2 id="settings-profile">Profile</h2>
      <form className="settings__form" onSubmit={onSubmit} noValidate>
        <Field
          section="profile"
          name="username"
          label="Username"
          defaultValue={account.username}
          autoComplete="username"
          maxLength={CHOSEN_USERNAME_MAX_LENGTH}
          hint={`You can sign in with it instead of your address; its first letter is your avatar. Up to ${CHOSEN_USERNAME_MAX_LENGTH} letters, digits, dots, dashes or underscores.`}
        />
        <div className="settings__pair">
          <Field
            section="profile"
            name="firstName"
            label="First name"
            defaultValue={account.firstName}
            autoComplete="given-name"
            maxLength={100}
          />
          <Field
            section="profile"
            name="lastName"
            label="Last name"
            defaultValue={account.lastName}
            autoComplete="family-name"
            maxLength={100}
          />
        </div>
        <div className="settings__actions">
          <button type="submit" className="btn btn-primary" disabled={sections.profile.busy}>
            Save profile
          </button>
        </div>
        <Outcome section="profile" />
      </form>
      <p className="settings__note">Account created {formatDate(account.createdAt)}.</p>
    </section>
  );
}

function EmailSection(): ReactNode {
  const { account, sections } = useStore($settings);
  if (account === null) return null;
  const needsPassword = account.signInMethods?.includes('password') ?? true;
  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const form = event.currentTarget;
    void requestEmailChange(field(form, 'email'), field(form, 'currentPassword')).then((sent) => {
      if (sent) form.reset();
    });
  };
  return (
    <section className="settings__card card" aria-labelledby="settings-email">
      <h2 id="settings-email">Email address</h2>
      <p className="settings__note">
        Your account uses <strong>{account.email}</strong>
        {account.emailVerified
          ? ' (confirmed).'
          : ' (not confirmed yet: your API key starts working once it is).'}{' '}
        To move it to another address, we send a link there; the address changes when you open it.
      </p>
      <form className="settings__form" onSubmit={onSubmit} noValidate>
        <Field section="email" name="email" label="New email address" type="email" autoComplete="email" />
        {needsPassword && (
          <Field
            section="email"
            name="currentPassword"
            label="Current password"
            type="password"
            autoComplete="current-password"
          />
        )}
        <div className="settings__actions">
          <button type="submit" className="btn btn-primary" disabled={sections.email.busy}>
            Send confirmation link
          </button>
        </div>
        <Outcome section="email" />
      </form>
    </section>
  );
}

function PasswordSection(): ReactNode {
  const { account, sections } = useStore($settings);
  if (account === null) return null;
  if (account.signInMethods !== null && !account.signInMethods.includes('password')) {
    return (
      <section className="settings__card card" aria-labelledby="settings-password">
        <h2 id="settings-password">Password</h2>
        <p className="settings__note">
          Your account signs in with Google and has no password here: Google keeps your password and its
          two-step verification.
        </p>
      </section>
    );
  }
  const onSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const form = event.currentTarget;
    void changePassword(
      field(form, 'currentPassword'),
      field(form, 'newPassword'),
      field(form, 'repeatPassword'),
    ).then((changed) => {
      if (changed) form.reset();
    });
  };
  return (
    <section className="settings__card card" aria-labelledby="settings-password">
      <h2 id="settings-password">Password</h2>
      <form className="settings__form" onSubmit={onSubmit} noValidate>
        <input type="email" name="login" autoComplete="username" value={account.email} readOnly hidden />
        <Field
          section="password"
          name="currentPassword"
          label="Current password"
          type="password"
          autoComplete="current-password"
        />
        <div className="settings__pair">
          <Field
            section="password"
            name="newPassword"
            label="New password"
            type="password"
            autoComplete="new-password"
            hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          />
          <Field
            section="password"
            name="repeatPassword"
            label="New password again"
            type="password"
            autoComplete="new-password"
          />
        </div>
        <div className="settings__actions">
          <button type="submit" className="btn btn-primary" disabled={sections.password.busy}>
            Change password
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={sections.password.busy}
            onClick={() => {
              void sendPasswordResetLink();
            }}
          >
            Forgot it? Email me a reset link
          </button>
        </div>
        <p className="settings__note">Changing your password signs out your other browsers and apps.</p>
        <Outcome section="password" />
      </form>
    </section>
  );
}

function GoogleSection(): ReactNode {
  const { account, sections, askingGoogleEmail } = useStore($settings);
  if (account === null) return null;
  const methods = account.signInMethods;
  const linked = methods?.includes('google.com') ?? false;
  const onlyGoogle = linked && !(methods?.includes('password') ?? false);
  const onEmulatorSubmit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    void linkGoogle(field(event.currentTarget, 'googleEmail'));
  };
  return (
    <section className="settings__card card" aria-labelledby="settings-google">
      <h2 id="settings-google">Sign in with Google</h2>
      {methods === null ? (
        <p className="settings__note">
          We could not ask the sign-in service which methods your account has. Reload the page in a moment.
        </p>
      ) : linked ? (
        <p className="settings__note">
          Google is linked: you can sign in with it
          {onlyGoogle ? '. It is your only way to sign in, so it stays.' : ' or with your password.'}
        </p>
      ) : (
        <p className="settings__note">
          Link a Google account to sign in with one click, besides your password.
        </p>
      )}
      {methods !== null && !askingGoogleEmail && (
        <div className="settings__actions">
          {linked ? (
            <button
              type="button"
              className="btn btn-secondary"
              disabled={onlyGoogle || sections.google.busy}
              onClick={() => {
                void unlinkGoogle();
              }}
            >
              Unlink Google
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-primary"
              disabled={sections.google.busy}
              onClick={() => {
                void linkGoogle();
              }}
            >
              Link Google account
            </button>
          )}
        </div>
      )}
      {askingGoogleEmail && (
        <form className="settings__form" onSubmit={onEmulatorSubmit} noValidate>
          <Field
            section="google"
            name="googleEmail"
            label="Google account to link"
            type="email"
            autoComplete="email"
            hint="This local setup has no Google window: name the Google address to link."
          />
          <div className="settings__actions">
            <button type="submit" className="btn btn-primary" disabled={sections.google.busy}>
              Link
            </button>
            <button type="button" className="btn btn-secondary" onClick={cancelGoogleLink}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <Outcome section="google" />
    </section>
  );
}

function SessionRow({ session }: { session: AccountSession }): ReactNode {
  const { sections } = useStore($settings);
  const where = describeUserAgent(session.userAgent);
  return (
    <li className="settings__session">
      <div>
        <p className="settings__session-name">
          {where}
          {session.current && <span className="settings__badge">This browser</span>}
        </p>
        <p className="settings__note">
          Signed in {formatDateTime(session.signedInAt)} · last active {formatDateTime(session.lastActiveAt)}
          {session.ip === '' || session.ip === 'unknown' ? '' : ` · ${session.ip}`}
        </p>
      </div>
      {!session.current && (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          aria-label={`Sign out ${where}, signed in ${formatDateTime(session.signedInAt)}`}
          disabled={sections.sessions.busy}
          onClick={() => {
            void endSession(session.id);
          }}
        >
          Sign out
        </button>
      )}
    </li>
  );
}

function SessionsSection(): ReactNode {
  const { account, sections } = useStore($settings);
  if (account === null) return null;
  const others = account.sessions.filter((session) => !session.current).length;
  return (
    <section className="settings__card card" aria-labelledby="settings-sessions">
      <div className="settings__head">
        <h2 id="settings-sessions">Where you are signed in</h2>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={others === 0 || sections.sessions.busy}
          onClick={() => {
            void signOutOtherSessions();
          }}
        >
          Sign out other sessions
        </button>
      </div>
      <ul className="settings__sessions" role="list">
        {account.sessions.map((session) => (
          <SessionRow key={session.id} session={session} />
        ))}
      </ul>
      <Outcome section="sessions" />
    </section>
  );
}

function DataSection(): ReactNode {
  const { account, sections } = useStore($settings);
  const [confirming, setConfirming] = useState(false);
  const confirmId = useId();
  if (account === null) return null;
  const onDelete = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    void deleteAccount(field(event.currentTarget, 'confirmation'));
  };
  const refused = sections.delete.tone === 'error' && sections.delete.message !== '';
  return (
    <section className="settings__card card" aria-labelledby="settings-data">
      <h2 id="settings-data">Your data</h2>
      <p className="settings__note">
        Download everything we keep about your account as a JSON file: profile, keys (their last four
        characters), usage, the request log, sign-ins, questionnaire, billing and emails.
      </p>
      <div className="settings__actions">
        <button
          type="button"
          className="btn btn-secondary"
          disabled={sections.export.busy}
          onClick={() => {
            void downloadExport();
          }}
        >
          Download my data
        </button>
      </div>
      <Outcome section="export" />
      <div className="settings__danger">
        <h3>Delete account</h3>
        <p className="settings__note">
          Deleting your account stops your API keys at once, signs you out everywhere and removes your
          personal data. A paid subscription must be canceled first on the{' '}
          <a href="/developer/docs/invoices">Invoices</a> page. This cannot be undone.
        </p>
        <div className="settings__actions">
          <button
            type="button"
            className="btn btn-danger"
            onClick={() => {
              setConfirming(true);
            }}
          >
            Delete account…
          </button>
        </div>
      </div>
      <Dialog
        open={confirming}
        onClose={() => {
          setConfirming(false);
        }}
        title="Delete your account?"
        description="Your keys stop working at once and your data is removed. This cannot be undone."
      >
        <form className="settings__form" onSubmit={onDelete} noValidate>
          <label htmlFor={confirmId}>
            Type your username, <strong>{account.username}</strong>, to confirm
          </label>
          <input
            id={confirmId}
            name="confirmation"
            className="text-input"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={(refused && sections.delete.field === 'confirmation') || undefined}
          />
          <Outcome section="delete" />
          <div className="settings__actions settings__actions--end">
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => {
                setConfirming(false);
              }}
            >
              Keep my account
            </button>
            <button type="submit" className="btn btn-danger" disabled={sections.delete.busy}>
              Delete my account
            </button>
          </div>
        </form>
      </Dialog>
    </section>
  );
}

/**
 * The settings page (/developer/docs/settings): profile, address, password, Google, the sign-ins
 * that hold a session, the data export and deletion, each section with its own outcome.
 */
export function AccountSettings(): ReactNode {
  const state = useStore($settings);
  useEffect(() => startSettings(), []);
  if (state.status === 'loading') {
    return (
      <p role="status" className="settings__note">
        Loading your settings…
      </p>
    );
  }
  if (state.status === 'error') {
    return (
      <p role="alert" className="settings__message settings__message--error">
        {state.error}
      </p>
    );
  }
  if (state.status === 'deleted') {
    return (
      <section className="settings__card card" aria-labelledby="settings-deleted">
        <h2 id="settings-deleted">Your account was deleted</h2>
        <p className="settings__note">
          Its API keys no longer work, you are signed out everywhere, and your personal data has been removed.
          We sent a last email to say so. Thank you for having used the API.
        </p>
        <div className="settings__actions">
          <a className="btn btn-primary" href="/">
            Go to the home page
          </a>
          <a className="btn btn-secondary" href={AUTH_LINKS.signUp}>
            Create a new account
          </a>
        </div>
      </section>
    );
  }
  return (
    <div className="settings">
      <ProfileSection />
      <EmailSection />
      <PasswordSection />
      <GoogleSection />
      <SessionsSection />
      <DataSection />
    </div>
  );
}
