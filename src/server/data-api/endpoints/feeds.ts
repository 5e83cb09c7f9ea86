import { z } from 'zod';
import type { NewsCategory } from '../../db/schema.ts';
import {
  articleRows,
  latestTranscriptRows,
  pressReleaseRows,
  transcriptDateRows,
  transcriptListRows,
} from '../../services/market-data/feeds.ts';
import { newsRows } from '../../services/market-data/news.ts';
import { DATA_TIERS, type DataTier } from '../../services/market-data/plan-access.ts';
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
import { checkDateRange, NEWS_DATASETS, newsRow } from './news.ts';

/** Articles arrive one by one, as their publishers put them out. */
const NEWS_CADENCE: UpdateCadence = {
  frequency: 'real-time',
  when: 'As articles are published, round the clock: each appears within minutes of its publication.',
};

const rangeParams = {
  page: pageParam,
  limit: limitParam(20, 250),
  from: dateParam.optional().describe('First publication day (YYYY-MM-DD)'),
  to: dateParam.optional().describe('Last publication day (YYYY-MM-DD)'),
};

function latestNews(
  category: NewsCategory,
  tier: DataTier,
  summary: string,
  description: string,
): EndpointDefinition {
  return defineEndpoint({
    path: `news/${category}-latest`,
    dataset: NEWS_DATASETS[category],
    group: 'News feeds',
    summary,
    description: `${description} Newest first, optionally within publication days; page through older ones with page.`,
    tier,
    params: z.object(rangeParams),
    row: newsRow,
    csv: true,
    maxAge: 300,
    cadence: NEWS_CADENCE,
    example: 'page=0&limit=20',
    handler: ({ db, params }) => {
      checkDateRange(params.from, params.to);
      return newsRows(db, { category, ...params });
    },
  });
}

const TRANSCRIPT_CADENCE: UpdateCadence = {
  frequency: 'quarterly',
  when: 'Each quarter, after a company’s earnings call: its transcript is added within a day of the call.',
};

/** The latest news of each kind, press releases, the house's articles and the transcripts' indexes. */
export const feedEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'fmp-articles',
    dataset: 'advanced',
    group: 'News feeds',
    summary: 'House articles',
    description:
      'Articles of our own research desk, newest first: one on each reported quarter, setting the earnings per share against the analysts’ consensus (a beat or miss beyond 1 %) with the revenue. content is HTML; tickers names the listing as EXCHANGE:SYMBOL.',
    tier: DATA_TIERS.sample,
    params: z.object({ page: pageParam, limit: limitParam(20, 250) }),
    row: z.object({
      title: z.string().describe('Headline'),
      date: z.string().describe('Publication time (YYYY-MM-DD HH:mm:ss, UTC)'),
      content: z.string().describe('The article, as HTML'),
      tickers: z.string().describe('The listing the article is about, EXCHANGE:SYMBOL'),
      image: z.string().describe('URL of the article’s image, empty when it has none'),
      link: z.string().describe('Link to the article'),
      author: z.string().describe('Author of the article'),
      site: z.string().describe('Site the article appeared on'),
    }),
    csv: true,
    maxAge: 300,
    cadence: {
      frequency: 'as-published',
      when: 'The evening of each earnings report, once the results are published.',
    },
    example: 'page=0&limit=20',
    handler: ({ db, params, now }) => articleRows(db, params.page, params.limit, now),
  }),
  latestNews(
    'general',
    DATA_TIERS.sample,
    'General news',
    'Articles about the markets as a whole (indexes, the economy), not about one company.',
  ),
  defineEndpoint({
    path: 'news/press-releases-latest',
    dataset: 'advanced',
    group: 'News feeds',
    summary: 'Latest press releases',
    description:
      'Companies’ own announcements of every company, newest first: dividend declarations (before the open on the declaration day) and quarterly results (after the close on the report day). Optionally within publication days; page through older ones with page.',
    tier: DATA_TIERS.fundamentals,
    params: z.object(rangeParams),
    row: newsRow,
    csv: true,
    maxAge: 300,
    cadence: NEWS_CADENCE,
    example: 'page=0&limit=20',
    handler: ({ db, params, now }) => {
      checkDateRange(params.from, params.to);
      return pressReleaseRows(db, params, now);
    },
  }),
  latestNews(
    'stock',
    DATA_TIERS.fundamentals,
    'Latest stock news',
    'Articles about individual stocks, whichever company they are about.',
  ),
  latestNews(
    'crypto',
    DATA_TIERS.global,
    'Latest crypto news',
    'Articles about cryptocurrencies, all pairs.',
  ),
  latestNews('forex', DATA_TIERS.global, 'Latest forex news', 'Articles about currency pairs, all pairs.'),
  defineEndpoint({
    path: 'news/press-releases',
    dataset: 'advanced',
    group: 'News feeds',
    summary: 'Press releases',
    description:
      'The announcements of the given companies, newest first: dividend declarations and quarterly results. Optionally within publication days; page through older ones with page.',
    tier: DATA_TIERS.sample,
    params: z.object({ symbols: symbolsParam, ...rangeParams }),
    row: newsRow,
    symbolParam: 'symbols',
    csv: true,
    maxAge: 300,
    cadence: NEWS_CADENCE,
    example: 'symbols=AAPL',
    handler: ({ db, params, now }) => {
      checkDateRange(params.from, params.to);
      return pressReleaseRows(db, params, now);
    },
  }),
  defineEndpoint({
    path: 'earning-call-transcript-latest',
    dataset: 'earnings-call-transcripts',
    group: 'Transcript lists',
    summary: 'Latest earnings call transcripts',
    description:
      'The newest earnings calls of every company with transcripts, newest call first: which fiscal quarter each covers and when it was held. Read a call’s text with earning-call-transcript.',
    tier: DATA_TIERS.professional,
    params: z.object({ page: pageParam, limit: limitParam(100, 1000) }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      period: z.string().describe('Fiscal quarter, Q1–Q4'),
      fiscalYear: z.number().describe('Fiscal year'),
      date: z.string().describe('Date of the call (YYYY-MM-DD)'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: TRANSCRIPT_CADENCE,
    example: 'page=0&limit=20',
    handler: ({ db, params }) => latestTranscriptRows(db, params.page, params.limit),
  }),
  defineEndpoint({
    path: 'earning-call-transcript-dates',
    dataset: 'earnings-call-transcripts',
    group: 'Transcript lists',
    summary: 'Transcript dates',
    description:
      'The fiscal quarters of a company whose earnings call transcript is available, newest first, with the day of each call.',
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam }),
    row: z.object({
      quarter: z.number().describe('Fiscal quarter (1–4)'),
      fiscalYear: z.number().describe('Fiscal year'),
      date: z.string().describe('Date of the call (YYYY-MM-DD)'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: TRANSCRIPT_CADENCE,
    example: 'symbol=AAPL',
    handler: ({ db, params }) => transcriptDateRows(db, params.symbol),
  }),
  defineEndpoint({
    path: 'earnings-transcript-list',
    dataset: 'earnings-call-transcripts',
    group: 'Transcript lists',
    summary: 'Companies with transcripts',
    description:
      'Every company whose earnings call transcripts are available, by symbol, with how many (the count as a string, as FMP writes it).',
    tier: DATA_TIERS.professional,
    params: z.object({}),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      companyName: z.string().describe('Company name'),
      noOfTranscripts: z.string().describe('Number of transcripts available'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: TRANSCRIPT_CADENCE,
    example: '',
    handler: ({ db }) => transcriptListRows(db),
  }),
];
