/**
 * Where this process is in its life, for readiness probes: a load balancer sends traffic only to an
 * instance that says it is ready, so an instance says it is not while it starts (before its warm-up is
 * done) and from the moment it is asked to stop (while requests in flight finish), and the balancer has
 * stopped sending to it before it closes its port. Processes that never start a server (tests calling
 * the apps directly) are serving from the start.
 */
export type ServingState = 'starting' | 'serving' | 'draining';

let state: ServingState = 'serving';

/** This process's state. */
export function servingState(): ServingState {
  return state;
}

/** Marks the process as starting (not ready), serving (ready) or draining (not ready, stopping). */
export function setServingState(next: ServingState): void {
  // A draining process never becomes ready again: it is on its way out.
  if (state === 'draining' && next !== 'draining') return;
  state = next;
}

/** Back to a fresh process's state; for tests that start and stop servers in one process. */
export function resetServingState(): void {
  state = 'serving';
}

/** Why the process is not ready, or undefined when it serves. */
export function notReadyReason(): string | undefined {
  if (state === 'starting') return 'starting: this instance is not ready for traffic yet';
  if (state === 'draining') return 'draining: this instance is stopping and takes no new traffic';
  return undefined;
}
