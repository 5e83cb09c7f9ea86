import { useStore } from '@nanostores/react';
import { useEffect, type ReactNode } from 'react';
import { AUTH_LINKS } from '../lib/routes.ts';
import { $auth, $hasAccount } from '../lib/stores/auth.ts';
import { closeMenus, startLayout } from '../lib/stores/layout.ts';
import { logout as endSession, startSession } from '../lib/stores/session.ts';
import { $avatarLetter, $user } from '../lib/stores/user.ts';
import { AccountLinks } from './parts/AccountLinks.tsx';
import { HeaderMenu } from './parts/HeaderMenu.tsx';
import { useHydrated } from './parts/use-hydrated.ts';

/** The avatar's accessible name; tests and screen readers find the account menu by its start. */
export function accountMenuLabel(username: string): string {
  const name = username.trim();
  return name ? `Account menu for ${name}` : 'Account menu';
}

/** Signs out; the menu closes first so it does not reopen with the next session. */
function logout(): void {
  closeMenus();
  void endSession();
}

/**
 * The header's auth block: a same-sized skeleton until the session is known (no layout shift),
 * then Sign In / Sign Up, or Dashboard and the avatar menu (SPEC §2, auth block).
 */
export function HeaderAuth(): ReactNode {
  const { init } = useStore($auth);
  const hasAccount = useStore($hasAccount);
  const { username } = useStore($user);
  const letter = useStore($avatarLetter);
  const hydrated = useHydrated();

  useEffect(() => {
    startSession();
    startLayout();
  }, []);

  if (!init || !hydrated) {
    return (
      <div className="header-auth" data-state="loading" aria-hidden="true">
        <span className="skeleton header-auth-skeleton-link" />
        <span className="skeleton header-auth-skeleton-button" />
      </div>
    );
  }

  if (!hasAccount) {
    return (
      <div className="header-auth" data-state="signed-out">
        <a className="header-link" href={AUTH_LINKS.signIn}>
          Sign In
        </a>
        <a className="btn btn-primary btn-sm" href={AUTH_LINKS.signUp}>
          Sign Up
        </a>
      </div>
    );
  }

  return (
    <div className="header-auth" data-state="signed-in">
      <a className="header-link" href={AUTH_LINKS.dashboard}>
        Dashboard
      </a>
      <HeaderMenu
        id="account"
        align="end"
        buttonClassName="avatar-button"
        ariaLabel={accountMenuLabel(username)}
        label={
          <span className="avatar" aria-hidden="true">
            {letter}
          </span>
        }
      >
        {username.trim() !== '' && (
          <p className="menu-caption">
            Signed in as <strong>{username}</strong>
          </p>
        )}
        <AccountLinks onLogout={logout} />
      </HeaderMenu>
    </div>
  );
}
