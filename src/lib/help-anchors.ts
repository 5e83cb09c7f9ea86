/*
 * What the FAQs and the help center do in the browser, without a framework: an address ending in
 * `#<anchor>` opens that question or article and brings it into view (on load, after a client-side
 * page change and when the hash changes), and "Link to this answer" also copies the address.
 */

const ENTRY = '[data-help-entry]';

/** The question or article the address points at, if it points at one. */
function targetEntry(hash: string): HTMLDetailsElement | null {
  if (hash.length < 2) return null;
  let id: string;
  try {
    id = decodeURIComponent(hash.slice(1));
  } catch {
    return null;
  }
  const element = document.getElementById(id);
  return element instanceof HTMLDetailsElement && element.matches(ENTRY) ? element : null;
}

/** Opens the entry the address names and scrolls it to the top of the view. */
export function openFromHash(hash: string = location.hash): boolean {
  const entry = targetEntry(hash);
  if (entry === null) return false;
  entry.open = true;
  entry.scrollIntoView({ block: 'start' });
  return true;
}

function announce(text: string): void {
  const status = document.querySelector('[data-help-link-status]');
  if (status instanceof HTMLElement) status.textContent = text;
}

async function copyLink(link: HTMLAnchorElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(link.href);
    announce('Link copied to the clipboard.');
  } catch {
    // The address bar shows the link anyway; nothing else to do when copying is refused.
    announce('');
  }
}

let started = false;

/** Wires the anchors once per page load of the site (the client router keeps this module alive). */
export function startHelpAnchors(): void {
  if (started) return;
  started = true;
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const link = target?.closest<HTMLAnchorElement>('a[data-help-permalink]');
    if (link) void copyLink(link);
  });
  window.addEventListener('hashchange', () => {
    openFromHash();
  });
  document.addEventListener('astro:page-load', () => {
    openFromHash();
  });
  // Module scripts run once the document is parsed, so the first page's entries are already there.
  openFromHash();
}
