import { useSyncExternalStore } from 'react';

const subscribe = (): (() => void) => () => undefined;

/**
 * False while React hydrates the server HTML, true from the next render on. Islands hydrate one
 * by one, and an earlier one may already have restored the session or the theme: rendering the
 * server's view until hydration is over keeps the markup matching.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
