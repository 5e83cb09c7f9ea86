import { z } from 'zod';
import type { DatasetId } from '../../lib/routes.ts';
import type { Db } from '../db/client.ts';
import type { SymbolDirectory } from '../services/market-data/directory.ts';
import { brandedClass, type DataTier, type PlanAccess } from '../services/market-data/plan-access.ts';
import type { DataCaller } from './access.ts';

/** Everything a handler may use: no Hono context, so services stay callable from pages and tests. */
export interface EndpointContext<P> {
  db: Db;
  params: P;
  plan: PlanAccess;
  symbols: SymbolDirectory;
  /** The request's clock (tests pass a fixed one). */
  now: Date;
  /** Who is calling: set only for endpoints flagged `callerAware`, whose answers depend on it. */
  caller: DataCaller | undefined;
}

const DATA_API_ERROR = brandedClass('DataApiError');

/**
 * A refusal a handler raises for a specific reason (a parameter that cannot be served, a caller the
 * endpoint cannot answer); the pipeline refuses the call with this status and message.
 */
export class DataApiError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return DATA_API_ERROR.hasInstance(value);
  }
  readonly [DATA_API_ERROR.brand] = true;
  readonly status: 400 | 401 | 402 | 403 | 404;
  constructor(status: 400 | 401 | 402 | 403 | 404, message: string) {
    super(message);
    this.name = 'DataApiError';
    this.status = status;
  }
}

// Loose object shapes keep definitions readable; each definition is checked by its own schemas.
type Shape = z.ZodObject;

/**
 * How often an endpoint's data changes, by kind, with the label the documentation shows. The cycle
 * times pages, the reference pages and the OpenAPI document (`x-update-cadence`) all read it from
 * the definitions, so a client learns when fresh data is worth asking for.
 */
export const UPDATE_FREQUENCIES = {
  'real-time': 'Real-time',
  intraday: 'Intraday',
  'end-of-day': 'End of day',
  daily: 'Daily',
  'as-published': 'As published',
  quarterly: 'Quarterly',
  yearly: 'Yearly',
} as const;

export type UpdateFrequency = keyof typeof UPDATE_FREQUENCIES;

/** When an endpoint's data is refreshed. */
export interface UpdateCadence {
  frequency: UpdateFrequency;
  /** When, in a sentence for a person: 'After each session’s close, when its daily bar is loaded.' */
  when: string;
}

/** Data that follows the latest daily bar: it changes when each market's session closes. */
export const SESSION_CLOSE_CADENCE: UpdateCadence = {
  frequency: 'end-of-day',
  when: 'After each session’s close, when its daily bar is loaded: 16:00 New York time for US listings, each exchange’s own close elsewhere, midnight UTC for crypto and forex.',
};

/**
 * Prices of the live market (quotes and what is worked out from them): they move during each market's
 * session, by the second, and hold the latest close outside it. The demo's live market is simulated.
 */
export const LIVE_QUOTE_CADENCE: UpdateCadence = {
  frequency: 'real-time',
  when: 'Real time during each market’s session (demo: simulated around the stored daily bars), the latest close outside it: 09:30–16:00 New York time on US trading days (to 13:00 on early closes) for US listings, indexes and commodities, each exchange’s own hours elsewhere, around the clock for crypto, Sunday 17:00 to Friday 17:00 New York time for forex.',
};

/** The symbol directory (lists, search): new listings and delistings are taken in once a day. */
export const DIRECTORY_CADENCE: UpdateCadence = {
  frequency: 'daily',
  when: 'Once a day, before the US session opens: new listings and delistings are taken in, and the API picks them up within a minute.',
};

/** Figures reported in company filings: they change when a company files a period's report. */
export const FILING_CADENCE: UpdateCadence = {
  frequency: 'quarterly',
  when: 'Each quarter, as companies file their reports (10-Q and 10-K or their equivalents): a new period is added within a day of the filing.',
};

/**
 * A bulk file: the whole market's rows of one kind in one download, streamed as the database yields
 * them instead of built in memory. The pipeline counts it as `weight` calls; the HTTP layer answers
 * CSV by default, gzip on request, and byte ranges of the file.
 */
