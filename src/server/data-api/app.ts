import { upgradeWebSocket } from '@hono/node-server';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { WebSocket } from 'ws';
import { getDatabase, type Db } from '../db/client.ts';
import { dataApiAccessLogEnabled } from '../app/config.ts';
import { isDatabaseUnavailable, redactSecrets, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../app/errors.ts';
import { checkDatabase, checkRateLimits, healthRoutes } from '../app/health.ts';
import { ipKey } from '../middleware/rate-limit.ts';
import { sharedRateLimitStore, type RateLimitStore } from '../middleware/rate-limit-store.ts';
import type { UsageMeter } from '../services/api-usage.ts';
import type { CachedDirectory } from '../services/market-data/directory.ts';
import type { KeyChecker } from './access.ts';
import type { EndpointDefinition } from './endpoint.ts';
import { ACCOUNT_ENDPOINTS } from './endpoints/account.ts';
import { ENDPOINTS } from './endpoints/index.ts';
import { bulkResponse } from './bulk-http.ts';
import { createLegacyRouter, LEGACY_PREFIX } from './legacy.ts';
import { MCP_PATH, MCP_PREFLIGHT_HEADERS, mcpHandler } from './mcp.ts';
import { openApiDocument } from './openapi.ts';
import {
  STREAM_NAMES,
  StreamHub,
  type StreamHubOptions,
  type StreamName,
  type StreamSocket,
} from './streams.ts';
import {
  createDataPipeline,
  errorBody,
  type DataCredential,
  type DataOutcome,
  type DataPipeline,
} from './pipeline.ts';

/** Version of the API contract shown in the OpenAPI document. */
export const API_VERSION = '2026.11';

/*
 * A refused path is named in the message with any key in it redacted: a malformed address such as
 * `/stable/quote&apikey=…` carries the caller's key in the path, and an answer never repeats a key.
 */
export const UNKNOWN_ENDPOINT_MESSAGE = (path: string): string =>
  `Unknown endpoint ${redactSecrets(path)}. The list of endpoints is at /stable/openapi.json.`;
export const UNKNOWN_LEGACY_ENDPOINT_MESSAGE = (path: string): string =>
  `Unknown endpoint ${redactSecrets(path)}. The legacy endpoints and their stable equivalents are listed at /developer/docs/legacy-endpoints.`;
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again later.';
export const UNAVAILABLE_MESSAGE = 'The data service is temporarily unavailable. Please try again shortly.';

/** Open CORS without credentials; every header a client needs is readable cross-origin. */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'RateLimit, RateLimit-Policy, Retry-After, ETag, X-Data-Source, Content-Range, Content-Disposition',
};

export interface DataApiOptions {
  database?: () => Promise<Db>;
  /** Where call budgets are counted (default: the process-wide store, Redis when REDIS_URL is set). */
  store?: RateLimitStore;
  now?: () => number;
  /** Server secret for key lookups (default APP_SECRET or the development secret). */
  secret?: string;
  /** The market data endpoints (default: all of them); the account endpoints are always added. */
  endpoints?: readonly EndpointDefinition[];
  flushIntervalMs?: number;
  /** The site's address named by refusals that point to its documentation (default PUBLIC_SITE_URL). */
  siteUrl?: string;
  /** Prints one redacted line per request (DATA_API_ACCESS_LOG=1 turns it on for the default app). */
  accessLog?: ((line: string) => void) | undefined;
  /** Timings and bounds of the websocket streams (tests shorten them). */
  streams?: Omit<StreamHubOptions, 'pipeline' | 'database' | 'now'>;
}

/** The running service: the Hono app over the pipeline, plus what must be flushed and closed with it. */
export interface DataApi {
  app: Pick<Hono, 'fetch' | 'request'>;
  pipeline: DataPipeline;
  keys: KeyChecker;
  meter: UsageMeter;
  directory: CachedDirectory;
  /** The websocket streams' connections (served where the server accepts websockets). */
  streams: StreamHub;
  close(): Promise<void>;
}

/**
 * A `ws` connection as the hub sees it, with the cork of the TCP socket under it (the upgraded request's
 * socket, which `ws` writes to), so a round's messages to one client leave in one write.
 */
function streamSocket(ws: WebSocket, wire: Duplex | undefined): StreamSocket {
  return {
    get bufferedAmount(): number {
      return ws.bufferedAmount;
    },
    get readyState(): number {
      return ws.readyState;
    },
    send: (data, options) => {
      ws.send(data, options);
    },
    close: (code, reason) => {
      ws.close(code, reason);
    },
    cork: () => {
      wire?.cork();
    },
    uncork: () => {
      wire?.uncork();
    },
  };
}

