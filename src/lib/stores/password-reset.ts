import { map } from 'nanostores';
import { getClientAuth } from '../firebase.ts';
import { isEmailAddress } from '../form-rules.ts';
import { EMAIL_MESSAGE, FILL_ALL_FIELDS_MESSAGE } from '../messages.ts';
import { showFlash } from './auth.ts';

export type PasswordResetStatus = 'idle' | 'sending' | 'sent' | 'error';

/** The forgot-password form: where the request stands, for which address, and what to tell the visitor. */
export interface PasswordResetState {
  status: PasswordResetStatus;
  email: string;
  message: string;
}

export const RESET_FAILED_MESSAGE = 'We could not send the reset email. Please try again later.';
export const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many attempts. Please wait a moment and try again.';

/** The same words whether or not the address has an account, so the form reveals nothing. */
export function resetSentMessage(email: string): string {
  return `If an account exists for ${email}, a link to reset your password is on its way.`;
}

const IDLE: PasswordResetState = { status: 'idle', email: '', message: '' };

export const $passwordReset = map<PasswordResetState>({ ...IDLE });

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : '';
}

/** Shown inline next to the form and, like every error (SPEC §8), as an error flash message. */
function fail(email: string, message: string): void {
  $passwordReset.set({ status: 'error', email, message });
  showFlash(message);
}

/**
 * Asks the identity provider to mail a password-reset link. An unknown address counts as sent:
 * answering differently would let anyone probe which addresses have accounts.
 */
export async function requestPasswordReset(input: string): Promise<void> {
  if ($passwordReset.get().status === 'sending') return;
  const email = input.trim();
  if (email === '') {
    fail(email, FILL_ALL_FIELDS_MESSAGE);
    return;
  }
  if (!isEmailAddress(email)) {
    fail(email, EMAIL_MESSAGE);
    return;
  }
  $passwordReset.set({ status: 'sending', email, message: '' });
  try {
    const [auth, { sendPasswordResetEmail }] = await Promise.all([getClientAuth(), import('firebase/auth')]);
    await sendPasswordResetEmail(auth, email);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'auth/invalid-email') {
      fail(email, EMAIL_MESSAGE);
      return;
    }
    if (code !== 'auth/user-not-found') {
      fail(email, code === 'auth/too-many-requests' ? TOO_MANY_ATTEMPTS_MESSAGE : RESET_FAILED_MESSAGE);
      return;
    }
  }
  $passwordReset.set({ status: 'sent', email, message: resetSentMessage(email) });
}

/** Forgets the last request, e.g. when the visitor leaves the page. */
export function resetPasswordResetForm(): void {
  $passwordReset.set({ ...IDLE });
}
