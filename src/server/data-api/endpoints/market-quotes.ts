import { z } from 'zod';
import type { DatasetId } from '../../../lib/routes.ts';
import type { Security } from '../../db/schema.ts';
import { US_EXCHANGES } from '../../services/market-data/directory.ts';
import { groupQuotes, securitiesWhere, stockPriceChange } from '../../services/market-data/market-quotes.ts';
import { DATA_TIERS, type DataTier } from '../../services/market-data/plan-access.ts';
import { defineEndpoint, LIVE_QUOTE_CADENCE, symbolParam, type EndpointDefinition } from '../endpoint.ts';
import { quoteRow } from './quotes.ts';

const shortParam = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .default('false')
  .transform((value) => value === 'true')
  .describe('true: only symbol, price, change and volume per row; false (default): full quotes');

/** Every field of a shape made optional, keeping its description for the documentation. */
function optionalFields<S extends Record<string, z.ZodType>>(
  shape: S,
): { [K in keyof S]: z.ZodOptional<S[K]> } {
  const optional: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(shape))
    optional[name] = field.optional().describe(field.description ?? '');
  return optional as { [K in keyof S]: z.ZodOptional<S[K]> };
}

/** A full quote, or with short=true only the four fields every row keeps. */
const { symbol, price, change, volume, ...fullOnly } = quoteRow.shape;
const optionalOnes = optionalFields(fullOnly);
const batchQuoteRow = z.object({
  symbol,
  name: optionalOnes.name,
  price,
  changePercentage: optionalOnes.changePercentage,
  change,
  volume,
  dayLow: optionalOnes.dayLow,
  dayHigh: optionalOnes.dayHigh,
  yearHigh: optionalOnes.yearHigh,
  yearLow: optionalOnes.yearLow,
  marketCap: optionalOnes.marketCap,
  priceAvg50: optionalOnes.priceAvg50,
  priceAvg200: optionalOnes.priceAvg200,
  exchange: optionalOnes.exchange,
  open: optionalOnes.open,
  previousClose: optionalOnes.previousClose,
  timestamp: optionalOnes.timestamp,
});

const SHORT_NOTE =
  'With short=true each row holds only symbol, price, change and volume (the fields of quote-short).';

interface GroupBatch {
  path: string;
  dataset: DatasetId;
  summary: string;
  what: string;
  assetType: Security['assetType'];
  tier: DataTier;
  plan: string;
}

/** A batch of every active security of one asset type, readable by the plans that cover all of them. */
function typeBatch(batch: GroupBatch): EndpointDefinition {
  return defineEndpoint({
    path: batch.path,
    dataset: batch.dataset,
    group: 'Batch quotes',
    summary: batch.summary,
    description: `Quotes of every ${batch.what} in the database, in symbol order. ${SHORT_NOTE} Open to ${batch.plan}, the plans that cover every ${batch.what}.`,
    tier: batch.tier,
    params: z.object({ short: shortParam }),
    row: batchQuoteRow,
    maxAge: 15,
    cadence: LIVE_QUOTE_CADENCE,
    example: 'short=false',
    csv: false,
    handler: ({ db, params, symbols, now }) =>
      groupQuotes(
        db,
        symbols,
        securitiesWhere(symbols, (security) => security.assetType === batch.assetType),
        params.short,
        now,
      ),
  });
}

const since = (start: string): z.ZodNumber => z.number().describe(`Change in percent since ${start}`);

const priceChangeRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  '1D': since('the previous close'),
  '5D': since('the fifth close before the quote’s day'),
  '1M': since('the last close a month earlier'),
  '3M': since('the last close three months earlier'),
  '6M': since('the last close six months earlier'),
  ytd: since('the last close of the previous year'),
  '1Y': since('the last close a year earlier'),
  '3Y': since('the last close three years earlier'),
  '5Y': since('the last close five years earlier'),
  '10Y': since('the last close ten years earlier'),
  max: since('the first stored close'),
});

