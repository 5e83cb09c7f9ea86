/**
 * The market pages of the footer's "Stock Screener" group (SPEC §2): their addresses, names and
 * texts in one place, so the pages, their sub-navigation, the page cache and the sitemap never
 * disagree about which pages exist.
 */

export type MarketPageId =
  | 'gainers'
  | 'losers'
  | 'actives'
  | 'most-searched'
  | 'sectors'
  | 'indexes'
  | 'currencies'
  | 'cryptocurrencies';

export interface MarketPageInfo {
  id: MarketPageId;
  path: string;
  /** The page's name in the group's sub-navigation. */
  label: string;
  /** The page's one h1 and the start of its title. */
  heading: string;
  /** The meta description (and the lead under the heading). */
  description: string;
}

/** In the order the sub-navigation lists them: stock lists first, then the other markets. */
export const MARKET_PAGES: readonly MarketPageInfo[] = [
  {
    id: 'gainers',
    path: '/top-stock-gainers',
    label: 'Top Gainers',
    heading: 'Top Stock Gainers',
    description:
      'The US-listed stocks that rose most on the latest trading day, by percentage, with price, change, volume and a 30-day trend.',
  },
  {
    id: 'losers',
    path: '/top-stock-losers',
    label: 'Top Losers',
    heading: 'Top Stock Losers',
    description:
      'The US-listed stocks that fell most on the latest trading day, by percentage, with price, change, volume and a 30-day trend.',
  },
  {
    id: 'actives',
    path: '/top-stock-actives',
    label: 'Most Active',
    heading: 'Most Active Stocks',
    description:
      'The US-listed stocks with the most shares traded on the latest trading day, with price, change and a 30-day trend.',
  },
  {
    id: 'most-searched',
    path: '/most-searched-stocks',
    label: 'Most Searched',
    heading: 'Most Searched Stocks',
    description:
      'The stocks and funds this site’s visitors searched for most over the last 7 or 30 days, with price, change and a 30-day trend.',
  },
  {
    id: 'sectors',
    path: '/sector-performance',
    label: 'Sector Performance',
    heading: 'Sector Performance',
    description:
      'How each sector’s stocks moved on the latest trading day, per exchange: the mean change from the previous close, with a 30-day trend.',
  },
  {
    id: 'indexes',
    path: '/market-indexes',
    label: 'Market Indexes',
    heading: 'Market Indexes',
    description:
      'The levels of the major stock market indexes with their change from the previous close and a 30-day trend.',
  },
  {
    id: 'currencies',
    path: '/currencies',
    label: 'Currencies',
    heading: 'Currencies',
    description:
      'Exchange rates of the major currency pairs with their change from the previous close and a 30-day trend.',
  },
  {
    id: 'cryptocurrencies',
    path: '/cryptocurrencies',
    label: 'Cryptocurrencies',
    heading: 'Cryptocurrencies',
    description:
      'Prices of the cryptocurrencies in US dollars with their change, volume, market capitalisation and a 30-day trend.',
  },
];

const BY_ID = new Map<MarketPageId, MarketPageInfo>(MARKET_PAGES.map((page) => [page.id, page]));
const PATHS: ReadonlySet<string> = new Set(MARKET_PAGES.map((page) => page.path));

/** A market page's texts and address. */
export function marketPage(id: MarketPageId): MarketPageInfo {
  const page = BY_ID.get(id);
  if (page === undefined) throw new Error(`No market page is called ${id}`);
  return page;
}

/** Whether a path (no query string) is one of the market pages: the page cache keeps them. */
export function isMarketPagePath(pathname: string): boolean {
  return PATHS.has(pathname);
}
