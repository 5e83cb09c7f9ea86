import { FetchError, ofetch } from 'ofetch';
import { ADMIN_API_URL, APP_SERVER_URL, PORTAL_URL, PUBLIC_AUTH_HEADER } from './endpoints.ts';
import { $auth, PUBLIC_TOKEN } from './stores/auth.ts';

/**
 * The one HTTP client of the browser (SPEC §7): every call sends credentials, the Authorization
 * header (the access token, or the public token while signed out) and the public auth header; a
 * 403 on a signed-in call refreshes the session once and retries once.
 */

/** A call that takes longer is abandoned with a clear error rather than leaving a spinner forever. */
export const REQUEST_TIMEOUT_MS = 15_000;

/** Said when the server could not be reached or answered without a usable message. */
export const NETWORK_ERROR_MESSAGE =
  'We could not reach the server. Please check your connection and try again.';

const PUBLIC_TOKEN_STORAGE_KEY = 'public-token';
const PUBLIC_TOKEN_PATH = `${APP_SERVER_URL}/auth/public-token`;
/** A public token this close to its expiry is fetched anew. */
const PUBLIC_TOKEN_MARGIN_SECONDS = 3600;

/** The status of a refusal because the visitor's plan does not cover what was asked for (the premium dialog's cue). */
export const PLAN_REQUIRED_STATUS = 402;

/** A failed call: the HTTP status (0 when the server was not reached) and the server's own words. */
export class ApiError extends Error {
  readonly status: number;
  /** The parsed answer body, e.g. `{error, field}` or `{blockedAccount: true}`. */
  readonly data: unknown;

  constructor(status: number, message: string, data: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }

  /** The field the server named as wrong, if any. */
  get field(): string | undefined {
    return isRecord(this.data) && typeof this.data.field === 'string' ? this.data.field : undefined;
  }

