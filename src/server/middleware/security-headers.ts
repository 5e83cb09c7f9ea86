import type { MiddlewareHandler } from 'hono';
import { isHttpsRequest } from '../app/request.ts';

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
