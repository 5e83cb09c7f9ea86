import { notifySite } from './http.ts';

/**
 * The most-searched page's counts: when a visitor opens a symbol from the symbol search's results
 * (a click, a middle click or Enter on the link), the site is told which symbol the search led to
 * (POST /api/search/picks). Only results lists marked `data-search-results` count, and nothing is
 * sent about the visitor: the server keeps a count per symbol and day.
 */

/** Where a pick is reported; the accounts API's `routes/symbol-searches.ts`. */
export const SEARCH_PICKS_URL = '/api/search/picks';

function reportPick(event: MouseEvent): void {
  // A right click opens a menu, not the result; a middle click opens it in a new tab.
  if (event.button !== 0 && event.button !== 1) return;
  const target = event.target instanceof Element ? event.target : null;
  const link = target?.closest<HTMLAnchorElement>('[data-search-results] a[data-symbol]');
  const symbol = link?.dataset.symbol;
  if (symbol !== undefined && symbol !== '') notifySite(SEARCH_PICKS_URL, { symbol });
}

/** Starts counting picks (once per document; the listeners outlive the client router's page swaps). */
export function countSearchPicks(): void {
  document.addEventListener('click', reportPick);
  document.addEventListener('auxclick', reportPick);
}
