import { navigate } from 'astro:transitions/client';
import { atom, computed, map } from 'nanostores';
import type { AdminUserPage, AdminUserRow } from '../admin.ts';
import { ApiError, adminApi, appServer } from '../http.ts';
import { AUTH_LINKS } from '../routes.ts';
import type { UserData } from '../user-data.ts';
import { $auth, PUBLIC_TOKEN, showFlash, signedIn } from './auth.ts';
import {
  $sessionChecked,
  SESSION_STORAGE_KEY,
  refreshSession,
  setSwitchedSession,
  startSession,
  type RenewOutcome,
} from './session.ts';
import { signInToIdentityProvider, signOutOfIdentityProvider } from './sign-in.ts';
import { $user } from './user.ts';

/*
 * Link User (SPEC §7 code-signin): an administrator finds a user and switches into their account to
 * see what they see, for at most 15 minutes, then returns to their own session without signing in
 * again. The switch is remembered in localStorage, so every page and tab shows the banner (the
 * shell's src/lib/shell/link-user-banner.ts) and ends it together; the server audits the switch and
 * the return, and ends the switched session by its own clock whatever the browser does.
 */

/** A switch into another account, as every page and tab of this browser needs it. */
export interface LinkSwitch {
  /** The administrator who switched, by the name they had then. */
  adminUsername: string;
  userId: string;
  username: string;
  /** When the switch ends (epoch milliseconds): the switched access token's expiry. */
  endsAt: number;
}

/** localStorage key of the switch; the first-paint script reads it too, to show the banner at once. */
export const LINK_SWITCH_STORAGE_KEY = 'linkUser';

/** How long a switch lasts on the server; used only when the token does not say. */
export const SWITCH_MINUTES = 15;

/** How many matches one search shows. */
export const SEARCH_LIMIT = 20;

export const EMPTY_SEARCH_MESSAGE = 'Enter an email address, a username or a user id to search for.';
export const SEARCH_FAILED_MESSAGE = 'The users could not be searched. Please try again.';
export const SWITCH_FAILED_MESSAGE = 'The switch into this account did not work. Please try again.';
export const RETURNED_MESSAGE = 'You are back in your own account.';
export const OWN_SESSION_ENDED_MESSAGE = 'Your own session has ended as well. Please sign in again.';
export const RETURN_UNREACHABLE_MESSAGE =
  'We could not reach the server to bring you back to your own account. Please try again.';

/** The flash of a switch that closed by itself: it ran out, or the server stopped honouring it. */
export function switchOverMessage(username: string, ranOut: boolean): string {
  return ranOut
    ? `Your ${String(SWITCH_MINUTES)} minutes viewing ${username} are over. ${RETURNED_MESSAGE}`
    : `Your view of ${username} was ended. ${RETURNED_MESSAGE}`;
}

/** Why a row cannot be switched into, or null when it can (the server refuses the same accounts). */
export function switchRefusal(row: Pick<AdminUserRow, 'role' | 'blocked'>): string | null {
  if (row.role === 'admin') return 'Administrators cannot be viewed.';
  if (row.blocked) return 'Blocked accounts cannot be viewed.';
  return null;
}

