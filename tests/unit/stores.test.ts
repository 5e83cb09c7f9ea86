import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  $auth,
  $signedIn,
  clearFlash,
  closeAuthPopup,
  closePremiumPopup,
  DEFAULT_PREMIUM_POPUP,
  FLASH_TIMEOUT_MS,
  openAuthPopup,
  openPremiumPopup,
  PUBLIC_TOKEN,
  setAccessToken,
  showFlash,
  signedIn,
  signedOut,
} from '../../src/lib/stores/auth.ts';
import {
  $snackbars,
  hideSnackbar,
  pauseSnackbar,
  resumeSnackbar,
  showSnackbar,
  SNACKBAR_AUTO_HIDE_MS,
} from '../../src/lib/stores/snackbar.ts';
import {
  $routeLoading,
  $sessionInactive,
  closeSessionInactive,
  openSessionInactive,
  refreshNow,
  startRouteLoadingTracking,
} from '../../src/lib/stores/ui.ts';
import { $avatarLetter, $roles, $user, clearUser, setUserData } from '../../src/lib/stores/user.ts';

const INITIAL_AUTH = $auth.get();

beforeEach(() => {
  vi.useFakeTimers();
  $auth.set({ ...INITIAL_AUTH });
  clearUser();
  $sessionInactive.set({ open: false, refreshed: false });
});

afterEach(() => {
  clearFlash();
  for (const { id } of $snackbars.get()) hideSnackbar(id);
  vi.useRealTimers();
});

describe('flash messages', () => {
  it('are errors unless told otherwise', () => {
    showFlash('Error signing into your account.');
    expect($auth.get().flashMessage).toEqual({ type: 'error', text: 'Error signing into your account.' });
  });

  it('keep the success type when given', () => {
    showFlash('User created successfully. Please check your email to verify your account.', 'success');
    expect($auth.get().flashMessage?.type).toBe('success');
  });

  it('clear themselves after 3000 ms and not before', () => {
    expect(FLASH_TIMEOUT_MS).toBe(3000);
    showFlash('Sign in failed. Please try again later.');
    vi.advanceTimersByTime(2999);
    expect($auth.get().flashMessage).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect($auth.get().flashMessage).toBeNull();
  });

  it('restart the 3000 ms when a newer message replaces the shown one', () => {
    showFlash('First');
    vi.advanceTimersByTime(2000);
    showFlash('Second');
    vi.advanceTimersByTime(2000);
    expect($auth.get().flashMessage?.text).toBe('Second');
    vi.advanceTimersByTime(1000);
    expect($auth.get().flashMessage).toBeNull();
  });

  it('can be dismissed before the timeout', () => {
    showFlash('User already exists.');
    clearFlash();
    expect($auth.get().flashMessage).toBeNull();
  });
});

