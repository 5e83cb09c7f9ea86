import { atom, computed, map } from 'nanostores';
import type { AccountKey, AccountKeys } from '../dashboard-data.ts';
import { ApiError, portal } from '../http.ts';
import { $signedIn } from './auth.ts';
import { maskApiKey } from './dashboard.ts';
import { $sessionChecked, revalidateSession, startSession } from './session.ts';
import { showSnackbar } from './snackbar.ts';

/*
 * The dashboard's API keys page: the account's keys as the accounts API lists them, which are
 * revealed, and the changes the owner makes (replace the primary key with a grace period, end a
 * replaced key early, add, rename and revoke named keys). Every change reloads the list, and a
 * replaced primary key reloads the session too, so the header and the overview show the new key.
 */

/** How long a replaced key keeps working, as the replace dialog offers it. */
export const GRACE_CHOICES = [
  { value: 'now', label: 'Stop the old key now' },
  { value: '1h', label: 'Keep it working for 1 hour' },
  { value: '24h', label: 'Keep it working for 24 hours' },
  { value: '7d', label: 'Keep it working for 7 days' },
] as const;
export type GraceChoice = (typeof GRACE_CHOICES)[number]['value'];

/** The confirmation the page is asking for, if any. */
export type PendingChange =
  | { kind: 'roll'; grace: GraceChoice }
  | { kind: 'revoke'; key: AccountKey }
  | { kind: 'rename'; key: AccountKey; name: string }
  | null;

export interface ApiKeysState {
  status: 'loading' | 'ready' | 'error';
  error: string;
  keys: AccountKey[];
  additionalAllowed: number;
  additionalUsed: number;
  /** Ids of the keys shown in full. */
  revealed: string[];
  /** The name typed for a new key. */
  newName: string;
  /** Why the last change was refused ('' when it was not), shown by the form it came from. */
  problem: string;
  busy: boolean;
  pending: PendingChange;
}

const INITIAL: ApiKeysState = {
  status: 'loading',
  error: '',
  keys: [],
  additionalAllowed: 0,
  additionalUsed: 0,
  revealed: [],
  newName: '',
  problem: '',
  busy: false,
  pending: null,
};

export const $apiKeys = map<ApiKeysState>({ ...INITIAL });

/** The present moment, ticking every half minute, so countdowns move without a reload. */
export const $keysNow = atom(Date.now());

/** The keys by role: the current primary key, replaced ones in their grace period, additional ones. */
export const $keyGroups = computed($apiKeys, (state) => ({
  primary: state.keys.find((key) => key.primary && key.expiresAt === null) ?? null,
  expiring: state.keys.filter((key) => key.expiresAt !== null),
  additional: state.keys.filter((key) => !key.primary),
}));

/** A key as the page shows it: in full once revealed, else masked to its last four characters. */
export function shownKey(key: AccountKey, revealed: readonly string[]): string {
  return revealed.includes(key.id) ? key.key : maskApiKey(key.key);
}

function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : 'The change could not be made. Please try again.';
}

/** Reads the account's keys. */
export async function loadKeys(): Promise<void> {
  try {
    const answer = await portal<AccountKeys>('user/api-keys');
    $keysNow.set(Date.now());
    $apiKeys.set({
      ...$apiKeys.get(),
      status: 'ready',
      error: '',
      keys: answer.keys,
      additionalAllowed: answer.additionalAllowed,
      additionalUsed: answer.additionalUsed,
    });
  } catch (error) {
    $apiKeys.set({ ...$apiKeys.get(), status: 'error', error: messageOf(error) });
  }
}

let stopWatching: (() => void) | undefined;
let ticker: ReturnType<typeof setInterval> | undefined;

/** Starts the page: the session, then the keys once it is confirmed, and the countdowns' clock. */
export function startApiKeys(): () => void {
  startSession();
  stopWatching?.();
  stopWatching = $sessionChecked.subscribe((checked) => {
    if (checked && $signedIn.get() && $apiKeys.get().status !== 'ready') void loadKeys();
  });
  clearInterval(ticker);
  ticker = setInterval(() => {
    $keysNow.set(Date.now());
    // A replaced key whose grace has ended leaves the list.
    if (
      $apiKeys.get().keys.some((key) => key.expiresAt !== null && Date.parse(key.expiresAt) <= Date.now())
    ) {
      void loadKeys();
    }
  }, 30_000);
  return () => {
    stopWatching?.();
    stopWatching = undefined;
    clearInterval(ticker);
    $apiKeys.set({ ...INITIAL });
  };
}

/** Shows a key in full, or masks it again. */
export function toggleReveal(id: string): void {
  const { revealed } = $apiKeys.get();
  $apiKeys.setKey(
    'revealed',
    revealed.includes(id) ? revealed.filter((item) => item !== id) : [...revealed, id],
  );
}

/** Copies a key in full and says so. */
export async function copyKey(key: AccountKey): Promise<void> {
  try {
    await navigator.clipboard.writeText(key.key);
    showSnackbar(`Key “${key.name}” copied to the clipboard.`, { type: 'success' });
  } catch {
    showSnackbar('Your browser did not let the page copy the key. Reveal it and copy it by hand instead.', {
      type: 'error',
    });
  }
}

/** Asks for a confirmation (the dialogs), or closes it. */
export function askFor(change: PendingChange): void {
  $apiKeys.set({ ...$apiKeys.get(), pending: change, problem: '' });
}

export function setNewName(name: string): void {
  $apiKeys.set({ ...$apiKeys.get(), newName: name, problem: '' });
}

async function change(
  run: () => Promise<unknown>,
  done: string,
  afterwards?: () => Promise<void>,
): Promise<boolean> {
  if ($apiKeys.get().busy) return false;
  $apiKeys.set({ ...$apiKeys.get(), busy: true, problem: '' });
  try {
    await run();
    await loadKeys();
    await afterwards?.();
    $apiKeys.set({ ...$apiKeys.get(), busy: false, pending: null });
    showSnackbar(done, { type: 'success' });
    return true;
  } catch (error) {
    $apiKeys.set({ ...$apiKeys.get(), busy: false, problem: messageOf(error) });
    return false;
  }
}

/** Replaces the primary key, the old one working for the grace chosen; the session then shows the new key. */
export function rollKey(grace: GraceChoice): Promise<boolean> {
  return change(
    () => portal('user/api-keys/roll', { method: 'POST', body: { grace } }),
    grace === 'now'
      ? 'Your key was replaced. The old key no longer works.'
      : 'Your key was replaced. The old key keeps working until the time shown.',
    revalidateSession,
  );
}

/** Ends a key at once: a replaced key still in its grace, or an additional key. */
export function revokeKey(key: AccountKey): Promise<boolean> {
  return change(
    () => portal(`user/api-keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' }),
    `Key “${key.name}” no longer works.`,
  );
}

/** Renames a key. */
export function renameKey(key: AccountKey, name: string): Promise<boolean> {
  return change(
    () => portal(`user/api-keys/${encodeURIComponent(key.id)}`, { method: 'PATCH', body: { name } }),
    `Key renamed to “${name.trim()}”.`,
  );
}

/** Adds a named key with the name typed. */
export async function addKey(): Promise<boolean> {
  const name = $apiKeys.get().newName;
  const added = await change(
    () => portal('user/api-keys', { method: 'POST', body: { name } }),
    `Key “${name.trim()}” added.`,
  );
  if (added) $apiKeys.setKey('newName', '');
  return added;
}
