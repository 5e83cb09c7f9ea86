import { formatDay } from '../../lib/format.ts';
import { isoDay, shiftIsoDays } from '../../lib/iso-date.ts';
import { marketPage } from '../../lib/market-pages.ts';
import { symbolKind } from '../../lib/symbol-routes.ts';
import { latestStockDay } from '../services/market-data/movers.ts';
import { mostSearchedSymbols, SEARCH_WINDOWS, type SearchWindow } from '../services/symbol-searches.ts';
import {
  changeColumn,
  figureColumn,
  priceColumn,
  sourceOf,
  symbolColumn,
  trendColumn,
  usCloseAsOf,
} from './columns.ts';
import { MOVER_COLUMNS, moverRows, type MarketPageContext } from './movers.ts';
import { latestQuoteAsOf, quoteRows, quotesOf } from './quote-lists.ts';
import { buildTable } from './table.ts';
import type { MarketOption, MarketPageView } from './view.ts';

/** Symbols the page lists at most. */
export const MOST_SEARCHED_LIMIT = 50;

const SEARCHED_COLUMNS = [
  symbolColumn(),
  figureColumn('searches', 'Searches'),
  priceColumn(),
  changeColumn(),
  trendColumn(),
];

/** The window a request asks for (`?days=30`); anything else is the default week. */
export function searchWindow(params: URLSearchParams): SearchWindow {
  const days = Number(params.get('days'));
  return SEARCH_WINDOWS.find((window) => window === days) ?? SEARCH_WINDOWS[0];
}

/** The windows offered, each keeping the sort; the week is the page's plain address. */
function windowOptions(context: MarketPageContext, chosen: SearchWindow): MarketOption[] {
  const path = marketPage('most-searched').path;
  return SEARCH_WINDOWS.map((days) => {
    const params = new URLSearchParams(context.params);
    if (days === SEARCH_WINDOWS[0]) params.delete('days');
    else params.set('days', String(days));
    const query = params.toString();
    return {
      label: `Last ${String(days)} days`,
      href: query === '' ? path : `${path}?${query}`,
      current: days === chosen,
    };
  });
}

/**
 * The most-searched page: the stocks and funds the site's visitors opened from the symbol search
 * most over the last 7 (or 30) UTC days, with their quotes. Before anyone has searched in the
 * window, the most active stocks by volume stand in, titled as such.
 */
export async function loadMostSearchedPage(context: MarketPageContext): Promise<MarketPageView> {
  const path = marketPage('most-searched').path;
  const days = searchWindow(context.params);
  const counts = await mostSearchedSymbols(context.db, {
    days,
    now: context.now,
    limit: MOST_SEARCHED_LIMIT,
    keep: (symbol) => {
      const security = context.directory.get(symbol);
      return security !== undefined && symbolKind(security.assetType) === 'stock';
    },
  });
  const options = windowOptions(context, days);
  const today = isoDay(context.now);
  const span = `${formatDay(shiftIsoDays(today, -(days - 1)))} to ${formatDay(today)}, UTC`;
  if (counts.length === 0) return fallbackPage(context, days, span, options);

  const searches = new Map(counts.map((count) => [count.symbol, count.searches]));
  const securities = counts.flatMap((count) => context.directory.get(count.symbol) ?? []);
  const found = await quotesOf(context, securities);
  const rows = (await quoteRows(context, found)).map((row) => ({
    ...row,
    searches: searches.get(row.security.symbol) ?? 0,
  }));
  return {
    id: 'most-searched',
    heading: `Most searched over the last ${String(days)} days`,
    note: `Searches counted from ${span}: each time a visitor opened a stock or fund from the symbol search’s results.`,
    asOf: latestQuoteAsOf(found),
    source: sourceOf(rows.map((row) => row.security)),
    options,
    table: buildTable({
      path,
      params: context.params,
      rows,
      columns: SEARCHED_COLUMNS,
      defaultSort: { key: 'searches', dir: 'desc' },
      subject: `Most searched stocks, last ${String(days)} days`,
      empty: 'No searches yet.',
    }),
  };
}

/** No searches in the window: the most active stocks by volume, said plainly in the heading and note. */
async function fallbackPage(
  context: MarketPageContext,
  days: SearchWindow,
  span: string,
  options: MarketOption[],
): Promise<MarketPageView> {
  const [rows, day] = await Promise.all([
    moverRows(context, 'actives'),
    latestStockDay(context.db, context.now),
  ]);
  return {
    id: 'most-searched',
    heading: 'Most active stocks by volume',
    note: `No stock or fund was opened from the symbol search in the last ${String(days)} days (${span}), so the stocks with the most shares traded in the latest session are shown instead.`,
    asOf: usCloseAsOf(day.date, context.now),
    source: sourceOf(rows.map((row) => row.security)),
    options,
    table: buildTable({
      path: marketPage('most-searched').path,
      params: context.params,
      rows,
      columns: MOVER_COLUMNS,
      defaultSort: { key: 'volume', dir: 'desc' },
      subject: 'Most active stocks by volume',
      empty: 'No stock traded in the latest session.',
    }),
  };
}
