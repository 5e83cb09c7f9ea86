import { createHash } from 'node:crypto';
import type { Db } from '../db/client.ts';
import type { DataSource } from '../db/schema.ts';
import { MemoryStore, sharedRateLimitStore, type RateLimitStore } from '../middleware/rate-limit-store.ts';
import { UsageMeter } from '../services/api-usage.ts';
import { CachedDirectory, symbolTier, type SymbolDirectory } from '../services/market-data/directory.ts';
import { Memo } from '../services/market-data/memo.ts';
import { InvalidParametersError, PlanRequiredError } from '../services/market-data/plan-access.ts';
import { siteUrl } from '../app/config.ts';
import { AUTH_LINKS } from '../../lib/routes.ts';
import { KeyChecker, type AccessRefusal, type DataCaller, type KeyCheckerOptions } from './access.ts';
import { legacyEndpointMessage } from './legacy.ts';
import { toCsv } from '../../lib/csv.ts';
import { DataApiError, XLSX_CONTENT_TYPE, type EndpointDefinition } from './endpoint.ts';
import { countCall, countCallNow, limitMessage, releaseCall, type LimitVerdict } from './limits.ts';
import { prepareQuery, withoutKey, type PreparedQuery } from './query.ts';
import { onAccountKeysChanged } from '../services/key-events.ts';
import { RequestLog } from '../services/request-log.ts';
import { BulkFileText } from './bulk-file.ts';
import { writeWorkbook } from './workbook.ts';

/** Answers kept for repeated identical requests (bounded; least recently used go first). */
const ANSWER_CACHE_SIZE = 2_000;
/** Longest an answer is served from the cache, whatever the endpoint's max-age. */
const ANSWER_CACHE_MAX_SECONDS = 15;
/** Validated queries kept for repeated identical requests. */
const PREPARED_QUERY_CACHE_SIZE = 5_000;

/**
 * A call's parameters: a URL query string (`symbol=AAPL&datatype=csv`, as HTTP sends it, so a repeated
 * request is recognised by its text alone) or the values themselves (a message of another transport).
 * `datatype` picks JSON or CSV; an `apikey` among them is ignored (the credential carries the key).
 */
export type DataParameters = string | Readonly<Record<string, string>>;

/** Who is calling, as the transport received it. */
export interface DataCredential {
  /** The API key or the public token; undefined when none was sent. */
  readonly key: string | undefined;
  /** The caller's network identity, whose budget a public token spends; asked only for such callers. */
  client(): string;
}

/** Why a call was refused, for transports that answer without HTTP statuses. */
export type RefusalReason = 'credential' | 'limit' | 'parameters' | 'plan' | 'not-found';

/** A call refused before or instead of its answer. */
export interface DataRefusal {
  ok: false;
  reason: RefusalReason;
  /** The HTTP status the refusal answers with (FMP's). */
  status: 400 | 401 | 402 | 403 | 404 | 429;
  message: string;
  /** The refusal in FMP's error shape, `{"Error Message": …}`, serialized once. */
  body: string;
  /** RateLimit headers of the budgets counted for the call (none when no budget was counted). */
  limits: Readonly<Record<string, string>> | undefined;
}

