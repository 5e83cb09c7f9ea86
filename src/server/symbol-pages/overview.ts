/**
 * The Overview tab of cryptocurrencies, indexes, currency pairs and commodities: the quote's key
 * statistics, performance over the usual periods, the last ten closes, and the way on to the chart
 * and the full history. Everything is read on the server; the panel ships no script.
 */
import {
  formatDay,
  formatNumber,
  formatPercent,
  formatPrice,
  MISSING_VALUE,
  priceDigits,
} from '../../lib/format.ts';
import { isoDay, shiftIsoDays, shiftIsoYears } from '../../lib/iso-date.ts';
import { pageForKind, symbolPath } from '../../lib/symbol-routes.ts';
import type { Security } from '../db/schema.ts';
import { dailyBars } from '../services/market-data/prices.ts';
import { performance } from './performance.ts';
import type { SymbolPageContext } from './resolver.ts';

/** One key statistic, formatted. */
export interface Statistic {
  label: string;
  value: string;
}

/** What the overview of a non-stock symbol shows. */
export interface MarketOverviewView {
  symbol: string;
  /** Without a quote there are no statistics of the market, only currency and exchange. */
  hasQuote: boolean;
  /** "prices", "rates" (currency pairs) or "levels" (indexes). */
  noun: string;
  statistics: Statistic[];
  /** Period, start day, close then, change %. */
  performanceTable: string[][];
  /** Some periods are longer than the recorded history and are left out. */
  performanceCut: boolean;
  recentCloses: number;
  /** Day, close, change, change %. */
  recentTable: string[][];
  chartHref: string;
  historyHref: string;
}

/** Closes shown in the "Recent prices" table. */
const RECENT_CLOSES = 10;
/** Years of closes read: the longest performance period. */
const PERFORMANCE_YEARS = 5;

function detailText(security: Security, key: string): string | null {
  const value = security.details[key];
  return value === null || value === undefined || value === '' ? null : String(value);
}

function detailNumber(security: Security, key: string): number | null {
  const value = security.details[key];
  if (value === null || value === undefined || value === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

/** Reads the overview of a cryptocurrency, index, currency pair or commodity. */
export async function loadMarketOverview(context: SymbolPageContext): Promise<MarketOverviewView> {
  const { db, security, header, kind, quote, now } = context;
  const symbol = header.symbol;

  const today = isoDay(now);
  // A fortnight more than five years, so the five-year change can start from the close before a holiday.
  const bars = await dailyBars(
    db,
    security.symbol,
    { from: shiftIsoDays(shiftIsoYears(today, -PERFORMANCE_YEARS), -14), to: today },
    'split',
  );

  const digits =
    kind === 'forex' ? Math.max(4, priceDigits(header.price)) : priceDigits(header.price ?? bars[0]?.close);
  const price = (value: number | null | undefined): string => formatPrice(value, undefined, digits);
  const signedPrice = (value: number | null): string =>
    value === null || !Number.isFinite(value) ? MISSING_VALUE : `${value > 0 ? '+' : ''}${price(value)}`;
  const range = (low: number | undefined, high: number | undefined): string =>
    low === undefined || high === undefined ? MISSING_VALUE : `${price(low)} – ${price(high)}`;

  const statistics: Statistic[] = [];
  if (quote !== undefined) {
    statistics.push(
      { label: 'Open', value: price(quote.open) },
      { label: 'Previous close', value: price(quote.previousClose) },
      { label: 'Day range', value: range(quote.dayLow, quote.dayHigh) },
      { label: '52-week range', value: range(quote.yearLow, quote.yearHigh) },
    );
    // Indexes and currency pairs have no traded volume of their own; a zero would read as no trading.
    if ((kind !== 'forex' && kind !== 'index') || quote.volume > 0) {
      statistics.push({ label: 'Volume', value: formatNumber(quote.volume) });
    }
    statistics.push(
      { label: '50-day average', value: price(quote.priceAvg50) },
      { label: '200-day average', value: price(quote.priceAvg200) },
    );
    if (kind === 'crypto' && quote.marketCap > 0) {
      statistics.push({ label: 'Market cap', value: `${formatNumber(quote.marketCap)} ${header.currency}` });
    }
  }
  if (kind === 'crypto') {
    const coin = symbol.endsWith(header.currency) ? symbol.slice(0, -header.currency.length) : '';
    const circulating = detailNumber(security, 'circulatingSupply');
    const total = detailNumber(security, 'totalSupply');
    if (circulating !== null) {
      statistics.push({ label: 'Circulating supply', value: `${formatNumber(circulating)} ${coin}`.trim() });
    }
    if (total !== null)
      statistics.push({ label: 'Total supply', value: `${formatNumber(total)} ${coin}`.trim() });
  }
  if (kind === 'forex') {
    const base = detailText(security, 'fromCurrency') ?? symbol.slice(0, 3);
    const counter = detailText(security, 'toCurrency') ?? symbol.slice(3, 6);
    const baseName = detailText(security, 'fromName');
    const counterName = detailText(security, 'toName');
    statistics.push(
      { label: 'Base currency', value: baseName && baseName !== base ? `${base} (${baseName})` : base },
      {
        label: 'Quote currency',
        value: counterName && counterName !== counter ? `${counter} (${counterName})` : counter,
      },
    );
  }
  if (kind === 'commodity') {
    const month = detailText(security, 'tradeMonth');
    if (month !== null) statistics.push({ label: 'Contract month', value: month });
  }
  statistics.push({ label: 'Currency', value: header.currency || MISSING_VALUE });
  statistics.push({ label: 'Exchange', value: header.exchangeFullName || header.exchange || MISSING_VALUE });

  const performanceRows = performance(bars).filter((row) => row.changePercent !== null);
  const performanceCut = bars.length > 0 && performanceRows.length < 6;
  const performanceTable = performanceRows.map((row) => [
    row.label,
    row.startDate === null ? MISSING_VALUE : formatDay(row.startDate),
    price(row.startClose),
    formatPercent(row.changePercent),
  ]);

  const recentTable = bars.slice(0, RECENT_CLOSES).map((bar, index) => {
    const previous = bars[index + 1];
    const change = previous === undefined ? null : bar.close - previous.close;
    const changePercent =
      previous === undefined || previous.close === 0 || change === null
        ? null
        : (change / previous.close) * 100;
    return [formatDay(bar.date), price(bar.close), signedPrice(change), formatPercent(changePercent)];
  });

  const chartHref = symbolPath('chart', symbol);
  const historyHref = symbolPath(pageForKind('historical-data', kind), symbol);
  const noun = kind === 'forex' ? 'rates' : kind === 'index' ? 'levels' : 'prices';
  return {
    symbol,
    hasQuote: quote !== undefined,
    noun,
    statistics,
    performanceTable,
    performanceCut,
    recentCloses: RECENT_CLOSES,
    recentTable,
    chartHref,
    historyHref,
  };
}
