import { useStore } from '@nanostores/react';
import {
  useEffect,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type FocusEvent,
  type ReactNode,
} from 'react';
import { $openMenu, closeMenus, toggleMenu, type HeaderMenuId } from '../../lib/stores/layout.ts';
import { useHydrated } from './use-hydrated.ts';

interface HeaderMenuProps {
  id: HeaderMenuId;
  /** Visible content of the button. */
  label: ReactNode;
  /** Accessible name when the visible label is not text (the avatar). */
  ariaLabel?: string;
  buttonClassName?: string;
  panelClassName?: string;
  /** Which edge of the button the panel lines up with. */
  align?: 'start' | 'end';
  children: ReactNode;
}

const ITEM_SELECTOR = 'a[href], button:not([disabled])';

function items(panel: HTMLElement | null): HTMLElement[] {
  return panel ? [...panel.querySelectorAll<HTMLElement>(ITEM_SELECTOR)] : [];
}

/**
 * A disclosure button and its panel of links. The header's menus share one store, so opening one
 * closes the others; Escape, a click outside, tabbing away or following a link closes it.
 */
export function HeaderMenu({
  id,
  label,
  ariaLabel,
  buttonClassName = 'nav-button',
  panelClassName = '',
  align = 'start',
  children,
}: HeaderMenuProps): ReactNode {
  const openMenu = useStore($openMenu);
  const open = useHydrated() && openMenu === id;
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const focusFirst = useRef(false);
  const panelId = `header-menu-${id}`;

  useEffect(() => {
    if (open && focusFirst.current) items(panelRef.current)[0]?.focus();
    focusFirst.current = false;
  }, [open]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      closeMenus();
      buttonRef.current?.focus();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    if (event.target === buttonRef.current && !open) {
      event.preventDefault();
      focusFirst.current = true;
      toggleMenu(id);
      return;
    }
    const list = items(panelRef.current);
    if (list.length === 0 || !open) return;
    event.preventDefault();
    const index = list.indexOf(document.activeElement as HTMLElement);
    const step = event.key === 'ArrowDown' ? 1 : -1;
    const next = index === -1 ? 0 : (index + step + list.length) % list.length;
    list[next]?.focus();
  };

  const onBlur = (event: FocusEvent<HTMLDivElement>): void => {
    const next = event.relatedTarget;
    if (open && next instanceof Node && !event.currentTarget.contains(next)) closeMenus();
  };

  const onPanelClick = (event: MouseEvent<HTMLDivElement>): void => {
    if (event.target instanceof Element && event.target.closest('a')) closeMenus();
  };

  return (
    <div className="menu" data-menu-root={id} onKeyDown={onKeyDown} onBlur={onBlur}>
      <button
        ref={buttonRef}
        type="button"
        className={buttonClassName}
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={ariaLabel}
        onClick={() => {
          toggleMenu(id);
        }}
      >
        {label}
      </button>
      <div
        ref={panelRef}
        id={panelId}
        className={`menu-panel menu-panel-${align} ${panelClassName}`.trim()}
        hidden={!open}
        onClick={onPanelClick}
      >
        {children}
      </div>
    </div>
  );
}

/** The small chevron after a menu's name; turns when the menu opens (CSS). */
export function Chevron(): ReactNode {
  return (
    <svg className="chevron" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
      <path
        d="M2.5 4.5 6 8l3.5-3.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
