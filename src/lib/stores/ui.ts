import { atom, map } from 'nanostores';

/**
 * True while a client-side navigation is being fetched and swapped in (SPEC §4), so the shell can
 * show progress instead of looking frozen on slow connections.
 */
export const $routeLoading = atom(false);

/** The parts of Astro's `astro:before-preparation` event the tracker relies on. */
interface PreparationEvent extends Event {
  loader: () => Promise<void>;
  readonly signal: AbortSignal;
}

function isPreparationEvent(event: Event): event is PreparationEvent {
  return 'loader' in event && typeof event.loader === 'function' && 'signal' in event;
}

let trackedTarget: EventTarget | undefined;

/**
 * Follows the view-transition router so `$routeLoading` mirrors navigation: set when preparation
 * starts, cleared once the new page is swapped in or loaded, and also cleared on the error paths
 * (the loader throws, the router gives up and falls back to a full page load, or a newer
 * navigation aborts this one). The layout's persisted island calls this on every mount, so only
 * the first call attaches listeners.
 */
export function startRouteLoadingTracking(target?: EventTarget): void {
  if (trackedTarget) return;
  const events = target ?? (typeof document === 'undefined' ? undefined : document);
  if (!events) return;
  trackedTarget = events;

  const finish = (): void => {
    $routeLoading.set(false);
  };

  events.addEventListener('astro:before-preparation', (event) => {
    $routeLoading.set(true);
    if (!isPreparationEvent(event)) return;
    event.signal.addEventListener('abort', finish, { once: true });
    const load = event.loader;
    event.loader = async () => {
      try {
        await load();
      } catch (error) {
        finish();
        throw error;
      }
      if (event.defaultPrevented) finish();
    };
  });
  events.addEventListener('astro:after-swap', finish);
  events.addEventListener('astro:page-load', finish);
}

/** SPEC §4 and §8: the session-inactive dialog and whether its Refresh Now has been used. */
export interface SessionInactiveState {
  open: boolean;
  refreshed: boolean;
}

export const $sessionInactive = map<SessionInactiveState>({ open: false, refreshed: false });

/** Asks the visitor to refresh because the data on screen may have gone stale while they were away. */
export function openSessionInactive(): void {
  $sessionInactive.setKey('open', true);
}

export function closeSessionInactive(): void {
  $sessionInactive.setKey('open', false);
}

/**
 * Marks the refresh as done before reloading, so the idle detection does not ask again while
 * the reload is under way.
 */
export function refreshNow(): void {
  $sessionInactive.setKey('refreshed', true);
  location.reload();
}

/**
 * How long a page may sit unused (no pointer, key, scroll or touch input) or hidden in a background
 * tab before it asks for a refresh. Thirty minutes: quotes and figures on screen are long stale by
 * then, while a visitor reading a long documentation page is not interrupted.
 */
export const SESSION_INACTIVE_AFTER_MS = 30 * 60_000;

/** How often a visible page checks whether it has gone idle. */
export const IDLE_CHECK_INTERVAL_MS = 60_000;

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/** What the idle watch needs of the document: its events and whether it is visible. */
export interface IdleTarget extends EventTarget {
  readonly visibilityState: DocumentVisibilityState;
}

export interface IdleWatchOptions {
  /** Where input and visibility events arrive (the document by default). */
  target?: IdleTarget;
  thresholdMs?: number;
  now?: () => number;
}

let idleWatchStop: (() => void) | undefined;

/**
 * Opens the session-inactive dialog (SPEC §4, §8) once the page has been idle or hidden for
 * {@link SESSION_INACTIVE_AFTER_MS}: checked every minute while visible and again the moment a hidden
 * tab comes back, so a laptop waking from sleep asks at once. Ends after the dialog opened or the
 * refresh is under way. Returns a function that stops watching; repeated calls share one watch.
 */
export function startIdleWatch(options: IdleWatchOptions = {}): () => void {
  if (idleWatchStop) return idleWatchStop;
  const found: IdleTarget | undefined =
    options.target ?? (typeof document === 'undefined' ? undefined : document);
  if (!found) return () => undefined;
  const target = found;
  const threshold = options.thresholdMs ?? SESSION_INACTIVE_AFTER_MS;
  const now = options.now ?? Date.now;
  let lastActive = now();

  const check = (): void => {
    const { open, refreshed } = $sessionInactive.get();
    if (open || refreshed) return;
    if (now() - lastActive >= threshold) {
      openSessionInactive();
      stop();
    }
  };
  const active = (): void => {
    lastActive = now();
  };
  const visibility = (): void => {
    if (target.visibilityState === 'visible') check();
  };
  for (const type of ACTIVITY_EVENTS) target.addEventListener(type, active, { passive: true, capture: true });
  target.addEventListener('visibilitychange', visibility);
  const timer = setInterval(check, Math.min(IDLE_CHECK_INTERVAL_MS, threshold));

  const stop = (): void => {
    clearInterval(timer);
    for (const type of ACTIVITY_EVENTS) target.removeEventListener(type, active, { capture: true });
    target.removeEventListener('visibilitychange', visibility);
    idleWatchStop = undefined;
  };
  idleWatchStop = stop;
  return stop;
}
