/*
 * FMP's legacy style (`/api/v3/quote/AAPL`) for accounts with the legacy flag, served from the stable
 * endpoint definitions through the same pipeline: one table maps each legacy path onto the stable
 * endpoint that answers it, with the parameter and field names that differ; the legacy endpoints,
 * the request router and the migration guide are all derived from that table.
 */
import { z } from 'zod';
import { INTRADAY_INTERVALS, type IntradayInterval } from '../services/market-data/prices.ts';
import type { EndpointDefinition } from './endpoint.ts';

/** Where legacy paths live on the data API. */
export const LEGACY_PREFIX = '/api/v3/';

/**
 * FMP's refusal of a legacy endpoint to an account without the legacy flag, word for word (clients
 * written for FMP recognise it); the documentation page it names is this site's.
 */
export function legacyEndpointMessage(siteUrl: string): string {
  return `Legacy Endpoint : Due to Legacy endpoints being no longer supported - This endpoint is only available for legacy users who have valid subscriptions prior August 31, 2025. Please visit our documentation page ${siteUrl}/developer/docs for our current APIs.`;
}

/** One legacy path and the stable endpoint that answers it. */
export interface LegacyRoute {
  /** The path under /api/v3/; a last segment `{symbol}` carries the ticker (FMP's symbol in the path). */
  path: string;
  /** The stable endpoint answering it (its path under /stable/). */
  stable: string;
  /** The stable endpoint answering a comma list in `{symbol}` (through its `symbols` parameter). */
  batch?: string;
  /** Query parameters named differently in the legacy style: stable name → legacy name. */
  params?: Readonly<Record<string, string>>;
  /** Values the legacy style assumes for parameters the stable endpoint requires. */
  defaults?: Readonly<Record<string, string>>;
  /** Answer fields named differently in FMP's legacy answers: stable name → legacy name. */
  fields?: Readonly<Record<string, string>>;
  /**
   * FMP's legacy envelope `{symbol, historical: [...]}` around rows without their symbol ('{}' for
   * an unknown symbol); 'prices' also takes `serietype=line` (date and close only) and `timeseries=N`
   * (the latest N days).
   */
  historical?: 'prices' | 'events';
}

const QUOTE_FIELDS = { changePercentage: 'changesPercentage' };
const PROFILE_FIELDS = {
  marketCap: 'mktCap',
  lastDividend: 'lastDiv',
  change: 'changes',
  averageVolume: 'volAvg',
  exchangeFullName: 'exchange',
  exchange: 'exchangeShortName',
};
const SEARCH_FIELDS = { exchangeFullName: 'stockExchange', exchange: 'exchangeShortName' };
const STATEMENT_FIELDS = { filingDate: 'fillingDate', fiscalYear: 'calendarYear' };
const PERIOD_FIELDS = { fiscalYear: 'calendarYear' };

/**
 * Every legacy endpoint, in the order of the migration guide: the legacy path, the stable endpoint
 * answering it, and what differs. Nothing else about an endpoint is written here: its parameters,
 * plan tier, rows and handler are the stable definition's.
 */
export const LEGACY_ROUTES: readonly LegacyRoute[] = [
  { path: 'search', stable: 'search-symbol', fields: SEARCH_FIELDS },
  { path: 'search-ticker', stable: 'search-symbol', fields: SEARCH_FIELDS },
  { path: 'search-name', stable: 'search-name', fields: SEARCH_FIELDS },
  { path: 'stock/list', stable: 'stock-list', fields: { companyName: 'name' } },
  { path: 'etf/list', stable: 'etf-list' },
  { path: 'symbol/available-cryptocurrencies', stable: 'cryptocurrency-list' },
  { path: 'symbol/available-forex-currency-pairs', stable: 'forex-list' },
  { path: 'symbol/available-commodities', stable: 'commodities-list' },
  { path: 'symbol/available-indexes', stable: 'index-list' },
  { path: 'quote/{symbol}', stable: 'quote', batch: 'batch-quote', fields: QUOTE_FIELDS },
  { path: 'quote-short/{symbol}', stable: 'quote-short', batch: 'batch-quote-short' },
  { path: 'historical-price-full/{symbol}', stable: 'historical-price-eod/full', historical: 'prices' },
  ...(Object.keys(INTRADAY_INTERVALS) as IntradayInterval[]).map((interval): LegacyRoute => ({
    path: `historical-chart/${interval}/{symbol}`,
    stable: `historical-chart/${interval}`,
  })),
  { path: 'profile/{symbol}', stable: 'profile', fields: PROFILE_FIELDS },
  { path: 'key-executives/{symbol}', stable: 'key-executives' },
  { path: 'income-statement/{symbol}', stable: 'income-statement', fields: STATEMENT_FIELDS },
  { path: 'balance-sheet-statement/{symbol}', stable: 'balance-sheet-statement', fields: STATEMENT_FIELDS },
  { path: 'cash-flow-statement/{symbol}', stable: 'cash-flow-statement', fields: STATEMENT_FIELDS },
  { path: 'key-metrics/{symbol}', stable: 'key-metrics', fields: PERIOD_FIELDS },
  { path: 'ratios/{symbol}', stable: 'ratios', fields: PERIOD_FIELDS },
  { path: 'enterprise-values/{symbol}', stable: 'enterprise-values' },
  { path: 'discounted-cash-flow/{symbol}', stable: 'discounted-cash-flow' },
  { path: 'analyst-estimates/{symbol}', stable: 'analyst-estimates', defaults: { period: 'annual' } },
  { path: 'grade/{symbol}', stable: 'grades' },
  { path: 'historical-price-full/stock_dividend/{symbol}', stable: 'dividends', historical: 'events' },
  { path: 'historical-price-full/stock_split/{symbol}', stable: 'splits', historical: 'events' },
  {
    path: 'historical/earning_calendar/{symbol}',
    stable: 'earnings',
    fields: { epsActual: 'eps', revenueActual: 'revenue' },
  },
  { path: 'earning_call_transcript/{symbol}', stable: 'earning-call-transcript' },
  { path: 'stock_news', stable: 'news/stock', params: { symbols: 'tickers' } },
  { path: 'stock_market/gainers', stable: 'biggest-gainers' },
  { path: 'stock_market/losers', stable: 'biggest-losers' },
  { path: 'stock_market/actives', stable: 'most-actives' },
];

