import { z } from 'zod';
import { newsRows, transcriptRows } from '../../services/market-data/news.ts';
import type { NewsCategory } from '../../db/schema.ts';
import type { DatasetId } from '../../../lib/routes.ts';
import {
  dateParam,
  defineEndpoint,
  limitParam,
  pageParam,
  symbolParam,
  symbolsParam,
  type EndpointDefinition,
  type UpdateCadence,
} from '../endpoint.ts';
import { DATA_TIERS, InvalidParametersError, type DataTier } from '../../services/market-data/plan-access.ts';

/** FMP's news row, shared by every news feed. */
export const newsRow = z.object({
  symbol: z.string().describe('Ticker symbol the article is about'),
  publishedDate: z.string().describe('Publication time (YYYY-MM-DD HH:mm:ss, UTC)'),
  publisher: z.string().describe('Publisher of the article'),
  title: z.string().describe('Headline'),
  image: z.string().describe('URL of the article’s image, empty when it has none'),
  site: z.string().describe('Web site the article appeared on'),
  text: z.string().describe('Opening text of the article'),
  url: z.string().describe('Link to the full article'),
});

/** Articles arrive one by one, as their publishers put them out. */
const NEWS_CADENCE: UpdateCadence = {
  frequency: 'real-time',
  when: 'As articles are published, round the clock: each appears within minutes of its publication.',
};

/**
 * The dataset each category of news belongs to: crypto and forex news beside those markets' prices,
 * company and general market news with the other research data (Advanced Data).
 */
export const NEWS_DATASETS: Readonly<Record<NewsCategory, DatasetId>> = {
  stock: 'advanced',
  general: 'advanced',
  crypto: 'crypto',
  forex: 'forex',
};

/** Refuses a date range that ends before it starts, which would silently answer nothing. */
export function checkDateRange(from: string | undefined, to: string | undefined): void {
  if (from !== undefined && to !== undefined && from > to) {
    throw new InvalidParametersError('Parameter "from" must be on or before "to".');
  }
}

const rangeParams = {
  from: dateParam.optional().describe('First publication day (YYYY-MM-DD)'),
  to: dateParam.optional().describe('Last publication day (YYYY-MM-DD)'),
  page: pageParam,
  limit: limitParam(20, 250),
};

function newsEndpoint(
  category: NewsCategory,
  tier: DataTier,
  summary: string,
  description: string,
  example: string,
): EndpointDefinition {
  if (category === 'stock') {
    return defineEndpoint({
      path: 'news/stock',
      dataset: NEWS_DATASETS.stock,
      group: 'News',
      summary,
      description,
      tier,
      params: z.object({ symbols: symbolsParam, ...rangeParams }),
      row: newsRow,
      symbolParam: 'symbols',
      csv: true,
      maxAge: 300,
      cadence: NEWS_CADENCE,
      example,
      handler: ({ db, params }) => {
        checkDateRange(params.from, params.to);
        return newsRows(db, { category, ...params });
      },
    });
  }
  return defineEndpoint({
    path: `news/${category}`,
    dataset: NEWS_DATASETS[category],
    group: 'News',
    summary,
    description,
    tier,
    params: z.object({
      symbols: symbolsParam
        .optional()
        .describe('Comma-separated pairs, e.g. BTCUSD; the latest of all when omitted'),
      ...rangeParams,
    }),
    row: newsRow,
    symbolParam: 'symbols',
    csv: true,
    maxAge: 300,
    cadence: NEWS_CADENCE,
    example,
    handler: ({ db, params }) => {
      checkDateRange(params.from, params.to);
      return newsRows(db, { category, ...params });
    },
  });
}

/** News by category and earnings call transcripts. */
export const newsEndpoints: EndpointDefinition[] = [
  newsEndpoint(
    'stock',
    DATA_TIERS.sample,
    'Stock news',
    'Articles about the given stocks, newest first, optionally within publication dates; page through older ones with page.',
    'symbols=AAPL,MSFT&limit=20',
  ),
  newsEndpoint(
    'crypto',
    DATA_TIERS.global,
    'Crypto news',
    'Articles about cryptocurrencies, newest first; name pairs in symbols to narrow them, or omit it for the latest of all.',
    'symbols=BTCUSD&limit=20',
  ),
  newsEndpoint(
    'forex',
    DATA_TIERS.global,
    'Forex news',
    'Articles about currency pairs, newest first; name pairs in symbols to narrow them, or omit it for the latest of all.',
    'symbols=EURUSD&limit=20',
  ),
  defineEndpoint({
    path: 'earning-call-transcript',
    dataset: 'earnings-call-transcripts',
    group: 'Transcripts',
    summary: 'Earnings call transcript',
    description:
      'The full text of one fiscal quarter’s earnings call: an empty list when that call is not held.',
    tier: DATA_TIERS.professional,
    params: z.object({
      symbol: symbolParam,
      year: z.coerce
        .number({ error: 'is required and must be a year such as 2024' })
        .int('must be a year such as 2024')
        .min(1900, 'must be a year such as 2024')
        .max(2200, 'must be a year such as 2024')
        .describe('Fiscal year of the call'),
      quarter: z.coerce
        .number({ error: 'is required and must be 1, 2, 3 or 4' })
        .int('must be 1, 2, 3 or 4')
        .min(1, 'must be 1, 2, 3 or 4')
        .max(4, 'must be 1, 2, 3 or 4')
        .describe('Fiscal quarter of the call (1–4)'),
    }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      period: z.string().describe('Fiscal quarter, Q1–Q4'),
      year: z.number().describe('Fiscal year'),
      date: z.string().describe('Date of the call (YYYY-MM-DD)'),
      content: z.string().describe('Transcript text, one speaker turn per line'),
    }),
    symbolParam: 'symbol',
    csv: false,
    maxAge: 86400,
    cadence: {
      frequency: 'quarterly',
      when: 'Each quarter, after the company’s earnings call: its transcript is added within a day of the call.',
    },
    example: 'symbol=AAPL&year=2026&quarter=3',
    handler: ({ db, params }) => transcriptRows(db, params.symbol, params.year, params.quarter),
  }),
];
