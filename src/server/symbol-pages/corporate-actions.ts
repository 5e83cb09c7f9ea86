/**
 * Corporate actions of a stock (corporate-actions): cash dividends, stock splits and the earnings
 * reports with their surprise against the consensus.
 */
import { formatDay, formatNumber, formatPercent, formatPrice } from '../../lib/format.ts';
import { dividendRows, earningsRows, splitRows } from '../services/market-data/events.ts';
import { perShareDigits, splitRatio, surprisePercent } from './company-view.ts';
import type { SymbolPageContext } from './resolver.ts';

/** What the corporate-actions page of a stock shows, as table rows. */
export interface CorporateActionsView {
  symbol: string;
  currency: string;
  /** Ex-date, record, payment and declaration dates, amount, adjusted amount, yield, frequency. */
  dividendTableRows: string[][];
  /** Date and ratio. */
  splitTableRows: string[][];
  /** Date, EPS actual, estimated and surprise, revenue actual, estimated and surprise. */
  earningsTableRows: string[][];
}

/** Rows per table: decades of quarterly payments and reports fit. */
const ROWS = 100;

/** Reads the corporate-actions page of a stock. */
export async function loadCorporateActions(context: SymbolPageContext): Promise<CorporateActionsView> {
  const { db } = context;
  const symbol = context.security.symbol;
  const currency = context.header.currency;

  const [dividends, splits, earnings] = await Promise.all([
    dividendRows(db, symbol, ROWS),
    splitRows(db, symbol, ROWS),
    earningsRows(db, symbol, ROWS),
  ]);

  function day(iso: string): string {
    return formatDay(iso);
  }

  // One number of decimals for the whole column, so the amounts line up.
  const amountDigits = Math.max(
    2,
    ...dividends.flatMap((row) => [perShareDigits(row.dividend), perShareDigits(row.adjDividend)]),
  );

  function perShare(value: number): string {
    return formatPrice(value, undefined, amountDigits);
  }

  const dividendTableRows = dividends.map((row) => [
    day(row.date),
    day(row.recordDate),
    day(row.paymentDate),
    day(row.declarationDate),
    perShare(row.dividend),
    perShare(row.adjDividend),
    row.yield > 0 ? `${formatNumber(row.yield)}%` : formatNumber(null),
    row.frequency || formatNumber(null),
  ]);

  const splitTableRows = splits.map((row) => [day(row.date), splitRatio(row.numerator, row.denominator)]);

  const earningsTableRows = earnings.map((row) => [
    day(row.date),
    formatPrice(row.epsActual),
    formatPrice(row.epsEstimated),
    formatPercent(surprisePercent(row.epsActual, row.epsEstimated)),
    formatNumber(row.revenueActual),
    formatNumber(row.revenueEstimated),
    formatPercent(surprisePercent(row.revenueActual, row.revenueEstimated)),
  ]);
  return { symbol, currency, dividendTableRows, splitTableRows, earningsTableRows };
}
