import { z } from 'zod';
import { quotes, shortQuotes } from '../../services/market-data/quotes.ts';
import {
  defineEndpoint,
  LIVE_QUOTE_CADENCE,
  symbolParam,
  symbolsParam,
  type EndpointDefinition,
} from '../endpoint.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';

/** A full quote row, shared by every endpoint answering quotes. */
export const quoteRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  name: z.string().describe('Name of the company, fund, coin, pair or index'),
  price: z
    .number()
    .describe(
      "Latest price: during the market's session the live price (demo: simulated around the stored bars), else the close of the latest daily bar",
    ),
  changePercentage: z.number().describe('Change from the previous close, in percent (2.5 means 2.5 %)'),
  change: z.number().describe('Price minus the previous close'),
  volume: z.number().describe('Volume of the latest trading day'),
  dayLow: z.number().describe('Lowest price of the latest trading day'),
  dayHigh: z.number().describe('Highest price of the latest trading day'),
  yearHigh: z.number().describe('Highest price of the last 52 weeks'),
  yearLow: z.number().describe('Lowest price of the last 52 weeks'),
  marketCap: z
    .number()
    .describe('Price times shares outstanding; 0 where shares mean nothing (forex, indexes)'),
  priceAvg50: z.number().describe('Mean close of the last 50 trading days'),
  priceAvg200: z.number().describe('Mean close of the last 200 trading days'),
  exchange: z.string().describe('Short code of the listing venue'),
  open: z.number().describe('Opening price of the latest trading day'),
  previousClose: z.number().describe('Close of the trading day before the latest'),
  timestamp: z.number().describe('Unix time (seconds) of the latest trading session close'),
});

const shortRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  price: z
    .number()
    .describe(
      "Latest price: during the market's session the live price (demo: simulated around the stored bars), else the close of the latest daily bar",
    ),
  change: z.number().describe('Price minus the previous close'),
  volume: z.number().describe('Volume of the latest trading day'),
});

/** Live prices move once a second during a session. */
const QUOTE_MAX_AGE = 1;
const QUOTE_DERIVATION =
  'Prices are split-adjusted; averages and the 52-week range come from the daily bars up to the latest one.';

export const quoteEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'quote',
    dataset: 'market-data-real-time',
    group: 'Quotes',
    summary: 'Stock quote',
    description: `The latest price of a security with its day range, 52-week range, moving averages and market capitalisation. ${QUOTE_DERIVATION} An unknown symbol answers [].`,
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam }),
    symbolParam: 'symbol',
    row: quoteRow,
    maxAge: QUOTE_MAX_AGE,
    cadence: LIVE_QUOTE_CADENCE,
    example: 'symbol=AAPL',
    csv: false,
    handler: ({ db, params, symbols, now }) => quotes(db, symbols, [params.symbol], now),
  }),
  defineEndpoint({
    path: 'quote-short',
    dataset: 'market-data-real-time',
    group: 'Quotes',
    summary: 'Short quote',
    description: 'The latest price, change and volume of a security. An unknown symbol answers [].',
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam }),
    symbolParam: 'symbol',
    row: shortRow,
    maxAge: QUOTE_MAX_AGE,
    cadence: LIVE_QUOTE_CADENCE,
    example: 'symbol=AAPL',
    csv: false,
    handler: ({ db, params, symbols, now }) => shortQuotes(db, symbols, [params.symbol], now),
  }),
  defineEndpoint({
    path: 'batch-quote',
    dataset: 'market-data-real-time',
    group: 'Quotes',
    summary: 'Quotes of several symbols',
    description: `Full quotes of up to 100 securities in the order asked; unknown symbols are left out. ${QUOTE_DERIVATION}`,
    tier: DATA_TIERS.sample,
    params: z.object({ symbols: symbolsParam }),
    symbolParam: 'symbols',
    row: quoteRow,
    maxAge: QUOTE_MAX_AGE,
    cadence: LIVE_QUOTE_CADENCE,
    example: 'symbols=AAPL,MSFT',
    csv: false,
    handler: ({ db, params, symbols, now }) => quotes(db, symbols, params.symbols, now),
  }),
  defineEndpoint({
    path: 'batch-quote-short',
    dataset: 'market-data-real-time',
    group: 'Quotes',
    summary: 'Short quotes of several symbols',
    description:
      'Price, change and volume of up to 100 securities in the order asked; unknown symbols are left out.',
    tier: DATA_TIERS.sample,
    params: z.object({ symbols: symbolsParam }),
    symbolParam: 'symbols',
    row: shortRow,
    maxAge: QUOTE_MAX_AGE,
    cadence: LIVE_QUOTE_CADENCE,
    example: 'symbols=AAPL,MSFT',
    csv: false,
    handler: ({ db, params, symbols, now }) => shortQuotes(db, symbols, params.symbols, now),
  }),
];
