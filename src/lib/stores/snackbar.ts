import { atom } from 'nanostores';

/** SPEC §9: snackbars hide themselves after this long. */
export const SNACKBAR_AUTO_HIDE_MS = 6000;

export type SnackbarType = 'info' | 'success' | 'error';

/** A single follow-up the reader can take from a snackbar, such as undoing what it reports. */
export interface SnackbarAction {
  label: string;
  onSelect: () => void;
}

export interface Snackbar {
  id: number;
  text: string;
  type?: SnackbarType;
  action?: SnackbarAction;
}

export interface SnackbarOptions {
  type?: SnackbarType;
  action?: SnackbarAction;
}

/** Oldest first, so the stack reads in the order things happened. */
export const $snackbars = atom<readonly Snackbar[]>([]);

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function schedule(id: number): void {
  clearTimeout(timers.get(id));
  timers.set(
    id,
    setTimeout(() => {
      hideSnackbar(id);
    }, SNACKBAR_AUTO_HIDE_MS),
  );
}

/**
 * Queues a short, non-blocking notice at the bottom of the screen. The id lets the caller take it
 * back early, for example once the thing it reports has been undone.
 */
export function showSnackbar(text: string, options: SnackbarOptions = {}): number {
  const id = nextId++;
  const snackbar: Snackbar = { id, text };
  if (options.type) snackbar.type = options.type;
  if (options.action) snackbar.action = options.action;
  $snackbars.set([...$snackbars.get(), snackbar]);
  schedule(id);
  return id;
}

export function hideSnackbar(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  const queue = $snackbars.get();
  if (queue.some((snackbar) => snackbar.id === id)) {
    $snackbars.set(queue.filter((snackbar) => snackbar.id !== id));
  }
}

/**
 * Stops a snackbar from hiding while the pointer or keyboard focus is on it, so nobody loses a
 * notice (or its action) in the middle of reading or reaching it.
 */
export function pauseSnackbar(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
}

/** Gives a paused snackbar its full display time again once attention has moved away. */
export function resumeSnackbar(id: number): void {
  if ($snackbars.get().some((snackbar) => snackbar.id === id)) schedule(id);
}