/** A file answer's bytes (a workbook endpoint's), with the name and type they are sent under. */
export interface AnswerFile {
  /** The attachment's name: 'AAPL-2024-FY.xlsx'. */
  name: string;
  contentType: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** An answered call: its body, with what a transport needs to label and reuse it. */
export interface DataAnswer {
  ok: true;
  endpoint: EndpointDefinition;
  csv: boolean;
  /** The rows as JSON, or as CSV with a header line; empty for a file answer. */
  body: string;
  /**
   * A workbook endpoint's answer: the file to send instead of the body. Only HTTP sends it; other
   * transports refuse such endpoints before calling (see `workbook` on the definition).
   */
  file: AnswerFile | undefined;
  /** A weak validator of the body: equal bodies have equal tags. */
  etag: string;
  /** True when the caller already holds this body (its tag was passed as `held`): nothing is sent. */
  unchanged: boolean;
  /** Bytes sent and metered: the body's, or 0 when unchanged. */
  bytes: number;
  source: DataSource;
  /** RateLimit headers of the budgets counted for the call (none for a free endpoint). */
  limits: Readonly<Record<string, string>> | undefined;
}

export type DataOutcome = DataAnswer | DataRefusal;

/**
 * An admitted bulk download (see {@link DataPipeline.download}): the file to stream, and how the
 * transport reports the end of the call, when the bytes sent are known.
 */
export interface DataDownload {
  ok: true;
  file: BulkFileText;
  source: DataSource;
  /** RateLimit headers of the budgets counted for the call (its weight). */
  limits: Readonly<Record<string, string>> | undefined;
  /** The call was answered (200, 206): meters its weight and bytes and logs it. Once. */
  finish(status: number, bytes: number): void;
  /** The call was answered without the file (416): its weight is given back, and it is logged. Once. */
  refund(status: number): Promise<void>;
}

export interface DataPipelineOptions {
  database: () => Promise<Db>;
  /** Where call budgets are counted (default: the process-wide store, Redis when REDIS_URL is set). */
  store?: RateLimitStore | undefined;
  now?: (() => number) | undefined;
  /** Server secret for key lookups (default APP_SECRET or the development secret). */
  secret?: string | undefined;
  /** Every endpoint served, in documentation order. */
  endpoints: readonly EndpointDefinition[];
  flushIntervalMs?: number | undefined;
  /** How a key's account is checked at the identity provider (default: the accounts service's check). */
  checkIdentity?: KeyCheckerOptions['checkIdentity'];
  /** The site's address named by refusals that point to its documentation (default PUBLIC_SITE_URL). */
  siteUrl?: string | undefined;
}

/** The data API without a transport: HTTP, a stream or a tool server call it alike. */
export interface DataPipeline {
  /** Every endpoint served, in documentation order. */
  endpoints: readonly EndpointDefinition[];
  /** The endpoint at a path under /stable/ ('quote', 'historical-chart/5min'), if there is one. */
  find(path: string): EndpointDefinition | undefined;
  /**
   * Answers one call, or refuses it: key check, call budgets, parameter validation, plan coverage of
   * the endpoint and the symbols, the handler or the answer cache, then metering. A known key asking
   * again for a fresh cached answer (the common case) is answered synchronously, without a promise.
   * `held` is the tag of a body the caller already has (an If-None-Match).
   */
  call(
    endpoint: EndpointDefinition,
    parameters: DataParameters,
    credential: DataCredential,
    held?: string,
  ): DataOutcome | Promise<DataOutcome>;
  /**
   * Who a key speaks for, or why it is refused: the key check every call starts with, for transports
   * that check a key once per connection (the websocket streams) and again from time to time.
   */
  authorize(key: string | undefined): Promise<DataCaller | DataRefusal>;
  /** The 402 message for a caller whose plan is below `tier`, naming the cheapest plan that covers it. */
  planMessage(caller: DataCaller, tier: number, subject: string): Promise<string>;
  /**
   * Admits a call of a bulk endpoint (key, budgets counted at the endpoint's weight, parameters, plan)
   * and hands over its file to stream; the transport reports the end with `finish` or `refund`.
   */
  download(
    endpoint: EndpointDefinition,
    parameters: DataParameters,
    credential: DataCredential,
  ): Promise<DataDownload | DataRefusal>;
  keys: KeyChecker;
  meter: UsageMeter;
  /** The request log's batched writer (the dashboard's Request log). */
  requestLog: RequestLog;
  directory: CachedDirectory;
  /** Lets identity checks under way finish and flushes the metering. */
  close(): Promise<void>;
}

/** What a call asks for beyond the caller's plan: the tier, and the years of daily history if those decide. */
interface PlanShortfall {
  tier: number;
  /** What is not covered, as the message names it. */
  subject: string;
  historyYears?: number | undefined;
}

/**
 * The second sentence of a 402: the cheapest plan that opens the call, with the full address of the
 * pricing page, so a client's log or a script's output points its reader straight to the upgrade.
 */
function upgradeText(planName: string | undefined, pricingUrl: string): string {
  return planName === undefined
    ? `Contact us for access: see ${pricingUrl}.`
    : `It is included in the ${planName} plan and above: see ${pricingUrl}.`;
}

/** The body of an error in FMP's shape. */
export function errorBody(message: string): string {
  return JSON.stringify({ 'Error Message': message });
}

/** Whether an If-None-Match value names `etag` (a list, a bare or weak tag, or `*`). */
export function matchesEtag(held: string | undefined, etag: string): boolean {
  if (held === undefined) return false;
  return held.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || `W/${value}` === etag;
  });
}

