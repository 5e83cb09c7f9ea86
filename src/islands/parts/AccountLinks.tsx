import { useStore } from '@nanostores/react';
import type { ReactNode } from 'react';
import { AUTH_LINKS } from '../../lib/routes.ts';
import { logout } from '../../lib/stores/session.ts';
import { $roles } from '../../lib/stores/user.ts';

interface AccountLinksProps {
  /** Whether Dashboard leads the list (the header shows it beside the avatar instead). */
  dashboard?: boolean;
  /** What Logout does; by default it signs out. */
  onLogout?: () => void;
}

function signOut(): void {
  void logout();
}

/**
 * The signed-in account's entries, shared by the header's avatar menu and the mobile panel:
 * Dashboard when asked for, Admin and Link User for admins, then Logout.
 */
export function AccountLinks({ dashboard = false, onLogout = signOut }: AccountLinksProps): ReactNode {
  const { isAdmin } = useStore($roles);
  return (
    <ul className="menu-list" role="list">
      {dashboard && (
        <li>
          <a className="menu-link" href={AUTH_LINKS.dashboard}>
            Dashboard
          </a>
        </li>
      )}
      {isAdmin && (
        <>
          <li>
            <a className="menu-link" href={AUTH_LINKS.admin}>
              Admin
            </a>
          </li>
          <li>
            <a className="menu-link" href={AUTH_LINKS.linkUser}>
              Link User
            </a>
          </li>
        </>
      )}
      <li>
        <button
          type="button"
          className="menu-link"
          onClick={() => {
            onLogout();
          }}
        >
          Logout
        </button>
      </li>
    </ul>
  );
}