/**
 * The websocket streams' route: `/websockets/stocks|crypto|forex` upgraded by @hono/node-server's websocket
 * support (the server must be created with a `ws` server), each connection handed to the hub.
 */
function streamRoute(hub: StreamHub): MiddlewareHandler {
  const upgrade = upgradeWebSocket((c) => {
    const stream = c.req.param('stream') as StreamName;
    const wire = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
    let connection: ReturnType<StreamHub['connect']> | undefined;
    return {
      onOpen: (_event, ws) => {
        connection = hub.connect(streamSocket(ws.raw as WebSocket, wire), stream);
      },
      onMessage: (event) => {
        connection?.receive(typeof event.data === 'string' ? event.data : '');
      },
      onClose: () => {
        connection?.closed();
      },
    };
  });
  return async (c, next) => {
    if (!(STREAM_NAMES as readonly string[]).includes(c.req.param('stream') ?? '')) {
      return errorResponse(404, UNKNOWN_ENDPOINT_MESSAGE(c.req.path));
    }
    if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
      return new Response(
        errorBody('This is a websocket stream: connect with a websocket client (wss:// or ws://).'),
        {
          status: 426,
          headers: {
            ...CORS_HEADERS,
            Upgrade: 'websocket',
            'Content-Type': 'application/json; charset=utf-8',
          },
        },
      );
    }
    return upgrade(c as Parameters<typeof upgrade>[0], next);
  };
}

type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 429 | 500 | 503;

/** An error in FMP's shape with the given status; never cached. */
function errorResponse(
  status: ErrorStatus,
  message: string,
  headers: Record<string, string> = { ...CORS_HEADERS },
  body: string = errorBody(message),
): Response {
  headers['Cache-Control'] = 'no-store';
  headers['Content-Type'] = 'application/json; charset=utf-8';
  return new Response(body, { status, headers });
}

/** The key an HTTP request carries, and its client address for budgets counted per visitor. */
class HttpCredential implements DataCredential {
  readonly key: string | undefined;
  private readonly context: Context;

  constructor(context: Context, search: string) {
    this.context = context;
    this.key =
      (search.includes('apikey') ? context.req.query('apikey') : undefined) ?? context.req.header('apikey');
  }

  client(): string {
    return ipKey(this.context);
  }
}

/** The HTTP answer of a pipeline outcome: every header in one plain object, turned into a Response once. */
function httpResponse(outcome: DataOutcome): Response {
  const headers: Record<string, string> = { ...CORS_HEADERS };
  if (outcome.limits !== undefined) Object.assign(headers, outcome.limits);
  if (!outcome.ok) return errorResponse(outcome.status, outcome.message, headers, outcome.body);
  const { endpoint } = outcome;
  headers.ETag = outcome.etag;
  headers['Cache-Control'] = endpoint.maxAge > 0 ? `private, max-age=${endpoint.maxAge}` : 'no-cache';
  headers['X-Data-Source'] = outcome.source;
  headers.Vary = 'apikey';
  if (outcome.unchanged) return new Response(null, { status: 304, headers });
  if (outcome.file !== undefined) {
    headers['Content-Type'] = outcome.file.contentType;
    headers['Content-Disposition'] = `attachment; filename="${outcome.file.name}"`;
    return new Response(outcome.file.bytes, { status: 200, headers });
  }
  if (outcome.csv) {
    headers['Content-Type'] = 'text/csv; charset=utf-8';
    headers['Content-Disposition'] = `inline; filename="${endpoint.path.replaceAll('/', '-')}.csv"`;
  } else {
    headers['Content-Type'] = 'application/json; charset=utf-8';
  }
  return new Response(outcome.body, { status: 200, headers });
}

/**
 * Builds the data API: HTTP glue around the {@link DataPipeline}. A /stable/* request names the
 * endpoint by its path, its parameters by the query and its key by `apikey` (query or header); the
 * outcome becomes JSON or CSV (or a workbook endpoint's .xlsx attachment) with ETag, Cache-Control and
 * the data-source label, or an error in FMP's shape. A cached answer comes back from the pipeline synchronously and is sent without a promise.
 * An /api/v3/* request (FMP's legacy style, symbol in the path) is resolved by the legacy router to
 * an endpoint derived from a stable one and answered by the same pipeline (legacy accounts only).
 */