const SYMBOL_SEGMENT = '{symbol}';

/** The legacy-only parameters of the daily price history. */
const SERIES_PARAMS = {
  serietype: z
    .enum(['line'], { error: 'must be line (dates and closing prices only) or left out' })
    .optional()
    .describe('line: each day’s date and closing price only'),
  timeseries: z.coerce
    .number({ error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1')
    .max(100_000, 'must be at most 100000')
    .optional()
    .describe('Only the latest N trading days'),
};

type Row = Record<string, unknown>;

/** Renames a row's fields (stable → legacy), keeping their order; fields not listed keep their name. */
function renamer(fields: Readonly<Record<string, string>> | undefined): ((row: Row) => Row) | undefined {
  if (fields === undefined) return undefined;
  return (row) => {
    const renamed: Row = {};
    for (const [name, value] of Object.entries(row)) renamed[fields[name] ?? name] = value;
    return renamed;
  };
}

/** A row without its symbol field (the legacy envelope names the symbol once). */
function withoutSymbol(row: Row): Row {
  const rest: Row = {};
  for (const [name, value] of Object.entries(row)) if (name !== 'symbol') rest[name] = value;
  return rest;
}

/** FMP's legacy `{symbol, historical}` envelope, with the series options of the daily prices. */
function historicalEnvelope(rows: Row[], params: Row): unknown {
  if (rows.length === 0) return {};
  const days = typeof params.timeseries === 'number' ? rows.slice(0, params.timeseries) : rows;
  const line = params.serietype === 'line';
  return {
    symbol: params.symbol,
    historical: days.map((row) => (line ? { date: row.date, close: row.close } : withoutSymbol(row))),
  };
}

/** The usage name of a legacy route: its path without the symbol, e.g. `api/v3/quote`. */
export function legacyUsageName(route: LegacyRoute): string {
  const path = route.path.endsWith(`/${SYMBOL_SEGMENT}`)
    ? route.path.slice(0, -SYMBOL_SEGMENT.length - 1)
    : route.path;
  return `api/v3/${path}`;
}

/**
 * The legacy endpoint built from a stable one: the same tier, handler, limits and caching, served to
 * legacy accounts only, metered under the legacy name, with the route's parameter and field names.
 */
function legacyEndpoint(route: LegacyRoute, stable: EndpointDefinition): EndpointDefinition {
  const legacyName = (name: string): string => route.params?.[name] ?? name;
  const stableName = new Map(Object.entries(route.params ?? {}).map(([from, to]) => [to, from]));
  const toStable = (params: Row): Row => {
    if (stableName.size === 0) return params;
    const renamed: Row = {};
    for (const [name, value] of Object.entries(params)) renamed[stableName.get(name) ?? name] = value;
    return renamed;
  };
  const shape: Record<string, z.ZodType> = {};
  for (const [name, schema] of Object.entries<z.ZodType>(stable.params.shape))
    shape[legacyName(name)] = schema;
  if (route.historical === 'prices') Object.assign(shape, SERIES_PARAMS);
  const rename = renamer(route.fields);
  const rowShape: Record<string, z.ZodType> = {};
  for (const [name, schema] of Object.entries<z.ZodType>(stable.row.shape)) {
    if (route.historical !== undefined && name === 'symbol') continue;
    rowShape[route.fields?.[name] ?? name] = schema;
  }
  const { tierFor } = stable;
  return {
    ...stable,
    path: legacyUsageName(route),
    params: z.object(shape),
    row: z.object(rowShape),
    ...(stable.symbolParam === undefined ? {} : { symbolParam: legacyName(stable.symbolParam) }),
    ...(tierFor === undefined ? {} : { tierFor: (params: Row) => tierFor(toStable(params)) }),
    csv: stable.csv === true && route.historical === undefined,
    legacy: true,
    example: '',
    ...(route.historical === undefined
      ? {}
      : { envelope: (rows: Row[], params: Row) => historicalEnvelope(rows, params) }),
    handler: async (context) => {
      const rows = (await stable.handler({ ...context, params: toStable(context.params) })) as Row[];
      return rename === undefined ? rows : rows.map(rename);
    },
  };
}

/** A legacy route and the endpoint that serves it (one symbol; a comma list goes to its batch endpoint). */
export interface LegacyEndpoint {
  route: LegacyRoute;
  endpoint: EndpointDefinition;
}

/**
 * Every legacy endpoint served over `endpoints`, in the legacy table's order: what the API viewer's
 * legacy page offers. Routes whose stable endpoint is not served are left out.
 */
export function legacyEndpoints(endpoints: readonly EndpointDefinition[]): LegacyEndpoint[] {
  const byPath = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint]));
  return LEGACY_ROUTES.flatMap((route) => {
    const stable = byPath.get(route.stable);
    return stable === undefined ? [] : [{ route, endpoint: legacyEndpoint(route, stable) }];
  });
}

