import { getApps, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth, type UserRecord } from 'firebase-admin/auth';
import { decodeJwt } from 'jose';
import { firebaseWebApiKey, readConfig } from '../app/config.ts';

export type Check = { ok: true } | { ok: false; reason: string };

const GOOGLE_KEYS_URL =
  'https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com';

/**
 * How long any call to the identity provider may take. A sign-in that waits longer is worse than
 * a quick 'try again', and a hung provider must never hold request handlers open.
 */
export const IDENTITY_TIMEOUT_MS = 5000;

const IDENTITY_TOOLKIT_PATH = 'identitytoolkit.googleapis.com/v1';

/** Whether the identity provider answers: the emulator's root locally, Google's token keys in production. */
export async function checkIdentityProvider(timeoutMs = 2000): Promise<Check> {
  const { authEmulatorHost } = readConfig();
  const url = authEmulatorHost ? `http://${authEmulatorHost}/` : GOOGLE_KEYS_URL;
  const name = authEmulatorHost ? `Firebase Auth emulator at ${authEmulatorHost}` : 'Firebase Auth';
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return { ok: false, reason: `${name} answered HTTP ${res.status}` };
    await res.body?.cancel();
    return { ok: true };
  } catch (error) {
    const detail =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : 'unreachable';
    return { ok: false, reason: `${name} ${detail}` };
  }
}

/** Why the provider refused or could not judge an email and password. */
export type PasswordFailureCode =
  'invalid-credentials' | 'user-disabled' | 'too-many-attempts' | 'unavailable';

/** The outcome of an email and password check; failures carry only a code, never the input. */
export type PasswordCheck =
  { ok: true; uid: string; email: string; emailVerified: boolean } | { ok: false; code: PasswordFailureCode };

/** Why an ID token was refused; 'unavailable' means the provider could not be asked. */
export type IdTokenFailureCode =
  'invalid-token' | 'expired-token' | 'revoked-token' | 'user-disabled' | 'unavailable';

/** The identity behind a verified ID token; `provider` is the sign-in method, e.g. 'password' or 'google.com'. */
export type IdTokenCheck =
  | {
      ok: true;
      uid: string;
      email: string | null;
      emailVerified: boolean;
      provider: string;
      /**
       * Present when an administrator switched into this account (the custom token's claim): who,
       * and when the switch began (the token's sign-in time).
       */
      impersonation?: { by: string; began: Date };
    }
  | { ok: false; code: IdTokenFailureCode };

/** Why an account lookup or change failed. */
export type AccountFailureCode = 'not-found' | 'invalid-argument' | 'unavailable';

/** The provider's view of an account, reduced to what the accounts API decides on. */
export interface IdentityUser {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  disabled: boolean;
  /** Linked sign-in methods, e.g. ['password', 'google.com']. */
  providers: string[];
}

/** A successful account operation with its value, or the reason it failed. */
export type AccountResult<T extends object> = ({ ok: true } & T) | { ok: false; code: AccountFailureCode };

/** Raised by {@link withTimeout}; mapped to 'unavailable' like any network failure. */
class IdentityTimeoutError extends Error {
  override name = 'IdentityTimeoutError';
}

/**
 * The firebase-admin app for the configured project. Its name includes the emulator host because
 * firebase-admin fixes the emulator choice when the app's Auth service is created: a different
 * host gets its own app, and re-imports in one process reuse the existing one.
 */
function adminAuth(): Auth {
  const { firebaseProjectId, authEmulatorHost } = readConfig();
  const name = `accounts-api:${firebaseProjectId}:${authEmulatorHost ?? 'live'}`;
  const existing: App | undefined = getApps().find((app) => app.name === name);
  return getAuth(existing ?? initializeApp({ projectId: firebaseProjectId }, name));
}

