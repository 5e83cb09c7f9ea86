import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { isoDay, isoDayStart, isoDaysBetween } from '../../lib/iso-date.ts';
import { getDatabase, type Db } from '../db/client.ts';
import { isDatabaseUnavailable, redactSecrets, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../app/errors.ts';
import { checkDatabase, healthRoutes } from '../app/health.ts';
import { ipKey } from '../middleware/rate-limit.ts';
import type { DataSource } from '../db/schema.ts';
import { MemoryStore, sharedRateLimitStore, type RateLimitStore } from '../middleware/rate-limit-store.ts';
import { MAX_USAGE_DAYS, recentDays, UsageMeter, usageForKey } from '../services/api-usage.ts';
import { CachedDirectory, symbolTier, type SymbolDirectory } from '../services/market-data/directory.ts';
import { Memo } from '../services/market-data/memo.ts';
import { KeyChecker, type AccessRefusal, type DataCaller } from './access.ts';
import {
  DATA_TIERS,
  DataApiError,
  dateParam,
  defineEndpoint,
  PlanRequiredError,
  type EndpointDefinition,
} from './endpoint.ts';
import { ENDPOINTS } from './endpoints/index.ts';
import { countCall, countCallNow, limitMessage, type LimitVerdict } from './limits.ts';
import { openApiDocument } from './openapi.ts';
import { toCsv } from './csv.ts';

/** Version of the API contract shown in the OpenAPI document. */
export const API_VERSION = '2026.11';

export const UNKNOWN_ENDPOINT_MESSAGE = (path: string): string =>
  `Unknown endpoint ${path}. The list of endpoints is at /stable/openapi.json.`;
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again later.';
export const UNAVAILABLE_MESSAGE = 'The data service is temporarily unavailable. Please try again shortly.';

/** Open CORS without credentials; every header a client needs is readable cross-origin. */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'RateLimit, RateLimit-Policy, Retry-After, ETag, X-Data-Source',
};

/** Answers kept for repeated identical requests (bounded; least recently used go first). */
const ANSWER_CACHE_SIZE = 2_000;
/** Longest an answer is served from the cache, whatever the endpoint's max-age. */
const ANSWER_CACHE_MAX_SECONDS = 15;
/** Validated queries kept for repeated identical requests. */
const PREPARED_QUERY_CACHE_SIZE = 5_000;

export interface DataApiOptions {
  database?: () => Promise<Db>;
  /** Where call budgets are counted (default: the process-wide store, Redis when REDIS_URL is set). */
  store?: RateLimitStore;
  now?: () => number;
  /** Server secret for key lookups (default APP_SECRET or the development secret). */
  secret?: string;
  endpoints?: readonly EndpointDefinition[];
  flushIntervalMs?: number;
  /** Prints one redacted line per request (DATA_API_ACCESS_LOG=1 turns it on for the default app). */
  accessLog?: ((line: string) => void) | undefined;
}

/** The running service: the Hono app plus what must be flushed and closed with it. */
export interface DataApi {
  app: Pick<Hono, 'fetch' | 'request'>;
  keys: KeyChecker;
  meter: UsageMeter;
  directory: CachedDirectory;
  close(): Promise<void>;
}

type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 429 | 500 | 503;

/** The body of an error in FMP's shape. */
function errorBody(message: string): string {
  return JSON.stringify({ 'Error Message': message });
}

/** An error in FMP's shape with the given status; never cached. */
function errorResponse(
  status: ErrorStatus,
  message: string,
  headers: Record<string, string> = CORS_HEADERS,
  body: string = errorBody(message),
): Response {
  return new Response(body, {
    status,
    headers: { ...headers, 'Cache-Control': 'no-store', 'Content-Type': 'application/json; charset=utf-8' },
  });
}

