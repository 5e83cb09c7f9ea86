import { atom } from 'nanostores';

/** SPEC §9: the app switches to its mobile layout at widths up to 1050 px. */
export const MOBILE_MAX_WIDTH = 1050;
/** SPEC §9: under 860 px the header collapses into a hamburger menu (mirrored in the CSS). */
export const MOBILE_HEADER_MIN_DESKTOP = 860;
/** SPEC §9 throttles: scroll fires many times a frame, resize a little less. */
export const SCROLL_THROTTLE_MS = 25;
export const RESIZE_THROTTLE_MS = 50;

/** The header's disclosure menus; one open at a time, so they live in one store. */
export type HeaderMenuId = 'datasets' | 'documentation' | 'pricing' | 'account';

/**
 * The app's mobile flag (widths up to 1050 px). Starts from the server's user-agent guess on
 * on-demand pages (`<html data-mobile>`), then follows the viewport.
 */
export const $isMobile = atom<boolean>(false);
export const $mobileMenuOpen = atom<boolean>(false);
/** Set once a desktop visitor has scrolled past the header, which then stays in view. */
export const $headerSticky = atom<boolean>(false);
export const $openMenu = atom<HeaderMenuId | null>(null);

/** Selector of the site header; the sticky state is reflected on it as `data-sticky`. */
export const HEADER_SELECTOR = '[data-site-header]';
/** Elements carrying this attribute become inert behind the open mobile menu. */
export const INERT_BEHIND_MENU_ATTR = 'data-inert-behind-menu';

export function toggleMenu(menu: HeaderMenuId): void {
  $openMenu.set($openMenu.get() === menu ? null : menu);
}

export function closeMenus(): void {
  $openMenu.set(null);
}

export function openMobileMenu(): void {
  closeMenus();
  $mobileMenuOpen.set(true);
}

export function closeMobileMenu(): void {
  $mobileMenuOpen.set(false);
}

/** Leading and trailing calls, so the final position after a burst is never missed. */
function throttle(fn: () => void, ms: number): () => void {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    const wait = ms - (Date.now() - last);
    if (wait <= 0) {
      clearTimeout(timer);
      timer = undefined;
      last = Date.now();
      fn();
    } else {
      timer ??= setTimeout(() => {
        timer = undefined;
        last = Date.now();
        fn();
      }, wait);
    }
  };
}

function header(): HTMLElement | null {
  return document.querySelector<HTMLElement>(HEADER_SELECTOR);
}

function measureMobile(): boolean {
  return window.matchMedia(`(max-width: ${MOBILE_MAX_WIDTH}px)`).matches;
}

function updateSticky(): void {
  const el = header();
  $headerSticky.set(el !== null && !$isMobile.get() && window.scrollY > el.offsetHeight);
}

function applySticky(sticky: boolean): void {
  header()?.setAttribute('data-sticky', String(sticky));
}

function applyMobile(mobile: boolean): void {
  document.documentElement.setAttribute('data-mobile', String(mobile));
}

function applyMenuOpen(open: boolean): void {
  if (open) document.body.setAttribute('data-mobile-menu', 'open');
  else document.body.removeAttribute('data-mobile-menu');
  for (const el of document.querySelectorAll<HTMLElement>(`[${INERT_BEHIND_MENU_ATTR}]`)) el.inert = open;
}

let started = false;

/**
 * Wires the shell to the window: viewport flag, sticky header, menu dismissal and the scroll lock
 * behind the mobile menu. Called by the header islands on mount; only the first call acts.
 */
export function startLayout(): void {
  if (started || typeof window === 'undefined') return;
  started = true;

  $isMobile.set(measureMobile());
  $isMobile.subscribe((mobile) => {
    applyMobile(mobile);
    updateSticky();
  });
  $headerSticky.subscribe(applySticky);
  $mobileMenuOpen.subscribe(applyMenuOpen);

  window.addEventListener(
    'resize',
    throttle(() => {
      $isMobile.set(measureMobile());
      if (window.innerWidth >= MOBILE_HEADER_MIN_DESKTOP) closeMobileMenu();
    }, RESIZE_THROTTLE_MS),
    { passive: true },
  );
  window.addEventListener('scroll', throttle(updateSticky, SCROLL_THROTTLE_MS), { passive: true });

  // A click anywhere outside the open menu's root dismisses it.
  document.addEventListener('pointerdown', (event) => {
    const open = $openMenu.get();
    if (open === null || !(event.target instanceof Element)) return;
    if (!event.target.closest(`[data-menu-root="${open}"]`)) closeMenus();
  });

  // Navigation swaps the body and the root attributes: close what was open, re-apply the rest.
  document.addEventListener('astro:after-swap', () => {
    closeMenus();
    closeMobileMenu();
    applyMobile($isMobile.get());
    applyMenuOpen(false);
    updateSticky();
    applySticky($headerSticky.get());
  });
}
