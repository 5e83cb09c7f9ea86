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
