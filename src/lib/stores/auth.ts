import { computed, map } from 'nanostores';
import { PREMIUM_DIALOG } from '../messages.ts';
import { $user, clearUser, setUserData, type UserData } from './user.ts';

export type FlashType = 'error' | 'success';
export interface FlashMessage {
  type: FlashType;
  text: string;
}

export type AuthPopup = false | 1 | 2;

export interface PremiumPopup {
  title: string;
  text: string;
}

/** SPEC §3, auth state. */
export interface AuthState {
  init: boolean;
  accessToken: string;
  /** Where to go after signing in (a same-origin path). */
  preseturl: string;
  authPopup: AuthPopup;
  customDialog: string | null;
  premiumPopup: PremiumPopup | false;
  flashMessage: FlashMessage | null;
  dispatchToken: string;
}

/**
 * The public fallback credential used while nobody is signed in; the accounts API rate-limits it.
 * Being signed in means holding any other token.
 */
export const PUBLIC_TOKEN: string = import.meta.env.PUBLIC_FALLBACK_TOKEN ?? 'public';

export const FLASH_TIMEOUT_MS = 3000;

export const DEFAULT_PREMIUM_POPUP: PremiumPopup = {
  title: PREMIUM_DIALOG.title,
  text: PREMIUM_DIALOG.text,
};

export const $auth = map<AuthState>({
  init: false,
  accessToken: PUBLIC_TOKEN,
  preseturl: '',
  authPopup: false,
  customDialog: null,
  premiumPopup: false,
  flashMessage: null,
  dispatchToken: '',
});

/** Signed in means the current token differs from the public fallback token (SPEC §4). */
export const $signedIn = computed($auth, (auth) => auth.accessToken !== PUBLIC_TOKEN);

/** The header's signed-in view needs a user with an API key (SPEC §2, auth block). */
export const $hasAccount = computed([$signedIn, $user], (signedIn, user) => signedIn && user.apiKey !== '');

let flashTimer: ReturnType<typeof setTimeout> | undefined;

/** Shows a flash message (error by default) that clears itself after 3 seconds. */
export function showFlash(text: string, type: FlashType = 'error'): void {
  clearTimeout(flashTimer);
  $auth.setKey('flashMessage', { type, text });
  flashTimer = setTimeout(() => {
    $auth.setKey('flashMessage', null);
  }, FLASH_TIMEOUT_MS);
}

export function clearFlash(): void {
  clearTimeout(flashTimer);
  $auth.setKey('flashMessage', null);
}

/** Sets the token (marking the session initialised); the public token signs the visitor out. */
export function setAccessToken(token: string): void {
  $auth.set({ ...$auth.get(), accessToken: token || PUBLIC_TOKEN, init: true });
}

/** Stores a successful sign-in: token and user data (tokens stripped), and closes the auth pop-up. */
export function signedIn(accessToken: string, user: Partial<UserData> & Record<string, unknown>): void {
  setUserData(user);
  $auth.set({ ...$auth.get(), accessToken, init: true, authPopup: false });
}

/** Forgets the session locally and goes back to the public token. */
export function signedOut(): void {
  clearUser();
  $auth.set({ ...$auth.get(), accessToken: PUBLIC_TOKEN, init: true });
}

export function openAuthPopup(view: 1 | 2): void {
  $auth.setKey('authPopup', view);
}

export function closeAuthPopup(): void {
  $auth.setKey('authPopup', false);
}

export function openPremiumPopup(popup: Partial<PremiumPopup> = {}): void {
  $auth.setKey('premiumPopup', { ...DEFAULT_PREMIUM_POPUP, ...popup });
}

export function closePremiumPopup(): void {
  $auth.setKey('premiumPopup', false);
}
