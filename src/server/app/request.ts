import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { trustsProxy } from './config.ts';

// What a request says about its client: address, scheme, origin and bearer credential, read the same
// way by every middleware and route (forwarded headers only behind a trusted proxy).

/** Where Astro's node adapter records the socket address on the Request it builds. */
const ASTRO_CLIENT_ADDRESS = Symbol.for('astro.clientAddress');
/** Where Astro hands its render options (the dev server's socket address among them) to src/fetch.ts. */
const ASTRO_RENDER_OPTIONS = Symbol.for('astro.renderOptions');

function cleanAddress(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const address = value.trim().replace(/^\[(.*)\]$/, '$1');
  const unmapped = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  return isIP(unmapped) === 0 ? undefined : unmapped;
}

function socketAddress(c: Context): string | undefined {
  const fromAstro = cleanAddress(Reflect.get(c.req.raw, ASTRO_CLIENT_ADDRESS));
  if (fromAstro !== undefined) return fromAstro;
  const options: unknown = Reflect.get(c.req.raw, ASTRO_RENDER_OPTIONS);
  const fromDevServer =
    typeof options === 'object' && options !== null
      ? cleanAddress((options as { clientAddress?: unknown }).clientAddress)
      : undefined;
  if (fromDevServer !== undefined) return fromDevServer;
  try {
    return cleanAddress(getConnInfo(c).remote.address);
  } catch {
    // No Node socket: app.request() in tests, or another runtime.
    return undefined;
  }
}

/**
 * The client's IP address: the socket's peer, or with TRUST_PROXY=1 the address our proxy appended
 * to X-Forwarded-For (the last entry: earlier ones are whatever the client chose to send).
 * 'unknown' when neither is available, so such requests still share one budget.
 */
export function clientIp(c: Context): string {
  if (trustsProxy()) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1);
    const address = cleanAddress(forwarded);
    if (address !== undefined) return address;
  }
  return socketAddress(c) ?? 'unknown';
}

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip'] as const;

/**
 * Whether the request came straight from this machine: its socket's peer is a loopback address and
 * no proxy says it relayed it (Astro takes a forwarded client address for the socket's). Only a
 * local command's calls are meant to pass; a local reverse proxy's pass too, which is why such
 * routes also ask for proof that the caller can read the server secret.
 */
export function isDirectLoopbackRequest(c: Context): boolean {
  if (FORWARDING_HEADERS.some((name) => c.req.header(name) !== undefined)) return false;
  const address = socketAddress(c);
  if (address === undefined) return false;
  return address === '::1' || (isIP(address) === 4 && address.startsWith('127.'));
}

/** The first value of a comma-separated forwarded header, as set by the proxy closest to the client. */
function firstForwarded(value: string | undefined): string | undefined {
  const first = value?.split(',')[0]?.trim();
  return first === undefined || first === '' ? undefined : first;
}

/**
 * Whether a request came over https, given the scheme it reached this server with (`https:` or
 * `http:`) and its X-Forwarded-Proto header, which only a trusted TLS-terminating proxy may speak
 * for. The one rule for the accounts API's Hono context and the site server's Node requests alike.
 */
export function arrivedOverHttps(protocol: string, forwardedProto: string | undefined): boolean {
  if (protocol === 'https:') return true;
  return trustsProxy() && firstForwarded(forwardedProto)?.toLowerCase() === 'https';
}

/** Whether the client reached us over https, directly or through a trusted TLS-terminating proxy. */
export function isHttpsRequest(c: Context): boolean {
  return arrivedOverHttps(new URL(c.req.url).protocol, c.req.header('x-forwarded-proto'));
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

/** The credential of an `Authorization: Bearer …` header, if the request carries one. */
export function bearerToken(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}
