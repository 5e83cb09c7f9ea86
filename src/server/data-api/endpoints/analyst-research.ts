import { z } from 'zod';
import { gradeNewsRows, gradesHistoryRows } from '../../services/market-data/grade-feeds.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { ratingHistoryRows, ratingSnapshotRows } from '../../services/market-data/ratings.ts';
import { priceTargetNewsRows, priceTargetSummaryRows } from '../../services/market-data/research-data.ts';
import { defineEndpoint, limitParam, pageParam, symbolParam, type EndpointDefinition } from '../endpoint.ts';

const GROUP = 'Ratings and analyst notes';

const gradeNewsRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  publishedDate: z.string().describe('Publication time (ISO 8601, UTC)'),
  newsURL: z.string().describe('Link to the note'),
  newsTitle: z.string().describe('Headline of the note'),
  newsBaseURL: z.string().describe('Site the note appeared on'),
  newsPublisher: z.string().describe('Publisher of the note'),
  newGrade: z.string().describe('Rating after the action'),
  previousGrade: z.string().describe('Rating before the action, empty for an initiation'),
  gradingCompany: z.string().describe('Broker or research firm that issued the rating'),
  action: z.string().describe('Kind of action, e.g. upgrade, downgrade or maintain'),
  priceWhenPosted: z.number().describe('Close of the trading day before the note'),
});

const priceTargetNewsRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  publishedDate: z.string().describe('Publication time (ISO 8601, UTC)'),
  newsURL: z.string().describe('Link to the note'),
  newsTitle: z.string().describe('Headline of the note'),
  analystName: z.string().describe('Analyst who set the target'),
  priceTarget: z.number().describe('Twelve-month price target, in the shares of the day'),
  adjPriceTarget: z.number().describe('The target in today’s shares (divided by later split ratios)'),
  priceWhenPosted: z.number().describe('Close of the trading day before the note'),
  newsPublisher: z.string().describe('Publisher of the note'),
  newsBaseURL: z.string().describe('Site the note appeared on'),
  analystCompany: z.string().describe('Broker or research firm of the analyst'),
});

const TARGET_CADENCE = {
  frequency: 'as-published',
  when: 'As analysts publish targets, during and after the trading day.',
} as const;

const scoreFields = {
  rating: z.string().describe('Letter rating from A+ to D−: the mean of the six scores by thirds'),
  overallScore: z.number().describe('Mean of the six scores, rounded (1–5)'),
  discountedCashFlowScore: z
    .number()
    .describe('DCF value over the price: 5 from +50 %, 4 from +15 %, 3 from −15 %, 2 from −50 %, else 1'),
  returnOnEquityScore: z
    .number()
    .describe('Return on equity: 5 from 25 %, 4 from 15 %, 3 from 8 %, 2 from 0, else 1'),
  returnOnAssetsScore: z
    .number()
    .describe('Return on assets: 5 from 12 %, 4 from 7 %, 3 from 3 %, 2 from 0, else 1'),
  debtToEquityScore: z
    .number()
    .describe(
      'Debt to equity: 5 up to 0.3, 4 up to 0.8, 3 up to 1.5, 2 up to 3, else (or negative equity) 1',
    ),
  priceToEarningsScore: z
    .number()
    .describe('Price to earnings: 5 up to 12, 4 up to 20, 3 up to 30, 2 up to 50, else (or losses) 1'),
  priceToBookScore: z
    .number()
    .describe('Price to book: 5 up to 1.5, 4 up to 3, 3 up to 6, 2 up to 12, else 1'),
};

const RATING_METHOD =
  'Six measures are each scored 1 to 5 by fixed thresholds (each field says which): the upside of the discounted-cash-flow value over the price, return on equity, return on assets, debt to equity, price to earnings and price to book, as the key-metrics, ratios and discounted-cash-flow endpoints compute them. The overall score is their mean, rounded; the letter reads the mean by thirds (A+ from 4.67, A from 4.33, A− from 4, B+ from 3.67, … D− below 1.67).';

