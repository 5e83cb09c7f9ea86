import { map } from 'nanostores';
import { MISSING_CODE_MESSAGE, isActionMode, type ActionMode } from '../action-link.ts';
import { MIN_PASSWORD_LENGTH } from '../form-rules.ts';
import { ApiError, NETWORK_ERROR_MESSAGE, portal } from '../http.ts';
import { BLOCKED_ACCOUNT_MESSAGE, FILL_ALL_FIELDS_MESSAGE, PASSWORD_MESSAGE } from '../messages.ts';
import { $signedIn, showFlash } from './auth.ts';
import { NOW_VERIFIED_MESSAGE } from './dashboard.ts';
import { revalidateSession, startSession } from './session.ts';
import { completeSignIn, passwordSignIn, returnPathAfterSignIn, safeReturnPath } from './sign-in.ts';

export const UNKNOWN_LINK_MESSAGE =
  'This link is not one this site can open. Use the link in the most recent email we sent you, or ask for a new one.';
export const PASSWORDS_DIFFER_MESSAGE = 'The two passwords do not match.';
export const PASSWORD_CHANGED_MESSAGE = 'Your password has been changed.';
export const OPENING_MESSAGE = 'Opening your link…';
export const CHECKING_MESSAGE = 'Checking your link…';
export const VERIFYING_MESSAGE = 'Verifying your email address…';
export const CHANGING_ADDRESS_MESSAGE = 'Moving your account to its new address…';

/** Said once an address change link moved the account, naming the address it now uses. */
export function addressChangedMessage(email: string): string {
  return `Your account now uses ${email}. Sign in with it from now on; your old address no longer works.`;
}
export const SAVING_MESSAGE = 'Saving your new password…';
export const SIGNING_IN_MESSAGE = `${PASSWORD_CHANGED_MESSAGE} Signing you in…`;

/** What the page at /auth/action is doing with the link it was opened with. */
export type AccountActionStep =
  /** Before the link has been read (the server-rendered page, and the first paint). */
  | 'starting'
  /** A password-reset code is being checked. */
  | 'checking'
  /** The code is good: the form asks for the new password. */
  | 'choosing'
  /** The new password is being saved. */
  | 'saving'
  /** The password is changed; the account is being signed in with it. */
  | 'signing-in'
  /** The password is changed, but signing in failed: the way on is the sign-in page. */
  | 'changed'
  /** An address-verification code is being applied. */
  | 'verifying'
  /** The address is verified. */
  | 'verified'
  /** The link cannot be completed; `failure` says what the way forward is. */
  | 'failed';

/**
 * Why a link could not be completed, which decides the way forward: `link` a new link (the code is
 * missing, unknown, used or expired), `retry` trying again (the server or the network failed),
 * `blocked` support (a blocked account).
 */
export type ActionFailure = 'link' | 'retry' | 'blocked';

/** How the page shows its message: work under way, something that went wrong, or done. */
export type MessageTone = 'progress' | 'error' | 'success';

/** The field of the new-password form a message is about. */
export type PasswordField = 'password' | 'confirm';

export interface AccountActionState {
  step: AccountActionStep;
  /** The kind of link; undefined when it names none the site completes. */
  mode: ActionMode | undefined;
  oobCode: string;
  /** The same-site page the link asks to continue to afterwards, if any. */
  continuePath: string | undefined;
  /** The account's address, as the server reported it for the code. */
  email: string;
  /** What to tell the visitor now: a failure, a form error or progress; '' for nothing. */
  message: string;
  tone: MessageTone;
  failure: ActionFailure | undefined;
  /** The form field the message is about, when it is about one. */
  field: PasswordField | undefined;
}

const INITIAL: AccountActionState = {
  step: 'starting',
  mode: undefined,
  oobCode: '',
  continuePath: undefined,
  email: '',
  message: OPENING_MESSAGE,
  tone: 'progress',
  failure: undefined,
  field: undefined,
};

export const $accountAction = map<AccountActionState>({ ...INITIAL });

/** The link as the page reads it: what to do, or why there is nothing it can do. */
export type ActionLinkReading =
  | { ok: true; mode: ActionMode; oobCode: string; continuePath: string | undefined }
  | { ok: false; mode: ActionMode | undefined; message: string };

