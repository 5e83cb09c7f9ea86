import { map } from 'nanostores';
import { NEW_REGISTRATION_COOKIE, removeCookie } from '../cookies.ts';
import { getClientAuth } from '../firebase.ts';
import { isEmailAddress } from '../form-rules.ts';
import {
  BLOCKED_ACCOUNT_MESSAGE,
  EMAIL_MESSAGE,
  FILL_ALL_FIELDS_MESSAGE,
  NO_USERID_MESSAGE,
  SIGN_IN_FAILED_MESSAGE,
} from '../messages.ts';
import { ApiError, answerText, appServer } from '../http.ts';
import { AUTH_LINKS, normalizePath } from '../routes.ts';
import type { UserData } from '../user-data.ts';
import { $auth, showFlash, signedIn } from './auth.ts';

/** Where a signed-in visitor goes when no other page was asked for (SPEC §2). */
export const DEFAULT_RETURN_PATH = AUTH_LINKS.dashboard;

/** The sessionStorage twin of the new_registration cookie; sign-in clears both (SPEC §4). */
export const NEW_REGISTRATION_STORAGE_KEY = 'new_registration';

/** The page at /login, or the sign-in view of the auth pop-up. */
export type SignInFormKind = 'page' | 'popup';
export type SignInStatus = 'idle' | 'loading' | 'error';
export type SignInMethod = 'password' | 'google';

/** The sign-in form (SPEC §4): where it stands, what was typed and what to tell the visitor. */
export interface SignInState {
  status: SignInStatus;
  /**
   * The form the state belongs to: the page and the pop-up share this store (a pop-up can open over
   * /login), and each shows the message only of an attempt made in it.
   */
  form: SignInFormKind;
  /** What is loading: the password sign-in or the Google one. */
  method: SignInMethod;
  login: string;
  password: string;
  message: string;
  /** The local Google sign-in asks for the account's address instead of opening Google's window. */
  askingGoogleEmail: boolean;
}

const IDLE: SignInState = {
  status: 'idle',
  form: 'page',
  method: 'password',
  login: '',
  password: '',
  message: '',
  askingGoogleEmail: false,
};

export const $signIn = map<SignInState>({ ...IDLE });

/** What the sign-in calls answer (SPEC §3): a fresh access token beside the user data. */
export type SignInAnswer = Partial<UserData> &
  Record<string, unknown> & {
    accessToken: string;
    firebaseAccessToken?: string;
    blockedAccount?: boolean;
  };

/**
 * Checks an answer that came back without an error (SPEC §5): a blocked account is refused and an
 * answer without a user id is no sign-in. Undefined when the answer is a usable sign-in.
 */
export function signInResultMessage(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null) return NO_USERID_MESSAGE;
  if ('blockedAccount' in answer && answer.blockedAccount === true) return BLOCKED_ACCOUNT_MESSAGE;
  if (!('userid' in answer) || typeof answer.userid !== 'string' || answer.userid === '') {
    return NO_USERID_MESSAGE;
  }
  if (!('accessToken' in answer) || typeof answer.accessToken !== 'string' || answer.accessToken === '') {
    return NO_USERID_MESSAGE;
  }
  return undefined;
}

/**
 * What a failed sign-in call tells the visitor (SPEC §8): the blocked message for a blocked
 * account, the server's own words when it answered with some, else the generic failure.
 */
export function signInErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.blockedAccount) return BLOCKED_ACCOUNT_MESSAGE;
    if (error.status === 0) return SIGN_IN_FAILED_MESSAGE;
    return answerText(error.data) ?? SIGN_IN_FAILED_MESSAGE;
  }
  return SIGN_IN_FAILED_MESSAGE;
}

