/** The market news pages' addresses and page size (the news types are the news table's categories). */

/** Articles per page of `/market-news`. */
export const MARKET_NEWS_PAGE_SIZE = 20;

/** One article's page. */
export function marketNewsPath(id: string): string {
  return `/market-news/${id}`;
}

/** Whether a path is one of the market news pages (kept briefly by the page cache). */
export function isMarketNewsPath(pathname: string): boolean {
  return pathname === '/market-news' || pathname.startsWith('/market-news/');
}
