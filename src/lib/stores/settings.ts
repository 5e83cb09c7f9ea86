import { map } from 'nanostores';
import type { AccountSettings } from '../dashboard-data.ts';
import { getClientAuth } from '../firebase.ts';
import {
  DELETE_CONFIRMATION_MESSAGE,
  isEmailAddress,
  MIN_PASSWORD_LENGTH,
  usernameProblem,
} from '../form-rules.ts';
import { ApiError, portal } from '../http.ts';
import { EMAIL_MESSAGE, FILL_ALL_FIELDS_MESSAGE, PASSWORD_MESSAGE } from '../messages.ts';
import type { UserData } from '../user-data.ts';
import { $signedIn, signedOut } from './auth.ts';
import { $passwordReset, requestPasswordReset } from './password-reset.ts';
import { $sessionChecked, startSession } from './session.ts';
import { showSnackbar } from './snackbar.ts';
import { setUserData, setUserDraft } from './user.ts';

/*
 * The dashboard's settings page: the account as the accounts API describes it, and the owner's
 * changes to it, one section at a time (profile, address, password, Google, sign-ins, export,
 * deletion). Each section keeps its own outcome, so an error shows next to the form it came from
 * and a busy section never blocks another.
 */

export const SETTINGS_SECTIONS = [
  'profile',
  'email',
  'password',
  'google',
  'sessions',
  'export',
  'delete',
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** How one section's last action went: the words to show, and the field they are about. */
export interface SectionState {
  busy: boolean;
  message: string;
  tone: 'error' | 'success';
  field: string | undefined;
}

export interface SettingsState {
  status: 'loading' | 'ready' | 'error' | 'deleted';
  error: string;
  account: AccountSettings | null;
  sections: Record<SettingsSection, SectionState>;
  /** Against the local Auth emulator, linking Google first asks which Google address to link. */
  askingGoogleEmail: boolean;
}

export const LOAD_FAILED_MESSAGE = 'Your settings could not be loaded. Please try again.';
export const PASSWORDS_DIFFER_MESSAGE = 'The two new passwords are not the same.';
export const GOOGLE_IN_USE_MESSAGE =
  'This Google account already signs in to another account. Sign in with it to use that account, or pick another Google account.';

const QUIET: SectionState = { busy: false, message: '', tone: 'error', field: undefined };

function initial(): SettingsState {
  return {
    status: 'loading',
    error: '',
    account: null,
    sections: Object.fromEntries(SETTINGS_SECTIONS.map((name) => [name, { ...QUIET }])) as Record<
      SettingsSection,
      SectionState
    >,
    askingGoogleEmail: false,
  };
}

export const $settings = map<SettingsState>(initial());

function setSection(name: SettingsSection, section: Partial<SectionState>): void {
  const state = $settings.get();
  $settings.set({
    ...state,
    sections: { ...state.sections, [name]: { ...state.sections[name], ...section } },
  });
}

function messageOf(error: unknown): string {
  if (error instanceof Error && error.message !== '') return error.message;
  return 'The change could not be made. Please try again.';
}

/** Reads the account's settings. */
export async function loadSettings(): Promise<void> {
  try {
    const account = await portal<AccountSettings>('user/account');
    $settings.set({ ...$settings.get(), status: 'ready', error: '', account });
  } catch (error) {
    $settings.set({
      ...$settings.get(),
      status: 'error',
      error: error instanceof ApiError ? error.message : LOAD_FAILED_MESSAGE,
    });
  }
}

let stopWatching: (() => void) | undefined;

/** Starts the page: the session, then the settings once it is confirmed. */
export function startSettings(): () => void {
  startSession();
  stopWatching?.();
  stopWatching = $sessionChecked.subscribe((checked) => {
    if (checked && $signedIn.get() && $settings.get().status === 'loading') void loadSettings();
  });
  return () => {
    stopWatching?.();
    stopWatching = undefined;
    $settings.set(initial());
  };
}

/**
 * Runs one section's action: busy while it runs, then its message (a refusal names its field).
 * Resolves true when the action went through.
 */
async function act(
  name: SettingsSection,
  run: () => Promise<string>,
  options: { reload?: boolean } = {},
): Promise<boolean> {
  if ($settings.get().sections[name].busy) return false;
  setSection(name, { busy: true, message: '', field: undefined });
  try {
    const done = await run();
    if (options.reload !== false) await loadSettings();
    setSection(name, { busy: false, message: done, tone: 'success', field: undefined });
    return true;
  } catch (error) {
    setSection(name, {
      busy: false,
      message: messageOf(error),
      tone: 'error',
      field: error instanceof ApiError ? error.field : undefined,
    });
    return false;
  }
}

/** A refusal made in the browser before any call, in the same shape as the server's. */
class FieldProblem extends Error {
  readonly field: string;

  constructor(message: string, field: string) {
    super(message);
    this.field = field;
  }
}

function refuse(name: SettingsSection, problem: FieldProblem): false {
  setSection(name, { busy: false, message: problem.message, tone: 'error', field: problem.field });
  return false;
}

/** Saves the username and names; the header's avatar letter follows the new username at once. */
export async function saveProfile(input: {
  username: string;
  firstName: string;
  lastName: string;
}): Promise<boolean> {
  const problem = usernameProblem(input.username);
  if (problem !== undefined) return refuse('profile', new FieldProblem(problem, 'username'));
  return act('profile', async () => {
    const data = await portal<UserData & Record<string, unknown>>('user/profile', {
      method: 'PATCH',
      body: { username: input.username.trim(), firstName: input.firstName, lastName: input.lastName },
    });
    setUserData(data);
    setUserDraft(null);
    return 'Your profile was saved.';
  });
}

/** Asks for a move to a new address; nothing changes until the link mailed there is followed. */
export async function requestEmailChange(email: string, currentPassword: string): Promise<boolean> {
  const address = email.trim();
  if (address === '') return refuse('email', new FieldProblem(FILL_ALL_FIELDS_MESSAGE, 'email'));
  if (!isEmailAddress(address)) return refuse('email', new FieldProblem(EMAIL_MESSAGE, 'email'));
  const needsPassword = $settings.get().account?.signInMethods?.includes('password') ?? true;
  if (needsPassword && currentPassword === '') {
    return refuse('email', new FieldProblem(FILL_ALL_FIELDS_MESSAGE, 'currentPassword'));
  }
  return act(
    'email',
    async () => {
      await portal('user/email', {
        body: { email: address, ...(needsPassword ? { currentPassword } : {}) },
      });
      return `We sent a link to ${address}. Your address changes when you open it; until then, keep using your current one.`;
    },
    { reload: false },
  );
}

/** Changes the password with the current one; the account's other sign-ins end. */
export async function changePassword(current: string, next: string, repeat: string): Promise<boolean> {
  if (current === '') return refuse('password', new FieldProblem(FILL_ALL_FIELDS_MESSAGE, 'currentPassword'));
  if (next.length < MIN_PASSWORD_LENGTH)
    return refuse('password', new FieldProblem(PASSWORD_MESSAGE, 'newPassword'));
  if (next !== repeat)
    return refuse('password', new FieldProblem(PASSWORDS_DIFFER_MESSAGE, 'repeatPassword'));
  return act('password', async () => {
    const answer = await portal<{ endedSessions: number }>('user/password', {
      body: { currentPassword: current, newPassword: next },
    });
    const ended = answer.endedSessions;
    return ended === 0
      ? 'Your password was changed.'
      : `Your password was changed, and your ${ended} other sign-in${ended === 1 ? ' was' : 's were'} ended.`;
  });
}

/** Mails a password-reset link to the account's address (the forgotten-password flow). */
export async function sendPasswordResetLink(): Promise<boolean> {
  const email = $settings.get().account?.email ?? '';
  return act(
    'password',
    async () => {
      await requestPasswordReset(email);
      const sent = $passwordReset.get();
      if (sent.status === 'error') throw new Error(sent.message);
      return `We sent a link to reset your password to ${email}.`;
    },
    { reload: false },
  );
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : '';
}

/**
 * Links a Google account as a second way to sign in. The browser signs in to the identity
 * provider as this account (a custom token from the accounts API) and links Google there: Google's
 * own window in production, the named Google address against the local Auth emulator. The accounts
 * API then records and mails the change.
 */
export async function linkGoogle(emailForEmulator?: string): Promise<boolean> {
  const [auth, sdk] = await Promise.all([getClientAuth(), import('firebase/auth')]);
  if (auth.emulatorConfig !== null && emailForEmulator === undefined) {
    $settings.setKey('askingGoogleEmail', true);
    return false;
  }
  if (emailForEmulator !== undefined && !isEmailAddress(emailForEmulator.trim())) {
    return refuse('google', new FieldProblem(EMAIL_MESSAGE, 'googleEmail'));
  }
  return act('google', async () => {
    const { customToken } = await portal<{ customToken: string }>('user/sign-in-methods/token', { body: {} });
    const { user } = await sdk.signInWithCustomToken(auth, customToken);
    try {
      if (emailForEmulator === undefined) {
        await sdk.linkWithPopup(user, new sdk.GoogleAuthProvider());
      } else {
        const email = emailForEmulator.trim().toLowerCase();
        const { emulatorGoogleSubject } = await import('./social-sign-in.ts');
        const claims = { sub: emulatorGoogleSubject(email), email, email_verified: true };
        await sdk.linkWithCredential(user, sdk.GoogleAuthProvider.credential(JSON.stringify(claims)));
      }
    } catch (error) {
      if (errorCode(error) === 'auth/credential-already-in-use')
        throw new Error(GOOGLE_IN_USE_MESSAGE, { cause: error });
      if (errorCode(error) === 'auth/provider-already-linked')
        return 'Google already signs in to your account.';
      const { socialSignInMessage } = await import('./social-sign-in.ts');
      throw new Error(socialSignInMessage(error), { cause: error });
    } finally {
      // The site's own session is what keeps the owner signed in; the provider's is not needed.
      await sdk.signOut(auth).catch(() => undefined);
    }
    await portal('user/sign-in-methods/google', { body: {} });
    $settings.setKey('askingGoogleEmail', false);
    return 'You can now sign in with Google as well.';
  });
}

/** Leaves the local Google address question without linking. */
export function cancelGoogleLink(): void {
  $settings.setKey('askingGoogleEmail', false);
  setSection('google', { ...QUIET });
}

/** Removes Google as a way to sign in (the server keeps it when it is the only one). */
export function unlinkGoogle(): Promise<boolean> {
  return act('google', async () => {
    await portal('user/sign-in-methods/google', { method: 'DELETE' });
    return 'Google no longer signs in to your account.';
  });
}

/** Ends one sign-in (another browser or app). */
export function endSession(id: string): Promise<boolean> {
  return act('sessions', async () => {
    await portal(`user/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
    return 'That sign-in was ended.';
  });
}

/** Ends every sign-in but this one. */
export function signOutOtherSessions(): Promise<boolean> {
  return act('sessions', async () => {
    const { ended } = await portal<{ ended: number }>('user/sessions/sign-out-others', { body: {} });
    return ended === 0
      ? 'You had no other sign-ins.'
      : `${ended} other sign-in${ended === 1 ? ' was' : 's were'} ended.`;
  });
}

/** Downloads a copy of the account's data as a JSON file. */
export function downloadExport(): Promise<boolean> {
  return act(
    'export',
    async () => {
      const blob = await portal<Blob>('user/export', { responseType: 'blob' });
      const username = $settings.get().account?.username ?? 'account';
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `account-${username}-${new Date().toISOString().slice(0, 10)}.json`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => {
        URL.revokeObjectURL(link.href);
      }, 60_000);
      return 'Your data was downloaded.';
    },
    { reload: false },
  );
}

/**
 * Deletes the account after the owner typed their username. Once the server has deleted it, this
 * browser forgets the session and the page says what happened.
 */
export async function deleteAccount(confirmation: string): Promise<boolean> {
  const username = $settings.get().account?.username ?? '';
  if (confirmation.trim() !== username) {
    return refuse('delete', new FieldProblem(DELETE_CONFIRMATION_MESSAGE, 'confirmation'));
  }
  const deleted = await act(
    'delete',
    async () => {
      await portal('user/account', { method: 'DELETE', body: { confirmation: confirmation.trim() } });
      return 'Your account was deleted.';
    },
    { reload: false },
  );
  if (!deleted) return false;
  setUserDraft(null);
  signedOut();
  $settings.setKey('status', 'deleted');
  showSnackbar('Your account was deleted.', { type: 'success' });
  return true;
}

/** A sign-in's browser in words; it lives beside the other user-agent rules. */
export { describeUserAgent } from '../device.ts';