const MAX_RETURN_PATH_LENGTH = 2048;
// Browsers drop tabs and newlines from URLs, so `/\t/host` would become `//host`.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Percent-decodes ASCII escapes only, so a malformed escape elsewhere cannot stop the decoding. */
function decodeAsciiEscapes(value: string): string {
  return value.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** A path that stays on this site as it reads: one leading slash, no backslash, no control character. */
function isSameSitePath(path: string): boolean {
  return (
    path.startsWith('/') && !path.startsWith('//') && !path.includes('\\') && !CONTROL_CHARACTERS.test(path)
  );
}

/**
 * The page to return to after signing in, when `value` is a path on this site; undefined for
 * anything else (another host, a scheme, `//host`, backslashes, control characters, including
 * any of these hidden behind percent-encoding), so a crafted link can never send a freshly
 * signed-in visitor to another site.
 */
export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '' || value.length > MAX_RETURN_PATH_LENGTH) return undefined;
  let current = value;
  for (let round = 0; round < 8; round += 1) {
    if (!isSameSitePath(current)) return undefined;
    const next = decodeAsciiEscapes(current);
    if (next === current) return value;
    current = next;
  }
  return undefined;
}

/** Sign-in and sign-up pages are no place to return to once signed in. */
const NOT_A_RETURN_PATH = new Set<string>([AUTH_LINKS.signIn, AUTH_LINKS.signUp]);

/**
 * Where the sign-in page sends a visitor who just signed in: the page a guard turned them away
 * from (`preseturl`), else the page's `redirect` parameter, if it is a path on this site, else
 * the dashboard. Pure, so the choice can be tested without a browser.
 */
export function returnPathAfterSignIn(preseturl: string, search: string): string {
  const candidates = [preseturl, new URLSearchParams(search).get('redirect')];
  for (const candidate of candidates) {
    const path = safeReturnPath(candidate);
    if (path !== undefined && !NOT_A_RETURN_PATH.has(normalizePath(path))) return path;
  }
  return DEFAULT_RETURN_PATH;
}

/** The return path for this sign-in; the remembered page is used once and then forgotten. */
export function takeReturnPath(search: string): string {
  const path = returnPathAfterSignIn($auth.get().preseturl, search);
  $auth.setKey('preseturl', '');
  return path;
}

/** Every error is an error flash (SPEC §8) and is also shown next to the form that caused it. */
export function failSignIn(form: SignInFormKind, message: string): void {
  $signIn.set({ ...$signIn.get(), status: 'error', form, message });
  showFlash(message);
}

/** Marks the form as busy with one sign-in, forgetting the last message. */
export function startLoading(form: SignInFormKind, method: SignInMethod): void {
  $signIn.set({ ...$signIn.get(), status: 'loading', form, method, message: '' });
}

/** Whether a sign-in is under way, so a second click starts nothing. */
export function signInPending(): boolean {
  return $signIn.get().status === 'loading';
}

/**
 * Signs the identity provider's browser SDK in too, for the features that talk to it directly. Not
 * awaited by the sign-in (or an administrator's switch into another account): the session is
 * already ours, and a failure here only affects those features, so it is ignored.
 */
export function signInToIdentityProvider(customToken: string): void {
  void Promise.all([getClientAuth(), import('firebase/auth')])
    .then(([auth, { signInWithCustomToken }]) => signInWithCustomToken(auth, customToken))
    .catch(() => undefined);
}

/**
 * Signs the identity SDK out where the account it was signed in as is left behind (an
 * administrator's return from another account, whose own session brings no custom token to sign
 * it back in with). Ignored on failure, like the sign-in above.
 */
export function signOutOfIdentityProvider(): void {
  void Promise.all([getClientAuth(), import('firebase/auth')])
    .then(([auth, { signOut }]) => signOut(auth))
    .catch(() => undefined);
}

function forgetNewRegistration(): void {
  removeCookie(NEW_REGISTRATION_COOKIE);
  try {
    sessionStorage.removeItem(NEW_REGISTRATION_STORAGE_KEY);
  } catch {
    // Storage may be unavailable (private modes); there is then nothing to remove.
  }
}