/** Bounds a provider call: firebase-admin's own timeout is 25 s with retries on top. */
async function withTimeout<T>(promise: Promise<T>, ms = IDENTITY_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new IdentityTimeoutError(`no answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The firebase-admin error code ('auth/user-not-found', 'app/network-error', ...), if any. */
function adminErrorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return '';
}

function accountFailureCode(error: unknown): AccountFailureCode {
  switch (adminErrorCode(error)) {
    case 'auth/user-not-found':
      return 'not-found';
    case 'auth/invalid-uid':
    case 'auth/argument-error':
    case 'auth/invalid-argument':
    case 'auth/invalid-claims':
    case 'auth/reserved-claims':
      return 'invalid-argument';
    default:
      return 'unavailable';
  }
}

function idTokenFailureCode(error: unknown): IdTokenFailureCode {
  switch (adminErrorCode(error)) {
    case 'auth/id-token-expired':
      return 'expired-token';
    case 'auth/id-token-revoked':
      return 'revoked-token';
    case 'auth/user-disabled':
      return 'user-disabled';
    case 'auth/argument-error':
    case 'auth/invalid-argument':
    case 'auth/invalid-id-token':
    case 'auth/user-not-found':
      return 'invalid-token';
    default:
      return 'unavailable';
  }
}

/**
 * Verifies a Firebase ID token (from social sign-in or the identity SDK) and reports who it names.
 * Revocation and disabled accounts are checked too, so a blocked account's old tokens stop working.
 */
export async function verifyIdToken(idToken: string): Promise<IdTokenCheck> {
  if (idToken.trim() === '') return { ok: false, code: 'invalid-token' };
  try {
    const decoded = await withTimeout(adminAuth().verifyIdToken(idToken, true));
    return {
      ok: true,
      uid: decoded.uid,
      email: decoded.email ?? null,
      emailVerified: decoded.email_verified ?? false,
      provider: decoded.firebase.sign_in_provider,
      ...(typeof decoded.impersonatedBy === 'string'
        ? { impersonation: { by: decoded.impersonatedBy, began: new Date(decoded.auth_time * 1000) } }
        : {}),
    };
  } catch (error) {
    return { ok: false, code: idTokenFailureCode(error) };
  }
}

/** Maps a provider error message such as 'TOO_MANY_ATTEMPTS_TRY_LATER : Access ...' to our code. */
function passwordFailureCode(message: string): PasswordFailureCode {
  const code = message.split(/[\s:]/, 1)[0] ?? '';
  switch (code) {
    case 'EMAIL_NOT_FOUND':
    case 'INVALID_PASSWORD':
    case 'INVALID_LOGIN_CREDENTIALS':
    case 'INVALID_EMAIL':
    case 'MISSING_PASSWORD':
    case 'MISSING_EMAIL':
      return 'invalid-credentials';
    case 'USER_DISABLED':
      return 'user-disabled';
    case 'TOO_MANY_ATTEMPTS_TRY_LATER':
      return 'too-many-attempts';
    default:
      return 'unavailable';
  }
}

/**
 * The Identity Toolkit REST endpoint for an end-user method (`signInWithPassword`, `sendOobCode`,
 * …): the emulator's locally, Google's in production, or undefined when no web API key is configured.
 */
function identityToolkitUrl(method: string): string | undefined {
  const { authEmulatorHost } = readConfig();
  const configuredKey = firebaseWebApiKey();
  if (authEmulatorHost) {
    const key = encodeURIComponent(configuredKey ?? 'emulator');
    return `http://${authEmulatorHost}/${IDENTITY_TOOLKIT_PATH}/accounts:${method}?key=${key}`;
  }
  if (configuredKey === undefined || configuredKey === '') return undefined;
  return `https://${IDENTITY_TOOLKIT_PATH}/accounts:${method}?key=${encodeURIComponent(configuredKey)}`;
}

interface SignInBody {
  localId?: unknown;
  email?: unknown;
  idToken?: unknown;
  error?: { message?: unknown };
}

/** Reads email_verified from the ID token the provider just returned to us over TLS. */
function emailVerifiedFrom(idToken: unknown): boolean {
  if (typeof idToken !== 'string') return false;
  try {
    return decodeJwt(idToken).email_verified === true;
  } catch {
    return false;
  }
}

/**
 * Checks an email and password with the identity provider's password sign-in, so passwords are
 * never stored here. Answers within {@link IDENTITY_TIMEOUT_MS}; a provider that cannot be reached
 * or does not answer in time yields 'unavailable' rather than a hung request.
 */
