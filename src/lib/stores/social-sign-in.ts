import type { Auth, UserCredential } from 'firebase/auth';
import { getClientAuth } from '../firebase.ts';
import { isEmailAddress } from '../form-rules.ts';
import {
  BLOCKED_ACCOUNT_MESSAGE,
  EMAIL_MESSAGE,
  FILL_ALL_FIELDS_MESSAGE,
  OTHER_CREDENTIAL_MESSAGE,
  POPUP_BLOCKED_MESSAGE,
  POPUP_CLOSED_MESSAGE,
  SIGN_IN_FAILED_MESSAGE,
} from '../messages.ts';
import { ApiError, portal } from '../http.ts';
import { signInErrorMessage, signInResultMessage, type SignInAnswer } from './sign-in.ts';
import { signedOut } from './auth.ts';

/** The identity provider's id of Google sign-ins. */
export const GOOGLE_PROVIDER_ID = 'google.com';

/** What a Google sign-in through the identity provider yields, for the accounts API to verify. */
export interface GoogleIdentity {
  /** The identity provider's ID token, which validate-user and register-user accept. */
  idToken: string;
  providerId: string;
  /** Whether the identity provider saw this Google account for the first time. */
  isNewUser: boolean;
}

/** The answer of validate-user (SPEC §7): a session for the verified identity. */
export type SocialSignInAnswer = SignInAnswer & { refreshToken?: string; isNewUser?: boolean };

function emulated(auth: Auth): boolean {
  return auth.emulatorConfig !== null;
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : '';
}

/**
 * The identity provider's own text without its technical wrapping (`Firebase: … (auth/code).`);
 * undefined when nothing readable is left, as in `Firebase: Error (auth/network-request-failed).`.
 */
function readableMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const text = error.message
    .replace(/^Firebase:\s*/, '')
    .replace(/\s*\(auth\/[^)]*\)\.?\s*$/, '')
    .trim();
  return text === '' || text === 'Error' ? undefined : text;
}

/**
 * What a failed social sign-in tells the visitor (SPEC §8): the identity provider's known codes in
 * the spec's words, a disabled (blocked) identity as a blocked account, the accounts API's answer
 * as for any sign-in, else the error's own message or the generic failure.
 */
export function socialSignInMessage(error: unknown): string {
  if (error instanceof ApiError) return signInErrorMessage(error);
  switch (errorCode(error)) {
    case 'auth/account-exists-with-different-credential':
      return OTHER_CREDENTIAL_MESSAGE;
    case 'auth/popup-closed-by-user':
      return POPUP_CLOSED_MESSAGE;
    case 'auth/popup-blocked':
      return POPUP_BLOCKED_MESSAGE;
    case 'auth/user-disabled':
      return BLOCKED_ACCOUNT_MESSAGE;
    default:
      return readableMessage(error) ?? SIGN_IN_FAILED_MESSAGE;
  }
}

/**
 * The Google account id the local Auth emulator records for an address: derived from the address
 * alone, so the same address always signs in as the same Google account.
 */
export function emulatorGoogleSubject(email: string): string {
  const bytes = new TextEncoder().encode(email.trim().toLowerCase());
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether the identity provider is the local Auth emulator, which has no Google window: the
 * visitor then names the Google account to sign in as.
 */
export async function usesAuthEmulator(): Promise<boolean> {
  return emulated(await getClientAuth());
}

/** Loads the identity provider's SDK ahead of a Google sign-in, so its window opens without delay. */
export function prepareGoogleSignIn(): void {
  void getClientAuth().catch(() => undefined);
}

/**
 * Signs in to the identity provider with Google and returns its ID token. With a real Firebase
 * project Google's own window opens; against the local Auth emulator the Google account named by
 * `emailForEmulator` (required there) signs in without one.
 */
export async function googleIdToken(emailForEmulator?: string): Promise<GoogleIdentity> {
  const [auth, sdk] = await Promise.all([getClientAuth(), import('firebase/auth')]);
  const { GoogleAuthProvider, getAdditionalUserInfo, signInWithCredential, signInWithPopup } = sdk;
  let result: UserCredential;
  if (emulated(auth)) {
    const email = emailForEmulator?.trim().toLowerCase() ?? '';
    if (!isEmailAddress(email)) throw new Error(email === '' ? FILL_ALL_FIELDS_MESSAGE : EMAIL_MESSAGE);
    const claims = { sub: emulatorGoogleSubject(email), email, email_verified: true };
    result = await signInWithCredential(auth, GoogleAuthProvider.credential(JSON.stringify(claims)));
  } else {
    result = await signInWithPopup(auth, new GoogleAuthProvider());
  }
  return {
    idToken: await result.user.getIdToken(),
    providerId: GOOGLE_PROVIDER_ID,
    isNewUser: getAdditionalUserInfo(result)?.isNewUser ?? false,
  };
}

/**
 * Exchanges the identity provider's ID token for a session of ours (SPEC §7, GET portal
 * auth/validate-user), creating the account on its first visit. Rejects with the message to show
 * when the answer is no usable sign-in.
 */
export async function validateSocialUser(idToken: string): Promise<SocialSignInAnswer> {
  let answer: SocialSignInAnswer;
  try {
    answer = await portal<SocialSignInAnswer>('auth/validate-user', {
      query: { accessToken: idToken },
      refreshOn403: false,
    });
  } catch (error) {
    // SPEC §4: a failed validate-user leaves the browser signed out, on the public token.
    signedOut();
    throw error;
  }
  const refusal = signInResultMessage(answer);
  if (refusal !== undefined) {
    signedOut();
    throw new Error(refusal);
  }
  return answer;
}

/**
 * A Google sign-in the accounts API has verified: what both the sign-in and the sign-up go on from,
 * the sign-in to store the session, the sign-up to finish the account first (SPEC §4).
 */
export interface ValidatedGoogleSignIn {
  /** The identity provider's ID token, which register-user accepts as proof of the identity. */
  idToken: string;
  providerId: string;
  /** The session validate-user opened, not stored yet. */
  session: SocialSignInAnswer;
  /** The account's address: the session's, else the one named for the local Auth emulator. */
  email: string;
}

/**
 * Signs in with Google (see {@link googleIdToken}) and exchanges the ID token for a session of ours
 * (see {@link validateSocialUser}). Rejects like either; `socialSignInMessage` words the failure.
 */
export async function validatedGoogleSignIn(emailForEmulator?: string): Promise<ValidatedGoogleSignIn> {
  const { idToken, providerId } = await googleIdToken(emailForEmulator);
  const session = await validateSocialUser(idToken);
  const email = typeof session.email === 'string' ? session.email : (emailForEmulator ?? '').trim();
  return { idToken, providerId, session, email };
}
