/**
 * On a phone a symbol page's tab bar scrolls sideways; the current tab (DCF, say, at the far end) is
 * brought into view, centred, so the visitor sees where they are. Only the bar scrolls, never the
 * page. Runs on every page load, the client router's included.
 */
export function revealCurrentTab(root: ParentNode = document): void {
  const bar = root.querySelector<HTMLElement>('[data-symbol-tabs]');
  const link = bar?.querySelector('[aria-current="page"]');
  if (!bar || !link) return;
  const barBox = bar.getBoundingClientRect();
  const box = link.getBoundingClientRect();
  if (box.left >= barBox.left && box.right <= barBox.right) return;
  bar.scrollLeft += box.left - barBox.left - (barBox.width - box.width) / 2;
}