function etagOf(body: string): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** A body ready to send again. */
interface Serialized {
  body: string;
  /** A workbook answer's file (the body is then empty). */
  file?: AnswerFile;
  etag: string;
  bytes: number;
}

/** Each row with only these fields, in this order (a field a row lacks stays out of it). */
function picked(
  rows: readonly Record<string, unknown>[],
  columns: readonly string[],
): Record<string, unknown>[] {
  return rows.map((row) => {
    const kept: Record<string, unknown> = {};
    for (const column of columns) if (column in row) kept[column] = row[column];
    return kept;
  });
}

/**
 * The answer as sent: its rows as CSV (the fields asked for, or every field of the definition), or
 * the answer (the rows or their envelope) as JSON, its rows narrowed to the fields asked for.
 */
function serialized(
  endpoint: EndpointDefinition,
  answer: unknown,
  { csv, columns }: PreparedQuery,
): Serialized {
  let body: string;
  if (csv) {
    body = toCsv(answer as Record<string, unknown>[], columns ?? Object.keys(endpoint.row.shape));
  } else if (columns !== undefined && Array.isArray(answer)) {
    body = JSON.stringify(picked(answer as Record<string, unknown>[], columns));
  } else {
    body = JSON.stringify(answer);
  }
  return { body, etag: etagOf(body), bytes: Buffer.byteLength(body) };
}

/**
 * A workbook endpoint's answer: its rows written as the sheets of an .xlsx file. The zip inside
 * stamps each writing with the time, so the tag is a weak one of the rows: equal rows make
 * equivalent workbooks, and a client holding one is answered 304.
 */
async function serializedWorkbook(
  endpoint: EndpointDefinition,
  rows: Record<string, unknown>[],
  params: Record<string, unknown>,
): Promise<Serialized> {
  const workbook = endpoint.workbook;
  if (workbook === undefined) throw new Error(`${endpoint.path} answers no workbook`);
  const bytes = await writeWorkbook(workbook.sheets(rows, params));
  const file = { name: `${workbook.fileName(params)}.xlsx`, contentType: XLSX_CONTENT_TYPE, bytes };
  return { body: '', file, etag: etagOf(`xlsx|${JSON.stringify(rows)}`), bytes: bytes.byteLength };
}

/** What a call may see, or the plan it needs: decided from the query and the directory alone. */
function admit(
  endpoint: EndpointDefinition,
  request: PreparedQuery,
  symbols: SymbolDirectory,
  caller: DataCaller,
): { source: DataSource } | { tier: number; subject: string } {
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
    if (known.length > 0) source = known.some((security) => security.source === 'demo') ? 'demo' : 'imported';
  }
  return { source };
}

/**
 * Answers depend on the parameters and, through the default history range, on the plan's history;
 * within an endpoint's max-age they are served again without running the handler. The key string
 * is kept on the prepared query, so a repeated call hashes nothing new. Caller-aware answers are
 * never shared.
 */
function answerKey(
  endpoint: EndpointDefinition,
  request: PreparedQuery,
  caller: DataCaller,
): string | undefined {
  if (endpoint.maxAge <= 0 || endpoint.callerAware === true) return undefined;
  const years = caller.plan.historyYears;
  let built = request.answerKey;
  if (built?.years !== years) {
    built = { years, key: `${request.key}|${String(years)}` };
    request.answerKey = built;
  }
  return built.key;
}

