import { marketPage, type MarketPageId } from '../../lib/market-pages.ts';
import type { AssetType, Security } from '../db/schema.ts';
import { groupQuotes, securitiesWhere } from '../services/market-data/market-quotes.ts';
import { quotes, type QuoteRow } from '../services/market-data/quotes.ts';
import {
  asOfText,
  changeColumn,
  figureColumn,
  priceColumn,
  recentCloses,
  sourceOf,
  symbolColumn,
  trendColumn,
  type SymbolRow,
} from './columns.ts';
import type { MarketPageContext } from './movers.ts';
import { buildTable, type ColumnDef, type SortState } from './table.ts';
import type { MarketPageView } from './view.ts';

/** Each quote list page: the asset type the data API's batch endpoint quotes, its columns and first order. */
interface QuoteListSpec {
  page: MarketPageId;
  assetType: AssetType;
  subject: string;
  note: string;
  columns: readonly ColumnDef<SymbolRow>[];
  sort: SortState;
  empty: string;
}

const SPECS: readonly QuoteListSpec[] = [
  {
    page: 'indexes',
    assetType: 'index',
    subject: 'Market indexes',
    note: 'Every index in the data set, with its level and its change from the previous close.',
    columns: [symbolColumn('Index'), priceColumn('Level'), changeColumn(), trendColumn()],
    sort: { key: 'symbol', dir: 'asc' },
    empty: 'No index has prices yet.',
  },
  {
    page: 'currencies',
    assetType: 'forex',
    subject: 'Currency pairs',
    note: 'Every currency pair in the data set: the price of one unit of the first currency in the second.',
    columns: [symbolColumn('Pair'), priceColumn('Rate'), changeColumn(), trendColumn()],
    sort: { key: 'symbol', dir: 'asc' },
    empty: 'No currency pair has prices yet.',
  },
  {
    page: 'cryptocurrencies',
    assetType: 'crypto',
    subject: 'Cryptocurrencies',
    note: 'Every cryptocurrency in the data set, priced in US dollars; crypto trades around the clock.',
    columns: [
      symbolColumn('Coin'),
      priceColumn(),
      changeColumn(),
      figureColumn('marketCap', 'Market cap'),
      figureColumn('volume', 'Volume'),
      trendColumn(),
    ],
    sort: { key: 'marketCap', dir: 'desc' },
    empty: 'No cryptocurrency has prices yet.',
  },
];

/** Full quotes as rows, with each symbol's recent closes from one query. */
export async function quoteRows(
  context: MarketPageContext,
  found: readonly QuoteRow[],
): Promise<SymbolRow[]> {
  const bars = await recentCloses(
    context.db,
    found.map((quote) => quote.symbol),
    context.now,
  );
  const rows: SymbolRow[] = [];
  for (const quote of found) {
    const security = context.directory.get(quote.symbol);
    if (security === undefined) continue;
    rows.push({
      security,
      price: quote.price,
      change: quote.change,
      changePercentage: quote.changePercentage,
      volume: quote.volume,
      marketCap: quote.marketCap === 0 ? null : quote.marketCap,
      searches: null,
      bars: bars.get(quote.symbol) ?? [],
    });
  }
  return rows;
}

/** Quotes of securities in the directory's symbol order, as the data API quotes them. */
export function quotesOf(context: MarketPageContext, securities: readonly Security[]): Promise<QuoteRow[]> {
  return quotes(
    context.db,
    context.directory,
    securities.map((security) => security.symbol),
    context.now,
  );
}

/** The moment the newest quote of a list is from (the live price during a session, else the close). */
export function latestQuoteAsOf(found: readonly QuoteRow[]): MarketPageView['asOf'] {
  const newest = Math.max(...found.map((quote) => quote.timestamp));
  return Number.isFinite(newest) ? asOfText(newest) : null;
}

/**
 * A page of every index, currency pair or cryptocurrency: the quotes the data API's batch endpoint
 * for the asset type answers (batch-index-quotes, batch-forex-quotes, batch-crypto-quotes, the same
 * service call), sortable.
 */
export async function loadQuoteListPage(
  context: MarketPageContext,
  page: 'indexes' | 'currencies' | 'cryptocurrencies',
): Promise<MarketPageView> {
  const spec = SPECS.find((candidate) => candidate.page === page);
  if (spec === undefined) throw new Error(`No quote list is called ${page}`);
  const info = marketPage(spec.page);
  const securities = securitiesWhere(context.directory, (security) => security.assetType === spec.assetType);
  const found = (await groupQuotes(
    context.db,
    context.directory,
    securities,
    false,
    context.now,
  )) as QuoteRow[];
  const rows = await quoteRows(context, found);
  return {
    id: spec.page,
    heading: spec.subject,
    note: spec.note,
    asOf: latestQuoteAsOf(found),
    source: sourceOf(rows.map((row) => row.security)),
    options: [],
    table: buildTable({
      path: info.path,
      params: context.params,
      rows,
      columns: spec.columns,
      defaultSort: spec.sort,
      subject: spec.subject,
      empty: spec.empty,
    }),
  };
}
