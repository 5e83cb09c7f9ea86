import { raiseDemand } from '../shell/demand.ts';

/*
 * "Run it" on the quickstart hydrates only when it is pressed (`client:demand`), so the page loads
 * no framework for readers who never press it. The docs script notices the press on the
 * server-rendered button and asks for the island; the island, once hydrated, takes the press over
 * and sends the request, so the reader's first press is not lost.
 */

/** The demand that hydrates the "Run it" island. */
export const RUN_IT_DEMAND = 'run-it';

let requested = false;

/** Records a press made before the island was hydrated, and asks for the island. */
export function requestRun(): void {
  requested = true;
  raiseDemand(RUN_IT_DEMAND);
}

/** Whether a press waits to be acted on; answers true once per press. */
export function takeRequestedRun(): boolean {
  const was = requested;
  requested = false;
  return was;
}
