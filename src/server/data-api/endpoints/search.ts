import { z } from 'zod';
import { searchSymbols } from '../../services/market-data/search.ts';
import { defineEndpoint, DIRECTORY_CADENCE, limitParam, type EndpointDefinition } from '../endpoint.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';

const searchParams = z.object({
  query: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(100, 'must be at most 100 characters')
    .describe('Text to look for: the start of a ticker, or of a word in the name')
    .meta({ example: 'AAP' }),
  limit: limitParam(50, 100),
  exchange: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{1,20}$/, 'must be an exchange code such as NASDAQ or NYSE')
    .transform((value) => value.toUpperCase())
    .optional()
    .describe('Only securities listed on this exchange (short code: NASDAQ, NYSE, LSE, CRYPTO, …)'),
});

const searchRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  name: z.string().describe('Name of the company, fund, coin, pair or index'),
  currency: z.string().describe('Trading currency (ISO 4217)'),
  exchangeFullName: z.string().describe('Full name of the listing venue'),
  exchange: z.string().describe('Short code of the listing venue'),
});

export const searchEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'search-symbol',
    dataset: 'search-directory',
    group: 'Search',
    summary: 'Search by ticker',
    description:
      'Securities whose ticker matches the query: the exact ticker first, then tickers starting with it, then names starting with it or containing a word that does. Listed securities and shorter tickers come first within each group.',
    tier: DATA_TIERS.sample,
    params: searchParams,
    row: searchRow,
    maxAge: 3600,
    cadence: DIRECTORY_CADENCE,
    example: 'query=AAP',
    csv: true,
    handler: ({ params, symbols }) =>
      Promise.resolve(
        searchSymbols(symbols, params.query, {
          by: 'symbol',
          limit: params.limit,
          exchange: params.exchange,
        }),
      ),
  }),
  defineEndpoint({
    path: 'search-name',
    dataset: 'search-directory',
    group: 'Search',
    summary: 'Search by company name',
    description:
      'Securities whose name starts with the query or has a word starting with it, then those whose ticker matches. Listed securities and shorter tickers come first within each group.',
    tier: DATA_TIERS.sample,
    params: searchParams,
    row: searchRow,
    maxAge: 3600,
    cadence: DIRECTORY_CADENCE,
    example: 'query=Apple',
    csv: true,
    handler: ({ params, symbols }) =>
      Promise.resolve(
        searchSymbols(symbols, params.query, { by: 'name', limit: params.limit, exchange: params.exchange }),
      ),
  }),
];
