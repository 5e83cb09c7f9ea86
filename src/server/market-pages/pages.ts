/**
 * One loader per market page: what `/top-stock-gainers`, `/market-indexes`, … render is the view
 * model the page's loader makes from the market data services (the ones the data API's endpoints
 * call, without HTTP in between) and the request's query string.
 */
import type { MarketPageId } from '../../lib/market-pages.ts';
import { pageData, type PageAnswer } from '../app/errors.ts';
import { getDatabase } from '../db/client.ts';
import { siteDirectory } from '../symbol-pages/resolver.ts';
import { loadMostSearchedPage } from './most-searched.ts';
import { loadMoversPage, type MarketPageContext } from './movers.ts';
import { loadQuoteListPage } from './quote-lists.ts';
import { loadSectorsPage } from './sectors.ts';
import type { MarketPageView } from './view.ts';

/** Browsers and shared caches may reuse a page for a minute (the symbol pages' rule). */
const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';
/** A search shows on the most-searched page within a quarter of a minute. */
const MOST_SEARCHED_CACHE_CONTROL = 'public, max-age=15, stale-while-revalidate=60';

/** The Cache-Control a market page answers with: the production page cache keeps it as long. */
export function marketPageCacheControl(id: MarketPageId): string {
  return id === 'most-searched' ? MOST_SEARCHED_CACHE_CONTROL : CACHE_CONTROL;
}

/** Runs a market page's loader over a context (tests build their own). */
export function loadMarketPageIn(context: MarketPageContext, id: MarketPageId): Promise<MarketPageView> {
  switch (id) {
    case 'gainers':
    case 'losers':
    case 'actives':
      return loadMoversPage(context, id);
    case 'indexes':
    case 'currencies':
    case 'cryptocurrencies':
      return loadQuoteListPage(context, id);
    case 'sectors':
      return loadSectorsPage(context);
    case 'most-searched':
      return loadMostSearchedPage(context);
  }
}

/**
 * A market page's answer: its view model from the site's database and directory, publicly cacheable;
 * undefined (and a retryable 503) while the database is unreachable.
 */
export async function marketPageAnswer(
  page: PageAnswer & { url: URL },
  id: MarketPageId,
): Promise<MarketPageView | undefined> {
  const view = await pageData(page, async () => {
    const directory = await siteDirectory().get();
    const { db } = await getDatabase();
    return loadMarketPageIn({ db, directory, now: new Date(), params: page.url.searchParams }, id);
  });
  if (view !== undefined) page.response.headers.set('Cache-Control', marketPageCacheControl(id));
  return view;
}
