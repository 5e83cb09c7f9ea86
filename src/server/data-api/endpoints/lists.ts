import { z } from 'zod';
import {
  commodityList,
  cryptoList,
  etfList,
  forexList,
  indexList,
  stockList,
} from '../../services/market-data/search.ts';
import { defineEndpoint, DIRECTORY_CADENCE, type EndpointDefinition } from '../endpoint.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';

const noParams = z.object({});
/** Lists change only with new listings: clients may keep them for a day. */
const LIST_MAX_AGE = 86_400;

export const listEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'stock-list',
    dataset: 'search-directory',
    group: 'Lists',
    summary: 'All stocks',
    description: 'Every stock in the database with its company name, in ticker order.',
    tier: DATA_TIERS.sample,
    params: noParams,
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      companyName: z.string().describe('Company name'),
    }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: '',
    csv: true,
    handler: ({ symbols }) => Promise.resolve([...stockList(symbols)]),
  }),
  defineEndpoint({
    path: 'etf-list',
    dataset: 'search-directory',
    group: 'Lists',
    summary: 'All ETFs',
    description: 'Every exchange-traded fund with its name, in ticker order.',
    tier: DATA_TIERS.sample,
    params: noParams,
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      name: z.string().describe('Fund name'),
    }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: '',
    csv: true,
    handler: ({ symbols }) => Promise.resolve([...etfList(symbols)]),
  }),
  defineEndpoint({
    path: 'cryptocurrency-list',
    dataset: 'crypto',
    group: 'Lists',
    summary: 'All cryptocurrencies',
    description:
      'Every cryptocurrency quoted against the US dollar, with its launch date and coin supply where known (null otherwise), in ticker order.',
    tier: DATA_TIERS.sample,
    params: noParams,
    row: z.object({
      symbol: z.string().describe('Ticker symbol of the pair, e.g. BTCUSD'),
      name: z.string().describe('Name of the coin and quote currency'),
      exchange: z.string().describe('Short code of the venue'),
      icoDate: z
        .string()
        .nullable()
        .describe('Launch (initial coin offering) date, YYYY-MM-DD; null when unknown'),
      circulatingSupply: z.number().nullable().describe('Coins in circulation; null when unknown'),
      totalSupply: z
        .number()
        .nullable()
        .describe('Coins that will ever exist; null when unknown or unlimited'),
    }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: '',
    csv: true,
    handler: ({ symbols }) => Promise.resolve([...cryptoList(symbols)]),
  }),
  defineEndpoint({
    path: 'forex-list',
    dataset: 'forex',
    group: 'Lists',
    summary: 'All currency pairs',
    description: 'Every forex pair with its base and quote currencies, in ticker order.',
    tier: DATA_TIERS.sample,
    params: noParams,
    row: z.object({
      symbol: z.string().describe('Ticker symbol of the pair, e.g. EURUSD'),
      fromCurrency: z.string().describe('Base currency (ISO 4217)'),
      toCurrency: z.string().describe('Quote currency (ISO 4217)'),
      fromName: z.string().describe('Name of the base currency'),
      toName: z.string().describe('Name of the quote currency'),
    }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: '',
    csv: true,
    handler: ({ symbols }) => Promise.resolve([...forexList(symbols)]),
  }),
  defineEndpoint({
    path: 'commodities-list',
    dataset: 'commodity',
    group: 'Lists',
    summary: 'All commodities',
    description: 'Every commodity future with its venue, trading month and currency, in ticker order.',
    tier: DATA_TIERS.sample,
    params: noParams,
    row: z.object({
      symbol: z.string().describe('Ticker symbol, e.g. GCUSD for gold'),
      name: z.string().describe('Name of the commodity future'),
      exchange: z.string().describe('Short code of the venue'),
      tradeMonth: z.string().describe('Contract month traded, e.g. Dec'),
      currency: z.string().describe('Quote currency (USX means US cents)'),
    }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: '',
    csv: true,
    handler: ({ symbols }) => Promise.resolve([...commodityList(symbols)]),
  }),
  defineEndpoint({
    path: 'index-list',
    dataset: 'indexes',
    group: 'Lists',
    summary: 'All indexes',
    description: 'Every market index, in ticker order.',
    tier: DATA_TIERS.sample,
    params: noParams,
    row: z.object({
      symbol: z.string().describe('Ticker symbol, e.g. ^GSPC'),
      name: z.string().describe('Index name'),
      exchange: z.string().describe('Short code of the venue'),
      currency: z.string().describe('Currency of the index level'),
    }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: '',
    csv: true,
    handler: ({ symbols }) => Promise.resolve([...indexList(symbols)]),
  }),
];
