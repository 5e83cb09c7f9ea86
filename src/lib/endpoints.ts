/**
 * Base URLs of the services the browser talks to (SPEC §7). Empty portal and app-server bases mean
 * this site's own accounts API, so a single deployment works without configuration.
 */

function trimSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

/** A build setting, where an empty value (a variable set to nothing) means the default. */
function setting(value: string | undefined, fallback: string): string {
  return value === undefined || value.trim() === '' ? fallback : value;
}

/** Portal calls (auth/validate-email, account/submit-survey, …). */
export const PORTAL_URL = trimSlash(setting(import.meta.env.PUBLIC_PORTAL_URL, '/api/portal'));

/** App-server calls (auth/signin, auth/refresh, …). */
export const APP_SERVER_URL = trimSlash(setting(import.meta.env.PUBLIC_APP_SERVER_URL, '/api/app'));

/**
 * The admin console's calls (/api/admin): they sit beside the portal's on the accounts API, so a portal
 * moved to another address takes them along.
 */
export const ADMIN_API_URL = PORTAL_URL.endsWith('/portal')
  ? `${PORTAL_URL.slice(0, -'/portal'.length)}/admin`
  : '/api/admin';

/**
 * Carries the public token on every call of the browser, also when signed in, so the server can tell
 * the site's own pages apart and serve a signed-in visitor whose key cannot be used the free sample.
 */
export const PUBLIC_AUTH_HEADER = 'X-Public-Auth';

/** The market data API (/stable/*), shown in examples and used by the API viewer. */
export const DATA_API_URL = trimSlash(setting(import.meta.env.PUBLIC_DATA_API_URL, 'http://localhost:4322'));

/** The Firebase web configuration; the demo project works only against the Auth emulator. */
export const FIREBASE_WEB_CONFIG = {
  apiKey: setting(import.meta.env.PUBLIC_FIREBASE_API_KEY, 'demo-api-key'),
  authDomain: setting(import.meta.env.PUBLIC_FIREBASE_AUTH_DOMAIN, 'demo-marketdata.firebaseapp.com'),
  projectId: setting(import.meta.env.PUBLIC_FIREBASE_PROJECT_ID, 'demo-marketdata'),
} as const;

/** Where the browser SDK finds the Auth emulator; undefined for a real Firebase project. */
export const FIREBASE_AUTH_EMULATOR_URL: string | undefined = FIREBASE_WEB_CONFIG.projectId.startsWith(
  'demo-',
)
  ? setting(import.meta.env.PUBLIC_FIREBASE_AUTH_EMULATOR_URL, 'http://127.0.0.1:9099')
  : import.meta.env.PUBLIC_FIREBASE_AUTH_EMULATOR_URL;