export function createDataApi(options: DataApiOptions = {}): DataApi {
  const pipeline = createDataPipeline({
    database: options.database ?? (async () => (await getDatabase()).db),
    store: options.store,
    now: options.now,
    secret: options.secret,
    endpoints: [...(options.endpoints ?? ENDPOINTS), ...ACCOUNT_ENDPOINTS],
    flushIntervalMs: options.flushIntervalMs,
    siteUrl: options.siteUrl,
  });
  const legacy = createLegacyRouter(pipeline.endpoints);
  const streams = new StreamHub({
    ...options.streams,
    pipeline,
    database: options.database ?? (async () => (await getDatabase()).db),
    now: options.now,
  });
  let openApiBody: string | undefined;
  const accessLog = options.accessLog;

  /** Answers a request for `endpoint`; `query` adds what a legacy path carries to the request's query. */
  const serve = (
    c: Context,
    endpoint: EndpointDefinition,
    query?: (search: string) => string,
  ): Response | Promise<Response> => {
    const url = c.req.url;
    const start = url.indexOf('?');
    const given = start < 0 ? '' : url.slice(start + 1);
    const search = query === undefined ? given : query(given);
    const outcome = pipeline.call(
      endpoint,
      search,
      new HttpCredential(c, search),
      c.req.header('if-none-match'),
    );
    return outcome instanceof Promise ? outcome.then(httpResponse) : httpResponse(outcome);
  };

  /** A bulk endpoint's file, streamed (see bulk-http.ts). */
  const serveBulk = async (c: Context, endpoint: EndpointDefinition): Promise<Response> => {
    const url = c.req.url;
    const start = url.indexOf('?');
    const search = start < 0 ? '' : url.slice(start + 1);
    const download = await pipeline.download(endpoint, search, new HttpCredential(c, search));
    if (!download.ok) return httpResponse(download);
    return bulkResponse(
      download,
      {
        range: c.req.header('range'),
        ifRange: c.req.header('if-range'),
        acceptEncoding: c.req.header('accept-encoding'),
      },
      { ...CORS_HEADERS },
    );
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
    .options(MCP_PATH, () => new Response(null, { status: 204, headers: MCP_PREFLIGHT_HEADERS }))
    .options(
      '*',
      () =>
        new Response(null, {
          status: 204,
          headers: {
            ...CORS_HEADERS,
            'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
            'Access-Control-Allow-Headers': 'apikey, if-none-match, content-type, range, if-range',
            'Access-Control-Max-Age': '86400',
          },
        }),
    )
    .route(
      '/',
      healthRoutes({
        database: () => checkDatabase(),
        limits: () => checkRateLimits(options.store ?? sharedRateLimitStore()),
      }),
    )
    .all(MCP_PATH, mcpHandler(pipeline))
    .get('/stable/openapi.json', () => {
      openApiBody ??= JSON.stringify(openApiDocument(pipeline.endpoints, { version: API_VERSION }));
      return new Response(openApiBody, {
        headers: {
          ...CORS_HEADERS,
          'Cache-Control': 'public, max-age=300',
          'Content-Type': 'application/json; charset=utf-8',
        },
      });
    })
    .get('/websockets/:stream', streamRoute(streams))
    .get('/stable/*', (c) => {
      const tail = c.req.path.slice('/stable/'.length);
      const endpoint = pipeline.find(tail.endsWith('/') ? tail.replace(/\/+$/, '') : tail);
      if (endpoint === undefined) return errorResponse(404, UNKNOWN_ENDPOINT_MESSAGE(c.req.path));
      return endpoint.bulk === undefined ? serve(c, endpoint) : serveBulk(c, endpoint);
    })
    .get(`${LEGACY_PREFIX}*`, (c) => {
      const tail = c.req.path.slice(LEGACY_PREFIX.length).replace(/\/+$/, '');
      const match = legacy.match(tail);
      if (match === undefined) return errorResponse(404, UNKNOWN_LEGACY_ENDPOINT_MESSAGE(c.req.path));
      return serve(c, match.endpoint, match.query);
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
    pipeline,
    keys: pipeline.keys,
    meter: pipeline.meter,
    directory: pipeline.directory,
    streams,
    close: () => {
      streams.close();
      return pipeline.close();
    },
  };
}

const SHARED = Symbol.for('market-data.data-api');
const holder = globalThis as typeof globalThis & { [SHARED]?: DataApi | undefined };

/** The process-wide data API (one meter and one key cache per process). */
export function sharedDataApi(): DataApi {
  holder[SHARED] ??= createDataApi({
    accessLog: dataApiAccessLogEnabled() ? (line) => console.log(line) : undefined,
  });
  return holder[SHARED];
}

/** Flushes metering and forgets the process-wide data API (server shutdown). */
export async function closeSharedDataApi(): Promise<void> {
  const api = holder[SHARED];
  holder[SHARED] = undefined;
  await api?.close();
}
