import { Hono } from 'hono';
import { astro } from 'astro/hono';
import { accountsApp } from './server/app/accounts-app.ts';
import { isSymbolPagePath, pageCache } from './server/middleware/page-cache.ts';
import { isMarketNewsPath } from './lib/market-news.ts';
import { isMarketPagePath } from './lib/market-pages.ts';
import { isDatasetPagePath, ROUTE_REDIRECTS } from './lib/routes.ts';

/** Rendered pages kept at once (symbol pages are about 120 KB each), and the longest one is kept. */
const PAGE_CACHE_ENTRIES = 1_000;
const PAGE_CACHE_TTL_MS = 30_000;

/** The site's request pipeline: the accounts API under /api, everything else rendered by Astro. */
const app = new Hono();
app.route('/api', accountsApp);
// Short addresses of the SPEC's lists (/dashboard, /documentation) lead to their pages, query kept.
for (const [from, to] of Object.entries(ROUTE_REDIRECTS)) {
  app.get(from, (c) => c.redirect(`${to}${new URL(c.req.url).search}`, 301));
  app.get(`${from}/`, (c) => c.redirect(`${to}${new URL(c.req.url).search}`, 301));
}
// Symbol pages, the market pages, the market news and the dataset pages are rendered from the database
// on every request; a popular one is rendered once per half minute instead (or as often as its own
// max-age asks). Not in development, where an edited component must show at once.
if (!import.meta.env.DEV) {
  app.use(
    pageCache({
      match: (pathname) =>
        isSymbolPagePath(pathname) ||
        isMarketPagePath(pathname) ||
        isMarketNewsPath(pathname) ||
        isDatasetPagePath(pathname),
      maxEntries: PAGE_CACHE_ENTRIES,
      ttlMs: PAGE_CACHE_TTL_MS,
    }),
  );
}
app.use(astro());

export default app;
