import type { Db } from '../db/client.ts';
import type { Security } from '../db/schema.ts';
import {
  HISTORY_PAGE_SIZE,
  historyQuery,
  pageCount,
  parseHistoryRange,
  parsePageNumber,
  type HistoryRange,
  type HistoryRangeProblem,
} from '../../lib/history-range.ts';
import { symbolKind, symbolPath, type SymbolKind } from '../../lib/symbol-routes.ts';
import { dailyBars, percentChange, round, roundPrice } from '../services/market-data/prices.ts';
import type { SymbolPageContext } from './resolver.ts';

/**
 * The rows of the historical-prices pages and of their download endpoint, built in one place so
 * the table, the CSV and the JSON always carry the same columns and numbers.
 */

/** Column keys, in display order; also the CSV header and the JSON field names. */
export const HISTORY_FIELDS = [
  'date',
  'open',
  'high',
  'low',
  'close',
  'adjClose',
  'volume',
  'change',
  'changePercent',
] as const;

export type HistoryField = (typeof HISTORY_FIELDS)[number];

/** One trading day; adjClose only for stocks, volume only where the market reports it. */
export interface HistoryRecord {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  adjClose?: number;
  volume?: number;
  /** Close minus open, as the data API's full daily chart defines it. */
  change: number;
  /** Change as a percentage of the open (2.5 means 2.5 %). */
  changePercent: number;
}

export interface MarketHistory {
  /** The columns that apply to this symbol and range. */
  fields: HistoryField[];
  /** Newest first. */
  rows: HistoryRecord[];
}

/**
 * Split-adjusted daily prices of a symbol in a range, newest first, rounded as the data API rounds
 * them. Adjusted closes are a stock concept (dividends and splits) and are left out elsewhere;
 * indexes and currency pairs have no traded volume, so their all-zero volume column is dropped.
 */
export async function loadMarketHistory(
  db: Db,
  security: Pick<Security, 'symbol' | 'assetType'>,
  range: HistoryRange,
): Promise<MarketHistory> {
  const bars = await dailyBars(db, security.symbol, range, 'split');
  const type = security.assetType;
  const kind = symbolKind(type);
  const withAdjClose = kind === 'stock';
  const withVolume = (kind !== 'forex' && kind !== 'index') || bars.some((bar) => bar.volume !== 0);
  const rows = bars.map((bar): HistoryRecord => {
    const open = roundPrice(bar.open, type);
    const close = roundPrice(bar.close, type);
    // Built in column order, so the JSON download reads like the table and the CSV.
    return {
      date: bar.date,
      open,
      high: roundPrice(bar.high, type),
      low: roundPrice(bar.low, type),
      close,
      ...(withAdjClose ? { adjClose: roundPrice(bar.adjClose, type) } : {}),
      ...(withVolume ? { volume: round(bar.volume, 0) } : {}),
      change: roundPrice(close - open, type),
      changePercent: percentChange(close - open, open),
    };
  });
  const fields = HISTORY_FIELDS.filter(
    (field) => (field !== 'adjClose' || withAdjClose) && (field !== 'volume' || withVolume),
  );
  return { fields, rows };
}

/** What a historical-data page shows: one page of the daily prices of the range asked for. */
export interface HistoryView {
  symbol: string;
  kind: SymbolKind;
  /** The page's own path, where the range form and the pager lead. */
  path: string;
  range: HistoryRange;
  /** What was wrong with the range asked for (the default range is shown instead). */
  problems: HistoryRangeProblem[];
  fields: HistoryField[];
  /** Trading days in the range, over all pages. */
  total: number;
  pages: number;
  /** The page shown, from 1. */
  current: number;
  /** Index of the page's first row in the range. */
  first: number;
  /** The page's rows, newest first. */
  rows: HistoryRecord[];
  /** The price whose size sets the decimals of the table (latest quote, else latest close). */
  reference: number | null;
  newer: string | undefined;
  older: string | undefined;
}

/** Reads a historical-data page; range (`from`, `to`) and `page` come from the query string. */
export async function loadHistory(context: SymbolPageContext): Promise<HistoryView> {
  const { db, security, header, kind, page, searchParams, now } = context;
  const symbol = header.symbol;
  const { range, problems } = parseHistoryRange(
    { from: searchParams.get('from'), to: searchParams.get('to') },
    now,
  );
  const history = await loadMarketHistory(db, security, range);
  const total = history.rows.length;
  const pages = pageCount(total, HISTORY_PAGE_SIZE);
  const current = Math.min(parsePageNumber(searchParams.get('page')), pages);
  const first = (current - 1) * HISTORY_PAGE_SIZE;
  const path = symbolPath(page, symbol);
  return {
    symbol,
    kind,
    path,
    range,
    problems,
    fields: history.fields,
    total,
    pages,
    current,
    first,
    rows: history.rows.slice(first, first + HISTORY_PAGE_SIZE),
    reference: header.price ?? history.rows[0]?.close ?? null,
    newer: current > 1 ? `${path}${historyQuery(range, current - 1)}` : undefined,
    older: current < pages ? `${path}${historyQuery(range, current + 1)}` : undefined,
  };
}
