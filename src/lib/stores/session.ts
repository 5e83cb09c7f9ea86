import { atom } from 'nanostores';
import { isStaffRole } from '../admin.ts';
import { ApiError, appServer, portal, setSessionRefresher } from '../http.ts';
import { routeAccess } from '../routes.ts';
import type { UserData } from '../user-data.ts';
import { $auth, PUBLIC_TOKEN, setAccessToken, showFlash, signedIn, signedOut } from './auth.ts';
import { clearPrices } from './pricing.ts';
import { clearRewriter } from './rewriter.ts';
import { $user, setUserDraft } from './user.ts';

/** localStorage key of the last known session, so static pages draw the right header at once. */
export const SESSION_STORAGE_KEY = 'session';

/** Web Locks name under which one tab at a time renews the session (a refresh token works once). */
const REFRESH_LOCK = 'session-refresh';

/** What the accounts API answers for a signed-in user: user data beside a fresh access token. */
export type SessionAnswer = Partial<UserData> & Record<string, unknown> & { accessToken: string };

interface Snapshot {
  accessToken: string;
  user: Partial<UserData>;
}

function read(): Snapshot | undefined {
  try {
    const raw = localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<Snapshot>;
    if (typeof parsed.accessToken !== 'string' || typeof parsed.user !== 'object') return undefined;
    return { accessToken: parsed.accessToken, user: parsed.user };
  } catch {
    return undefined;
  }
}

/**
 * True once this page view's session has been checked with the server (or found signed out), so
 * protected pages decide only on a confirmed session, never on a stale stored one.
 */
export const $sessionChecked = atom(false);

let started = false;

/**
 * Restores the last known session from storage (marking auth initialised), keeps storage in step
 * with the stores from then on, and checks the session with the server now and after every
 * view transition. Safe to call from every island; only the first call acts.
 */
export function startSession(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  setSessionRefresher(refreshSession);
  const snapshot = read();
  if (snapshot && snapshot.accessToken !== PUBLIC_TOKEN) signedIn(snapshot.accessToken, snapshot.user);
  else setAccessToken(PUBLIC_TOKEN);
  const save = (): void => {
    const { accessToken } = $auth.get();
    if (accessToken === PUBLIC_TOKEN) {
      localStorage.removeItem(SESSION_STORAGE_KEY);
      return;
    }
    const user: Partial<UserData> & { authenticated?: boolean; draft?: unknown } = { ...$user.get() };
    delete user.authenticated;
    delete user.draft;
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ accessToken, user }));
  };
  $auth.listen(save);
  $user.listen(save);
  window.addEventListener('storage', (event) => {
    if (event.key !== SESSION_STORAGE_KEY) return;
    const next = read();
    // Signed out, or into another account, in another tab: a page this one may no longer show is left at once.
    if (next && next.accessToken !== PUBLIC_TOKEN) signedIn(next.accessToken, next.user);
    else signedOut();
    guardRoute();
  });
  document.addEventListener('astro:after-swap', () => {
    void revalidateSession();
  });
  offerSignInAfterGuard();
  void revalidateSession();
}

function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

/** Runs the task while holding the tab-wide refresh lock, where the browser offers one. */
async function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  if (typeof navigator === 'undefined' || !('locks' in navigator)) return task();
  return navigator.locks.request(REFRESH_LOCK, task);
}

let refreshing: Promise<boolean> | undefined;

/** How renewing from the refresh cookie went: renewed, refused (signed out), or the server was not reached. */
export type RenewOutcome = 'renewed' | 'refused' | 'unreachable';

/**
 * What the session needs to know of an administrator's switch into another account (Link User,
 * `src/lib/stores/link-user.ts` registers it): the switched session has no refresh cookie of its
 * own, the cookie is still the administrator's, so a refused switched token must end the switch
 * rather than quietly hand the administrator's session back in its place.
 */
export interface SwitchedSession {
  /** Whether the current session is an administrator's switch into another account. */
  active(): boolean;
  /** Ends the switch on the server (audited there); never rejects. */
  end(): Promise<void>;
  /**
   * After `end`, how renewing the administrator's own session went. The switch is forgotten only
   * once that is known, so a page left half-way still knows, when it loads again, to finish.
   */
  ended(outcome: RenewOutcome): void;
  /** Forgets the switch without a word (logout). */
  forget(): void;
}

let switchedSession: SwitchedSession | undefined;

/** Lets the Link User store take part in refreshing and logout, without this module depending on it. */
export function setSwitchedSession(hooks: SwitchedSession): void {
  switchedSession = hooks;
}

async function renewFromCookie(): Promise<RenewOutcome> {
  try {
    const answer = await appServer<SessionAnswer>('auth/refresh', { refreshOn403: false });
    signedIn(answer.accessToken, answer);
    return 'renewed';
  } catch (error) {
    if (!isRefusal(error)) return 'unreachable';
    signedOut();
    return 'refused';
  }
}