/** The time left of a switch as the banner shows it (`14:05`), never below zero. */
export function formatTimeLeft(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(seconds / 60))}:${String(seconds % 60).padStart(2, '0')}`;
}

function isLinkSwitch(value: unknown): value is LinkSwitch {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.adminUsername === 'string' &&
    typeof record.userId === 'string' &&
    typeof record.username === 'string' &&
    typeof record.endsAt === 'number' &&
    Number.isFinite(record.endsAt)
  );
}

function readSwitch(): LinkSwitch | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(LINK_SWITCH_STORAGE_KEY) ?? 'null') as unknown;
    return isLinkSwitch(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** The switch this browser is in, or null; kept in step with storage across tabs. */
export const $linkSwitch = atom<LinkSwitch | null>(null);

function rememberSwitch(record: LinkSwitch): void {
  try {
    localStorage.setItem(LINK_SWITCH_STORAGE_KEY, JSON.stringify(record));
  } catch {
    // Storage refused: this page still knows the switch; other pages learn it from the server's refusal.
  }
  $linkSwitch.set(record);
}

function forgetSwitch(): void {
  try {
    localStorage.removeItem(LINK_SWITCH_STORAGE_KEY);
  } catch {
    // Nothing stored to remove.
  }
  $linkSwitch.set(null);
}

function hasStoredSession(): boolean {
  try {
    return localStorage.getItem(SESSION_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}

/** When an access token expires (epoch milliseconds), read without verifying it (the server does). */
export function tokenExpiry(token: string): number | undefined {
  try {
    const payload = token.split('.')[1];
    if (payload === undefined) return undefined;
    const claims = JSON.parse(atob(payload.replaceAll('-', '+').replaceAll('_', '/'))) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** The Link User page: the search, its matches and the switch waiting for confirmation. */
export interface LinkUserState {
  query: string;
  status: 'idle' | 'searching' | 'ready' | 'error';
  /** The text the matches shown were found for. */
  searched: string;
  users: AdminUserRow[];
  error: string;
  /** The user preselected by the address (`?user=<id>`), whose row is marked. */
  preselected: string;
  /** The row whose switch waits for the administrator's confirmation. */
  confirming: AdminUserRow | null;
  switching: boolean;
  /** Why the last switch was refused, in the server's words. */
  switchError: string;
  /** A return to the administrator's own session is under way. */
  returning: boolean;
}

const INITIAL: LinkUserState = {
  query: '',
  status: 'idle',
  searched: '',
  users: [],
  error: '',
  preselected: '',
  confirming: null,
  switching: false,
  switchError: '',
  returning: false,
};

export const $linkUser = map<LinkUserState>({ ...INITIAL });

/** Whether the page may be drawn: the session is confirmed with the server, and is an administrator's. */
export const $adminConfirmed = computed(
  [$sessionChecked, $auth, $user],
  (checked, auth, user) =>
    checked && auth.accessToken !== PUBLIC_TOKEN && user.authenticated && user.userRole === 'admin',
);

function problemText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message !== '' ? error.message : fallback;
}

export function setQuery(query: string): void {
  $linkUser.setKey('query', query);
}

let ticket = 0;

/** Finds users whose address or username starts with the text, or whose id it is. */
export async function searchUsers(): Promise<void> {
  const text = $linkUser.get().query.trim();
  const mine = ++ticket;
  if (text === '') {
    $linkUser.set({ ...$linkUser.get(), status: 'error', error: EMPTY_SEARCH_MESSAGE, users: [] });
    return;
  }
  $linkUser.set({ ...$linkUser.get(), status: 'searching', error: '' });
  try {
    const page = await adminApi<AdminUserPage>('users', { query: { q: text, limit: SEARCH_LIMIT } });
    if (mine !== ticket) return;
    $linkUser.set({ ...$linkUser.get(), status: 'ready', searched: text, users: page.users });
  } catch (error) {
    if (mine !== ticket) return;
    $linkUser.set({
      ...$linkUser.get(),
      status: 'error',
      users: [],
      error: problemText(error, SEARCH_FAILED_MESSAGE),
    });
  }
}

/**
 * Starts the page: once the session is confirmed as an administrator's, a user named by the address
 * (`?user=<id>`, the admin console's link) is looked up and marked. Anyone else is sent away by the
 * session's route guard. Returns the cleanup for the island's effect.
 */
export function startLinkUserPage(search: string): () => void {
  startSession();
  const preselected = new URLSearchParams(search).get('user')?.trim() ?? '';
  $linkUser.set({ ...INITIAL, preselected, query: preselected });
  let looked = false;
  const stop = $adminConfirmed.subscribe((confirmed) => {
    if (!confirmed || looked || preselected === '') return;
    looked = true;
    void searchUsers();
  });
  return () => {
    stop();
    ticket += 1;
    $linkUser.set({ ...INITIAL });
  };
}

/** Opens the confirmation of a switch into this row's account. */
export function askSwitch(row: AdminUserRow): void {
  $linkUser.set({ ...$linkUser.get(), confirming: row, switchError: '' });
}

export function cancelSwitch(): void {
  if ($linkUser.get().switching) return;
  $linkUser.set({ ...$linkUser.get(), confirming: null, switchError: '' });
}

type SwitchAnswer = Partial<UserData> &
  Record<string, unknown> & { accessToken?: unknown; firebaseAccessToken?: unknown };

/**
 * Switches into the confirmed row's account (SPEC §7 code-signin): the session stores take the
 * user's token and data, the identity SDK is signed in as the user the way a sign-in does, the
 * switch is remembered for every page and tab, and the browser opens the user's dashboard.
 */
export async function confirmSwitch(): Promise<void> {
  const { confirming: row, switching } = $linkUser.get();
  if (row === null || switching) return;
  $linkUser.set({ ...$linkUser.get(), switching: true, switchError: '' });
  const adminUsername = $user.get().username;
  let answer: SwitchAnswer;
  try {
    answer = await appServer<SwitchAnswer>('auth/code-signin', { body: { switchingUserId: row.id } });
  } catch (error) {
    $linkUser.set({
      ...$linkUser.get(),
      switching: false,
      switchError: problemText(error, SWITCH_FAILED_MESSAGE),
    });
    return;
  }
  const { accessToken, firebaseAccessToken } = answer;
  if (typeof accessToken !== 'string' || accessToken === '' || typeof answer.userid !== 'string') {
    $linkUser.set({ ...$linkUser.get(), switching: false, switchError: SWITCH_FAILED_MESSAGE });
    return;
  }
  // The switch first, then the session: other tabs see the banner before the account changes.
  rememberSwitch({
    adminUsername,
    userId: answer.userid,
    username: answer.username ?? row.username,
    endsAt: tokenExpiry(accessToken) ?? Date.now() + SWITCH_MINUTES * 60_000,
  });
  signedIn(accessToken, answer);
  if (typeof firebaseAccessToken === 'string' && firebaseAccessToken !== '') {
    signInToIdentityProvider(firebaseAccessToken);
  }
  $linkUser.set({ ...INITIAL });
  await navigate(AUTH_LINKS.dashboard);
}

/**
 * Ends the switch on the server (audited there) and signs the identity SDK out: the administrator's
 * own session has no custom token to sign it back in with. A refusal means the switch is over on
 * the server already; one the server never heard of ends by the server's clock all the same.
 */
async function endSwitch(): Promise<void> {
  try {
    await appServer('auth/code-signout', { method: 'POST', refreshOn403: false });
  } catch {
    // Over already, or not reached: renewing the administrator's session below tells which.
  }
  signOutOfIdentityProvider();
}

/** Why the switch is being left: "Return to admin", or on its own (ran out, or refused). */
let leaving: 'asked' | 'by-itself' = 'by-itself';

/**
 * What follows the end of a switch, once the administrator's own session has been renewed (or not):
 * the switch is forgotten and the administrator lands on Link User with a word on what happened.
 * While the server cannot be reached the switch is kept, so the next check finishes it.
 */
function switchEnded(outcome: RenewOutcome): void {
  const record = $linkSwitch.get();
  const asked = leaving === 'asked';
  leaving = 'by-itself';
  if (outcome === 'unreachable') {
    if (asked) showFlash(RETURN_UNREACHABLE_MESSAGE);
    return;
  }
  forgetSwitch();
  if (outcome === 'refused') {
    showFlash(OWN_SESSION_ENDED_MESSAGE);
    void navigate('/');
    return;
  }
  if (asked) showFlash(RETURNED_MESSAGE, 'success');
  else {
    const ranOut = Date.now() >= (record?.endsAt ?? 0);
    showFlash(switchOverMessage(record?.username ?? 'the user', ranOut), 'success');
  }
  void navigate(AUTH_LINKS.linkUser);
}

/**
 * "Return to admin": ends the switch on the server, renews the administrator's own session from
 * their refresh cookie, without signing in, and lands on Link User. While the server cannot be
 * reached the switch stays, with a message.
 */
export async function returnToAdmin(): Promise<void> {
  if ($linkSwitch.get() === null || $linkUser.get().returning) return;
  $linkUser.setKey('returning', true);
  leaving = 'asked';
  try {
    await refreshSession();
  } finally {
    leaving = 'by-itself';
    $linkUser.setKey('returning', false);
  }
}

const EXPIRY_MARGIN_MS = 1000;
let expiryTimer: ReturnType<typeof setTimeout> | undefined;
let started = false;

/**
 * Takes part in the session (a switched token refused, or the 15 minutes over, ends the switch and
 * brings the administrator back with a flash; a logout while switched ends it first), keeps the
 * switch in step with the other tabs, and ends it when its time is up. Browser only; the shell
 * calls it on every page, before the session starts, and only the first call acts.
 */
export function startLinkUser(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  $linkSwitch.set(readSwitch());
  // A switch outlives no session: one left behind by a browser signed out meanwhile is dropped.
  if ($linkSwitch.get() !== null && !hasStoredSession()) forgetSwitch();
  setSwitchedSession({
    active: () => $linkSwitch.get() !== null,
    end: endSwitch,
    ended: switchEnded,
    forget: forgetSwitch,
  });
  window.addEventListener('storage', (event) => {
    if (event.key === LINK_SWITCH_STORAGE_KEY || event.key === null) $linkSwitch.set(readSwitch());
  });
  $linkSwitch.subscribe((record) => {
    clearTimeout(expiryTimer);
    if (record === null) return;
    // The server ends the switch by its own clock; this brings the administrator back just after
    // (a second late, so the server records it as run out rather than ended a moment early).
    expiryTimer = setTimeout(
      () => {
        if ($linkSwitch.get() !== null) void refreshSession();
      },
      Math.max(0, record.endsAt - Date.now() + EXPIRY_MARGIN_MS),
    );
  });
}
