/*
 * Word that an account's keys changed (one revoked, replaced or ended early), from the accounts API
 * to the data API's key checker, so a key that stops working stops at once rather than when its
 * cached verdict runs out. Within one process (the embedded default runs the site and the data API
 * together, possibly from separate bundles) this is one listener set per process. Instances on their
 * own processes hear of it through Redis when REDIS_URL is set (key-events-relay.ts), and otherwise still
 * stop a key within the verdict cache's lifetime.
 */

type Listener = (userId: string) => void;

/** Where word of a change also goes beyond this process (Redis, see key-events-relay.ts), if anywhere. */
const RELAY = Symbol.for('market-data.account-key-relay');

/**
 * The listeners, kept on the process itself: the site's server code is bundled by the build while
 * the data API may run from another bundle in the same process, and both must share one set.
 */
const REGISTRY = Symbol.for('market-data.account-key-listeners');
const holder = globalThis as typeof globalThis & {
  [REGISTRY]?: Set<Listener> | undefined;
  [RELAY]?: Listener | undefined;
};
holder[REGISTRY] ??= new Set<Listener>();
const listeners: Set<Listener> = holder[REGISTRY];

/** Calls `listener` with the account's id whenever its keys change; returns the unsubscribe. */
export function onAccountKeysChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Tells this process's listeners, and no one else: for word that came from another process. */
export function notifyAccountKeysChanged(userId: string): void {
  for (const listener of listeners) listener(userId);
}

/**
 * Sends every later announcement to other processes too (undefined stops it): instances on their own
 * processes then stop a key at once instead of when their cached verdicts run out.
 */
export function relayAccountKeyChanges(relay: Listener | undefined): void {
  holder[RELAY] = relay;
}

/** Says that the account's keys changed; call it once the change is committed. */
export function announceAccountKeysChanged(userId: string): void {
  notifyAccountKeysChanged(userId);
  holder[RELAY]?.(userId);
}