export async function checkPassword(email: string, password: string): Promise<PasswordCheck> {
  const url = identityToolkitUrl('signInWithPassword');
  if (url === undefined) return { ok: false, code: 'unavailable' };
  let status: number;
  let body: SignInBody;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
      signal: AbortSignal.timeout(IDENTITY_TIMEOUT_MS),
    });
    status = res.status;
    body = (await res.json()) as SignInBody;
  } catch {
    return { ok: false, code: 'unavailable' };
  }
  if (status === 429) return { ok: false, code: 'too-many-attempts' };
  if (status !== 200) {
    const message = typeof body.error?.message === 'string' ? body.error.message : '';
    return { ok: false, code: status >= 500 ? 'unavailable' : passwordFailureCode(message) };
  }
  if (typeof body.localId !== 'string') return { ok: false, code: 'unavailable' };
  return {
    ok: true,
    uid: body.localId,
    email: typeof body.email === 'string' ? body.email : email,
    emailVerified: emailVerifiedFrom(body.idToken),
  };
}

/**
 * Mints a Firebase custom token so a user signed in through the accounts API can also sign in to
 * the identity SDK in the browser. The emulator issues unsigned tokens, which it accepts.
 */
export async function createCustomToken(
  uid: string,
  claims?: Record<string, unknown>,
): Promise<AccountResult<{ token: string }>> {
  try {
    const token = await withTimeout(adminAuth().createCustomToken(uid, claims));
    return { ok: true, token };
  } catch (error) {
    return { ok: false, code: accountFailureCode(error) };
  }
}

function toIdentityUser(record: UserRecord): IdentityUser {
  return {
    uid: record.uid,
    email: record.email ?? null,
    emailVerified: record.emailVerified,
    disabled: record.disabled,
    providers: record.providerData.map((info) => info.providerId),
  };
}

/** Looks an account up at the provider, which owns email, verification and disabled state. */
export async function getIdentityUser(uid: string): Promise<AccountResult<{ user: IdentityUser }>> {
  try {
    const record = await withTimeout(adminAuth().getUser(uid));
    return { ok: true, user: toIdentityUser(record) };
  } catch (error) {
    return { ok: false, code: accountFailureCode(error) };
  }
}

/**
 * Blocks or unblocks an account at the provider. Blocking also revokes the account's provider
 * refresh tokens, so sessions in the identity SDK end instead of living on until they expire.
 */
export async function setIdentityDisabled(uid: string, disabled: boolean): Promise<AccountResult<object>> {
  try {
    const auth = adminAuth();
    await withTimeout(auth.updateUser(uid, { disabled }));
    if (disabled) await withTimeout(auth.revokeRefreshTokens(uid));
    return { ok: true };
  } catch (error) {
    return { ok: false, code: accountFailureCode(error) };
  }
}

/** Whether the account has confirmed its email, asked fresh so a just-clicked link counts at once. */
export async function isEmailVerified(uid: string): Promise<AccountResult<{ emailVerified: boolean }>> {
  const found = await getIdentityUser(uid);
  return found.ok ? { ok: true, emailVerified: found.user.emailVerified } : found;
}

/** Why a verification email could not be sent. */
export type VerificationEmailFailureCode = 'not-found' | 'too-many-attempts' | 'unavailable';