function refusal(
  reason: RefusalReason,
  status: DataRefusal['status'],
  message: string,
  limits: DataRefusal['limits'],
): DataRefusal {
  return { ok: false, reason, status, message, body: errorBody(message), limits };
}

function reasonOf(status: DataApiError['status']): RefusalReason {
  if (status === 400) return 'parameters';
  if (status === 402) return 'plan';
  if (status === 404) return 'not-found';
  return 'credential';
}

/** A refused key or token: no budget was counted. */
function accessRefusal(refused: AccessRefusal): DataRefusal {
  return refusal('credential', refused.status, refused.message, undefined);
}

/**
 * Builds the pipeline every transport calls: key check (cached), call budgets, parameter validation,
 * plan coverage of the endpoint and the symbols, the handler or a cached answer, metering.
 */
export function createDataPipeline(options: DataPipelineOptions): DataPipeline {
  const { database, endpoints } = options;
  const now = options.now ?? Date.now;
  const keys = new KeyChecker({
    database,
    now,
    ...(options.secret === undefined ? {} : { secret: options.secret }),
    ...(options.checkIdentity === undefined ? {} : { checkIdentity: options.checkIdentity }),
  });
  // A key revoked or ended early on the dashboard stops at once in this process.
  const stopListening = onAccountKeysChanged((userId) => {
    keys.forgetAccount(userId);
  });
  const meter = new UsageMeter({
    database,
    now,
    ...(options.flushIntervalMs === undefined ? {} : { flushIntervalMs: options.flushIntervalMs }),
  });
  const requestLog = new RequestLog({
    database,
    now,
    ...(options.flushIntervalMs === undefined ? {} : { flushIntervalMs: options.flushIntervalMs }),
  });
  const directory = new CachedDirectory(database, now);
  const byPath = new Map<string, EndpointDefinition>(endpoints.map((endpoint) => [endpoint.path, endpoint]));
  // Paths are matched whatever their case on a miss: FMP's clients write some of them in camel case
  // (technical-indicators/standardDeviation), and the lookup of the exact path stays the fast one.
  const byLowerPath = new Map<string, EndpointDefinition>(
    endpoints.map((endpoint) => [endpoint.path.toLowerCase(), endpoint]),
  );
  const answers = new Memo<Serialized>({
    max: ANSWER_CACHE_SIZE,
    ttlMs: ANSWER_CACHE_MAX_SECONDS * 1000,
    clock: now,
  });
  const preparedQueries = new Memo<PreparedQuery>({ max: PREPARED_QUERY_CACHE_SIZE, ttlMs: Infinity });
  /** A legacy endpoint asked for by a caller without the legacy flag: no budget is counted. */
  const legacyRefusal = refusal(
    'credential',
    403,
    legacyEndpointMessage(options.siteUrl ?? siteUrl()),
    undefined,
  );

  /**
   * Validation is a pure function of the endpoint and the query, so clients repeating a request (a
   * ticker polling a quote) reuse the earlier result, keyed by the raw query without the key.
   */
  const prepare = (endpoint: EndpointDefinition, search: string): PreparedQuery | string => {
    const memoKey = `${endpoint.path}?${search.includes('apikey') ? withoutKey(search) : search}`;
    const known = preparedQueries.get(memoKey);
    if (known !== undefined) return known;
    const request = prepareQuery(endpoint, search);
    if (typeof request !== 'string') preparedQueries.set(memoKey, request);
    return request;
  };

  const pricingUrl = `${options.siteUrl ?? siteUrl()}${AUTH_LINKS.pricing}`;
  const planMessage = async (
    caller: DataCaller,
    { tier, subject, historyYears }: PlanShortfall,
  ): Promise<string> => {
    const plan = await keys.cheapestPlanFor(tier, historyYears);
    return `Your ${caller.plan.name} plan does not cover ${subject}. ${upgradeText(plan?.name, pricingUrl)}`;
  };

  // An account's limits are shared by all its keys: the budgets belong to the account.
  const subjectOf = (caller: DataCaller, credential: DataCredential): string =>
    caller.kind === 'key' ? `account:${caller.userId}` : credential.client();

  /**
   * Counts the call against the caller's budgets: the verdict, undefined for a free endpoint, 'async'
   * when the budgets live in a shared store that must be asked.
   */
  const limit = (
    endpoint: EndpointDefinition,
    caller: DataCaller,
    credential: DataCredential,
  ): LimitVerdict | undefined | 'async' => {
    if (endpoint.free === true) return undefined;
    const store = options.store ?? sharedRateLimitStore();
    if (!(store instanceof MemoryStore)) return 'async';
    return countCallNow(store, subjectOf(caller, credential), caller.limits, endpoint.bulk?.weight);
  };

  const limitRefusal = (verdict: LimitVerdict, caller: DataCaller): DataRefusal | undefined => {
    if (verdict.refusal === undefined) return undefined;
    return refusal('limit', 429, limitMessage(verdict.refusal, caller.plan.name), verdict.headers);
  };

  /**
   * Settles a call that passed the budgets: an answer is metered (a key's calls and bytes); a refusal
   * after the budgets (plan, parameters, unknown symbol) gives its counts back and is not metered, so
   * only answered calls use up limits and show as usage.
   */
  const settled = (
    endpoint: EndpointDefinition,
    caller: DataCaller,
    credential: DataCredential,
    outcome: DataOutcome,
  ): DataOutcome | Promise<DataOutcome> => {
    if (endpoint.free === true) return outcome;
    if (outcome.ok) {
      if (caller.kind === 'key') meter.record(caller.keyId, endpoint.path, outcome.bytes);
      return outcome;
    }
    const store = options.store ?? sharedRateLimitStore();
    return releaseCall(store, subjectOf(caller, credential), caller.limits, endpoint.bulk?.weight).then(
      () => outcome,
    );
  };

  const answered = (
    endpoint: EndpointDefinition,
    csv: boolean,
    { body, file, etag, bytes }: Serialized,
    source: DataSource,
    limits: DataAnswer['limits'],
    held: string | undefined,
  ): DataAnswer => {
    const unchanged = matchesEtag(held, etag);
    return {
      ok: true,
      endpoint,
      csv,
      body,
      file,
      etag,
      unchanged,
      bytes: unchanged ? 0 : bytes,
      source,
      limits,
    };
  };

  /** The hot path of {@link respond}: a fresh cached answer the caller may see, or undefined. */
  const respondFromCache = (
    endpoint: EndpointDefinition,
    search: string,
    caller: DataCaller,
    limits: DataAnswer['limits'],
    held: string | undefined,
  ): DataAnswer | undefined => {
    const request = prepare(endpoint, search);
    const symbols = directory.fresh();
    if (typeof request === 'string' || symbols === undefined) return undefined;
    const admitted = admit(endpoint, request, symbols, caller);
    if (!('source' in admitted)) return undefined;
    const cacheKey = answerKey(endpoint, request, caller);
    const cached = cacheKey === undefined ? undefined : answers.get(cacheKey);
    if (cached === undefined) return undefined;
    return answered(endpoint, request.csv, cached, admitted.source, limits, held);
  };

  /** Everything after the key and the budgets. */
  const respond = async (
    endpoint: EndpointDefinition,
    search: string,
    caller: DataCaller,
    limits: DataAnswer['limits'],
    held: string | undefined,
  ): Promise<DataOutcome> => {
    const refuseForPlan = async (shortfall: PlanShortfall): Promise<DataRefusal> =>
      refusal('plan', 402, await planMessage(caller, shortfall), limits);
    const request = prepare(endpoint, search);
    if (typeof request === 'string') return refusal('parameters', 400, request, limits);
    const { params, csv } = request;

    const symbols = directory.fresh() ?? (await directory.get());
    const admitted = admit(endpoint, request, symbols, caller);
    if (!('source' in admitted)) return refuseForPlan(admitted);

    const cacheKey = answerKey(endpoint, request, caller);
    let cached = cacheKey === undefined ? undefined : answers.get(cacheKey);
    if (cached === undefined) {
      let rows: Record<string, unknown>[];
      try {
        rows = await endpoint.handler({
          db: await database(),
          params,
          plan: caller.plan,
          symbols,
          now: new Date(now()),
          caller: endpoint.callerAware === true ? caller : undefined,
        });
      } catch (error) {
        if (error instanceof DataApiError)
          return refusal(reasonOf(error.status), error.status, error.message, limits);
        if (error instanceof InvalidParametersError) return refusal('parameters', 400, error.message, limits);
        if (error instanceof PlanRequiredError) return refuseForPlan(error);
        throw error;
      }
      if (endpoint.workbook !== undefined && rows.length === 0) {
        return refusal('not-found', 404, endpoint.workbook.notFound(params), limits);
      }
      if (endpoint.workbook !== undefined) cached = await serializedWorkbook(endpoint, rows, params);
      else {
        const answer = endpoint.envelope === undefined ? rows : endpoint.envelope(rows, params);
        cached = serialized(endpoint, answer, request);
      }
      if (cacheKey !== undefined) {
        answers.set(cacheKey, cached, Math.min(endpoint.maxAge, ANSWER_CACHE_MAX_SECONDS) * 1000);
      }
    }
    return answered(endpoint, csv, cached, admitted.source, limits, held);
  };

  /** Writes a keyed call to the request log (in the next batch) and hands its outcome on. */
  /** Writes a keyed call to the request log (an answer, a refusal or a bulk file once sent). */
  const logCall = (
    endpoint: EndpointDefinition,
    caller: DataCaller,
    search: string,
    started: number,
    status: number,
    bytes: number,
  ): void => {
    if (caller.kind !== 'key' || !requestLog.accepts(caller.userId)) return;
    requestLog.record({
      userId: caller.userId,
      apiKeyId: caller.keyId,
      at: now(),
      endpoint: endpoint.path,
      params: withoutKey(search),
      status,
      latencyMs: Math.round(performance.now() - started),
      bytes,
    });
  };

  const logged = (
    endpoint: EndpointDefinition,
    caller: DataCaller,
    search: string,
    started: number,
    outcome: DataOutcome,
  ): DataOutcome => {
    logCall(
      endpoint,
      caller,
      search,
      started,
      outcome.ok ? (outcome.unchanged ? 304 : 200) : outcome.status,
      outcome.ok ? outcome.bytes : Buffer.byteLength(outcome.body),
    );
    return outcome;
  };

  /** The asynchronous path: a key or plan to look up, or budgets in a shared store. */
  const callChecked = async (
    endpoint: EndpointDefinition,
    search: string,
    credential: DataCredential,
    held: string | undefined,
    started: number,
  ): Promise<DataOutcome> => {
    const caller: DataCaller | AccessRefusal = await keys.check(credential.key);
    if ('status' in caller) return accessRefusal(caller);
    if (endpoint.legacy === true && !caller.legacy)
      return logged(endpoint, caller, search, started, legacyRefusal);
    let verdict = limit(endpoint, caller, credential);
    if (verdict === 'async') {
      verdict = await countCall(
        options.store ?? sharedRateLimitStore(),
        subjectOf(caller, credential),
        caller.limits,
        endpoint.bulk?.weight,
      );
    }
    const limited = verdict === undefined ? undefined : limitRefusal(verdict, caller);
    if (limited !== undefined) return logged(endpoint, caller, search, started, limited);
    const outcome = await settled(
      endpoint,
      caller,
      credential,
      await respond(endpoint, search, caller, verdict?.headers, held),
    );
    return logged(endpoint, caller, search, started, outcome);
  };

  const call = (
    endpoint: EndpointDefinition,
    parameters: DataParameters,
    credential: DataCredential,
    held?: string,
  ): DataOutcome | Promise<DataOutcome> => {
    const started = performance.now();
    const search = typeof parameters === 'string' ? parameters : new URLSearchParams(parameters).toString();
    const caller = keys.checkCached(credential.key);
    if (caller === undefined || 'status' in caller) {
      return callChecked(endpoint, search, credential, held, started);
    }
    if (endpoint.legacy === true && !caller.legacy)
      return logged(endpoint, caller, search, started, legacyRefusal);
    const verdict = limit(endpoint, caller, credential);
    if (verdict === 'async') return callChecked(endpoint, search, credential, held, started);
    const limited = verdict === undefined ? undefined : limitRefusal(verdict, caller);
    if (limited !== undefined) return logged(endpoint, caller, search, started, limited);
    const limits = verdict?.headers;
    const answer = respondFromCache(endpoint, search, caller, limits, held);
    if (answer === undefined) {
      return respond(endpoint, search, caller, limits, held)
        .then((slow) => settled(endpoint, caller, credential, slow))
        .then((outcome) => logged(endpoint, caller, search, started, outcome));
    }
    const outcome = settled(endpoint, caller, credential, answer);
    return outcome instanceof Promise
      ? outcome.then((done) => logged(endpoint, caller, search, started, done))
      : logged(endpoint, caller, search, started, outcome);
  };

  /**
   * A bulk call: the same key check, budgets (at the endpoint's weight), parameters and plan as any
   * call, then the file instead of an answer; metered when the transport has sent it.
   */
  const download = async (
    endpoint: EndpointDefinition,
    parameters: DataParameters,
    credential: DataCredential,
  ): Promise<DataDownload | DataRefusal> => {
    const started = performance.now();
    const search = typeof parameters === 'string' ? parameters : new URLSearchParams(parameters).toString();
    const caller: DataCaller | AccessRefusal = await keys.check(credential.key);
    if ('status' in caller) return accessRefusal(caller);
    const weight = endpoint.bulk?.weight ?? 1;
    const subject = subjectOf(caller, credential);
    const store = options.store ?? sharedRateLimitStore();
    const verdict = await countCall(store, subject, caller.limits, weight);
    const limited = limitRefusal(verdict, caller);
    if (limited !== undefined) return logged(endpoint, caller, search, started, limited) as DataRefusal;
    const refused = async (outcome: DataRefusal): Promise<DataRefusal> => {
      await releaseCall(store, subject, caller.limits, weight);
      return logged(endpoint, caller, search, started, outcome) as DataRefusal;
    };
    const request = prepare(endpoint, search);
    if (typeof request === 'string') return refused(refusal('parameters', 400, request, verdict.headers));
    const symbols = directory.fresh() ?? (await directory.get());
    const admitted = admit(endpoint, request, symbols, caller);
    if (!('source' in admitted)) {
      return refused(refusal('plan', 402, await planMessage(caller, admitted), verdict.headers));
    }
    const file = new BulkFileText({
      endpoint,
      csv: request.csv,
      columns: request.columns,
      queryKey: request.key,
      context: {
        db: await database(),
        params: request.params,
        plan: caller.plan,
        symbols,
        now: new Date(now()),
        caller: undefined,
      },
    });
    let ended = false;
    const end = (status: number, bytes: number): void => {
      if (ended) return;
      ended = true;
      logCall(endpoint, caller, search, started, status, bytes);
    };
    return {
      ok: true,
      file,
      source: admitted.source,
      limits: verdict.headers,
      finish: (status, bytes) => {
        if (!ended && caller.kind === 'key') meter.record(caller.keyId, endpoint.path, bytes, weight);
        end(status, bytes);
      },
      refund: async (status) => {
        if (ended) return;
        end(status, 0);
        await releaseCall(store, subject, caller.limits, weight);
      },
    };
  };

  return {
    endpoints,
    find: (path) => byPath.get(path) ?? byLowerPath.get(path.toLowerCase()),
    call,
    authorize: async (key) => {
      const caller = await keys.check(key);
      return 'status' in caller ? accessRefusal(caller) : caller;
    },
    planMessage: (caller, tier, subject) => planMessage(caller, { tier, subject }),
    download,
    keys,
    meter,
    requestLog,
    directory,
    close: async () => {
      stopListening();
      await keys.settled();
      await meter.close();
      await requestLog.close();
    },
  };
}
