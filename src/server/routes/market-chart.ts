import { Hono } from 'hono';
import type { AccountsEnv } from '../app/context.ts';
import { getDatabase, type Db } from '../db/client.ts';
import { apiError } from '../app/errors.ts';
import { loadPriceChart } from '../symbol-pages/chart.ts';
import type { SymbolDirectory } from '../services/market-data/directory.ts';
import { siteDirectory } from '../symbol-pages/resolver.ts';
import { CHART_RANGES, DEFAULT_CHART_RANGE, isChartRange } from '../../lib/price-chart.ts';

/** Prices move by the minute; a minute's reuse spares the database when many readers flip ranges. */
const CACHE_CONTROL = 'public, max-age=60';

export interface MarketChartOptions {
  /** The database the prices are read from (default: the process's). */
  database?: () => Promise<Db>;
  /** The symbol directory (default: the site's cached one). */
  directory?: () => Promise<SymbolDirectory>;
  /** The clock the daily ranges end by. */
  now?: () => Date;
}

/**
 * The site's own chart endpoint (GET /chart?symbol=AAPL&range=5Y): the ranges of a symbol page's price
 * chart beyond the one the page is rendered with. It reads the services directly rather than the data
 * API, so the chart needs no API key and costs no metered calls.
 */
export function createMarketChartRoutes(options: MarketChartOptions = {}) {
  const database = options.database ?? (async () => (await getDatabase()).db);
  const directory = options.directory ?? (() => siteDirectory().get());
  const now = options.now ?? (() => new Date());
  return new Hono<AccountsEnv>().get('/chart', async (c) => {
    const symbol = (c.req.query('symbol') ?? '').trim();
    const range = c.req.query('range') ?? DEFAULT_CHART_RANGE;
    if (symbol === '') return apiError(c, 400, 'Parameter "symbol" is required.', { field: 'symbol' });
    if (!isChartRange(range)) {
      return apiError(c, 400, `Unknown range "${range}"; use one of ${CHART_RANGES.join(', ')}.`, {
        field: 'range',
      });
    }
    const security = (await directory()).get(symbol);
    if (security === undefined) return apiError(c, 404, `Unknown symbol "${symbol}".`, { field: 'symbol' });
    const answer = await loadPriceChart(await database(), security, range, now());
    c.header('Cache-Control', CACHE_CONTROL);
    return c.json(answer);
  });
}

/** The chart endpoint over the process's database and directory, for the accounts API to mount. */
export const marketChartRoutes = createMarketChartRoutes();