/** `Invalid value for parameter "limit": must be at most 1000` — the first problem, naming its parameter. */
function parameterMessage(error: z.ZodError, given: Record<string, string>): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'Invalid parameters.';
  const name = issue.path[0];
  if (name === undefined) return `Invalid parameters: ${issue.message}`;
  if (given[String(name)] === undefined) {
    // Keep what a parameter's own message adds ("use one of GDP, …"), not zod's generic wording.
    const detail = issue.message.replace(/^is required[:;,.]?\s*/i, '').replace(/^Invalid input.*$/i, '');
    return `Missing required parameter "${String(name)}"${detail === '' ? '' : `: ${detail}`}.`;
  }
  return `Invalid value for parameter "${String(name)}": ${issue.message}.`;
}

function etagOf(body: string): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

interface Serialized {
  body: string;
  etag: string;
  bytes: number;
}

function serialized(rows: unknown[], csvColumns: string[] | undefined): Serialized {
  const body =
    csvColumns === undefined ? JSON.stringify(rows) : toCsv(rows as Record<string, unknown>[], csvColumns);
  return { body, etag: etagOf(body), bytes: Buffer.byteLength(body) };
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || `W/${value}` === etag;
  });
}

function symbolsOf(endpoint: EndpointDefinition, params: Record<string, unknown>): string[] {
  if (endpoint.symbolParam === undefined) return [];
  const value = params[endpoint.symbolParam];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/** A request's validated parameters and what follows from them alone. */
interface PreparedQuery {
  params: Record<string, unknown>;
  csv: boolean;
  /** Endpoint, format and parameters: the answer cache key without the plan's part. */
  key: string;
  named: string[];
  raised: { tier: number; subject: string } | undefined;
  /** The answer cache key for the plans' history years it was last built for. */
  answerKey?: { years: number | null; key: string };
}

/** A finished answer and the bytes its body sends, for metering. */
interface Answer {
  response: Response;
  bytes: number;
}

/** A query string without its `apikey` parameter, so that every key shares one prepared entry. */
export function withoutKey(search: string): string {
  // The common shapes without building arrays: no key, or the key as the last parameter.
  const at = search.indexOf('apikey');
  if (at < 0) return search;
  const startsPair = at === 0 || search.charCodeAt(at - 1) === AMPERSAND;
  const endsName = at + 6 === search.length || search.charCodeAt(at + 6) === EQUALS;
  if (startsPair && endsName && !search.includes('&', at)) {
    const rest = search.slice(0, Math.max(0, at - 1));
    if (!rest.includes('apikey')) return rest;
  }
  return search
    .split('&')
    .filter((pair) => !pair.startsWith('apikey=') && pair !== 'apikey')
    .join('&');
}

const AMPERSAND = 0x26;
const EQUALS = 0x3d;

function usageEndpoint(): EndpointDefinition {
  return defineEndpoint({
    path: 'api-usage',
    group: 'Account',
    summary: 'Usage of your API key',
    description:
      'Calls and bytes per endpoint and UTC day for the key making the request, oldest day first. Counts are written every few seconds. Calling it costs nothing against your limits.',
    tier: DATA_TIERS.sample,
    params: z.object({
      from: dateParam.optional().describe('First day (default: 29 days before to)'),
      to: dateParam.optional().describe('Last day (default: today, UTC)'),
    }),
    row: z.object({
      date: z.string().describe('UTC day, YYYY-MM-DD'),
      endpoint: z.string().describe('Endpoint path under /stable/'),
      calls: z.number().describe('Calls answered'),
      bytes: z.number().describe('Bytes of answer bodies sent'),
    }),
    maxAge: 0,
    example: '',
    // Answered by the app itself: usage belongs to the calling key, which handlers never see.
    handler: () => Promise.resolve([]),
  });
}

/**
 * Builds the data API. Every /stable/* request goes through the same steps: key check (cached),
 * call budgets, parameter validation, plan coverage of the endpoint and the symbols, the handler,
 * then JSON or CSV with ETag, Cache-Control and the data-source label; answered calls are metered.
 */
export function createDataApi(options: DataApiOptions = {}): DataApi {
  const database = options.database ?? (async () => (await getDatabase()).db);
  const now = options.now ?? Date.now;
  const endpoints = options.endpoints ?? ENDPOINTS;
  const keys = new KeyChecker({
    database,
    now,
    ...(options.secret === undefined ? {} : { secret: options.secret }),
  });
  const meter = new UsageMeter({
    database,
    now,
    ...(options.flushIntervalMs === undefined ? {} : { flushIntervalMs: options.flushIntervalMs }),
  });
  const directory = new CachedDirectory(database, now);
  const usage = usageEndpoint();
  const byPath = new Map<string, EndpointDefinition>(endpoints.map((endpoint) => [endpoint.path, endpoint]));
  let openApiBody: string | undefined;
  const accessLog = options.accessLog;

  const planMessage = async (caller: DataCaller, tier: number, subject: string): Promise<string> => {
    const plan = await keys.cheapestPlanFor(tier);
    const upgrade =
      plan === undefined
        ? 'Contact us for access.'
        : `It is included in the ${plan.name} plan and above: see /developer/docs/pricing.`;
    return `Your ${caller.plan.name} plan does not cover ${subject}. ${upgrade}`;
  };

  const answers = new Memo<Serialized>({
    max: ANSWER_CACHE_SIZE,
    ttlMs: ANSWER_CACHE_MAX_SECONDS * 1000,
    clock: now,
  });

  const preparedQueries = new Memo<PreparedQuery>({ max: PREPARED_QUERY_CACHE_SIZE, ttlMs: Infinity });

  /**
   * The validated parameters of a request, or the message naming the bad one. Validation is a pure
   * function of the endpoint and the query, so clients repeating a request (a ticker polling a quote)
   * reuse the earlier result, keyed by the raw query without the key.
   */
  const prepare = (endpoint: EndpointDefinition, search: string, c: Context): PreparedQuery | string => {
    const memoKey = `${endpoint.path}?${search.includes('apikey') ? withoutKey(search) : search}`;
    const known = preparedQueries.get(memoKey);
    if (known !== undefined) return known;
    const { datatype, ...raw } = c.req.query();
    delete raw.apikey;
    const parsed = endpoint.params.safeParse(raw);
    if (!parsed.success) return parameterMessage(parsed.error, raw);
    const params: Record<string, unknown> = parsed.data;
    const format = datatype === undefined || datatype === '' ? 'json' : datatype.toLowerCase();
    if (format !== 'json' && !(format === 'csv' && endpoint.csv === true)) {
      return endpoint.csv === true
        ? 'Invalid value for parameter "datatype": must be json or csv.'
        : `Invalid value for parameter "datatype": ${endpoint.path} answers in JSON only.`;
    }
    const request: PreparedQuery = {
      params,
      csv: format === 'csv',
      key: `${endpoint.path}|${format}|${JSON.stringify(params)}`,
      named: symbolsOf(endpoint, params),
      raised: endpoint.tierFor?.(params),
    };
    preparedQueries.set(memoKey, request);
    return request;
  };

  /**
   * Answers a call. A repeated call of a known key for a fresh answer (the common case) is served
   * without a single promise; anything else (a key or plan to look up, a refusal to word, data to
   * read) takes the asynchronous path.
   */
  const serve = (c: Context, endpoint: EndpointDefinition): Response | Promise<Response> => {
    // Every header of the answer goes into one plain object, turned into a Response once.
    const headers: Record<string, string> = { ...CORS_HEADERS };
    const url = c.req.url;
    const start = url.indexOf('?');
    const search = start < 0 ? '' : url.slice(start + 1);
    const key = (search.includes('apikey') ? c.req.query('apikey') : undefined) ?? c.req.header('apikey');
    const caller = keys.checkCached(key);
    if (caller === undefined || 'status' in caller) return serveChecked(c, endpoint, search, key, headers);
    const limited = limit(c, endpoint, caller, headers);
    if (limited instanceof Response) return limited;
    if (limited === 'async') return serveChecked(c, endpoint, search, key, headers);
    const answer = respondFromCache(c, endpoint, search, caller, headers);
    if (answer === undefined) {
      return respond(c, endpoint, search, caller, headers).then((slow) => metered(endpoint, caller, slow));
    }
    return metered(endpoint, caller, answer);
  };

  const serveChecked = async (
    c: Context,
    endpoint: EndpointDefinition,
    search: string,
    key: string | undefined,
    headers: Record<string, string>,
  ): Promise<Response> => {
    const caller: DataCaller | AccessRefusal = await keys.check(key);
    if ('status' in caller) return errorResponse(caller.status, caller.message, headers);
    let limited = limit(c, endpoint, caller, headers);
    if (limited === 'async') {
      const subject = caller.kind === 'key' ? `key:${caller.keyId}` : ipKey(c);
      const verdict = await countCall(options.store ?? sharedRateLimitStore(), subject, caller.limits);
      limited = limitResponse(verdict, caller, headers);
    }
    if (limited instanceof Response) return limited;
    return metered(endpoint, caller, await respond(c, endpoint, search, caller, headers));
  };

  /**
   * Counts the call against the caller's budgets: a 429 when over, nothing when within, 'async' when
   * the budgets live in a shared store that must be asked. The usage endpoint costs nothing.
   */
  const limit = (
    c: Context,
    endpoint: EndpointDefinition,
    caller: DataCaller,
    headers: Record<string, string>,
  ): Response | undefined | 'async' => {
    if (endpoint === usage) return undefined;
    const store = options.store ?? sharedRateLimitStore();
    if (!(store instanceof MemoryStore)) return 'async';
    const subject = caller.kind === 'key' ? `key:${caller.keyId}` : ipKey(c);
    return limitResponse(countCallNow(store, subject, caller.limits), caller, headers);
  };

  const limitResponse = (
    verdict: LimitVerdict,
    caller: DataCaller,
    headers: Record<string, string>,
  ): Response | undefined => {
    Object.assign(headers, verdict.headers);
    if (verdict.refusal === undefined) return undefined;
    return errorResponse(429, limitMessage(verdict.refusal, caller.plan.name), headers);
  };

  /** Meters what a key's call sent, once it is answered. */
  const metered = (endpoint: EndpointDefinition, caller: DataCaller, answer: Answer): Response => {
    if (endpoint !== usage && caller.kind === 'key') meter.record(caller.keyId, endpoint.path, answer.bytes);
    return answer.response;
  };

  /** What a call may see, or the plan it needs: decided from the query and the directory alone. */
  const admit = (
    endpoint: EndpointDefinition,
    request: PreparedQuery,
    symbols: SymbolDirectory,
    caller: DataCaller,
  ): { source: DataSource } | { tier: number; subject: string } => {
    if (caller.plan.dataTier < endpoint.tier)
      return { tier: endpoint.tier, subject: `the ${endpoint.path} endpoint` };
    const { raised, named } = request;
    if (raised !== undefined && caller.plan.dataTier < raised.tier) return raised;
    let source = symbols.source;
    if (named.length > 0) {
      const known = named.map((symbol) => symbols.get(symbol)).filter((security) => security !== undefined);
      for (const security of known) {
        const tier = symbolTier(security);
        if (caller.plan.dataTier < tier) return { tier, subject: `the symbol ${security.symbol}` };
      }
      if (known.length > 0)
        source = known.some((security) => security.source === 'demo') ? 'demo' : 'imported';
    }
    return { source };
  };

  /**
   * Answers depend on the parameters and, through the default history range, on the plan's history;
   * within an endpoint's max-age they are served again without running the handler. The key string
   * is kept on the prepared query, so a repeated call hashes nothing new.
   */
  const answerKey = (
    endpoint: EndpointDefinition,
    request: PreparedQuery,
    caller: DataCaller,
  ): string | undefined => {
    if (endpoint.maxAge <= 0) return undefined;
    const years = caller.plan.historyYears;
    let built = request.answerKey;
    if (built?.years !== years) {
      built = { years, key: `${request.key}|${String(years)}` };
      request.answerKey = built;
    }
    return built.key;
  };

  /** The hot path of {@link respond}: a fresh cached answer the caller may see, or undefined. */
  const respondFromCache = (
    c: Context,
    endpoint: EndpointDefinition,
    search: string,
    caller: DataCaller,
    headers: Record<string, string>,
  ): Answer | undefined => {
    const request = prepare(endpoint, search, c);
    const symbols = directory.fresh();
    if (typeof request === 'string' || symbols === undefined) return undefined;
    const admitted = admit(endpoint, request, symbols, caller);
    if (!('source' in admitted)) return undefined;
    const cacheKey = answerKey(endpoint, request, caller);
    const cached = cacheKey === undefined ? undefined : answers.get(cacheKey);
    if (cached === undefined) return undefined;
    return answered(c, endpoint, request.csv, cached, admitted.source, headers);
  };

  /** Everything after the key and the budgets; the size of what it sends is metered. */
  const respond = async (
    c: Context,
    endpoint: EndpointDefinition,
    search: string,
    caller: DataCaller,
    headers: Record<string, string>,
  ): Promise<Answer> => {
    const refuse = (status: ErrorStatus, message: string): Answer => {
      const body = errorBody(message);
      return { response: errorResponse(status, message, headers, body), bytes: Buffer.byteLength(body) };
    };
    const refuseForPlan = async (tier: number, subject: string): Promise<Answer> =>
      refuse(402, await planMessage(caller, tier, subject));
    const request = prepare(endpoint, search, c);
    if (typeof request === 'string') return refuse(400, request);
    const { params, csv } = request;

    const symbols = directory.fresh() ?? (await directory.get());
    const admitted = admit(endpoint, request, symbols, caller);
    if (!('source' in admitted)) return refuseForPlan(admitted.tier, admitted.subject);

    const cacheKey = answerKey(endpoint, request, caller);
    let cached = cacheKey === undefined ? undefined : answers.get(cacheKey);
    if (cached === undefined) {
      let rows: unknown[];
      try {
        if (endpoint === usage) {
          if (caller.kind !== 'key') {
            return refuse(401, 'Usage is kept per API key: call this endpoint with your API key.');
          }
          const range = usageRange(params, new Date(now()));
          if (typeof range === 'string') return refuse(400, range);
          rows = await usageForKey(await database(), caller.keyId, range);
        } else {
          rows = await endpoint.handler({
            db: await database(),
            params,
            plan: caller.plan,
            symbols,
            now: new Date(now()),
          });
        }
      } catch (error) {
        if (error instanceof DataApiError) return refuse(error.status, error.message);
        if (error instanceof PlanRequiredError) return refuseForPlan(error.tier, error.subject);
        throw error;
      }
      cached = serialized(rows, csv ? Object.keys(endpoint.row.shape) : undefined);
      if (cacheKey !== undefined) {
        answers.set(cacheKey, cached, Math.min(endpoint.maxAge, ANSWER_CACHE_MAX_SECONDS) * 1000);
      }
    }
    return answered(c, endpoint, csv, cached, admitted.source, headers);
  };

  /** The 200 (or 304) for an answer's body. */
  const answered = (
    c: Context,
    endpoint: EndpointDefinition,
    csv: boolean,
    { body, etag, bytes }: Serialized,
    source: DataSource,
    headers: Record<string, string>,
  ): Answer => {
    headers.ETag = etag;
    headers['Cache-Control'] = endpoint.maxAge > 0 ? `private, max-age=${endpoint.maxAge}` : 'no-cache';
    headers['X-Data-Source'] = source;
    headers.Vary = 'apikey';
    if (matchesEtag(c.req.header('if-none-match'), etag)) {
      return { response: new Response(null, { status: 304, headers }), bytes: 0 };
    }
    if (csv) {
      headers['Content-Type'] = 'text/csv; charset=utf-8';
      headers['Content-Disposition'] = `inline; filename="${endpoint.path.replaceAll('/', '-')}.csv"`;
    } else {
      headers['Content-Type'] = 'application/json; charset=utf-8';
    }
    return { response: new Response(body, { status: 200, headers }), bytes };
  };

  const app = new Hono();
  // The access log wraps every request only when it is on: the hot path pays for nothing else.
  if (accessLog !== undefined) {
    app.use(async (c, next) => {
      const started = performance.now();
      await next();
      const url = new URL(c.req.url);
      accessLog(
        redactSecrets(
          `[data-api] ${c.req.method} ${url.pathname}${url.search} ${c.res.status} ${(performance.now() - started).toFixed(1)}ms`,
        ),
      );
    });
  }
  app
    .options(
      '*',
      () =>
        new Response(null, {
          status: 204,
          headers: {
            ...CORS_HEADERS,
            'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
            'Access-Control-Allow-Headers': 'apikey, if-none-match, content-type',
            'Access-Control-Max-Age': '86400',
          },
        }),
    )
    .route('/', healthRoutes({ database: () => checkDatabase() }))
    .get('/stable/openapi.json', () => {
      openApiBody ??= JSON.stringify(openApiDocument([...endpoints, usage], { version: API_VERSION }));
      return new Response(openApiBody, {
        headers: {
          ...CORS_HEADERS,
          'Cache-Control': 'public, max-age=300',
          'Content-Type': 'application/json; charset=utf-8',
        },
      });
    })
    .get('/stable/*', (c) => {
      const tail = c.req.path.slice('/stable/'.length);
      const path = tail.endsWith('/') ? tail.replace(/\/+$/, '') : tail;
      const endpoint = path === usage.path ? usage : byPath.get(path);
      if (endpoint === undefined) return errorResponse(404, UNKNOWN_ENDPOINT_MESSAGE(c.req.path));
      return serve(c, endpoint);
    })
    .notFound((c) => errorResponse(404, UNKNOWN_ENDPOINT_MESSAGE(c.req.path)))
    .onError((error, c) => {
      const line = `[data-api] GET ${c.req.path} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
      if (isDatabaseUnavailable(error)) {
        console.warn(redactSecrets(line));
        return errorResponse(503, UNAVAILABLE_MESSAGE, {
          ...CORS_HEADERS,
          'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
        });
      }
      console.error(redactSecrets(line));
      return errorResponse(500, INTERNAL_ERROR_MESSAGE);
    });

  return {
    app,
    keys,
    meter,
    directory,
    close: () => meter.close(),
  };
}

function usageRange(params: Record<string, unknown>, now: Date): { from: string; to: string } | string {
  const to = typeof params.to === 'string' ? params.to : isoDay(now);
  const from = typeof params.from === 'string' ? params.from : recentDays(30, new Date(isoDayStart(to))).from;
  if (from > to) return 'Parameter "from" must be on or before "to".';
  const days = isoDaysBetween(from, to) + 1;
  if (days > MAX_USAGE_DAYS) return `Parameters "from" and "to" may span at most ${MAX_USAGE_DAYS} days.`;
  return { from, to };
}

const SHARED = Symbol.for('market-data.data-api');
const holder = globalThis as typeof globalThis & { [SHARED]?: DataApi | undefined };

/** The process-wide data API (one meter and one key cache per process). */
export function sharedDataApi(): DataApi {
  holder[SHARED] ??= createDataApi({
    accessLog: process.env.DATA_API_ACCESS_LOG === '1' ? (line) => console.log(line) : undefined,
  });
  return holder[SHARED];
}

/** Flushes metering and forgets the process-wide data API (server shutdown). */
export async function closeSharedDataApi(): Promise<void> {
  const api = holder[SHARED];
  holder[SHARED] = undefined;
  await api?.close();
}