  /** SPEC §3 sign-in result: the server refused a blocked account. */
  get blockedAccount(): boolean {
    return isRecord(this.data) && this.data.blockedAccount === true;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The text a server answer offers as its message: a plain string body or `{error}` / `{message}`. */
export function answerText(data: unknown): string | undefined {
  if (typeof data === 'string') return data.trim() === '' ? undefined : data;
  if (!isRecord(data)) return undefined;
  for (const key of ['error', 'message', 'Error Message'] as const) {
    const value = data[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof FetchError && error.response !== undefined) {
    const data: unknown = error.data;
    return new ApiError(error.response.status, answerText(data) ?? NETWORK_ERROR_MESSAGE, data);
  }
  return new ApiError(0, NETWORK_ERROR_MESSAGE, undefined);
}

/**
 * A failed call as an {@link ApiError}; a refused file download's body arrives as a Blob, whose
 * JSON error is read so the message is still the server's own.
 */
async function failureOf(error: unknown): Promise<ApiError> {
  if (!(error instanceof FetchError) || error.response === undefined || !(error.data instanceof Blob)) {
    return toApiError(error);
  }
  let data: unknown;
  try {
    data = JSON.parse(await error.data.text()) as unknown;
  } catch {
    data = undefined;
  }
  return new ApiError(error.response.status, answerText(data) ?? NETWORK_ERROR_MESSAGE, data);
}

/** Seconds until a JWT expires, read without verifying it (the server does that). */
function secondsLeft(token: string): number {
  try {
    const payload = token.split('.')[1];
    if (payload === undefined) return 0;
    const claims = JSON.parse(atob(payload.replaceAll('-', '+').replaceAll('_', '/'))) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp - Date.now() / 1000 : 0;
  } catch {
    return 0;
  }
}

let publicTokenRequest: Promise<string> | undefined;

/**
 * The public fallback token for signed-out calls, asked of the server once and kept in local storage
 * until shortly before it expires. When the server cannot give one the placeholder stands in, and the
 * server treats the call as anonymous.
 */
export function publicToken(): Promise<string> {
  const stored = readStoredPublicToken();
  if (stored !== undefined) return Promise.resolve(stored);
  publicTokenRequest ??= ofetch<{ accessToken?: unknown }>(PUBLIC_TOKEN_PATH, {
    credentials: 'include',
    timeout: REQUEST_TIMEOUT_MS,
    retry: 0,
  })
    .then((answer) => {
      const token = typeof answer.accessToken === 'string' ? answer.accessToken : PUBLIC_TOKEN;
      if (token !== PUBLIC_TOKEN) storePublicToken(token);
      return token;
    })
    .catch(() => PUBLIC_TOKEN)
    .finally(() => {
      publicTokenRequest = undefined;
    });
  return publicTokenRequest;
}

function readStoredPublicToken(): string | undefined {
  try {
    const token = localStorage.getItem(PUBLIC_TOKEN_STORAGE_KEY);
    return token !== null && secondsLeft(token) > PUBLIC_TOKEN_MARGIN_SECONDS ? token : undefined;
  } catch {
    return undefined;
  }
}

function storePublicToken(token: string): void {
  try {
    localStorage.setItem(PUBLIC_TOKEN_STORAGE_KEY, token);
  } catch {
    // Private modes may refuse storage; the token is then fetched again next time.
  }
}

/** Renews the session; registered by the session store, which owns the refresh logic. */
type Refresher = () => Promise<boolean>;
let refresher: Refresher | undefined;

/** Lets the session store take over refreshing, without this module depending on it. */
export function setSessionRefresher(refresh: Refresher): void {
  refresher = refresh;
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A JSON body. */
  body?: Record<string, unknown> | unknown[];
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /**
   * Whether a 403 on a signed-in call refreshes the session and retries once (default true). The
   * session calls themselves turn it off, so a refresh never triggers another refresh.
   */
  refreshOn403?: boolean;
  /** 'blob' reads a file (a PDF) rather than JSON; a refusal still carries the server's message. */
  responseType?: 'json' | 'blob';
  signal?: AbortSignal;
}

function cleanQuery(query: ApiRequest['query']): Record<string, string> | undefined {
  if (query === undefined) return undefined;
  const entries = Object.entries(query).filter(([, value]) => value !== undefined);
  return Object.fromEntries(entries.map(([key, value]) => [key, String(value)]));
}

async function send<T>(url: string, request: ApiRequest, accessToken: string): Promise<T> {
  const fallback = await publicToken();
  const bearer = accessToken === PUBLIC_TOKEN ? fallback : accessToken;
  const query = cleanQuery(request.query);
  const options = {
    method: request.method ?? (request.body === undefined ? 'GET' : 'POST'),
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(query === undefined ? {} : { query }),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    credentials: 'include' as const,
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${bearer}`,
      [PUBLIC_AUTH_HEADER]: fallback,
      ...request.headers,
    },
    timeout: REQUEST_TIMEOUT_MS,
    retry: 0,
  };
  if (request.responseType === 'blob') return (await ofetch(url, { ...options, responseType: 'blob' })) as T;
  return ofetch<T>(url, options);
}

/**
 * Calls the accounts API. Resolves with the parsed answer; rejects with an {@link ApiError}
 * carrying the status and the server's message, never a bare network exception.
 */
export async function api<T>(url: string, request: ApiRequest = {}): Promise<T> {
  const token = $auth.get().accessToken;
  try {
    return await send<T>(url, request, token);
  } catch (error) {
    const failure = await failureOf(error);
    const refresh = refresher;
    const retry =
      failure.status === 403 &&
      !failure.blockedAccount &&
      request.refreshOn403 !== false &&
      token !== PUBLIC_TOKEN &&
      refresh !== undefined;
    if (!retry) throw failure;
    const renewed = await refresh();
    if (!renewed) throw failure;
    try {
      return await send<T>(url, request, $auth.get().accessToken);
    } catch (second) {
      throw await failureOf(second);
    }
  }
}

/** A portal call (`auth/validate-email`, `account/get-survey`, …), relative to the portal's base. */
export function portal<T>(path: string, request?: ApiRequest): Promise<T> {
  return api<T>(`${PORTAL_URL}/${path}`, request);
}

/** An app-server call (`auth/signin`, `auth/refresh`, …), relative to the app server's base. */
export function appServer<T>(path: string, request?: ApiRequest): Promise<T> {
  return api<T>(`${APP_SERVER_URL}/${path}`, request);
}

/** An admin console call (`users`, `users/<id>/block`, …), relative to the admin API's base. */
export function adminApi<T>(path: string, request?: ApiRequest): Promise<T> {
  return api<T>(`${ADMIN_API_URL}/${path}`, request);
}

/** A data API answer as the API viewer shows it: status, timing, size, every header and the body's text. */
export interface DataApiAnswer {
  status: number;
  statusText: string;
  /** From sending to the last byte read, in milliseconds. */
  ms: number;
  /** The body's size as received (UTF-8 bytes). */
  bytes: number;
  /** The headers the data API exposes to pages, in the order the browser lists them. */
  headers: [string, string][];
  contentType: string;
  /** The body as text; '' for a file. */
  text: string;
  /** A file the API sent instead of text (an Excel workbook), to save rather than show. */
  file?: { blob: Blob; name: string };
}

/** A body that is neither JSON nor text (an Excel workbook): kept as a file, never decoded as text. */
function isFile(contentType: string): boolean {
  return contentType !== '' && !contentType.includes('json') && !contentType.startsWith('text/');
}

/** The file name a Content-Disposition header gives, or `fallback`. */
function attachmentName(header: string | null, fallback: string): string {
  return (header === null ? undefined : /filename="([^"]+)"/.exec(header)?.[1]) ?? fallback;
}

/** How long the API viewer waits for an answer; a larger answer may take longer than a site call. */
export const DATA_API_TIMEOUT_MS = 30_000;

/**
 * Sends a data API request exactly as a client would (the key in the `apikey` query parameter, no
 * cookies, no site headers) and keeps everything about the answer, refusals included: the API
 * viewer shows a 402 or a 429 as it is. Only a failure to reach the API rejects, with an
 * {@link ApiError} of status 0 that says so. `cache: 'no-store'` makes every call reach the API
 * (the quickstart's "Run it"), where an answer the browser still holds would otherwise come back.
 */
export async function dataApiGet(
  url: string,
  signal?: AbortSignal,
  cache: RequestCache = 'default',
): Promise<DataApiAnswer> {
  const timeout = AbortSignal.timeout(DATA_API_TIMEOUT_MS);
  const started = performance.now();
  try {
    const response = await fetch(url, {
      credentials: 'omit',
      cache,
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
    const contentType = response.headers.get('content-type') ?? '';
    const answer = {
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers.entries()],
      contentType,
    };
    if (isFile(contentType)) {
      const blob = await response.blob();
      const name = attachmentName(response.headers.get('content-disposition'), 'answer');
      const ms = Math.round(performance.now() - started);
      return { ...answer, ms, bytes: blob.size, text: '', file: { blob, name } };
    }
    const text = await response.text();
    const ms = Math.round(performance.now() - started);
    return { ...answer, ms, bytes: new TextEncoder().encode(text).byteLength, text };
  } catch (error) {
    if (signal?.aborted === true) throw error;
    const timedOut = timeout.aborted;
    throw new ApiError(
      0,
      timedOut
        ? `The data API did not answer within ${String(DATA_API_TIMEOUT_MS / 1000)} seconds.`
        : `The data API could not be reached at ${new URL(url).origin}. Check your connection, then see the status page.`,
      null,
    );
  }
}

/**
 * Tells the site something in passing (a JSON POST to one of its own routes) without waiting for or
 * reporting the answer: `keepalive` lets the request finish even when the page is left at once, as
 * when the click that caused it follows a link. For counts only, never for anything the visitor
 * needs to know went through.
 */
export function notifySite(url: string, body: Record<string, unknown>): void {
  void fetch(url, {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => undefined);
}
