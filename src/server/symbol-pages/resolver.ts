import type { Db } from '../db/client.ts';
import { getDatabase } from '../db/client.ts';
import type { AssetType, Security } from '../db/schema.ts';
import { CachedDirectory, type SymbolDirectory } from '../services/market-data/directory.ts';
import { isTrading } from '../services/market-data/market-session.ts';
import { quotes, type QuoteRow } from '../services/market-data/quotes.ts';
import { searchSymbols, type SearchRow } from '../services/market-data/search.ts';
import {
  overviewPage,
  pageForKind,
  symbolKind,
  symbolPath,
  type SymbolKind,
  type SymbolPage,
} from '../../lib/symbol-routes.ts';

/** What every symbol page's header shows (SPEC §2 symbol pages). */
export interface SymbolHeader {
  symbol: string;
  name: string;
  exchange: string;
  exchangeFullName: string;
  currency: string;
  kind: SymbolKind;
  /** Latest close or last trade; null when the symbol has no prices yet. */
  price: number | null;
  change: number | null;
  changePercentage: number | null;
  /** Unix seconds the price is from. */
  timestamp: number | null;
  market: MarketState;
  /** Demo rows are labelled as such wherever they are shown. */
  source: 'demo' | 'imported';
}

export interface MarketState {
  open: boolean;
  /** "Market open", "Market closed", "Trades 24/7". */
  label: string;
}

/**
 * What the page loaders start from: the resolved symbol, the request's options and the services'
 * handles. Server-only: the panels receive the view models the loaders make of it.
 */
export interface SymbolPageContext {
  db: Db;
  directory: SymbolDirectory;
  security: Security;
  kind: SymbolKind;
  page: SymbolPage;
  header: SymbolHeader;
  /** The quote behind the header (undefined without prices). */
  quote: QuoteRow | undefined;
  now: Date;
  /** The request's query string, for panels with their own options (period, page of a table). */
  searchParams: URLSearchParams;
}

export type SymbolPageResolution =
  | { type: 'page'; context: SymbolPageContext }
  | { type: 'redirect'; location: string }
  | { type: 'not-found'; query: string; suggestions: SymbolSuggestion[] };

export interface SymbolSuggestion extends SearchRow {
  assetType: AssetType;
  /** The suggestion's own overview page. */
  href: string;
}

const SUGGESTIONS = 8;
/** Longest query read; no ticker or useful name prefix is longer. */
export const MAX_QUERY_LENGTH = 40;

const SHARED = Symbol.for('market-data.site-directory');
const holder = globalThis as typeof globalThis & { [SHARED]?: CachedDirectory | undefined };

/** The site's symbol directory (one per process, reloaded in the background like the data API's). */
export function siteDirectory(): CachedDirectory {
  holder[SHARED] ??= new CachedDirectory(async () => (await getDatabase()).db);
  return holder[SHARED];
}

/**
 * Decides what `/{page}/{id}` shows: the page for a known symbol of a type the page serves, a
 * redirect to the matching page for a symbol of another type (or to the canonical spelling of the
 * symbol), or a 404 with the closest symbols.
 */
export async function resolveSymbolPage(
  page: SymbolPage,
  id: string,
  searchParams: URLSearchParams,
  now: Date = new Date(),
): Promise<SymbolPageResolution> {
  const directory = await siteDirectory().get();
  const security = directory.get(id.trim());
  if (security === undefined) {
    return { type: 'not-found', query: id, suggestions: symbolSuggestions(directory, id) };
  }
  const kind = symbolKind(security.assetType);
  const target = pageForKind(page, kind);
  if (target !== page || security.symbol !== id) {
    const query = searchParams.size > 0 && target === page ? `?${searchParams.toString()}` : '';
    return { type: 'redirect', location: `${symbolPath(target, security.symbol)}${query}` };
  }
  const { db } = await getDatabase();
  const [quote] = await quotes(db, directory, [security.symbol], now);
  return {
    type: 'page',
    context: {
      db,
      directory,
      security,
      kind,
      page,
      header: symbolHeader(security, quote, now),
      quote,
      now,
      searchParams,
    },
  };
}

/**
 * Symbols matching what was typed, tickers first and then names, each linked to its overview: the
 * search page's results and the unknown-symbol page's suggestions.
 */
export function symbolSuggestions(
  directory: SymbolDirectory,
  query: string,
  limit: number = SUGGESTIONS,
): SymbolSuggestion[] {
  const cleaned = query.trim().slice(0, MAX_QUERY_LENGTH);
  if (cleaned === '') return [];
  const bySymbol = searchSymbols(directory, cleaned, { by: 'symbol', limit });
  const seen = new Set(bySymbol.map((row) => row.symbol));
  const byName = searchSymbols(directory, cleaned, { by: 'name', limit }).filter(
    (row) => !seen.has(row.symbol),
  );
  return [...bySymbol, ...byName].slice(0, limit).map((row) => {
    const assetType = directory.get(row.symbol)?.assetType ?? 'stock';
    return { ...row, assetType, href: symbolPath(overviewPage(symbolKind(assetType)), row.symbol) };
  });
}

export function symbolHeader(security: Security, quote: QuoteRow | undefined, now: Date): SymbolHeader {
  return {
    symbol: security.symbol,
    name: security.name,
    exchange: security.exchange,
    exchangeFullName: security.exchangeFullName,
    currency: security.currency,
    kind: symbolKind(security.assetType),
    price: quote?.price ?? null,
    change: quote?.change ?? null,
    changePercentage: quote?.changePercentage ?? null,
    timestamp: quote?.timestamp ?? null,
    market: marketState(security, now),
    source: security.source,
  };
}

/**
 * Whether the security's market is in its regular session, as the live market and the market hours endpoints
 * have it: crypto never closes; forex and commodity futures trade from Sunday 17:00 to Friday 17:00 New York
 * time; stocks, funds and indexes in their exchange's session, closed on its holidays and after an early close.
 */
export function marketState(security: Pick<Security, 'assetType' | 'exchange'>, now: Date): MarketState {
  if (security.assetType === 'crypto') return { open: true, label: 'Trades 24/7' };
  const market: Pick<Security, 'assetType' | 'exchange'> =
    security.assetType === 'commodity' ? { assetType: 'forex', exchange: security.exchange } : security;
  const open = isTrading(market, now.getTime());
  return { open, label: open ? 'Market open' : 'Market closed' };
}