export interface BulkFile<P> {
  /** Calls one download counts as, against the minute and day budgets and in the usage meter. */
  weight: number;
  /** The file's name without its extension, from the parameters: 'income-statement-bulk-2025-annual'. */
  fileName: (params: P) => string;
  /** How a client resumes an interrupted download, for the docs: byte ranges, or also parts. */
  resume: string;
  /**
   * What each row is, for the bulk downloads guide's table of files: the per-symbol endpoint whose
   * rows the file repeats, its path in backticks, with how the file's row differs if it does.
   */
  rows?: string;
  /**
   * The rows are valued at the moment of the request (live prices, currency rates): two downloads a
   * second apart may differ, so the file's length and tag learnt from one download are not announced
   * for the next, and each download is checked against itself only.
   */
  live?: boolean;
  /** The file's rows in file order, in batches read from the database while earlier ones are written. */
  batches: (context: EndpointContext<P>) => AsyncIterable<readonly object[]>;
}

/** The media type of an .xlsx workbook (Office Open XML spreadsheet), as workbook answers are sent. */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** One sheet of a workbook answer: a bold, frozen header row, then the rows of cells. */
export interface WorkbookSheet {
  /** The sheet's tab name (Excel allows at most 31 characters). */
  name: string;
  header: readonly string[];
  rows: readonly (readonly (string | number)[])[];
  /** Column widths in characters, first column first. */
  widths?: readonly number[];
}

/**
 * An answer sent as an Excel workbook instead of JSON rows (FMP's `financial-reports-xlsx`): the
 * handler's rows laid out as sheets. The call goes through the pipeline like any other (key,
 * budgets, plan, metering, request log); the HTTP layer sends the bytes as an attachment, and
 * transports that carry text (the MCP tools) refuse it, pointing to `jsonPath`.
 */
export interface WorkbookAnswer<P, R> {
  /** The attachment's name without `.xlsx`, from the parameters: 'AAPL-2024-FY'. */
  fileName: (params: P) => string;
  /** The sheets, in tab order, from the handler's rows (never called with no rows). */
  sheets: (rows: R[], params: P) => WorkbookSheet[];
  /** What the workbook holds, sheet by sheet, for the docs and the OpenAPI document. */
  description: string;
  /** The 404 message when the handler finds no rows: there is no empty workbook to send. */
  notFound: (params: P) => string;
  /** The endpoint answering the same rows as JSON (named to clients that cannot take a file). */
  jsonPath: string;
}

