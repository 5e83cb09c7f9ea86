import { $auth, $hasAccount } from '../stores/auth.ts';
import { closeMenus } from '../stores/layout.ts';
import { logout } from '../stores/session.ts';
import { $avatarLetter, $roles, $user } from '../stores/user.ts';

/*
 * The header's signed-in parts (src/components/header/HeaderAuth.astro and the mobile panel) on the
 * session and user stores: `<html data-auth>` shows the signed-in or signed-out block (the
 * first-paint script set it from the stored session; this keeps it true once the session is known),
 * the avatar letter and the username are filled in, Admin shows for staff (admins and analysts) and Link User
 * for admins, and the
 * legacy documentation items for legacy users (and what stands in for them, `[data-non-legacy-only]`,
 * for everyone else), and Logout signs out.
 */

/** The avatar's accessible name; tests and screen readers find the account menu by its start. */
export function accountMenuLabel(username: string): string {
  const name = username.trim();
  return name ? `Account menu for ${name}` : 'Account menu';
}

function setAll(selector: string, apply: (element: HTMLElement) => void): void {
  for (const element of document.querySelectorAll<HTMLElement>(selector)) apply(element);
}

function render(): void {
  if ($auth.get().init) document.documentElement.dataset.auth = $hasAccount.get() ? 'in' : 'out';
  const user = $user.get();
  const name = user.username.trim();
  const letter = $avatarLetter.get();
  const { isAdmin, isPrivileged } = $roles.get();
  setAll('[data-avatar-letter]', (element) => {
    element.textContent = letter;
  });
  setAll('[data-username]', (element) => {
    element.textContent = name;
  });
  setAll('[data-username-caption]', (element) => {
    element.hidden = name === '';
  });
  setAll('[data-menu-button="account"]', (element) => {
    element.setAttribute('aria-label', accountMenuLabel(name));
  });
  setAll('[data-admin-only]', (element) => {
    element.hidden = !isAdmin;
  });
  setAll('[data-staff-only]', (element) => {
    element.hidden = !isPrivileged;
  });
  setAll('[data-legacy-only]', (element) => {
    element.hidden = !user.legacy;
  });
  setAll('[data-non-legacy-only]', (element) => {
    element.hidden = user.legacy;
  });
}

let started = false;

/** Keeps the header's account parts in step with the session. Browser only; the first call acts. */
export function startAccount(): void {
  if (started) return;
  started = true;
  $auth.subscribe(render);
  $user.subscribe(render);
  document.addEventListener('click', (event) => {
    if (!(event.target instanceof Element) || !event.target.closest('[data-logout]')) return;
    // The menu closes first so it does not reopen with the next session.
    closeMenus();
    void logout();
  });
  // A navigation replaces the attributes of <html>; the session decides, not the stored copy.
  document.addEventListener('astro:after-swap', render);
}