describe('snackbars', () => {
  it('queue up with distinct ids and hide after 6000 ms, not before', () => {
    expect(SNACKBAR_AUTO_HIDE_MS).toBe(6000);
    const first = showSnackbar('Copied to clipboard');
    const second = showSnackbar('Settings saved', { type: 'success' });
    expect(first).not.toBe(second);
    expect($snackbars.get().map((snackbar) => snackbar.text)).toEqual([
      'Copied to clipboard',
      'Settings saved',
    ]);
    expect($snackbars.get()[1]?.type).toBe('success');
    vi.advanceTimersByTime(5999);
    expect($snackbars.get()).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect($snackbars.get()).toHaveLength(0);
  });

  it('can be dismissed early without disturbing the others', () => {
    const first = showSnackbar('One');
    showSnackbar('Two');
    hideSnackbar(first);
    expect($snackbars.get().map((snackbar) => snackbar.text)).toEqual(['Two']);
  });

  it('stay while paused and get their full time again when resumed', () => {
    const id = showSnackbar('Key regenerated');
    vi.advanceTimersByTime(5000);
    pauseSnackbar(id);
    vi.advanceTimersByTime(60_000);
    expect($snackbars.get()).toHaveLength(1);
    resumeSnackbar(id);
    vi.advanceTimersByTime(5999);
    expect($snackbars.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($snackbars.get()).toHaveLength(0);
  });

  it('carry their action so the island can run it', () => {
    const onSelect = vi.fn();
    showSnackbar('Item removed', { action: { label: 'Undo', onSelect } });
    $snackbars.get()[0]?.action?.onSelect();
    expect(onSelect).toHaveBeenCalledOnce();
  });
});

describe('auth pop-ups', () => {
  it('authPopup is false, 1 for sign-in or 2 for sign-up', () => {
    expect($auth.get().authPopup).toBe(false);
    openAuthPopup(1);
    expect($auth.get().authPopup).toBe(1);
    openAuthPopup(2);
    expect($auth.get().authPopup).toBe(2);
    closeAuthPopup();
    expect($auth.get().authPopup).toBe(false);
  });

  it('the premium pop-up opens with the default title and text, and closes', () => {
    openPremiumPopup();
    expect($auth.get().premiumPopup).toEqual(DEFAULT_PREMIUM_POPUP);
    expect(DEFAULT_PREMIUM_POPUP.title).toBe('Unrestricted Access');
    closePremiumPopup();
    expect($auth.get().premiumPopup).toBe(false);
  });

  it('the premium pop-up keeps the default text when only the title is given', () => {
    openPremiumPopup({ title: 'Bulk downloads are a premium feature' });
    expect($auth.get().premiumPopup).toEqual({
      title: 'Bulk downloads are a premium feature',
      text: DEFAULT_PREMIUM_POPUP.text,
    });
  });
});

describe('session', () => {
  it('counts as signed in only while the token differs from the public token', () => {
    expect($signedIn.get()).toBe(false);
    setAccessToken('a-user-token');
    expect($signedIn.get()).toBe(true);
    setAccessToken(PUBLIC_TOKEN);
    expect($signedIn.get()).toBe(false);
    expect($auth.get().init).toBe(true);
  });

  it('signing in stores the user without token fields and closes the auth pop-up', () => {
    openAuthPopup(1);
    signedIn('a-user-token', {
      userid: 'u1',
      username: 'ada',
      accessToken: 'a-user-token',
      refreshToken: 'refresh',
      firebaseAccessToken: 'firebase',
      token: 'token',
    });
    const user: Record<string, unknown> = { ...$user.get() };
    expect(user).not.toHaveProperty('accessToken');
    expect(user).not.toHaveProperty('refreshToken');
    expect(user).not.toHaveProperty('firebaseAccessToken');
    expect(user).not.toHaveProperty('token');
    expect(user.username).toBe('ada');
    expect($auth.get().accessToken).toBe('a-user-token');
    expect($auth.get().authPopup).toBe(false);
    expect($signedIn.get()).toBe(true);
  });

  it('signing out goes back to the public token and forgets the user', () => {
    signedIn('a-user-token', { username: 'ada' });
    signedOut();
    expect($auth.get().accessToken).toBe(PUBLIC_TOKEN);
    expect($user.get().username).toBe('');
  });
});

describe('user', () => {
  it("the avatar letter is the username's first letter, or ? without a username", () => {
    setUserData({ username: 'grace' });
    expect($avatarLetter.get()).toBe('G');
    setUserData({ username: '' });
    expect($avatarLetter.get()).toBe('?');
  });

  it('recognises admins', () => {
    setUserData({ userRole: 'admin' });
    expect($roles.get()).toMatchObject({ isAdmin: true, isAnalyst: false, isPrivileged: true });
  });

  it('recognises analysts by a role containing analyst', () => {
    setUserData({ userRole: 'senior-analyst' });
    expect($roles.get()).toMatchObject({ isAdmin: false, isAnalyst: true, isPrivileged: true });
  });

  it('treats other roles as ordinary users', () => {
    setUserData({ userRole: 'user' });
    expect($roles.get()).toMatchObject({ isAdmin: false, isAnalyst: false, isPrivileged: false });
  });
});

describe('session-inactive dialog', () => {
  it('opens and closes', () => {
    openSessionInactive();
    expect($sessionInactive.get().open).toBe(true);
    closeSessionInactive();
    expect($sessionInactive.get().open).toBe(false);
  });

  it('Refresh Now marks the session refreshed and reloads the page', () => {
    // Tests run in Node, which has no `location`; a stub with a spy stands in for the browser's.
    const reload = vi.fn();
    vi.stubGlobal('location', { reload });
    try {
      openSessionInactive();
      refreshNow();
      expect($sessionInactive.get().refreshed).toBe(true);
      expect(reload).toHaveBeenCalledOnce();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

/** Builds the parts of Astro's `astro:before-preparation` event the tracker uses. */
function preparationEvent(loader: () => Promise<void>, controller = new AbortController()) {
  const event = new Event('astro:before-preparation', { cancelable: true });
  return Object.assign(event, { loader, signal: controller.signal });
}

describe('route loading', () => {
  // Listeners attach once per module, so every case shares this target.
  const router = new EventTarget();
  startRouteLoadingTracking(router);

  afterEach(() => {
    $routeLoading.set(false);
  });

  it('is set when navigation starts and cleared when the new page has loaded', async () => {
    const event = preparationEvent(() => Promise.resolve());
    router.dispatchEvent(event);
    expect($routeLoading.get()).toBe(true);
    await event.loader();
    expect($routeLoading.get()).toBe(true);
    router.dispatchEvent(new Event('astro:after-swap'));
    expect($routeLoading.get()).toBe(false);
    $routeLoading.set(true);
    router.dispatchEvent(new Event('astro:page-load'));
    expect($routeLoading.get()).toBe(false);
  });

  it('is cleared when loading the next page fails', async () => {
    const event = preparationEvent(() => Promise.reject(new Error('offline')));
    router.dispatchEvent(event);
    expect($routeLoading.get()).toBe(true);
    await expect(event.loader()).rejects.toThrow('offline');
    expect($routeLoading.get()).toBe(false);
  });

  it('is cleared when the router gives up on the transition', async () => {
    const event = preparationEvent(() => {
      event.preventDefault();
      return Promise.resolve();
    });
    router.dispatchEvent(event);
    await event.loader();
    expect($routeLoading.get()).toBe(false);
  });

  it('is cleared when a newer navigation aborts this one', () => {
    const controller = new AbortController();
    router.dispatchEvent(preparationEvent(() => Promise.resolve(), controller));
    controller.abort();
    expect($routeLoading.get()).toBe(false);
  });

  it('attaches its listeners only once', () => {
    const other = new EventTarget();
    startRouteLoadingTracking(other);
    other.dispatchEvent(preparationEvent(() => Promise.resolve()));
    expect($routeLoading.get()).toBe(false);
  });
});
