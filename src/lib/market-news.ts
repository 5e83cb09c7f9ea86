/** The market news pages' addresses and the news types they filter by (the news tables' categories). */

/** The kinds of news, as the data API's news endpoints name them (news/stock, news/crypto, …). */
export const MARKET_NEWS_TYPES = ['stock', 'crypto', 'forex', 'general'] as const;
export type MarketNewsType = (typeof MARKET_NEWS_TYPES)[number];

/** Articles per page of `/market-news`. */
export const MARKET_NEWS_PAGE_SIZE = 20;

/** One article's page. */
export function marketNewsPath(id: string): string {
  return `/market-news/${id}`;
}

/** Whether a path is one of the market news pages (kept briefly by the page cache). */
export function isMarketNewsPath(pathname: string): boolean {
  return pathname === '/market-news' || pathname === '/market-news/' || pathname.startsWith('/market-news/');
}