/** The HTTP status and JSON body of an Identity Toolkit call, or undefined when it got no usable answer. */
async function callIdentityToolkit(
  method: string,
  payload: object,
): Promise<{ status: number; body: Record<string, unknown> } | undefined> {
  const url = identityToolkitUrl(method);
  if (url === undefined) return undefined;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(IDENTITY_TIMEOUT_MS),
    });
    const body: unknown = await res.json();
    if (typeof body !== 'object' || body === null) return undefined;
    return { status: res.status, body: body as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

/** The provider's error code of a refused Identity Toolkit call, e.g. 'TOO_MANY_ATTEMPTS_TRY_LATER'. */
function toolkitErrorCode(body: Record<string, unknown>): string {
  const { error } = body;
  if (typeof error !== 'object' || error === null || !('message' in error)) return '';
  return typeof error.message === 'string' ? (error.message.split(/[\s:]/, 1)[0] ?? '') : '';
}

function verificationFailure(status: number, body: Record<string, unknown>): VerificationEmailFailureCode {
  const code = toolkitErrorCode(body);
  if (status === 429 || code === 'TOO_MANY_ATTEMPTS_TRY_LATER') return 'too-many-attempts';
  if (code === 'USER_NOT_FOUND' || code === 'EMAIL_NOT_FOUND' || code === 'MISSING_EMAIL') return 'not-found';
  return 'unavailable';
}

/**
 * An ID token of the account, for the provider's end-user methods that only act for the signed-in
 * user (sending its emails): a custom token minted here, exchanged at the provider.
 */
async function signInAs(
  uid: string,
): Promise<{ ok: true; idToken: string } | { ok: false; code: VerificationEmailFailureCode }> {
  const minted = await createCustomToken(uid);
  if (!minted.ok) return { ok: false, code: minted.code === 'not-found' ? 'not-found' : 'unavailable' };
  const signedIn = await callIdentityToolkit('signInWithCustomToken', {
    token: minted.token,
    returnSecureToken: true,
  });
  if (signedIn === undefined) return { ok: false, code: 'unavailable' };
  const { idToken } = signedIn.body;
  if (signedIn.status !== 200 || typeof idToken !== 'string') {
    return { ok: false, code: verificationFailure(signedIn.status, signedIn.body) };
  }
  return { ok: true, idToken };
}

/** Why an email change could not be started. */
export type EmailChangeFailureCode = VerificationEmailFailureCode | 'email-exists';

/**
 * Has the provider mail `newEmail` a link that moves the account to it. The address changes only
 * when the link is followed, so a typo never locks the owner out and nobody can take over an
 * address they cannot read.
 */
export async function sendEmailChangeLink(
  uid: string,
  newEmail: string,
): Promise<{ ok: true } | { ok: false; code: EmailChangeFailureCode }> {
  const signedIn = await signInAs(uid);
  if (!signedIn.ok) return signedIn;
  const sent = await callIdentityToolkit('sendOobCode', {
    requestType: 'VERIFY_AND_CHANGE_EMAIL',
    idToken: signedIn.idToken,
    newEmail,
  });
  if (sent === undefined) return { ok: false, code: 'unavailable' };
  if (sent.status === 200) return { ok: true };
  if (toolkitErrorCode(sent.body) === 'EMAIL_EXISTS') return { ok: false, code: 'email-exists' };
  return { ok: false, code: verificationFailure(sent.status, sent.body) };
}

/**
 * Sets a new password at the provider (the caller has checked the current one). The provider ends
 * its own tokens of the account; this site's sessions are the caller's part.
 */
export async function setIdentityPassword(uid: string, password: string): Promise<AccountResult<object>> {
  try {
    await withTimeout(adminAuth().updateUser(uid, { password }));
    return { ok: true };
  } catch (error) {
    return { ok: false, code: accountFailureCode(error) };
  }
}

/** Removes a linked sign-in method (such as 'google.com') from the account at the provider. */
export async function unlinkIdentityProvider(
  uid: string,
  providerId: string,
): Promise<AccountResult<object>> {
  try {
    await withTimeout(adminAuth().updateUser(uid, { providersToUnlink: [providerId] }));
    return { ok: true };
  } catch (error) {
    return { ok: false, code: accountFailureCode(error) };
  }
}

/** Deletes the account's identity at the provider; one that is already gone counts as deleted. */
export async function deleteIdentityUser(uid: string): Promise<AccountResult<object>> {
  try {
    await withTimeout(adminAuth().deleteUser(uid));
    return { ok: true };
  } catch (error) {
    const code = accountFailureCode(error);
    return code === 'not-found' ? { ok: true } : { ok: false, code };
  }
}

/**
 * Has the identity provider mail the account a link that confirms its address, the step that
 * makes its API key work. The provider only sends that mail on behalf of the signed-in user, so
 * the server signs in as the account first: a custom token, exchanged for an ID token, then
 * `sendOobCode` with VERIFY_EMAIL. Every step answers within {@link IDENTITY_TIMEOUT_MS}.
 */
export async function sendVerificationEmail(
  uid: string,
): Promise<{ ok: true } | { ok: false; code: VerificationEmailFailureCode }> {
  const signedIn = await signInAs(uid);
  if (!signedIn.ok) return signedIn;
  const sent = await callIdentityToolkit('sendOobCode', {
    requestType: 'VERIFY_EMAIL',
    idToken: signedIn.idToken,
  });
  if (sent === undefined) return { ok: false, code: 'unavailable' };
  if (sent.status !== 200) return { ok: false, code: verificationFailure(sent.status, sent.body) };
  return { ok: true };
}

/** Why an emailed action code (a password reset or an address verification) could not be used. */
export type ActionCodeFailureCode =
  'invalid-code' | 'expired-code' | 'weak-password' | 'user-disabled' | 'too-many-attempts' | 'unavailable';

/** A successful use of an action code with its value, or the reason it failed. */
export type ActionCodeResult<T extends object> =
  ({ ok: true } & T) | { ok: false; code: ActionCodeFailureCode };

/**
 * The provider's refusal of an action code in our terms. A code that was already used, never
 * existed or belongs to a deleted account is one 'invalid-code': the provider does not tell them apart.
 */
export function actionCodeFailure(status: number, body: Record<string, unknown>): ActionCodeFailureCode {
  switch (toolkitErrorCode(body)) {
    case 'INVALID_OOB_CODE':
    case 'MISSING_OOB_CODE':
    case 'EMAIL_NOT_FOUND':
    case 'USER_NOT_FOUND':
      return 'invalid-code';
    case 'EXPIRED_OOB_CODE':
      return 'expired-code';
    case 'WEAK_PASSWORD':
      return 'weak-password';
    case 'USER_DISABLED':
      return 'user-disabled';
    case 'TOO_MANY_ATTEMPTS_TRY_LATER':
      return 'too-many-attempts';
    default:
      return status === 429 ? 'too-many-attempts' : 'unavailable';
  }
}

/** Calls an end-user Identity Toolkit method that takes an action code; the answer body on success. */
async function useActionCode(
  method: string,
  payload: object,
): Promise<ActionCodeResult<{ body: Record<string, unknown> }>> {
  const answer = await callIdentityToolkit(method, payload);
  if (answer === undefined) return { ok: false, code: 'unavailable' };
  if (answer.status !== 200) return { ok: false, code: actionCodeFailure(answer.status, answer.body) };
  return { ok: true, body: answer.body };
}

/**
 * What an emailed action code is for and whose address it names, without using it up: the
 * provider's `PASSWORD_RESET`, `VERIFY_EMAIL`, … and the account's address.
 */
export async function checkActionCode(
  oobCode: string,
): Promise<ActionCodeResult<{ requestType: string; email: string }>> {
  const checked = await useActionCode('resetPassword', { oobCode });
  if (!checked.ok) return checked;
  const { requestType, email } = checked.body;
  if (typeof requestType !== 'string' || typeof email !== 'string')
    return { ok: false, code: 'invalid-code' };
  return { ok: true, requestType, email };
}

/**
 * Sets a new password with the code of a password-reset email; the code is used up. The provider
 * also ends the account's own provider sessions; ending this site's sessions is the caller's part.
 */
export async function confirmPasswordReset(
  oobCode: string,
  newPassword: string,
): Promise<ActionCodeResult<{ email: string }>> {
  const reset = await useActionCode('resetPassword', { oobCode, newPassword });
  if (!reset.ok) return reset;
  const { email } = reset.body;
  return typeof email === 'string' ? { ok: true, email } : { ok: false, code: 'unavailable' };
}

/**
 * Confirms an address with the code of a verification email; the code is used up. Answers the
 * account's provider id when the provider names it, and the address it confirmed.
 */
export async function applyEmailVerification(
  oobCode: string,
): Promise<ActionCodeResult<{ uid: string | undefined; email: string; emailVerified: boolean }>> {
  const applied = await useActionCode('update', { oobCode });
  if (!applied.ok) return applied;
  const { localId, email, emailVerified } = applied.body;
  if (typeof email !== 'string') return { ok: false, code: 'unavailable' };
  return {
    ok: true,
    uid: typeof localId === 'string' && localId !== '' ? localId : undefined,
    email,
    emailVerified: emailVerified === true,
  };
}

/**
 * Moves an account to the address of an email-change link (the code is used up): answers the
 * account's provider id and its new, now confirmed, address.
 */
export async function applyEmailChange(
  oobCode: string,
): Promise<ActionCodeResult<{ uid: string | undefined; email: string }>> {
  const applied = await useActionCode('update', { oobCode });
  if (!applied.ok) return applied;
  const { localId, email } = applied.body;
  if (typeof email !== 'string') return { ok: false, code: 'unavailable' };
  return { ok: true, uid: typeof localId === 'string' && localId !== '' ? localId : undefined, email };
}
