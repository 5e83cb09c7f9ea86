import { Hono } from 'hono';
import { z } from 'zod';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { ipKey, rateLimit } from '../middleware/rate-limit.ts';
import { jsonBody, type JsonInput } from '../middleware/validate.ts';
import type { SymbolDirectory } from '../services/market-data/directory.ts';
import { countSymbolSearch } from '../services/symbol-searches.ts';
import { siteDirectory } from '../symbol-pages/resolver.ts';

/*
 * The most-searched page's counts come from here: the symbol search page tells the site which result
 * a visitor opened (POST /api/search/picks), and the pick is added to the symbol's count for the day.
 * Only the symbol and the day are kept.
 */

/** Picks one client address may report per window: far more than anyone opens by hand. */
export const PICKS_PER_ADDRESS = 60;
/** Picks of one symbol one client address may report per window, so no one visitor can crown a symbol. */
export const PICKS_PER_ADDRESS_AND_SYMBOL = 5;
export const PICKS_WINDOW_MS = 60 * 60_000;

const pickSchema = z.object({
  symbol: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'must not be empty')
    .max(20, 'must be at most 20 characters'),
});

type PickInput = JsonInput<typeof pickSchema>;

/** Where the symbols come from (tests pass their own directory). */
export interface SymbolSearchRouteOptions {
  directory?: () => Promise<SymbolDirectory>;
  now?: () => Date;
}

/** POST /picks `{symbol}`: one search that led to the symbol; 404 for a symbol the directory lacks. */
export function createSymbolSearchRoutes(options: SymbolSearchRouteOptions = {}): Hono<AccountsEnv> {
  const directoryOf = options.directory ?? (() => siteDirectory().get());
  const now = options.now ?? ((): Date => new Date());
  const routes = new Hono<AccountsEnv>();
  routes.post(
    '/picks',
    jsonBody(pickSchema),
    rateLimit<PickInput, AccountsEnv>({
      name: 'symbol-search-picks-ip',
      limit: PICKS_PER_ADDRESS,
      windowMs: PICKS_WINDOW_MS,
      key: ipKey,
    }),
    rateLimit<PickInput, AccountsEnv>({
      name: 'symbol-search-picks-ip-symbol',
      limit: PICKS_PER_ADDRESS_AND_SYMBOL,
      windowMs: PICKS_WINDOW_MS,
      key: (c) => `${ipKey(c)}|${c.req.valid('json').symbol.toUpperCase()}`,
    }),
    async (c) => {
      const asked = c.req.valid('json').symbol;
      const security = (await directoryOf()).get(asked);
      if (security === undefined)
        return apiError(c, 404, `No symbol is called ${asked}.`, { field: 'symbol' });
      await countSymbolSearch(c.var.db, security.symbol, now());
      return c.json({ counted: true, symbol: security.symbol }, 200, { 'Cache-Control': 'no-store' });
    },
  );
  return routes;
}

/** The search counting routes over the site's symbol directory, for the accounts API to mount. */
export const symbolSearchRoutes = createSymbolSearchRoutes();
