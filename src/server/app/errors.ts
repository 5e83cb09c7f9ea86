import { inspect } from 'node:util';
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { redactSecrets } from '../auth/tokens.ts';

/** One problem with a request, located by a dotted path such as `campaign.utm_source` ('' for the whole input). */
export interface ApiIssue {
  path: string;
  message: string;
}

/**
 * The one error shape of the accounts API, so the browser shows `error` and can highlight `field`
 * without knowing which middleware or handler refused the request.
 */
export interface ApiErrorBody {
  error: string;
  field?: string;
  issues?: ApiIssue[];
}

export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again later.';
export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again shortly.';
/** Seconds a client should wait before retrying while the database is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Builds the error body, leaving out empty details so clients can test `field` for presence. */
export function errorBody(error: string, details: Omit<ApiErrorBody, 'error'> = {}): ApiErrorBody {
  const body: ApiErrorBody = { error };
  if (details.field !== undefined && details.field !== '') body.field = details.field;
  if (details.issues !== undefined && details.issues.length > 0) body.issues = details.issues;
  return body;
}

/**
 * A JSON error answer through the context, so headers other middleware prepared (CORS, rate limits)
 * are kept on refusals too.
 */
export function apiError(
  c: Context,
  status: ContentfulStatusCode,
  error: string,
  details: Omit<ApiErrorBody, 'error'> = {},
  headers: Record<string, string> = {},
): Response {
  return c.json(errorBody(error, details), status, headers);
}

/** The same JSON error answer without a context, for code that runs outside a Hono handler. */
export function apiErrorResponse(
  status: ContentfulStatusCode,
  error: string,
  details: Omit<ApiErrorBody, 'error'> = {},
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(errorBody(error, details)), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

const UNAVAILABLE_CODES = new Set([
  // Node sockets
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  // postgres.js
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  // PostgreSQL: shutting down, starting up, out of connection slots
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

const UNAVAILABLE_MESSAGES = [
  /PGlite is closed/i,
  /connection terminated/i,
  /connection refused/i,
  /\bECONNREFUSED\b/,
  /write CONNECTION_CLOSED/,
];

function ownCode(error: object): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** The error, its causes (drivers and the ORM wrap the socket error) and the members of an AggregateError. */
function errorChain(error: unknown): object[] {
  const seen: object[] = [];
  const pending: unknown[] = [error];
  while (pending.length > 0 && seen.length < 20) {
    const next = pending.shift();
    if (typeof next !== 'object' || next === null || seen.includes(next)) continue;
    seen.push(next);
    pending.push((next as { cause?: unknown }).cause);
    if (next instanceof AggregateError) pending.push(...(next.errors as unknown[]));
  }
  return seen;
}

/**
 * Whether an error means the database cannot be reached at all (refused, dropped, shut down, PGlite
 * closed), which deserves a retryable 503 rather than a 500 that suggests a bug. Socket failures
 * reaching any other backing service count too: for the client they mean the same thing.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return errorChain(error).some((item) => {
    const code = ownCode(item);
    // SQLSTATE class 08: connection exception.
    if (code !== undefined && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    const message = item instanceof Error ? item.message : '';
    return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
  });
}

export { redactSecrets };

/** An error and its causes for a log line, with secrets redacted. */
export function describeForLog(error: unknown): string {
  const parts = errorChain(error).map((item) => {
    if (!(item instanceof Error)) return inspect(item, { depth: 2 });
    const code = ownCode(item);
    const head = `${item.name}${code === undefined ? '' : ` [${code}]`}: ${item.message}`;
    return item.stack?.includes(item.message) === true ? item.stack : `${head}\n${item.stack ?? ''}`;
  });
  return redactSecrets(parts.length > 0 ? parts.join('\nCaused by: ') : String(error));
}

/**
 * Logs a failed request with the error chain, minus secrets; the path is logged without its query
 * string because tokens travel there (refresh-token and validate-user calls).
 */
export function logRequestError(c: Context, error: unknown, level: 'error' | 'warn' = 'error'): void {
  const line = `[accounts-api] ${c.req.method} ${c.req.path} failed: ${describeForLog(error)}`;
  if (level === 'warn') console.warn(line);
  else console.error(line);
}

/** What a page rendered on demand can set about its answer (Astro's `Astro` global, in part). */
export interface PageAnswer {
  request: Request;
  response: { status?: number; headers: Headers };
}

/**
 * Runs a page's data reads. When the database is away the answer becomes a retryable 503 (with
 * Retry-After, never cached) and this gives undefined, so the page renders the site's own
 * "unavailable" body instead of an empty 500; the next request tries the database again, so pages
 * come back without a restart. Any other failure is thrown on.
 */
export async function pageData<T>(page: PageAnswer, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    // Warned, not errored: readiness reports the outage, and a refused page is no bug.
    console.warn(`[site] GET ${new URL(page.request.url).pathname} failed: ${describeForLog(error)}`);
    page.response.status = 503;
    page.response.headers.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    page.response.headers.set('Cache-Control', 'no-store');
    return undefined;
  }
}

/**
 * The accounts API's `onError`: a JSON body in the one error shape for every failure, a retryable
 * 503 when the database is down, and never a stack trace in the answer.
 */
export const handleApiError: ErrorHandler = (error, c) => {
  if (error instanceof HTTPException) {
    if (error.res) return error.getResponse();
    if (error.status < 500) return apiError(c, error.status, error.message || 'The request was refused.');
  }
  if (isDatabaseUnavailable(error)) {
    logRequestError(c, error, 'warn');
    return apiError(
      c,
      503,
      UNAVAILABLE_MESSAGE,
      {},
      { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    );
  }
  logRequestError(c, error);
  return apiError(c, 500, INTERNAL_ERROR_MESSAGE);
};
