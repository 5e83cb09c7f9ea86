import Cookies from 'js-cookie';

/**
 * Browser cookies with the product's defaults (SPEC §9: one day, whole site), so every caller
 * writes and removes cookies the same way and a removal always finds the cookie it targets.
 */

export type CookieOptions = Cookies.CookieAttributes;

/** Cookie helper default lifetime, in days as js-cookie counts `expires`. */
export const DEFAULT_COOKIE_EXPIRES_DAYS = 1;
export const DEFAULT_COOKIE_PATH = '/';

/** Set for five minutes after sign-up so the sign-in form knows the account is brand new. */
export const NEW_REGISTRATION_COOKIE = 'new_registration';
export const NEW_REGISTRATION_LIFETIME_SECONDS = 300;
/** The same lifetime as js-cookie's `expires`, which counts days. */
export const NEW_REGISTRATION_EXPIRES_DAYS = NEW_REGISTRATION_LIFETIME_SECONDS / (24 * 60 * 60);

function currentProtocol(): string | undefined {
  return typeof location === 'undefined' ? undefined : location.protocol;
}

/**
 * The attributes a cookie is written with: the caller's options over the defaults. Secure is on
 * only for pages served over https, because browsers drop Secure cookies on plain http (local
 * development). Pure, so the defaults can be checked without a browser.
 */
export function cookieAttributes(
  options: CookieOptions = {},
  protocol: string | undefined = currentProtocol(),
): CookieOptions {
  return {
    expires: DEFAULT_COOKIE_EXPIRES_DAYS,
    path: DEFAULT_COOKIE_PATH,
    sameSite: 'Lax',
    secure: protocol?.replace(/:$/, '').toLowerCase() === 'https',
    ...options,
  };
}

/** Writes a cookie; does nothing during the server render, where there is no document. */
export function setCookie(name: string, value: string, options?: CookieOptions): void {
  Cookies.set(name, value, cookieAttributes(options));
}

export function getCookie(name: string): string | undefined {
  return Cookies.get(name);
}

/** Removes a cookie written by {@link setCookie}; a cookie is only removed on the path it was set on. */
export function removeCookie(name: string, options?: CookieOptions): void {
  Cookies.remove(name, cookieAttributes(options));
}
