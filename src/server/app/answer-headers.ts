import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { TLSSocket } from 'node:tls';
import { NON_PAGE_CONTENT_SECURITY_POLICY, securityHeaderList } from '../middleware/security-headers.ts';
import { arrivedOverHttps } from './request.ts';
import { isAddInPath } from '../../lib/spreadsheet/manifest.ts';

type HeadersArgument = OutgoingHttpHeaders | OutgoingHttpHeader[];

/** Headers handed to writeHead, moved into the response's own so they can be read and completed. */
function adoptHeaders(res: ServerResponse, headers: HeadersArgument | undefined): void {
  if (headers === undefined) return;
  if (Array.isArray(headers)) {
    // The flat form [name, value, name, value, …]: it replaces earlier headers of those names and
    // keeps repeated ones (several Set-Cookie), as writeHead itself does.
    const pairs: [string, OutgoingHttpHeader][] = [];
    for (let index = 0; index + 1 < headers.length; index += 2) {
      const value = headers[index + 1];
      if (value !== undefined) pairs.push([String(headers[index]), value]);
    }
    for (const [name] of pairs) res.removeHeader(name);
    for (const [name, value] of pairs)
      res.appendHeader(name, typeof value === 'number' ? String(value) : value);
    return;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) res.setHeader(name, value);
  }
}

function isHtml(res: ServerResponse): boolean {
  const type = res.getHeader('content-type');
  return typeof type === 'string' && /^\s*text\/html\b/i.test(type);
}

function forwardedProto(req: IncomingMessage): string | undefined {
  const value = req.headers['x-forwarded-proto'];
  return Array.isArray(value) ? value[0] : value;
}

/** The site's security headers on one answer whose head is about to be written. */
function completeHeaders(
  req: IncomingMessage,
  res: ServerResponse,
  statusCode: number,
  pagePolicy: PagePolicy,
): void {
  const https = arrivedOverHttps(req.socket instanceof TLSSocket ? 'https:' : 'http:', forwardedProto(req));
  for (const [name, value] of securityHeaderList(https)) res.setHeader(name, value);
  if (statusCode === 304) {
    // A 304 confirms a page the browser keeps, and its headers replace the kept ones. It comes
    // without Content-Type (and without Astro's policy), so it cannot tell a page from a file: it
    // gets no policy at all, and the page keeps the one it was stored with.
    res.removeHeader('content-security-policy');
  } else if (isHtml(res)) {
    const astroPolicy = res.getHeader('content-security-policy');
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    res.setHeader(
      'Content-Security-Policy',
      pagePolicy(typeof astroPolicy === 'string' ? astroPolicy : undefined, path),
    );
    // Office on the web frames the add-in's pages; their policy's frame-ancestors names where.
    if (isAddInPath(path)) res.removeHeader('X-Frame-Options');
  } else if (!res.hasHeader('content-security-policy')) {
    res.setHeader('Content-Security-Policy', NON_PAGE_CONTENT_SECURITY_POLICY);
  }
}

/** A page's full Content-Security-Policy from the one Astro gave it, if any (content-security-policy.ts). */
export type PagePolicy = (astroPolicy?: string, path?: string) => string;

/**
 * Gives one answer of the site server the site's security headers when its head is written,
 * whoever writes it. The site server is the one place every answer passes: prerendered pages (sent
 * from disk by Astro's node adapter, which never runs src/fetch.ts for them), on-demand pages
 * (fresh or from the page cache), the 404 page read from disk, error answers, the accounts API and
 * the hashed assets. Doing it as the head goes out also keeps what depends on the request (HSTS
 * over https) out of cached pages. HTML answers get the page policy (Astro's hashes completed with
 * the site's directives), others the policy of non-pages unless they brought their own.
 */
export function secureAnswer(req: IncomingMessage, res: ServerResponse, pagePolicy: PagePolicy): void {
  const writeHead = res.writeHead.bind(res) as (statusCode: number, statusMessage?: string) => ServerResponse;
  res.writeHead = (
    statusCode: number,
    messageOrHeaders?: string | HeadersArgument,
    headers?: HeadersArgument,
  ): ServerResponse => {
    const message = typeof messageOrHeaders === 'string' ? messageOrHeaders : undefined;
    adoptHeaders(res, typeof messageOrHeaders === 'string' ? headers : messageOrHeaders);
    completeHeaders(req, res, statusCode, pagePolicy);
    return message === undefined ? writeHead(statusCode) : writeHead(statusCode, message);
  };
}
