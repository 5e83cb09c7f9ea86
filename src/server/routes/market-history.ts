import { Hono } from 'hono';
import type { AccountsEnv } from '../app/context.ts';
import { getDatabase, type Db } from '../db/client.ts';
import { apiError } from '../app/errors.ts';
import { loadMarketHistory } from '../symbol-pages/history.ts';
import type { SymbolDirectory } from '../services/market-data/directory.ts';
import { siteDirectory } from '../symbol-pages/resolver.ts';
import { toCsv } from '../../lib/csv.ts';
import { historyFilename, parseHistoryRange, type HistoryFormat } from '../../lib/history-range.ts';

/** Where the routes read from; tests hand in their own database and directory. */
export interface MarketHistoryDependencies {
  /** The database (default: the process-wide one). */
  database?: () => Promise<{ db: Db }>;
  /** The symbol directory (default: the site's shared one). */
  directory?: { get(): Promise<SymbolDirectory> };
}

/** Prices change once a day; browsers and shared caches may reuse an answer for five minutes. */
const CACHE_CONTROL = 'public, max-age=300';

const FORMATS: ReadonlySet<string> = new Set<HistoryFormat>(['csv', 'json']);

/** Longest symbol accepted; anything longer is no symbol we list. */
const MAX_SYMBOL_LENGTH = 40;

/**
 * GET /history?symbol=&from=&to=&format=csv|json: every daily price of a symbol in a range, with
 * the historical-prices table's columns, as a file download. The range defaults and validation are
 * the page's, except that a bad date is refused (400 naming the parameter) instead of replaced, so
 * a download never silently holds another range than the one named in its file name.
 */
export function createMarketHistoryRoutes(dependencies: MarketHistoryDependencies = {}): Hono<AccountsEnv> {
  const database = dependencies.database ?? getDatabase;
  const directory = dependencies.directory ?? siteDirectory();
  const routes = new Hono<AccountsEnv>();
  routes.get('/history', async (c) => {
    const symbolText = c.req.query('symbol')?.trim() ?? '';
    if (symbolText === '' || symbolText.length > MAX_SYMBOL_LENGTH) {
      return apiError(c, 400, 'Parameter "symbol" is required (a ticker such as AAPL).', { field: 'symbol' });
    }
    const formatText = c.req.query('format')?.trim() ?? '';
    const format = formatText === '' ? 'json' : formatText;
    if (!FORMATS.has(format)) {
      return apiError(c, 400, 'Parameter "format" must be "csv" or "json".', { field: 'format' });
    }
    const parsed = parseHistoryRange({ from: c.req.query('from'), to: c.req.query('to') }, new Date());
    const problem = parsed.problems[0];
    if (problem !== undefined) {
      const message = problem.message.replace(
        /“(From|To)”/g,
        (_, label: string) => `"${label.toLowerCase()}"`,
      );
      return apiError(c, 400, `Parameter ${message}`, { field: problem.field });
    }
    const security = (await directory.get()).get(symbolText);
    if (security === undefined) {
      return apiError(c, 404, `No symbol "${symbolText.slice(0, MAX_SYMBOL_LENGTH)}".`, { field: 'symbol' });
    }
    const { db } = await database();
    const history = await loadMarketHistory(db, security, parsed.range);
    const filename = historyFilename(security.symbol, parsed.range, format as HistoryFormat);
    c.header('Cache-Control', CACHE_CONTROL);
    c.header('Content-Disposition', `attachment; filename="${filename}"`);
    if (format === 'csv') {
      c.header('Content-Type', 'text/csv; charset=utf-8');
      return c.body(toCsv(history.rows, history.fields));
    }
    return c.json(history.rows);
  });
  return routes;
}
