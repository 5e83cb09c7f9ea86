import { api } from '../http.ts';
import * as auth from './auth.ts';
import * as session from './session.ts';
import * as snackbar from './snackbar.ts';
import * as ui from './ui.ts';
import * as user from './user.ts';

/** What `window.appStores` offers: the app-state stores, their actions, and the accounts API client. */
export const appStores = { ...auth, ...user, ...session, ...snackbar, ...ui, api };

declare global {
  interface Window {
    appStores?: typeof appStores;
  }
}

/**
 * Puts the stores and their actions on `window.appStores`, so the UI state can be inspected and
 * driven from the browser console (support, debugging) and by the end-to-end tests, which check
 * the shell's reactions to states that other flows produce.
 */
export function exposeStores(): void {
  if (typeof window !== 'undefined') window.appStores = appStores;
}
