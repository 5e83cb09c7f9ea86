import { marketPage, type MarketPageId } from '../../lib/market-pages.ts';
import type { Db } from '../db/client.ts';
import type { SymbolDirectory } from '../services/market-data/directory.ts';
import { latestStockDay, marketMovers, type MoverKind } from '../services/market-data/movers.ts';
import {
  changeColumn,
  figureColumn,
  priceColumn,
  recentCloses,
  sourceOf,
  symbolColumn,
  trendColumn,
  usCloseAsOf,
  type SymbolRow,
} from './columns.ts';
import { buildTable, type ColumnDef, type SortState } from './table.ts';
import type { MarketPageView } from './view.ts';

/** What every market page's loader starts from. */
export interface MarketPageContext {
  db: Db;
  directory: SymbolDirectory;
  now: Date;
  /** The request's query string (sort, window). */
  params: URLSearchParams;
}

/** Each movers page: the list the data API answers and the order it opens in. */
const MOVERS: Readonly<
  Record<MoverKind, { page: MarketPageId; subject: string; sort: SortState; empty: string }>
> = {
  gainers: {
    page: 'gainers',
    subject: 'Top gainers',
    sort: { key: 'change', dir: 'desc' },
    empty: 'No stock rose in the latest session.',
  },
  losers: {
    page: 'losers',
    subject: 'Top losers',
    sort: { key: 'change', dir: 'asc' },
    empty: 'No stock fell in the latest session.',
  },
  actives: {
    page: 'actives',
    subject: 'Most active stocks',
    sort: { key: 'volume', dir: 'desc' },
    empty: 'No stock traded in the latest session.',
  },
};

export const MOVER_COLUMNS: readonly ColumnDef<SymbolRow>[] = [
  symbolColumn(),
  priceColumn(),
  changeColumn(),
  figureColumn('volume', 'Volume'),
  trendColumn(),
];

/**
 * The stocks of a movers list as rows: the data API's own list (biggest-gainers, biggest-losers,
 * most-actives, the same service call), with each stock's volume and recent closes from one query.
 */
export async function moverRows(context: MarketPageContext, kind: MoverKind): Promise<SymbolRow[]> {
  const movers = await marketMovers(context.db, context.directory, kind, context.now);
  const bars = await recentCloses(
    context.db,
    movers.map((mover) => mover.symbol),
    context.now,
  );
  const rows: SymbolRow[] = [];
  for (const mover of movers) {
    const security = context.directory.get(mover.symbol);
    if (security === undefined) continue;
    const list = bars.get(mover.symbol) ?? [];
    rows.push({
      security,
      price: mover.price,
      change: mover.change,
      changePercentage: mover.changesPercentage,
      volume: list.at(-1)?.volume ?? null,
      marketCap: null,
      searches: null,
      bars: list,
    });
  }
  return rows;
}

/** A movers page (top gainers, top losers, most active): the latest US session's list, sortable. */
export async function loadMoversPage(context: MarketPageContext, kind: MoverKind): Promise<MarketPageView> {
  const spec = MOVERS[kind];
  const info = marketPage(spec.page);
  const [rows, day] = await Promise.all([moverRows(context, kind), latestStockDay(context.db, context.now)]);
  return {
    id: spec.page,
    heading: spec.subject,
    note:
      kind === 'actives'
        ? 'US-listed stocks priced at 1 or more, by shares traded in the latest session; the top 50.'
        : 'US-listed stocks priced at 1 or more, by their change from the previous close (split-adjusted); the top 50.',
    asOf: usCloseAsOf(day.date, context.now),
    source: sourceOf(rows.map((row) => row.security)),
    options: [],
    table: buildTable({
      path: info.path,
      params: context.params,
      rows,
      columns: MOVER_COLUMNS,
      defaultSort: spec.sort,
      subject: spec.subject,
      empty: spec.empty,
    }),
  };
}
