import { z } from 'zod';
import { aftermarketQuotes, aftermarketTrades } from '../../services/market-data/aftermarket.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import {
  defineEndpoint,
  symbolParam,
  symbolsParam,
  type EndpointDefinition,
  type UpdateCadence,
} from '../endpoint.ts';

const tradeRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  price: z.number().describe('Price of the latest extended-hours trade'),
  tradeSize: z.number().describe('Shares traded in that trade'),
  timestamp: z.number().describe('Unix time of the trade, in milliseconds'),
});

const quoteRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  bidSize: z.number().describe('Shares bid at the bid price'),
  bidPrice: z.number().describe('Highest bid of the extended-hours book'),
  askSize: z.number().describe('Shares offered at the ask price'),
  askPrice: z.number().describe('Lowest ask of the extended-hours book'),
  volume: z.number().describe('Shares traded in the regular session of the latest trading day so far'),
  timestamp: z.number().describe('Unix time of the quote, in milliseconds'),
});

/** Extended-hours prices move once a second during pre-market and after-hours. */
const AFTERMARKET_CADENCE: UpdateCadence = {
  frequency: 'real-time',
  when: 'Every second during pre-market (04:00–09:30 New York) and after-hours (16:00–20:00, or 13:00–17:00 after an early close) on US trading days; the last tick of the latest window in between.',
};
const AFTERMARKET_MAX_AGE = 1;
const DERIVATION =
  'Demo data: the extended-hours ticks of the live market simulator (pre-market walks from the previous close to the stored open, after-hours from the close). Only US-listed stocks and ETFs trade in extended hours; other symbols are left out.';

export const aftermarketEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'aftermarket-trade',
    dataset: 'market-data-real-time',
    group: 'Quotes',
    summary: 'Aftermarket trade',
    description: `The latest pre-market or after-hours trade of a US stock: price, size and time. ${DERIVATION}`,
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam }),
    symbolParam: 'symbol',
    row: tradeRow,
    maxAge: AFTERMARKET_MAX_AGE,
    cadence: AFTERMARKET_CADENCE,
    example: 'symbol=AAPL',
    csv: true,
    handler: ({ db, params, symbols, now }) => aftermarketTrades(db, symbols, [params.symbol], now),
  }),
  defineEndpoint({
    path: 'aftermarket-quote',
    dataset: 'market-data-real-time',
    group: 'Quotes',
    summary: 'Aftermarket quote',
    description: `The pre-market or after-hours book of a US stock: best bid and ask with their sizes, and the day's volume. ${DERIVATION}`,
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam }),
    symbolParam: 'symbol',
    row: quoteRow,
    maxAge: AFTERMARKET_MAX_AGE,
    cadence: AFTERMARKET_CADENCE,
    example: 'symbol=AAPL',
    csv: true,
    handler: ({ db, params, symbols, now }) => aftermarketQuotes(db, symbols, [params.symbol], now),
  }),
  defineEndpoint({
    path: 'batch-aftermarket-trade',
    dataset: 'market-data-real-time',
    group: 'Quotes',
    summary: 'Aftermarket trades of several symbols',
    description: `The latest pre-market or after-hours trade of up to 100 US stocks, in the order asked. ${DERIVATION}`,
    tier: DATA_TIERS.professional,
    params: z.object({ symbols: symbolsParam }),
    symbolParam: 'symbols',
    row: tradeRow,
    maxAge: AFTERMARKET_MAX_AGE,
    cadence: AFTERMARKET_CADENCE,
    example: 'symbols=AAPL,MSFT',
    csv: true,
    handler: ({ db, params, symbols, now }) => aftermarketTrades(db, symbols, params.symbols, now),
  }),
  defineEndpoint({
    path: 'batch-aftermarket-quote',
    dataset: 'market-data-real-time',
    group: 'Quotes',
    summary: 'Aftermarket quotes of several symbols',
    description: `The pre-market or after-hours book of up to 100 US stocks, in the order asked. ${DERIVATION}`,
    tier: DATA_TIERS.professional,
    params: z.object({ symbols: symbolsParam }),
    symbolParam: 'symbols',
    row: quoteRow,
    maxAge: AFTERMARKET_MAX_AGE,
    cadence: AFTERMARKET_CADENCE,
    example: 'symbols=AAPL,MSFT',
    csv: true,
    handler: ({ db, params, symbols, now }) => aftermarketQuotes(db, symbols, params.symbols, now),
  }),
];
