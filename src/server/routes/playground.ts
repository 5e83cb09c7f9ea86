import { Hono } from 'hono';
import type { AccountsEnv } from '../app/context.ts';
import { browserDataApiUrl } from '../app/config.ts';
import { apiError } from '../app/errors.ts';
import { requestOrigin } from '../app/request.ts';
import { ipKey, rateLimit } from '../middleware/rate-limit.ts';
import { codeSamples, type CodeSample } from '../docs/code-samples.ts';
import { publishedApiUrl } from '../docs/markdown-plugins.ts';
import { legacyCatalogue, stableCatalogue } from '../docs/playground.ts';
import type { SymbolDirectory } from '../services/market-data/directory.ts';
import { MAX_QUERY_LENGTH, siteDirectory, symbolSuggestions } from '../symbol-pages/resolver.ts';
import { queryPairs, requestPath, type PlaygroundCatalogue, type ParamValues } from '../../lib/playground.ts';

/*
 * What the API viewer (/playground) asks of the site: its request written in every documentation
 * language, by the generator the reference pages use, and symbols for its symbol fields. Neither
 * calls the data API, so neither spends the reader's call budget.
 */

/** Longest parameter value a sample is written for; longer ones are refused, not cut. */
export const MAX_SAMPLE_VALUE_LENGTH = 500;

/** Most symbols the symbol field suggests. */
export const SUGGESTION_LIMIT = 8;

let catalogues: Record<PlaygroundCatalogue['variant'], PlaygroundCatalogue> | undefined;

function catalogue(variant: string): PlaygroundCatalogue | undefined {
  catalogues ??= { stable: stableCatalogue(publishedApiUrl()), legacy: legacyCatalogue(publishedApiUrl()) };
  return variant === 'stable' || variant === 'legacy' ? catalogues[variant] : undefined;
}

/** Where the symbol suggestions come from (tests pass their own directory). */
export interface PlaygroundRouteOptions {
  directory?: () => Promise<SymbolDirectory>;
}

/**
 * GET /api/playground/code-samples?variant=stable&endpoint=quote&symbol=AAPL: the request in every
 * documentation language with `YOUR_API_KEY` as the key (the viewer shows the reader's key masked,
 * and copies it whole), addressed where this browser reaches the data API, so a copied request runs. GET /api/playground/symbols?query=AAP: tickers first, then names.
 */
export function createPlaygroundRoutes(options: PlaygroundRouteOptions = {}): Hono<AccountsEnv> {
  const directoryOf = options.directory ?? (() => siteDirectory().get());
  const routes = new Hono<AccountsEnv>();
  routes
    .get(
      '/code-samples',
      rateLimit({ name: 'playground-samples-ip', limit: 240, windowMs: 60_000, key: ipKey }),
      (c) => {
        const query = new URL(c.req.url).searchParams;
        const variant = query.get('variant') ?? 'stable';
        const found = catalogue(variant);
        if (found === undefined)
          return apiError(c, 400, 'variant must be stable or legacy', { field: 'variant' });
        const id = query.get('endpoint') ?? '';
        const endpoint = found.endpoints.find((candidate) => candidate.id === id);
        if (endpoint === undefined) return apiError(c, 404, `No ${variant} endpoint is called "${id}".`);
        const values: ParamValues = {};
        for (const param of endpoint.params) {
          const value = query.get(param.name);
          if (value === null) continue;
          if (value.length > MAX_SAMPLE_VALUE_LENGTH)
            return apiError(
              c,
              400,
              `${param.name} must be at most ${String(MAX_SAMPLE_VALUE_LENGTH)} characters`,
              { field: param.name },
            );
          values[param.name] = value;
        }
        const samples: CodeSample[] = codeSamples({
          url: `${browserDataApiUrl(new URL(requestOrigin(c)))}${requestPath(endpoint, values)}`,
          query: queryPairs(endpoint, values),
        });
        return c.json({ samples }, 200, { 'Cache-Control': 'public, max-age=3600' });
      },
    )
    .get(
      '/symbols',
      rateLimit({ name: 'playground-symbols-ip', limit: 240, windowMs: 60_000, key: ipKey }),
      async (c) => {
        const text = (c.req.query('query') ?? '').slice(0, MAX_QUERY_LENGTH);
        const directory = await directoryOf();
        const symbols = symbolSuggestions(directory, text, SUGGESTION_LIMIT).map((row) => ({
          symbol: row.symbol,
          name: row.name,
          exchange: row.exchange,
          assetType: row.assetType,
        }));
        return c.json({ symbols }, 200, { 'Cache-Control': 'public, max-age=300' });
      },
    );
  return routes;
}

/** The API viewer's routes over the site's symbol directory, for the accounts API to mount. */
export const playgroundRoutes = createPlaygroundRoutes();