export const marketQuoteEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'stock-price-change',
    dataset: 'market-data-real-time',
    group: 'Batch quotes',
    summary: 'Price change over periods',
    description:
      'A security’s price change in percent from the start of each period to the current price of its quote: from the previous close (1D), from the fifth close before the quote’s day (5D), from the last close on or before the same date one, three and six months and one, three, five and ten years earlier, from the last close of the previous year (ytd) and from the first stored close (max). Closes are split-adjusted; a period longer than the stored history measures from the first close. An unknown symbol answers [].',
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam }),
    symbolParam: 'symbol',
    row: priceChangeRow,
    maxAge: 15,
    cadence: LIVE_QUOTE_CADENCE,
    example: 'symbol=AAPL',
    csv: true,
    handler: async ({ db, params, symbols, now }) => {
      const security = symbols.get(params.symbol);
      if (security === undefined) return [];
      const row = await stockPriceChange(db, security, now);
      return row === null ? [] : [row];
    },
  }),
  defineEndpoint({
    path: 'batch-exchange-quote',
    dataset: 'market-data-real-time',
    group: 'Batch quotes',
    summary: 'Quotes of an exchange',
    description: `Quotes of every active security listed on one exchange, in symbol order; an exchange without listings answers []. ${SHORT_NOTE} US exchanges are open to Starter and above, the others to Power and above.`,
    tier: DATA_TIERS.fundamentals,
    params: z.object({
      exchange: z
        .string({ error: 'is required' })
        .trim()
        .regex(/^[A-Za-z]{1,20}$/, 'must be an exchange code such as NASDAQ or LSE')
        .transform((value) => value.toUpperCase())
        .describe('Exchange code: NASDAQ, NYSE, AMEX, LSE, XETRA, EURONEXT, TSX, JPX, HKSE, CRYPTO, FOREX, …')
        .meta({ example: 'NASDAQ' }),
      short: shortParam,
    }),
    tierFor: (params) =>
      US_EXCHANGES.has(params.exchange)
        ? undefined
        : { tier: DATA_TIERS.global, subject: `quotes of the ${params.exchange} exchange` },
    row: batchQuoteRow,
    maxAge: 15,
    cadence: LIVE_QUOTE_CADENCE,
    example: 'exchange=NASDAQ&short=false',
    csv: false,
    handler: ({ db, params, symbols, now }) =>
      groupQuotes(
        db,
        symbols,
        securitiesWhere(symbols, (security) => security.exchange === params.exchange),
        params.short,
        now,
      ),
  }),
  typeBatch({
    path: 'batch-etf-quotes',
    dataset: 'market-data-real-time',
    summary: 'Quotes of all ETFs',
    what: 'exchange-traded fund',
    assetType: 'etf',
    tier: DATA_TIERS.fundamentals,
    plan: 'Starter and above',
  }),
  typeBatch({
    path: 'batch-mutualfund-quotes',
    dataset: 'market-data-real-time',
    summary: 'Quotes of all mutual funds',
    what: 'mutual fund',
    assetType: 'fund',
    tier: DATA_TIERS.fundamentals,
    plan: 'Starter and above',
  }),
  typeBatch({
    path: 'batch-commodity-quotes',
    dataset: 'commodity',
    summary: 'Quotes of all commodities',
    what: 'commodity',
    assetType: 'commodity',
    tier: DATA_TIERS.global,
    plan: 'Power and above',
  }),
  typeBatch({
    path: 'batch-crypto-quotes',
    dataset: 'crypto',
    summary: 'Quotes of all cryptocurrencies',
    what: 'cryptocurrency',
    assetType: 'crypto',
    tier: DATA_TIERS.global,
    plan: 'Power and above',
  }),
  typeBatch({
    path: 'batch-forex-quotes',
    dataset: 'forex',
    summary: 'Quotes of all currency pairs',
    what: 'currency pair',
    assetType: 'forex',
    tier: DATA_TIERS.global,
    plan: 'Power and above',
  }),
  typeBatch({
    path: 'batch-index-quotes',
    dataset: 'indexes',
    summary: 'Quotes of all indexes',
    what: 'index',
    assetType: 'index',
    tier: DATA_TIERS.global,
    plan: 'Power and above',
  }),
];