export interface EndpointDefinition<P extends Shape = Shape, R extends Shape = Shape> {
  /** Path under /stable/, e.g. 'quote' or 'historical-chart/5min'. */
  path: string;
  /** Section in the docs and the OpenAPI tags: 'Search', 'Quotes', 'Charts', 'Statements', … */
  group: string;
  /**
   * The dataset page (`/datasets/<id>`) that presents the endpoint: what the data is, not how the
   * docs file it, so one docs group may feed several datasets (the crypto quotes of 'Batch quotes'
   * belong to Crypto). Null only for endpoints about the caller's own account, which are no market
   * data (api-usage).
   */
  dataset: DatasetId | null;
  summary: string;
  /** A paragraph for the docs: what the answer holds and how it is ordered. */
  description: string;
  /** Lowest data tier that may call the endpoint at all. */
  tier: DataTier;
  /**
   * Query parameters (apikey is handled by the app and never listed). Every field needs a
   * .describe() text and, where it helps, .meta({ example }).
   */
  params: P;
  /** One element of the answer array, fields in FMP's order, each with a .describe() text. */
  row: R;
  /**
   * Which parameter names the symbol(s) whose coverage is checked: 'symbol', or a comma list in
   * 'symbols' (a legacy endpoint may call it otherwise, e.g. 'tickers').
   */
  symbolParam?: string;
  /** Raises the tier for some parameter values (e.g. period=quarter needs Professional). */
  tierFor?: (params: z.infer<P>) => { tier: DataTier; subject: string } | undefined;
  /** Offer `datatype=csv` (flat rows only). */
  csv?: boolean;
  /** Seconds clients may reuse the answer (Cache-Control max-age). */
  maxAge: number;
  /** How often the data behind the answer is refreshed, and when. */
  cadence: UpdateCadence;
  /**
   * Reads daily history within the plan's years: a start before them is refused with 402 naming the
   * plan that reads further back (set by the builder whose handler applies that limit).
   */
  history?: boolean;
  /** Calling it costs nothing: no call budget is counted and nothing is metered (the usage report). */
  free?: boolean;
  /**
   * The answer depends on who calls: the handler gets the caller, and answers are never served from
   * the shared answer cache.
   */
  callerAware?: boolean;
  /** An example request's query for the docs, without the key: 'symbol=AAPL'. */
  example: string;
  /**
   * Served only to accounts with the legacy flag (the legacy /api/v3 endpoints, see legacy.ts): any
   * other caller is refused with 403 and FMP's "Legacy Endpoint" message before a budget is counted.
   */
  legacy?: boolean;
  /**
   * The answer when it is not the rows themselves (FMP's legacy `{symbol, historical: [...]}`):
   * built from the rows and the parameters before the answer is serialized and cached. JSON only.
   */
  envelope?: (rows: z.infer<R>[], params: z.infer<P>) => unknown;
  handler: (context: EndpointContext<z.infer<P>>) => Promise<z.infer<R>[]>;
  /**
   * Set on the bulk endpoints (group 'Bulk'): the answer is a file streamed over HTTP (see
   * {@link BulkFile}), CSV unless `datatype=json`; `handler` is not used for them.
   */
  bulk?: BulkFile<z.infer<P>>;
  /**
   * Set on endpoints answering an Excel workbook (see {@link WorkbookAnswer}): the handler's rows are
   * written as the workbook's sheets; `row` still documents those rows (the JSON twin's).
   */
  workbook?: WorkbookAnswer<z.infer<P>, z.infer<R>>;
}

/** Keeps the schema types of one definition tied together (params → handler → row). */
export function defineEndpoint<P extends Shape, R extends Shape>(
  definition: EndpointDefinition<P, R>,
): EndpointDefinition {
  return definition;
}

// Parameter schemas that many endpoints share, with the messages clients see on a 400.

/** A ticker as the API writes it: letters, digits, '.', '-', '^' and '=' (BRK-B, ^GSPC, EURUSD). */
export const symbolParam = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(20, 'must be at most 20 characters')
  .regex(/^[\w.^=-]+$/, 'must be a ticker such as AAPL, BRK-B or ^GSPC')
  .transform((value) => value.toUpperCase())
  .describe('Ticker symbol')
  .meta({ example: 'AAPL' });

/** A comma-separated list of tickers (batch endpoints). */
export const symbolsParam = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim().toUpperCase())
      .filter((item) => item !== ''),
  )
  .pipe(
    z
      .array(
        z
          .string()
          .max(20)
          .regex(/^[\w.^=-]+$/, 'must list tickers such as AAPL,MSFT'),
      )
      .min(1, 'must name at least one ticker')
      .max(100, 'can name at most 100 tickers'),
  )
  .describe('Comma-separated ticker symbols')
  .meta({ example: 'AAPL,MSFT' });

/** A calendar date; real dates only (2025-02-30 is refused). */
export const dateParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'is not a real date',
  );

/** How many rows at most; `max` is the endpoint's own ceiling. */
export function limitParam(defaultLimit: number, max: number) {
  return z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`)
    .default(defaultLimit)
    .describe(`Maximum number of rows (default ${defaultLimit}, at most ${max})`);
}

/** Zero-based page number for paged lists. */
export const pageParam = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(1000, 'must be at most 1000')
  .default(0)
  .describe('Page number, starting at 0');

/** Statement period: annual (default), quarter, or a single fiscal quarter / FY as FMP accepts. */
export const periodParam = z
  .enum(['annual', 'quarter', 'FY', 'Q1', 'Q2', 'Q3', 'Q4'], {
    error: 'must be annual, quarter, FY, Q1, Q2, Q3 or Q4',
  })
  .default('annual')
  .describe('Reporting period: annual (default) or quarter; FY or Q1–Q4 select one fiscal period');
