import { $mobileMenuOpen, closeMobileMenu, openMobileMenu } from '../stores/layout.ts';

/*
 * The hamburger panel (src/components/header/MobileNav.astro) on the layout store: opening it puts
 * focus on its close button and keeps keyboard focus inside while it covers the page; Escape or the
 * close button return focus to the hamburger; following a link closes it.
 */

const FOCUSABLE = 'a[href], button:not([disabled])';

function panel(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[data-mobile-panel]');
}

function hamburger(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[data-mobile-menu-open]');
}

function render(open: boolean): void {
  hamburger()?.setAttribute('aria-expanded', String(open));
  const element = panel();
  if (element === null) return;
  element.hidden = !open;
  if (open) element.querySelector<HTMLElement>('[data-mobile-menu-close]')?.focus();
}

function closeToHamburger(): void {
  closeMobileMenu();
  hamburger()?.focus();
}

let started = false;

/** Wires the hamburger panel to the layout store. Browser only; the first call acts. */
export function startMobileNav(): void {
  if (started) return;
  started = true;
  $mobileMenuOpen.subscribe(render);

  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest('[data-mobile-menu-open]')) openMobileMenu();
    else if (target?.closest('[data-mobile-menu-close]')) closeToHamburger();
    else if (target?.closest('[data-mobile-panel] a')) closeMobileMenu();
  });

  document.addEventListener('keydown', (event) => {
    const element = panel();
    if (
      element === null ||
      element.hidden ||
      !(event.target instanceof Node) ||
      !element.contains(event.target)
    ) {
      return;
    }
    if (event.key === 'Escape') {
      event.stopPropagation();
      closeToHamburger();
      return;
    }
    if (event.key !== 'Tab') return;
    const items = [...element.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (item) => !item.closest('[hidden]'),
    );
    const first = items[0];
    const last = items.at(-1);
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  });
}
