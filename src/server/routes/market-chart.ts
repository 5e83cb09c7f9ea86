import { Hono } from 'hono';
import { z } from 'zod';
import type { AccountsEnv } from '../app/context.ts';
import { DataApiError, defineEndpoint, symbolParam, type EndpointDefinition } from '../data-api/endpoint.ts';
import { callForSite, type SiteCallOptions } from '../data-api/site-calls.ts';
import { DATA_TIERS, INTRADAY_TIER } from '../services/market-data/plan-access.ts';
import { requireHistoryYears } from '../services/market-data/prices.ts';
import { loadPriceChart, RANGE_YEARS } from '../symbol-pages/chart.ts';
import { CHART_RANGES, DEFAULT_CHART_RANGE, INTRADAY_RANGES } from '../../lib/price-chart.ts';

const bar = z.object({
  time: z.string().describe('Trading day, or the exchange-local start of an intraday bar'),
  open: z.number().describe('Opening price'),
  high: z.number().describe('Highest price'),
  low: z.number().describe('Lowest price'),
  close: z.number().describe('Closing price'),
  volume: z.number().describe('Shares (or units) traded'),
});

/**
 * One range of a symbol page's price chart, as the chart island asks for it. Not part of the public
 * API: it exists so the site's chart answers through the pipeline with the data API's own gates (the
 * symbol's tier, intraday bars' tier for 1D and 5D, the plan's years of history) and budgets.
 */
export const SITE_CHART_ENDPOINT: EndpointDefinition = defineEndpoint({
  path: 'site/chart',
  dataset: 'market-data-historic',
  group: 'Site',
  summary: 'A range of a symbol page’s price chart',
  description:
    'Bars of one chart range, oldest first: intraday for 1D and 5D, daily otherwise, weekly beyond 1,500 days. "Max" reads as far back as the plan reads.',
  tier: DATA_TIERS.sample,
  params: z.object({
    symbol: symbolParam,
    range: z
      .enum(CHART_RANGES, {
        error: (issue) =>
          `"${String(issue.input)}" is not a chart range; use one of ${CHART_RANGES.join(', ')}`,
      })
      .describe('The chart range'),
  }),
  symbolParam: 'symbol',
  tierFor: ({ range }) =>
    INTRADAY_RANGES.has(range) ? { tier: INTRADAY_TIER, subject: 'intraday bars' } : undefined,
  row: z.object({
    symbol: z.string().describe('Ticker symbol'),
    range: z.enum(CHART_RANGES).describe('The chart range'),
    interval: z.enum(['5min', '30min', '1day', '1week']).describe('Width of the bars'),
    bars: z.array(bar).describe('The bars, oldest first'),
  }),
  // Prices move by the minute; a minute's reuse spares the database when readers flip ranges.
  maxAge: 60,
  cadence: {
    frequency: 'intraday',
    when: 'Intraday bars (1D, 5D) as each interval closes during the session; daily and weekly bars after each session’s close.',
  },
  history: true,
  example: 'symbol=AAPL&range=5Y',
  handler: async ({ db, params, plan, symbols, now }) => {
    const security = symbols.get(params.symbol);
    if (security === undefined) throw new DataApiError(404, `Unknown symbol "${params.symbol}".`);
    const { range } = params;
    if (!INTRADAY_RANGES.has(range))
      requireHistoryYears(RANGE_YEARS[range as keyof typeof RANGE_YEARS], plan);
    return [await loadPriceChart(db, security, range, now, plan.historyYears)];
  },
});

/**
 * The site's chart endpoint (GET /chart?symbol=AAPL&range=5Y): the ranges of a symbol page's price
 * chart beyond the one the page is rendered with, for the visitor's plan (see `callForSite`).
 */
export function createMarketChartRoutes(options: SiteCallOptions = {}): Hono<AccountsEnv> {
  const routes = new Hono<AccountsEnv>();
  routes.get('/chart', async (c) => {
    const answer = await callForSite(
      c,
      SITE_CHART_ENDPOINT,
      { symbol: c.req.query('symbol'), range: c.req.query('range') ?? DEFAULT_CHART_RANGE },
      options,
    );
    if (answer instanceof Response) return answer;
    return c.json(answer.rows[0], 200, answer.headers);
  });
  return routes;
}

/** The chart endpoint over the process's data API, for the accounts API to mount. */
export const marketChartRoutes = createMarketChartRoutes();
