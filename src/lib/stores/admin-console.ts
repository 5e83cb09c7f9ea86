import { computed } from 'nanostores';
import { isStaffRole } from '../admin.ts';
import { ApiError } from '../http.ts';
import { $signedIn } from './auth.ts';
import { $sessionChecked, startSession } from './session.ts';
import { $user } from './user.ts';

/*
 * What every page of the admin console shares: whether the visitor is confirmed as staff (the pages
 * draw nothing before), whether they may act (administrators; analysts only read), and how a
 * refused call is put in words.
 */

/** Whether the console may be drawn: only once the session is confirmed with the server and is staff's. */
export const $staffConfirmed = computed(
  [$sessionChecked, $signedIn, $user],
  (checked, signedIn, user) => checked && signedIn && user.authenticated && isStaffRole(user.userRole),
);

/** Whether the visitor may act (block, change a plan, …): administrators only; analysts read. */
export const $canAct = computed(
  [$staffConfirmed, $user],
  (staff, user) => staff && user.userRole === 'admin',
);

/** A failed call in words: the server's own message, or the fallback when it gave none. */
export function problemText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message !== '') return error.message;
  return fallback;
}

/**
 * Starts a console page: the session, then `load` once the session is confirmed as staff's (again
 * after a view transition re-confirms it). Anyone else is sent away by the session's route guard.
 * Returns the cleanup for the island's effect.
 */
export function startStaffPage(load: () => void): () => void {
  startSession();
  let loaded = false;
  const stop = $staffConfirmed.subscribe((confirmed) => {
    if (confirmed && !loaded) {
      loaded = true;
      load();
    }
  });
  return stop;
}
