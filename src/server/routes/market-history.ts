import { Hono } from 'hono';
import { z } from 'zod';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import {
  DataApiError,
  dateParam,
  defineEndpoint,
  SESSION_CLOSE_CADENCE,
  symbolParam,
  type EndpointDefinition,
} from '../data-api/endpoint.ts';
import { callForSite, type SiteCallOptions } from '../data-api/site-calls.ts';
import { DATA_TIERS, InvalidParametersError } from '../services/market-data/plan-access.ts';
import { resolveDailyRange } from '../services/market-data/prices.ts';
import {
  HISTORY_FIELDS,
  loadMarketHistory,
  type HistoryField,
  type HistoryRecord,
} from '../symbol-pages/history.ts';
import { toCsv } from '../../lib/csv.ts';
import {
  historyFilename,
  parseHistoryRange,
  type HistoryFormat,
  type HistoryRange,
} from '../../lib/history-range.ts';

/** A download's content: the symbol's canonical ticker, the range served, its columns and rows. */
interface HistoryFile {
  symbol: string;
  range: HistoryRange;
  fields: HistoryField[];
  rows: HistoryRecord[];
}

/**
 * Every daily price of a symbol in a range, with the historical-prices table's columns, as the
 * download buttons ask for it. Not part of the public API: it answers through the pipeline so a
 * download is gated like the data API's daily history (the symbol's tier, the plan's years) and
 * counted against the same budgets.
 */
export const SITE_HISTORY_ENDPOINT: EndpointDefinition = defineEndpoint({
  path: 'site/history',
  dataset: 'market-data-historic',
  group: 'Site',
  summary: 'A historical-prices download',
  description:
    'Split-adjusted daily prices of a range, newest first, with the columns of the historical-prices table. The range defaults to the last year.',
  tier: DATA_TIERS.sample,
  params: z.object({
    symbol: symbolParam,
    from: dateParam.optional().describe('First day (YYYY-MM-DD); default a year before "to"'),
    to: dateParam.optional().describe('Last day (YYYY-MM-DD); default today'),
  }),
  symbolParam: 'symbol',
  row: z.object({
    symbol: z.string().describe('Ticker symbol'),
    range: z.object({ from: z.string(), to: z.string() }).describe('The days served'),
    fields: z.array(z.enum(HISTORY_FIELDS)).describe('The columns, in order'),
    rows: z
      .array(
        z.object({
          date: z.string(),
          open: z.number(),
          high: z.number(),
          low: z.number(),
          close: z.number(),
          adjClose: z.number().optional(),
          volume: z.number().optional(),
          change: z.number(),
          changePercent: z.number(),
        }),
      )
      .describe('Newest first, with the fields above'),
  }),
  // Prices change once a day.
  maxAge: 300,
  cadence: SESSION_CLOSE_CADENCE,
  history: true,
  example: 'symbol=AAPL&from=2025-01-02&to=2025-12-31',
  handler: async ({ db, params, plan, symbols, now }) => {
    const security = symbols.get(params.symbol);
    if (security === undefined) throw new DataApiError(404, `No symbol "${params.symbol}".`);
    const { range, problems } = parseHistoryRange({ from: params.from, to: params.to }, now);
    if (problems.length > 0) throw new InvalidParametersError('Parameter "from" must be on or before "to".');
    // A start before the plan's history is refused, as the data API refuses it.
    resolveDailyRange(range, plan, now);
    const history = await loadMarketHistory(db, security, range);
    const file: HistoryFile = { symbol: security.symbol, range, ...history };
    return [file];
  },
});

const FORMATS: ReadonlySet<string> = new Set<HistoryFormat>(['csv', 'json']);

/**
 * GET /history?symbol=&from=&to=&format=csv|json: every daily price of a symbol in a range as a file
 * download, for the visitor's plan (see `callForSite`). A bad date is refused (400 naming the
 * parameter) instead of replaced, so a download never holds another range than its file name says.
 */
export function createMarketHistoryRoutes(options: SiteCallOptions = {}): Hono<AccountsEnv> {
  const routes = new Hono<AccountsEnv>();
  routes.get('/history', async (c) => {
    const formatText = c.req.query('format')?.trim() ?? '';
    const format = formatText === '' ? 'json' : formatText;
    if (!FORMATS.has(format)) {
      return apiError(c, 400, 'Parameter "format" must be "csv" or "json".', { field: 'format' });
    }
    const answer = await callForSite(
      c,
      SITE_HISTORY_ENDPOINT,
      { symbol: c.req.query('symbol'), from: c.req.query('from'), to: c.req.query('to') },
      options,
    );
    if (answer instanceof Response) return answer;
    const file = answer.rows[0] as HistoryFile;
    const filename = historyFilename(file.symbol, file.range, format as HistoryFormat);
    const headers = { ...answer.headers, 'Content-Disposition': `attachment; filename="${filename}"` };
    if (format === 'csv') {
      return c.body(toCsv(file.rows, file.fields), 200, {
        ...headers,
        'Content-Type': 'text/csv; charset=utf-8',
      });
    }
    return c.json(file.rows, 200, headers);
  });
  return routes;
}