/**
 * Renews the access token from the refresh cookie (SPEC §7, GET /auth/refresh). Concurrent calls
 * share one request, and tabs take turns: a tab that waited adopts the token another tab just got
 * instead of presenting the already-rotated cookie again. A refusal falls back to the public token;
 * a network failure keeps the session as it is. While an administrator views another account, the
 * switch is closed first and the cookie then renews the administrator's own session. Resolves
 * whether a signed-in session is in place.
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= withRefreshLock(async () => {
    const before = $auth.get().accessToken;
    const stored = read();
    if (stored && stored.accessToken !== PUBLIC_TOKEN && stored.accessToken !== before) {
      signedIn(stored.accessToken, stored.user);
      return true;
    }
    const switched = switchedSession?.active() === true ? switchedSession : undefined;
    await switched?.end();
    const outcome = await renewFromCookie();
    switched?.ended(outcome);
    return outcome === 'renewed';
  }).finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

/**
 * Confirms the stored session with the server (SPEC §7, GET portal auth/access-token, falling back
 * to a refresh) and takes the server's current user data, then enforces the page's access rule.
 * While the server is unreachable the stored session stands.
 */
export async function revalidateSession(): Promise<void> {
  $sessionChecked.set(false);
  if ($auth.get().accessToken !== PUBLIC_TOKEN) {
    try {
      const answer = await portal<Partial<UserData> & Record<string, unknown>>('auth/access-token', {
        refreshOn403: false,
      });
      Reflect.deleteProperty(answer, 'valid');
      signedIn($auth.get().accessToken, answer);
    } catch (error) {
      if (isRefusal(error)) await refreshSession();
    }
  }
  $sessionChecked.set(true);
  guardRoute();
}

/** Where a visitor who may not see the current page is sent (SPEC §6). */
export const PROTECTED_REDIRECT = '/';

/** sessionStorage key of the account page a signed-out visitor was turned away from. */
export const TURNED_AWAY_STORAGE_KEY = 'turnedAway';

/** What the page a turned-away visitor lands on says, over the sign-in pop-up it opens. */
export const SIGN_IN_TO_CONTINUE_MESSAGE =
  'Sign in to open that page: it shows your account. You will be taken back to it.';

/**
 * On the page a guard sent a signed-out visitor to: offers the sign-in (the pop-up, with a message
 * saying why) and remembers the page, so signing in returns there (`preseturl`). The turned-away
 * page crosses the full page load in sessionStorage, this tab only, and is used once.
 */
function offerSignInAfterGuard(): void {
  let path: string | null;
  try {
    path = sessionStorage.getItem(TURNED_AWAY_STORAGE_KEY);
    sessionStorage.removeItem(TURNED_AWAY_STORAGE_KEY);
  } catch {
    return;
  }
  if (path === null || path === '' || $auth.get().accessToken !== PUBLIC_TOKEN) return;
  $auth.setKey('preseturl', path);
  $auth.setKey('authPopup', 1);
  showFlash(SIGN_IN_TO_CONTINUE_MESSAGE);
}

/**
 * Sends a signed-out visitor away from account pages, anyone but staff away from the admin console
 * and anyone but an administrator away from admin pages, remembering the page so that signing in can return there.
 */
export function guardRoute(): void {
  if (typeof location === 'undefined') return;
  const access = routeAccess(location.pathname);
  if (access === 'public') return;
  const signedInNow = $auth.get().accessToken !== PUBLIC_TOKEN;
  const role = $user.get().userRole;
  const allowed =
    signedInNow && (access === 'user' || (access === 'staff' ? isStaffRole(role) : role === 'admin'));
  if (allowed) return;
  if (!signedInNow) {
    const path = location.pathname + location.search;
    $auth.setKey('preseturl', path);
    try {
      sessionStorage.setItem(TURNED_AWAY_STORAGE_KEY, path);
    } catch {
      // Storage refused: the visitor still lands on the home page, without the offer.
    }
  }
  location.replace(PROTECTED_REDIRECT);
}

/**
 * Signs out (SPEC §4): ends the session on the portal and on the app server (their failures are
 * ignored, the local sign-out happens regardless), then clears auth, the user's draft, saved
 * items, chat and prices, and starts again on the public token. An administrator viewing another
 * account closes that switch first; the logout then ends the administrator's own sign-in too.
 */
export async function logout(): Promise<void> {
  const switched = switchedSession?.active() === true ? switchedSession : undefined;
  await switched?.end();
  for (const call of [
    () => portal('auth/log-out', { refreshOn403: false }),
    () => appServer('auth/logout', { refreshOn403: false }),
  ]) {
    try {
      await call();
    } catch {
      // SPEC §7: logout errors are ignored; the browser forgets the session either way.
    }
  }
  setUserDraft(null);
  clearPrices();
  clearRewriter();
  switched?.forget();
  signedOut();
  guardRoute();
}
