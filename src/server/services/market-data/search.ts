import type { AssetType, Security } from '../../db/schema.ts';
import type { SymbolDirectory } from './directory.ts';

export interface SearchRow {
  symbol: string;
  name: string;
  currency: string;
  exchangeFullName: string;
  exchange: string;
}

/** Ranked symbol or name matches (see SymbolDirectory.search), optionally on one exchange. */
export function searchSymbols(
  directory: SymbolDirectory,
  query: string,
  options: { by: 'symbol' | 'name'; limit: number; exchange?: string | undefined },
): SearchRow[] {
  return directory
    .search(query, { by: options.by, limit: options.limit, exchange: options.exchange })
    .map((security) => ({
      symbol: security.symbol,
      name: security.name,
      currency: security.currency,
      exchangeFullName: security.exchangeFullName,
      exchange: security.exchange,
    }));
}

export interface StockListRow {
  symbol: string;
  companyName: string;
}
export interface EtfListRow {
  symbol: string;
  name: string;
}
export interface CryptoListRow {
  symbol: string;
  name: string;
  exchange: string;
  icoDate: string | null;
  circulatingSupply: number | null;
  totalSupply: number | null;
}
export interface ForexListRow {
  symbol: string;
  fromCurrency: string;
  toCurrency: string;
  fromName: string;
  toName: string;
}
export interface CommodityListRow {
  symbol: string;
  name: string;
  exchange: string;
  tradeMonth: string;
  currency: string;
}
export interface IndexListRow {
  symbol: string;
  name: string;
  exchange: string;
  currency: string;
}

function detailText(security: Security, key: string): string | null {
  const value = security.details[key];
  if (value === null || value === undefined || value === '') return null;
  return String(value);
}

function detailNumber(security: Security, key: string): number | null {
  const value = security.details[key];
  if (value === null || value === undefined || value === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

/**
 * Lists are rebuilt only when the directory is reloaded (it is immutable): mapping tens of thousands
 * of securities on every call would dominate the answer time.
 */
const listCache = new WeakMap<SymbolDirectory, Map<string, readonly unknown[]>>();

function cachedList<R>(
  directory: SymbolDirectory,
  type: AssetType,
  build: (security: Security) => R,
): readonly R[] {
  let lists = listCache.get(directory);
  if (lists === undefined) {
    lists = new Map();
    listCache.set(directory, lists);
  }
  const cached = lists.get(type);
  if (cached !== undefined) return cached as readonly R[];
  const built = directory.list(type).map(build);
  lists.set(type, built);
  return built;
}

/** Every stock, in symbol order. */
export function stockList(directory: SymbolDirectory): readonly StockListRow[] {
  return cachedList(directory, 'stock', (security) => ({
    symbol: security.symbol,
    companyName: security.name,
  }));
}

/** Every ETF, in symbol order. */
export function etfList(directory: SymbolDirectory): readonly EtfListRow[] {
  return cachedList(directory, 'etf', (security) => ({ symbol: security.symbol, name: security.name }));
}

/** Every cryptocurrency with its issue date and supply (null where unknown). */
export function cryptoList(directory: SymbolDirectory): readonly CryptoListRow[] {
  return cachedList(directory, 'crypto', (security) => ({
    symbol: security.symbol,
    name: security.name,
    exchange: security.exchange,
    icoDate: detailText(security, 'icoDate'),
    circulatingSupply: detailNumber(security, 'circulatingSupply'),
    totalSupply: detailNumber(security, 'totalSupply'),
  }));
}

/** Every forex pair with its two currencies; pairs stored without details fall back to the symbol's halves. */
export function forexList(directory: SymbolDirectory): readonly ForexListRow[] {
  return cachedList(directory, 'forex', (security) => {
    const from = detailText(security, 'fromCurrency') ?? security.symbol.slice(0, 3);
    const to = detailText(security, 'toCurrency') ?? security.symbol.slice(3, 6);
    return {
      symbol: security.symbol,
      fromCurrency: from,
      toCurrency: to,
      fromName: detailText(security, 'fromName') ?? from,
      toName: detailText(security, 'toName') ?? to,
    };
  });
}

/** Every commodity future with its trading month. */
export function commodityList(directory: SymbolDirectory): readonly CommodityListRow[] {
  return cachedList(directory, 'commodity', (security) => ({
    symbol: security.symbol,
    name: security.name,
    exchange: security.exchange,
    tradeMonth: detailText(security, 'tradeMonth') ?? '',
    currency: detailText(security, 'currency') ?? security.currency,
  }));
}

/** Every index. */
export function indexList(directory: SymbolDirectory): readonly IndexListRow[] {
  return cachedList(directory, 'index', (security) => ({
    symbol: security.symbol,
    name: security.name,
    exchange: security.exchange,
    currency: security.currency,
  }));
}
