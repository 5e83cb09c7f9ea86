import { $openMenu, closeMenus, toggleMenu, type HeaderMenuId } from '../stores/layout.ts';

/*
 * The header's disclosure menus (src/components/header/HeaderMenu.astro) on the layout store: one
 * open at a time; Escape, a click outside (the layout store), tabbing away or following a link
 * closes it; ArrowDown on a closed menu's button opens it at its first item, the arrows move
 * through an open one. Listeners sit on the document, so they serve whatever header is on the page.
 */

const ITEM_SELECTOR = 'a[href], button:not([disabled])';

function rootOf(id: HeaderMenuId): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-menu-root="${id}"]`);
}

function items(root: HTMLElement | null): HTMLElement[] {
  const panel = root?.querySelector<HTMLElement>('[data-menu-panel]');
  return panel
    ? [...panel.querySelectorAll<HTMLElement>(ITEM_SELECTOR)].filter((el) => !el.closest('[hidden]'))
    : [];
}

function render(open: HeaderMenuId | null): void {
  for (const root of document.querySelectorAll<HTMLElement>('[data-menu-root]')) {
    const isOpen = root.dataset.menuRoot === open;
    root.querySelector('[data-menu-button]')?.setAttribute('aria-expanded', String(isOpen));
    const panel = root.querySelector<HTMLElement>('[data-menu-panel]');
    if (panel) panel.hidden = !isOpen;
  }
}

function menuId(element: Element | null): HeaderMenuId | undefined {
  const id = element?.closest<HTMLElement>('[data-menu-root]')?.dataset.menuRoot;
  return id as HeaderMenuId | undefined;
}

let started = false;

/** Wires every header menu on the page to the layout store. Browser only; the first call acts. */
export function startMenus(): void {
  if (started) return;
  started = true;
  let focusFirst = false;
  $openMenu.subscribe((open) => {
    render(open);
    if (open !== null && focusFirst) items(rootOf(open))[0]?.focus();
    focusFirst = false;
  });

  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const button = target?.closest<HTMLElement>('[data-menu-button]');
    if (button) {
      toggleMenu(button.dataset.menuButton as HeaderMenuId);
      return;
    }
    if (target?.closest('[data-menu-panel] a')) closeMenus();
  });

  document.addEventListener('keydown', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const id = menuId(target);
    if (id === undefined) return;
    const open = $openMenu.get() === id;
    const root = rootOf(id);
    const button = root?.querySelector<HTMLElement>('[data-menu-button]');
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      closeMenus();
      button?.focus();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    if (target === button && !open) {
      event.preventDefault();
      focusFirst = true;
      toggleMenu(id);
      return;
    }
    const list = items(root);
    if (list.length === 0 || !open) return;
    event.preventDefault();
    const index = list.indexOf(document.activeElement as HTMLElement);
    const step = event.key === 'ArrowDown' ? 1 : -1;
    const next = index === -1 ? 0 : (index + step + list.length) % list.length;
    list[next]?.focus();
  });

  // Tabbing out of the open menu closes it; a click elsewhere is the layout store's.
  document.addEventListener('focusout', (event) => {
    const open = $openMenu.get();
    if (open === null) return;
    const root = rootOf(open);
    const next = event.relatedTarget;
    if (root?.contains(event.target as Node) === true && next instanceof Node && !root.contains(next)) {
      closeMenus();
    }
  });

  document.addEventListener('astro:after-swap', () => {
    render($openMenu.get());
  });
}