/**
 * The same-site page a `continueUrl` names, or undefined for none, another site or anything a
 * crafted link could use to send someone elsewhere (the sign-in page's own return-path rule).
 */
export function continuePathOf(continueUrl: string | null, origin: string): string | undefined {
  if (continueUrl === null || continueUrl === '') return undefined;
  let url: URL;
  try {
    url = new URL(continueUrl, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== origin) return undefined;
  return safeReturnPath(`${url.pathname}${url.search}${url.hash}`);
}

/**
 * Reads the query of an action link (`mode`, `oobCode`, optional `continueUrl`, as the identity
 * provider writes them). Pure, so every malformed link can be tested without a browser.
 */
export function readActionLink(search: string, origin: string): ActionLinkReading {
  const params = new URLSearchParams(search);
  const mode = params.get('mode');
  const oobCode = params.get('oobCode')?.trim() ?? '';
  if (!isActionMode(mode)) return { ok: false, mode: undefined, message: UNKNOWN_LINK_MESSAGE };
  if (oobCode === '') return { ok: false, mode, message: MISSING_CODE_MESSAGE };
  return { ok: true, mode, oobCode, continuePath: continuePathOf(params.get('continueUrl'), origin) };
}

/**
 * What is wrong with a new password and its repetition, first problem first, or undefined when the
 * pair may be sent: both filled in, the spec's minimum length (SPEC §5), and the two the same.
 */
export function newPasswordProblem(
  password: string,
  confirm: string,
): { field: PasswordField; message: string } | undefined {
  if (password === '') return { field: 'password', message: FILL_ALL_FIELDS_MESSAGE };
  if (confirm === '') return { field: 'confirm', message: FILL_ALL_FIELDS_MESSAGE };
  if (password.length < MIN_PASSWORD_LENGTH) return { field: 'password', message: PASSWORD_MESSAGE };
  if (password !== confirm) return { field: 'confirm', message: PASSWORDS_DIFFER_MESSAGE };
  return undefined;
}

/** The way forward after a failed call: a refused code needs a new link, a blocked account support. */
export function failureOf(error: unknown): { failure: ActionFailure; message: string } {
  if (!(error instanceof ApiError) || error.status === 0) {
    return { failure: 'retry', message: NETWORK_ERROR_MESSAGE };
  }
  if (error.blockedAccount) return { failure: 'blocked', message: BLOCKED_ACCOUNT_MESSAGE };
  if (error.status === 400 && error.field === 'oobCode') return { failure: 'link', message: error.message };
  return { failure: 'retry', message: error.message };
}

/** Shows a failure on the page and, like every error (SPEC §8), as an error flash message. */
function fail(failure: ActionFailure, message: string): void {
  $accountAction.set({
    ...$accountAction.get(),
    step: 'failed',
    failure,
    message,
    tone: 'error',
    field: undefined,
  });
  showFlash(message);
}

async function checkResetCode(oobCode: string): Promise<void> {
  $accountAction.set({
    ...$accountAction.get(),
    step: 'checking',
    message: CHECKING_MESSAGE,
    tone: 'progress',
    failure: undefined,
  });
  try {
    const { email } = await portal<{ email: string }>('auth/password-reset/check', {
      body: { oobCode },
      refreshOn403: false,
    });
    $accountAction.set({ ...$accountAction.get(), step: 'choosing', email, message: '', tone: 'error' });
  } catch (error) {
    const { failure, message } = failureOf(error);
    fail(failure, message);
  }
}

/**
 * Confirms the address with the server, which applies the code at the identity provider and marks
 * the account verified at once, so its API key works whether or not anyone is signed in here. An
 * address-change link (`change`) moves the account to the new address the same way. A signed-in
 * browser then checks its session again, so the header and dashboard show it too.
 */
async function verifyAddress(oobCode: string, change = false): Promise<void> {
  $accountAction.set({
    ...$accountAction.get(),
    step: 'verifying',
    message: change ? CHANGING_ADDRESS_MESSAGE : VERIFYING_MESSAGE,
    tone: 'progress',
    failure: undefined,
  });
  let email: string;
  try {
    ({ email } = await portal<{ email: string }>(change ? 'auth/change-email' : 'auth/verify-email', {
      body: { oobCode },
      refreshOn403: false,
    }));
  } catch (error) {
    const { failure, message } = failureOf(error);
    fail(failure, message);
    return;
  }
  if ($signedIn.get()) await revalidateSession();
  $accountAction.set({
    ...$accountAction.get(),
    step: 'verified',
    email,
    message: change ? addressChangedMessage(email) : NOW_VERIFIED_MESSAGE,
    tone: 'success',
  });
}

function run(state: AccountActionState): Promise<void> {
  if (state.mode === 'resetPassword') return checkResetCode(state.oobCode);
  if (state.mode === 'verifyEmail') return verifyAddress(state.oobCode);
  if (state.mode === 'verifyAndChangeEmail') return verifyAddress(state.oobCode, true);
  return Promise.resolve();
}

/**
 * Reads the link the page was opened with and starts on it: a password-reset code is checked (and
 * names the account), an address-verification code is applied. A link that is incomplete or of an
 * unknown kind fails at once, without a call.
 */
export async function startAccountAction(search: string, origin: string): Promise<void> {
  startSession();
  const link = readActionLink(search, origin);
  if (!link.ok) {
    $accountAction.set({ ...INITIAL, mode: link.mode });
    fail('link', link.message);
    return;
  }
  const state: AccountActionState = {
    ...INITIAL,
    mode: link.mode,
    oobCode: link.oobCode,
    continuePath: link.continuePath,
  };
  $accountAction.set(state);
  await run(state);
}

/** Tries the failed step again, after a network or server failure. */
export async function retryAccountAction(): Promise<void> {
  const state = $accountAction.get();
  if (state.step !== 'failed' || state.failure !== 'retry') return;
  await run(state);
}

function formError(field: PasswordField | undefined, message: string): void {
  $accountAction.set({ ...$accountAction.get(), step: 'choosing', field, message, tone: 'error' });
  showFlash(message);
}

/**
 * Sets the new password (checked here first, with the same words the server would use), then
 * signs the account in with it through the normal password sign-in. Resolves the page to go to
 * once signed in (the link's continue page, else the dashboard, as after any sign-in), or
 * undefined when the visitor stays here: a refusal is shown on the form; a password that was
 * changed but could not be used to sign in leaves the way to the sign-in page.
 */
export async function submitNewPassword(password: string, confirm: string): Promise<string | undefined> {
  const state = $accountAction.get();
  if (state.step !== 'choosing') return undefined;
  const problem = newPasswordProblem(password, confirm);
  if (problem !== undefined) {
    formError(problem.field, problem.message);
    return undefined;
  }
  $accountAction.set({
    ...state,
    step: 'saving',
    message: SAVING_MESSAGE,
    tone: 'progress',
    field: undefined,
  });
  let email: string;
  try {
    ({ email } = await portal<{ reset: boolean; email: string }>('auth/password-reset', {
      body: { oobCode: state.oobCode, password },
      refreshOn403: false,
    }));
  } catch (error) {
    if (error instanceof ApiError && error.field === 'password') {
      formError('password', error.message);
      return undefined;
    }
    const { failure, message } = failureOf(error);
    if (failure === 'retry') formError(undefined, message);
    else fail(failure, message);
    return undefined;
  }
  $accountAction.set({
    ...$accountAction.get(),
    step: 'signing-in',
    email,
    message: SIGNING_IN_MESSAGE,
    tone: 'success',
  });
  const signedIn = await passwordSignIn(email, password);
  if (!signedIn.ok) {
    $accountAction.set({
      ...$accountAction.get(),
      step: 'changed',
      message: `${PASSWORD_CHANGED_MESSAGE} ${signedIn.message}`,
      tone: 'error',
    });
    showFlash(signedIn.message);
    return undefined;
  }
  completeSignIn(signedIn.answer);
  showFlash(PASSWORD_CHANGED_MESSAGE, 'success');
  return returnPathAfterSignIn(state.continuePath ?? '', '');
}

/** Forgets the link, e.g. when the visitor leaves the page. */
export function resetAccountAction(): void {
  $accountAction.set({ ...INITIAL });
}
