import { map } from 'nanostores';
import { ApiError, api, NETWORK_ERROR_MESSAGE } from '../http.ts';
import {
  formatUserCode,
  isWellFormedUserCode,
  normalizeUserCode,
  USER_CODE_FORMAT_MESSAGE,
  USER_CODE_INVALID_MESSAGE,
} from '../user-code.ts';
import { showFlash } from './auth.ts';

/** Where the device-authorization calls of the accounts API live. */
export const DEVAUTH_API_URL = '/api/devauth';

/**
 * Where the page stands: typing the code, looking it up, asking the owner to approve or deny (and
 * sending that answer), or done either way.
 */
export type DevauthStep = 'enter' | 'looking-up' | 'confirm' | 'answering' | 'approved' | 'denied';

export interface DevauthState {
  step: DevauthStep;
  /** The code as typed, or as the tool's link gave it. */
  code: string;
  /** The tool that asks, once the code has been looked up. */
  clientName: string;
  /** When the code stops working (ISO time), once looked up. */
  expiresAt: string;
  /** The decision being sent while `step` is 'answering'. */
  answering: 'approve' | 'deny' | null;
  /** What went wrong, shown beside the form; empty when nothing did. */
  message: string;
}

export const EMPTY_CODE_MESSAGE = 'Enter the code your tool shows.';
export const SIGN_IN_AGAIN_MESSAGE = 'Please sign in again to continue.';
export const DEVAUTH_FAILED_MESSAGE = 'Something went wrong. Please try again.';

const INITIAL: DevauthState = {
  step: 'enter',
  code: '',
  clientName: '',
  expiresAt: '',
  answering: null,
  message: '',
};

export const $devauth = map<DevauthState>({ ...INITIAL });

/** The owner's view of a waiting request (GET /api/devauth/device). */
interface DeviceAnswer {
  client_name: string;
  created_at: string;
  expires_at: string;
}

/** Shown inline and, like every error (SPEC §8), as an error flash message. */
function fail(message: string, changes: Partial<DevauthState> = {}): void {
  $devauth.set({ ...$devauth.get(), ...changes, answering: null, message });
  showFlash(message);
}

/** The words for a failed call: the server's own for refusals it explains, ours otherwise. */
function failureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return DEVAUTH_FAILED_MESSAGE;
  if (error.status === 0) return NETWORK_ERROR_MESSAGE;
  if (error.status === 401 || error.status === 403) {
    return error.blockedAccount ? error.message : SIGN_IN_AGAIN_MESSAGE;
  }
  return error.message;
}

/** Whether the server says the code itself is wrong, unknown or spent, so a new one must be typed. */
function isCodeRefusal(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/**
 * Takes the code from the tool's link (`?code=`), so following verification_uri_complete needs no
 * typing. A code the visitor already typed is kept.
 */
export function startDevauth(search: string): void {
  const code = new URLSearchParams(search).get('code');
  const state = $devauth.get();
  if (code === null || state.step !== 'enter' || state.code !== '') return;
  $devauth.set({ ...state, code: formatUserCode(code.slice(0, 64)) });
}

/** Keeps the field's text; a new code clears the last complaint about the old one. */
export function setDevauthCode(code: string): void {
  const state = $devauth.get();
  if (state.step !== 'enter') return;
  $devauth.set({ ...state, code, message: '' });
}

/** Looks the typed code up, so the owner sees which tool asks before deciding. */
export async function lookUpDevice(): Promise<void> {
  const state = $devauth.get();
  if (state.step !== 'enter') return;
  const code = normalizeUserCode(state.code);
  if (code === '') {
    fail(EMPTY_CODE_MESSAGE);
    return;
  }
  if (!isWellFormedUserCode(code)) {
    fail(USER_CODE_FORMAT_MESSAGE);
    return;
  }
  const formatted = formatUserCode(code);
  $devauth.set({ ...state, step: 'looking-up', code: formatted, message: '' });
  try {
    const device = await api<DeviceAnswer>(`${DEVAUTH_API_URL}/device`, { query: { user_code: formatted } });
    $devauth.set({
      ...$devauth.get(),
      step: 'confirm',
      clientName: device.client_name,
      expiresAt: device.expires_at,
      message: '',
    });
  } catch (error) {
    fail(failureMessage(error), { step: 'enter' });
  }
}

async function answer(decision: 'approve' | 'deny'): Promise<void> {
  const state = $devauth.get();
  if (state.step !== 'confirm') return;
  $devauth.set({ ...state, step: 'answering', answering: decision, message: '' });
  try {
    await api(`${DEVAUTH_API_URL}/${decision}`, { method: 'POST', body: { user_code: state.code } });
    $devauth.set({
      ...$devauth.get(),
      step: decision === 'approve' ? 'approved' : 'denied',
      answering: null,
      message: '',
    });
  } catch (error) {
    // A code that expired or was answered elsewhere meanwhile cannot be retried: back to typing one.
    if (isCodeRefusal(error)) {
      fail(error instanceof ApiError ? error.message : USER_CODE_INVALID_MESSAGE, {
        step: 'enter',
        clientName: '',
        expiresAt: '',
      });
      return;
    }
    fail(failureMessage(error), { step: 'confirm' });
  }
}

/** Gives the tool the account's API key (it collects it on its next poll). */
export function approveDevice(): Promise<void> {
  return answer('approve');
}

/** Refuses the tool; it learns so on its next poll. */
export function denyDevice(): Promise<void> {
  return answer('deny');
}

/** Starts over with an empty field, e.g. to connect another tool or when the visitor leaves the page. */
export function resetDevauth(): void {
  $devauth.set({ ...INITIAL });
}
