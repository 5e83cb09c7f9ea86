import { startLayout } from '../stores/layout.ts';
import { exposeStores } from '../stores/handle.ts';
import { startSession } from '../stores/session.ts';
import { startIdleWatch, startRouteLoadingTracking } from '../stores/ui.ts';
import { captureUtms } from '../utms.ts';
import { captureReferral } from '../affiliates.ts';
import { startAccount } from './account.ts';
import { startAuthLinks } from './auth-links.ts';
import { startErrorReports } from './error-reports.ts';
import { startLinkUserBanner } from './link-user-banner.ts';
import { startMenus } from './menus.ts';
import { startMobileNav } from './mobile-nav.ts';
import { startOverlays } from './overlays.ts';
import { startThemeSwitch } from './theme-switch.ts';

/**
 * Starts what every page runs, without a framework: the session (restored from storage and checked
 * with the server on load and after every view transition), the layout, the theme, the header's
 * menus, hamburger panel, account parts and sign-in links, the Link User banner, the idle watch and route-loading tracking, the campaign
 * parameters, an affiliate's referral code (`?ref=`), the overlays on demand, and reports of the page's
 * uncaught errors to the error logger. Islands render the same stores when they hydrate. The
 * layout calls it once per visit (the client router keeps the module).
 */
export function startShell(): void {
  // First, so that a failure of anything below is reported too.
  startErrorReports();
  // Before the session: a switched session must never be renewed as the administrator's own.
  startLinkUserBanner();
  startSession();
  startLayout();
  startThemeSwitch();
  startMenus();
  startMobileNav();
  startAccount();
  startAuthLinks();
  startOverlays();
  startRouteLoadingTracking();
  startIdleWatch();
  exposeStores();
  captureUtms();
  captureReferral();
}