/**
 * The success path shared by every way of signing in (SPEC §4): fields cleared, the fresh
 * registration marks removed, then the session stored, which also closes the auth pop-up.
 */
export function completeSignIn(answer: SignInAnswer): void {
  $signIn.set({ ...IDLE, form: $signIn.get().form });
  forgetNewRegistration();
  signedIn(answer.accessToken, answer);
  if (typeof answer.firebaseAccessToken === 'string' && answer.firebaseAccessToken !== '') {
    signInToIdentityProvider(answer.firebaseAccessToken);
  }
}

/**
 * Ends an attempt that signed in nowhere here because another flow took it over (a Google account
 * that still owes its sign-up questionnaire goes on to the sign-up): the form is idle and empty again.
 */
export function endSignInAttempt(form: SignInFormKind): void {
  $signIn.set({ ...IDLE, form });
}

/** Keeps what the visitor types, so the form can be prefilled and cleared from here. */
export function setSignInField(form: SignInFormKind, field: 'login' | 'password', value: string): void {
  const state = $signIn.get();
  if (state.form === form) {
    $signIn.set({ ...state, [field]: value });
    return;
  }
  // Typing in the other form (page or pop-up) starts that form afresh rather than mixing the two,
  // unless a sign-in is under way in the first one.
  if (state.status !== 'loading') $signIn.set({ ...IDLE, form, [field]: value });
}

/**
 * Signs in with an email or username and a password (SPEC §4, §5, §8). Resolves true when the
 * visitor is signed in; every failure has already been shown.
 */
export async function submitSignIn(form: SignInFormKind): Promise<boolean> {
  if (signInPending()) return false;
  const { login: typed, password } = $signIn.get();
  const login = typed.trim();
  if (login === '' || password === '') {
    failSignIn(form, FILL_ALL_FIELDS_MESSAGE);
    return false;
  }
  if (login.includes('@') && !isEmailAddress(login)) {
    failSignIn(form, EMAIL_MESSAGE);
    return false;
  }
  startLoading(form, 'password');
  const result = await passwordSignIn(login, password);
  if (!result.ok) {
    failSignIn(form, result.message);
    return false;
  }
  completeSignIn(result.answer);
  return true;
}

/** A password sign-in's usable answer, or what to tell the visitor (SPEC §5, §8). */
export type PasswordSignInResult = { ok: true; answer: SignInAnswer } | { ok: false; message: string };

/**
 * The app server's password sign-in (SPEC §7 auth/signin) and the checks of its answer, without
 * touching any form: the sign-in form and the page that sets a new password both sign in through
 * here and then call {@link completeSignIn}.
 */
export async function passwordSignIn(login: string, password: string): Promise<PasswordSignInResult> {
  let answer: SignInAnswer;
  try {
    answer = await appServer<SignInAnswer>('auth/signin', {
      body: { login, password },
      refreshOn403: false,
    });
  } catch (error) {
    return { ok: false, message: signInErrorMessage(error) };
  }
  const refusal = signInResultMessage(answer);
  return refusal === undefined ? { ok: true, answer } : { ok: false, message: refusal };
}

/**
 * Takes the sign-in page's query (SPEC §2): `error` is shown as an error flash, `email` prefills
 * the login field.
 */
export function applySignInQuery(search: string): void {
  const params = new URLSearchParams(search);
  const error = params.get('error')?.trim();
  if (error) showFlash(error);
  const email = params.get('email')?.trim();
  if (email) $signIn.set({ ...$signIn.get(), form: 'page', login: email });
}

/**
 * Forgets what was typed and said in one form, e.g. when the visitor leaves the page or closes the
 * pop-up; a sign-in under way is left to finish.
 */
export function resetSignInForm(form: SignInFormKind): void {
  const state = $signIn.get();
  if (state.form !== form || state.status === 'loading') return;
  $signIn.set({ ...IDLE, form });
}
