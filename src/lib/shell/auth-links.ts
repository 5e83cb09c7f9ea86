import { authOpensPopup } from '../routes.ts';
import { openAuthPopup } from '../stores/auth.ts';

/*
 * The Sign In and Sign Up links marked `data-auth-link` (the header's, the hamburger panel's, a
 * covered premium section's) on the auth pop-up: on the pages where leaving would lose the visitor's
 * place (`authOpensPopup`), a plain click opens the pop-up's sign-in or sign-up view instead of the
 * full page, and the visitor stays where they were, signed in afterwards. They stay real links to
 * /login and /register, so without script, with a modifier key or the middle button, or as "open
 * in new tab" they lead to the full pages, as they do on every other page.
 */

/** The pop-up view each kind of link opens (SPEC §2: 1 sign-in, 2 sign-up). */
const VIEWS: Readonly<Record<string, 1 | 2>> = { 'sign-in': 1, 'sign-up': 2 };

const SELECTOR = 'a[data-auth-link]';

/** A click the browser would answer by following the link in this tab: the main button, no modifier. */
function isPlainClick(
  event: Pick<MouseEvent, 'button' | 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey'>,
): boolean {
  return event.button === 0 && !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey;
}

/** Tells assistive technology which links open a dialog on this page. */
function markLinks(): void {
  const popup = authOpensPopup(location.pathname);
  for (const link of document.querySelectorAll<HTMLAnchorElement>(SELECTOR)) {
    if (popup) link.setAttribute('aria-haspopup', 'dialog');
    else link.removeAttribute('aria-haspopup');
  }
}

function onClick(event: MouseEvent): void {
  if (event.defaultPrevented || !isPlainClick(event) || !(event.target instanceof Element)) return;
  const link = event.target.closest<HTMLAnchorElement>(SELECTOR);
  const view = link === null ? undefined : VIEWS[link.dataset.authLink ?? ''];
  if (link === null || view === undefined || !authOpensPopup(location.pathname)) return;
  // Ahead of the client router, which would otherwise follow the link.
  event.preventDefault();
  // The hamburger panel closes on this click (mobile-nav.ts): focus waits on its button, so closing
  // the pop-up returns there rather than to a link that is no longer shown.
  if (link.closest('[data-mobile-panel]') !== null) {
    document.querySelector<HTMLElement>('[data-mobile-menu-open]')?.focus();
  }
  openAuthPopup(view);
}

let started = false;

/** Wires the sign-in and sign-up links to the auth pop-up. Browser only; the first call acts. */
export function startAuthLinks(): void {
  if (started) return;
  started = true;
  document.addEventListener('click', onClick, { capture: true });
  markLinks();
  // The header persists across navigations; whether its links open the pop-up depends on the page.
  document.addEventListener('astro:page-load', markLinks);
}
