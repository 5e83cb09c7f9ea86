import { useStore } from '@nanostores/react';
import { useEffect, useRef, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { AUTH_LINKS, SITE_NAME } from '../lib/routes.ts';
import { $auth, $hasAccount } from '../lib/stores/auth.ts';
import { $mobileMenuOpen, closeMobileMenu, openMobileMenu, startLayout } from '../lib/stores/layout.ts';
import { startSession } from '../lib/stores/session.ts';
import { $avatarLetter, $user } from '../lib/stores/user.ts';
import { AccountLinks } from './parts/AccountLinks.tsx';
import { DatasetLinks, DocumentationLinks, PricingLinks } from './NavMenus.tsx';
import { useHydrated } from './parts/use-hydrated.ts';

const PANEL_ID = 'mobile-menu';
const FOCUSABLE = 'a[href], button:not([disabled])';

/** The auth block again, laid out for the panel: the avatar menu's entries are listed openly. */
function MobileAuth(): ReactNode {
  const { init } = useStore($auth);
  const hasAccount = useStore($hasAccount);
  const { username } = useStore($user);
  const letter = useStore($avatarLetter);
  const hydrated = useHydrated();

  if (!init || !hydrated) {
    return (
      <div className="mobile-auth" aria-hidden="true">
        <span className="skeleton mobile-auth-skeleton" />
        <span className="skeleton mobile-auth-skeleton" />
      </div>
    );
  }
  if (!hasAccount) {
    return (
      <div className="mobile-auth">
        <a className="btn btn-secondary" href={AUTH_LINKS.signIn}>
          Sign In
        </a>
        <a className="btn btn-primary" href={AUTH_LINKS.signUp}>
          Sign Up
        </a>
      </div>
    );
  }
  return (
    <div className="mobile-account">
      <p className="mobile-account-who">
        <span className="avatar" aria-hidden="true">
          {letter}
        </span>
        <span>
          Signed in{username.trim() !== '' && ' as '}
          {username.trim() !== '' && <strong>{username}</strong>}
        </span>
      </p>
      <AccountLinks dashboard />
    </div>
  );
}

/**
 * The header under 860 px: a hamburger opening a full-height panel with every header link. The
 * page behind does not scroll (layout store); Escape or the close button return to the hamburger.
 */
export function MobileNav(): ReactNode {
  const open = useStore($mobileMenuOpen);
  const { legacy } = useStore($user);
  const hydrated = useHydrated();
  const hamburgerRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    startSession();
    startLayout();
  }, []);

  useEffect(() => {
    if (open) closeRef.current?.focus();
  }, [open]);

  const close = (): void => {
    closeMobileMenu();
    hamburgerRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
      return;
    }
    if (event.key !== 'Tab') return;
    // Keep keyboard focus inside the panel while it covers the page.
    const items = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items.at(-1);
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  const onPanelClick = (event: MouseEvent<HTMLDivElement>): void => {
    if (event.target instanceof Element && event.target.closest('a')) closeMobileMenu();
  };

  return (
    <>
      <button
        ref={hamburgerRef}
        type="button"
        className="icon-button hamburger"
        aria-expanded={hydrated && open}
        aria-controls={PANEL_ID}
        aria-label="Menu"
        onClick={openMobileMenu}
      >
        <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path
            d="M3.5 6.5h17M3.5 12h17M3.5 17.5h17"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </svg>
      </button>
      <div
        id={PANEL_ID}
        className="mobile-menu"
        hidden={!hydrated || !open}
        onKeyDown={onKeyDown}
        onClick={onPanelClick}
      >
        <div className="mobile-menu-bar">
          <a className="mobile-menu-home" href="/">
            {SITE_NAME}
          </a>
          <button
            ref={closeRef}
            type="button"
            className="icon-button"
            aria-label="Close navigation"
            onClick={close}
          >
            <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        <nav className="mobile-menu-body" aria-label="Main">
          <MobileAuth />
          <section className="mobile-menu-section" aria-labelledby="mobile-menu-datasets">
            <h2 className="mobile-menu-heading" id="mobile-menu-datasets">
              Datasets
            </h2>
            <DatasetLinks />
          </section>
          <section className="mobile-menu-section" aria-labelledby="mobile-menu-documentation">
            <h2 className="mobile-menu-heading" id="mobile-menu-documentation">
              Documentation
            </h2>
            <DocumentationLinks legacy={hydrated && legacy} />
          </section>
          <section className="mobile-menu-section" aria-labelledby="mobile-menu-pricing">
            <h2 className="mobile-menu-heading" id="mobile-menu-pricing">
              Pricing
            </h2>
            <PricingLinks />
          </section>
        </nav>
      </div>
    </>
  );
}
