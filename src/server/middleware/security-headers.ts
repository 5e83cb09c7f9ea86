import type { Context, MiddlewareHandler } from 'hono';

/**
 * Whether forwarded headers (X-Forwarded-Proto, -Host, -For) are believed. Only a proxy in front of
 * the site can make them trustworthy, so they are ignored unless the operator sets TRUST_PROXY=1.
 */
export function trustsProxy(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.TRUST_PROXY?.trim().toLowerCase();
  return value === '1' || value === 'true';
}

/** The first value of a comma-separated forwarded header, as set by the proxy closest to the client. */
function firstForwarded(value: string | undefined): string | undefined {
  const first = value?.split(',')[0]?.trim();
  return first === undefined || first === '' ? undefined : first;
}

/** Whether the client reached us over https, directly or through a trusted TLS-terminating proxy. */
export function isHttpsRequest(c: Context): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustsProxy() && firstForwarded(c.req.header('x-forwarded-proto'))?.toLowerCase() === 'https';
}

/**
 * The origin the client addressed, so same-origin requests are recognised behind a trusted proxy
 * that terminates TLS or rewrites the host.
 */
export function requestOrigin(c: Context): string {
  const url = new URL(c.req.url);
  if (isHttpsRequest(c)) url.protocol = 'https:';
  const forwardedHost = trustsProxy() ? firstForwarded(c.req.header('x-forwarded-host')) : undefined;
  if (forwardedHost !== undefined) {
    try {
      return new URL(`${url.protocol}//${forwardedHost}`).origin;
    } catch {
      return url.origin;
    }
  }
  return url.origin;
}

export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * Headers every API answer carries, errors included: no MIME sniffing, no framing (clickjacking),
 * no full URLs leaked to other sites, and HSTS once the client is on https (sending it over plain
 * http is meaningless and would break local development).
 */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    c.header('Content-Security-Policy', "frame-ancestors 'none'");
    c.header('X-Frame-Options', 'DENY');
    if (isHttpsRequest(c)) c.header('Strict-Transport-Security', HSTS_VALUE);
  };
}

/** Keeps answers that carry tokens or account data out of browser and proxy caches. */
export function noStore(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  };
}