/** Brokers' rating history and notes, and the ratings computed from the fundamentals. */
export const analystResearchEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'price-target-summary',
    dataset: 'analyst-estimates-targets',
    group: GROUP,
    summary: 'Price target summary',
    description:
      'How many twelve-month price targets analysts published for a symbol over the last month, quarter (three months) and year up to today and in all, with the mean of each set in today’s shares (adjPriceTarget, to the cent), and the publishers as a JSON list.',
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      lastMonthCount: z.number().describe('Targets published in the last month'),
      lastMonthAvgPriceTarget: z.number().describe('Their mean, 0 without any'),
      lastQuarterCount: z.number().describe('Targets published in the last three months'),
      lastQuarterAvgPriceTarget: z.number().describe('Their mean, 0 without any'),
      lastYearCount: z.number().describe('Targets published in the last year'),
      lastYearAvgPriceTarget: z.number().describe('Their mean, 0 without any'),
      allTimeCount: z.number().describe('Targets published in all'),
      allTimeAvgPriceTarget: z.number().describe('Their mean'),
      publishers: z.string().describe('Publishers of the targets, a JSON list of names'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: TARGET_CADENCE,
    example: 'symbol=AAPL',
    handler: ({ db, params, now }) => priceTargetSummaryRows(db, params.symbol, now),
  }),
  defineEndpoint({
    path: 'price-target-news',
    dataset: 'analyst-estimates-targets',
    group: GROUP,
    summary: 'Price target notes',
    description:
      'The notes in which analysts set a symbol’s twelve-month price target, newest first, with the price when each was posted; page through older ones with page.',
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam, page: pageParam, limit: limitParam(10, 100) }),
    row: priceTargetNewsRow,
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: TARGET_CADENCE,
    example: 'symbol=AAPL',
    handler: ({ db, params, now }) => priceTargetNewsRows(db, params, now),
  }),
  defineEndpoint({
    path: 'price-target-latest-news',
    dataset: 'analyst-estimates-targets',
    group: GROUP,
    summary: 'Latest price target notes',
    description:
      'The newest price-target notes of every covered company, newest first; page through older ones with page.',
    tier: DATA_TIERS.professional,
    params: z.object({ page: pageParam, limit: limitParam(10, 1000) }),
    row: priceTargetNewsRow,
    csv: true,
    maxAge: 300,
    cadence: TARGET_CADENCE,
    example: 'page=0&limit=10',
    handler: ({ db, params, now }) => priceTargetNewsRows(db, params, now),
  }),
  defineEndpoint({
    path: 'grades-historical',
    dataset: 'analyst-estimates-targets',
    group: GROUP,
    summary: 'Historical analyst recommendations',
    description:
      'How many brokers rated a symbol Strong Buy, Buy, Hold, Sell or Strong Sell at the start of each month, newest month first: each broker once, by its latest rating of the year before, as grades-consensus counts them. Months without any rating are left out.',
    tier: DATA_TIERS.professional,
    params: z.object({
      symbol: symbolParam,
      limit: limitParam(100, 1000).describe('Months to look back (default 100, at most 1000)'),
    }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      date: z.string().describe('First day of the month (YYYY-MM-DD)'),
      analystRatingsStrongBuy: z.number().describe('Brokers whose latest rating counted as Strong Buy'),
      analystRatingsBuy: z.number().describe('Brokers whose latest rating counted as Buy'),
      analystRatingsHold: z.number().describe('Brokers whose latest rating counted as Hold'),
      analystRatingsSell: z.number().describe('Brokers whose latest rating counted as Sell'),
      analystRatingsStrongSell: z.number().describe('Brokers whose latest rating counted as Strong Sell'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: { frequency: 'daily', when: 'Once a day; a new month’s row appears on its first day.' },
    example: 'symbol=AAPL&limit=12',
    handler: ({ db, params, now }) => gradesHistoryRows(db, params.symbol, params.limit, now),
  }),
  defineEndpoint({
    path: 'grades-news',
    dataset: 'analyst-estimates-targets',
    group: GROUP,
    summary: 'Analyst rating notes',
    description:
      'The notes announcing a symbol’s rating actions (upgrades, downgrades, initiations, maintained ratings), newest first, with the price when each was posted.',
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam, page: pageParam, limit: limitParam(10, 100) }),
    row: gradeNewsRow,
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: { frequency: 'as-published', when: 'As brokers publish rating actions.' },
    example: 'symbol=AAPL',
    handler: ({ db, params, now }) => gradeNewsRows(db, params, now),
  }),
  defineEndpoint({
    path: 'grades-latest-news',
    dataset: 'analyst-estimates-targets',
    group: GROUP,
    summary: 'Latest analyst rating notes',
    description:
      'The newest rating notes of every covered company, newest first, with the price when each was posted; page through older ones with page.',
    tier: DATA_TIERS.professional,
    params: z.object({ page: pageParam, limit: limitParam(10, 1000) }),
    row: gradeNewsRow,
    csv: true,
    maxAge: 300,
    cadence: { frequency: 'as-published', when: 'As brokers publish rating actions.' },
    example: 'page=0&limit=10',
    handler: ({ db, params, now }) => gradeNewsRows(db, params, now),
  }),
  defineEndpoint({
    path: 'ratings-snapshot',
    dataset: 'analyst-estimates-targets',
    group: GROUP,
    summary: 'Rating snapshot',
    description: `Today’s rating of a company from its latest fiscal year at the latest close. ${RATING_METHOD}`,
    tier: DATA_TIERS.fundamentals,
    params: z.object({ symbol: symbolParam }),
    row: z.object({ symbol: z.string().describe('Ticker symbol'), ...scoreFields }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'end-of-day',
      when: 'After each US session’s close (the price it is valued at), and with each new annual report.',
    },
    example: 'symbol=AAPL',
    handler: ({ db, params, symbols, now }) => ratingSnapshotRows(db, symbols, params.symbol, now),
  }),
  defineEndpoint({
    path: 'ratings-historical',
    dataset: 'analyst-estimates-targets',
    group: GROUP,
    summary: 'Historical ratings',
    description: `The rating of each fiscal year as it stood at the year’s end, newest first: the year’s statements at that day’s close and Treasury yield. ${RATING_METHOD}`,
    tier: DATA_TIERS.fundamentals,
    params: z.object({
      symbol: symbolParam,
      limit: limitParam(1, 100).describe('Fiscal years (default 1, at most 100)'),
    }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      date: z.string().describe('End of the fiscal year (YYYY-MM-DD)'),
      ...scoreFields,
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'quarterly',
      when: 'With each annual report: a new fiscal year’s rating is added within a day of the filing.',
    },
    example: 'symbol=AAPL&limit=3',
    handler: ({ db, params }) => ratingHistoryRows(db, params.symbol, params.limit),
  }),
];
