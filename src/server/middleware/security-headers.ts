import type { MiddlewareHandler } from 'hono';
import { isHttpsRequest } from '../app/request.ts';

/** HSTS for a year (the minimum browsers' preload lists accept), subdomains included. */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * Cross-Origin-Opener-Policy. Not the stricter `same-origin`: with a real Firebase project the
 * Google sign-in opens Google's window on the project's auth domain (signInWithPopup in
 * src/lib/stores/social-sign-in.ts), and the SDK keeps a handle on that window to learn when it
 * closes. Under `same-origin` the cross-origin window would land in another browsing context group,
 * the handle would report it closed at once and every Google sign-in would fail as "closed by the
 * user". `same-origin-allow-popups` keeps that one relation (windows this page opens) and still cuts
 * the page off from any cross-origin window that opened it. (Against the local Auth emulator no
 * window opens, but the production setting is the one the tests must exercise.)
 */
export const OPENER_POLICY = 'same-origin-allow-popups';

/**
 * The Content-Security-Policy of answers that are not pages (the accounts API's JSON, downloads,
 * files): opened as a document, such an answer may load nothing and be framed nowhere. Pages get
 * theirs from src/server/app/content-security-policy.ts.
 */
export const NON_PAGE_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The headers every answer of the site carries, pages and accounts API alike (this is the one
 * list; each kind of answer adds its Content-Security-Policy): no MIME sniffing, no framing
 * (clickjacking; X-Frame-Options for browsers without CSP frame-ancestors), no full URLs leaked to
 * other sites, no opener access from other sites' windows, and HSTS once the client is on https
 * (over plain http it is meaningless and would break local development).
 */
export function securityHeaderList(https: boolean): (readonly [string, string])[] {
  const headers: (readonly [string, string])[] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['Cross-Origin-Opener-Policy', OPENER_POLICY],
    ['X-Frame-Options', 'DENY'],
  ];
  if (https) headers.push(['Strict-Transport-Security', HSTS_VALUE]);
  return headers;
}

/** The accounts API's headers: the site's list on every answer, errors included, and a policy that loads nothing. */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    for (const [name, value] of securityHeaderList(isHttpsRequest(c))) c.header(name, value);
    c.header('Content-Security-Policy', NON_PAGE_CONTENT_SECURITY_POLICY);
  };
}

/** Keeps answers that carry tokens or account data out of browser and proxy caches. */
export function noStore(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  };
}
