import type { Context, MiddlewareHandler } from 'hono';
import { apiError } from '../app/errors.ts';
import { normalizeOrigin, siteOrigins } from '../app/config.ts';
import { requestOrigin } from '../app/request.ts';

export const CROSS_SITE_MESSAGE = 'Cross-site request refused.';
const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** Headers a page on an allowed origin may read from API answers (rate-limit state and retry hints). */
const EXPOSED_HEADERS = 'RateLimit, RateLimit-Policy, Retry-After';
const PREFLIGHT_MAX_AGE_SECONDS = '600';
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;

function allowlist(allowedOrigins: readonly string[]): Set<string> {
  const origins = allowedOrigins.map((origin) => {
    if (origin.trim() === '*')
      throw new Error('CORS with credentials cannot allow "*"; list the origins instead');
    return normalizeOrigin(origin, 'allowed origins');
  });
  return new Set(origins);
}

/** The requested headers if every name is a valid header token; otherwise nothing is granted. */
function requestedHeaders(c: Context): string | undefined {
  const requested = c.req.header('access-control-request-headers');
  if (requested === undefined || requested.trim() === '') return undefined;
  const names = requested.split(',').map((name) => name.trim());
  return names.every((name) => HEADER_NAME.test(name)) ? names.join(', ') : undefined;
}

/**
 * CORS for the site's own origins only, with credentials: an allowed origin is echoed (never `*`),
 * preflights are answered here without reaching the handlers, and a preflight from any other
 * origin is refused with 403 so a developer sees why at once.
 */
export function siteCors(allowedOrigins: readonly string[] = siteOrigins()): MiddlewareHandler {
  const allowed = allowlist(allowedOrigins);
  return async (c, next): Promise<Response | undefined> => {
    const origin = c.req.header('origin');
    const permitted = origin !== undefined && allowed.has(origin);
    const preflight =
      c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined;
    if (preflight) {
      c.header('Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
      if (!permitted) return apiError(c, 403, CROSS_SITE_MESSAGE);
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Access-Control-Allow-Credentials', 'true');
      c.header('Access-Control-Allow-Methods', ALLOWED_METHODS);
      const headers = requestedHeaders(c);
      if (headers !== undefined) c.header('Access-Control-Allow-Headers', headers);
      c.header('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
      return c.body(null, 204);
    }
    await next();
    c.header('Vary', 'Origin', { append: true });
    if (permitted) {
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Access-Control-Allow-Credentials', 'true');
      c.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    return undefined;
  };
}

/** The origin that sent a request: Origin, or lacking it the origin of Referer; undefined if neither says. */
function sourceOrigin(c: Context): string | undefined {
  const origin = c.req.header('origin');
  if (origin !== undefined) return origin;
  const referer = c.req.header('referer');
  if (referer === undefined) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * Cross-site request forgery defence for cookie sessions: a state-changing request that carries
 * cookies must come from this origin or an allowed one (Origin, else Referer), or it is refused
 * with 403. Requests without cookies carry no ambient authority and pass.
 */
export function originCheck(allowedOrigins: readonly string[] = siteOrigins()): MiddlewareHandler {
  const allowed = allowlist(allowedOrigins);
  return async (c, next) => {
    if (!STATE_CHANGING_METHODS.has(c.req.method)) return next();
    if (!hasCookies(c)) return next();
    const source = sourceOrigin(c);
    const trusted = source !== undefined && (allowed.has(source) || source === requestOrigin(c));
    if (!trusted) return apiError(c, 403, CROSS_SITE_MESSAGE);
    await next();
  };
}

function hasCookies(c: Context): boolean {
  const cookie = c.req.header('cookie');
  return cookie !== undefined && cookie.trim() !== '';
}

/**
 * For the few GET calls that change state with the cookie (logout, kept as GET by the SPEC): the
 * refresh cookie is SameSite=Lax, so a link on another site would carry it. Such a request is
 * refused when the browser says it came from another site (Sec-Fetch-Site) or names a foreign
 * Origin or Referer; same-origin pages and clients that send no such headers pass.
 */
export function sameSiteOnly(allowedOrigins: readonly string[] = siteOrigins()): MiddlewareHandler {
  const allowed = allowlist(allowedOrigins);
  return async (c, next) => {
    if (!hasCookies(c)) return next();
    const source = sourceOrigin(c);
    const foreignSource = source !== undefined && !allowed.has(source) && source !== requestOrigin(c);
    const fetchSite = c.req.header('sec-fetch-site')?.toLowerCase();
    const crossSite = fetchSite === 'cross-site' && (source === undefined || foreignSource);
    if (foreignSource || crossSite) return apiError(c, 403, CROSS_SITE_MESSAGE);
    await next();
  };
}
