/**
 * The market pages' tables sort on the server: a header is a link to the page sorted by its column.
 * With the client router that link swaps the page in place, which would leave keyboard focus on the
 * document; this puts it back on the header that was pressed, so sorting again is one key away.
 */

/** The column whose header was followed, until the sorted page has loaded. */
let pressed: string | undefined;

/** Starts following sort links (once per document; the listeners outlive page swaps). */
export function keepSortFocus(): void {
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const link = target?.closest<HTMLAnchorElement>('a[data-sort-key]');
    pressed = link?.dataset.sortKey;
  });
  document.addEventListener('astro:page-load', () => {
    const key = pressed;
    pressed = undefined;
    if (key === undefined) return;
    document.querySelector<HTMLAnchorElement>(`a[data-sort-key="${CSS.escape(key)}"]`)?.focus();
  });
}
