/**
 * Islands that hydrate when the page asks for them (`client:demand="name"`), not on load: the
 * overlays, say, load their framework only once a dialog or a message has to show. Shared by the
 * directive (bundled on its own into every page) and the code that raises a demand.
 */

/** The window event that says an island is wanted; its detail is the island's demand name. */
export const DEMAND_EVENT = 'astro:demand';

declare global {
  interface Window {
    /** Demands raised so far, for islands that hydrate later (after a client-side navigation). */
    astroDemands?: Set<string>;
  }
}

/** Hydrates the islands marked `client:demand={name}`, now or as soon as they are on the page. */
export function raiseDemand(name: string): void {
  const raised = (window.astroDemands ??= new Set());
  if (raised.has(name)) return;
  raised.add(name);
  window.dispatchEvent(new CustomEvent(DEMAND_EVENT, { detail: name }));
}