/** A legacy request resolved: the endpoint answering it and the query its path stands for. */
export interface LegacyMatch {
  endpoint: EndpointDefinition;
  /** Parameters the path carries (`symbol=AAPL`), and the defaults of the legacy style, as a query. */
  query: (search: string) => string;
}

/** Finds the legacy endpoint of a path under /api/v3/ (`quote/AAPL,MSFT`). */
export interface LegacyRouter {
  match(path: string): LegacyMatch | undefined;
}

interface Compiled {
  single: EndpointDefinition;
  batch: EndpointDefinition | undefined;
  defaults: readonly (readonly [string, string])[];
}

function withDefaults(prefix: string, search: string, defaults: Compiled['defaults']): string {
  let query = search === '' ? prefix : prefix === '' ? search : `${prefix}&${search}`;
  if (defaults.length > 0) {
    const given = new URLSearchParams(search);
    for (const [name, value] of defaults) {
      if (!given.has(name)) query = query === '' ? `${name}=${value}` : `${query}&${name}=${value}`;
    }
  }
  return query;
}

function decodedSegment(segment: string): string | undefined {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Builds the router of the legacy paths over the stable endpoints served. A route whose stable
 * endpoint is not among them is left out (a data API built with fewer endpoints, in tests).
 */
export function createLegacyRouter(endpoints: readonly EndpointDefinition[]): LegacyRouter {
  const byPath = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint]));
  const exact = new Map<string, Compiled>();
  const bySymbol = new Map<string, Compiled>();
  for (const route of LEGACY_ROUTES) {
    const stable = byPath.get(route.stable);
    if (stable === undefined) continue;
    const batchStable = route.batch === undefined ? undefined : byPath.get(route.batch);
    const compiled: Compiled = {
      single: legacyEndpoint(route, stable),
      batch: batchStable === undefined ? undefined : legacyEndpoint(route, batchStable),
      defaults: Object.entries(route.defaults ?? {}),
    };
    if (route.path.endsWith(`/${SYMBOL_SEGMENT}`)) {
      bySymbol.set(route.path.slice(0, -SYMBOL_SEGMENT.length - 1), compiled);
    } else {
      exact.set(route.path, compiled);
    }
  }
  return {
    match(path) {
      const known = exact.get(path);
      if (known !== undefined) {
        return { endpoint: known.single, query: (search) => withDefaults('', search, known.defaults) };
      }
      const slash = path.lastIndexOf('/');
      if (slash <= 0) return undefined;
      const compiled = bySymbol.get(path.slice(0, slash));
      const symbol = decodedSegment(path.slice(slash + 1));
      if (compiled === undefined || symbol === undefined || symbol === '') return undefined;
      const batch = symbol.includes(',') ? compiled.batch : undefined;
      const prefix = `${batch === undefined ? 'symbol' : 'symbols'}=${encodeURIComponent(symbol)}`;
      return {
        endpoint: batch ?? compiled.single,
        query: (search) => withDefaults(prefix, search, compiled.defaults),
      };
    },
  };
}
