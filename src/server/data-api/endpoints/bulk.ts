import { z } from 'zod';
import type { DatasetId } from '../../../lib/routes.ts';
import type { StatementType } from '../../db/schema.ts';
import {
  dcfBatches,
  earningsSurpriseBatches,
  eodBatches,
  ETF_HOLDER_PART_SIZE,
  etfHolderBatches,
  gradesConsensusBatches,
  keyMetricsTtmBatches,
  peerBatches,
  priceTargetSummaryBatches,
  PROFILE_PART_SIZE,
  profileBatches,
  ratingBatches,
  ratiosTtmBatches,
  scoreBatches,
  statementBatches,
  statementGrowthBatches,
} from '../../services/market-data/bulk-files.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import {
  dateParam,
  DataApiError,
  defineEndpoint,
  FILING_CADENCE,
  periodParam,
  SESSION_CLOSE_CADENCE,
  type BulkFile,
  type EndpointDefinition,
  type UpdateCadence,
} from '../endpoint.ts';
import { analystResearchEndpoints } from './analyst-research.ts';
import { analystEndpoints } from './analysts.ts';
import { chartEndpoints } from './charts.ts';
import { companyEndpoints } from './company.ts';
import { eventEndpoints } from './events.ts';
import { fundEndpoints } from './funds.ts';
import { fundamentalEndpoints } from './fundamentals.ts';
import { statementDerivedEndpoints } from './statements-derived.ts';
import { statementEndpoints } from './statements.ts';

const GROUP = 'Bulk';

/**
 * Calls one bulk download counts as, against the minute and day budgets and in the usage report: a
 * file holds what thousands of calls would, so it spends a share of the budget, not one call.
 */
export const BULK_CALL_WEIGHT = 50;

/** Byte ranges resume any bulk file: the same query gives the same bytes all day. */
const RANGE_RESUME =
  'Resume an interrupted download with Range: bytes=N- (and If-Range with the ETag): the same query gives the same bytes all day.';

/** The per-symbol endpoint a file repeats for every symbol. */
function endpointOf(endpoints: readonly EndpointDefinition[], path: string): EndpointDefinition {
  const endpoint = endpoints.find((candidate) => candidate.path === path);
  if (endpoint === undefined) throw new Error(`no ${path} endpoint`);
  return endpoint;
}

/** The row schema of the per-symbol endpoint a file repeats for every symbol, so both document the same fields. */
function rowOf(endpoints: readonly EndpointDefinition[], path: string): z.ZodObject {
  return endpointOf(endpoints, path).row;
}

/** Bulk files are streamed over HTTP only: other transports would have to hold the whole file. */
function httpOnly(path: string): () => Promise<never> {
  return () =>
    Promise.reject(
      new DataApiError(400, `${path} is a bulk file: download it over HTTP at /stable/${path}.`),
    );
}

const yearParam = z.coerce
  .number({ error: 'must be a year such as 2025' })
  .int('must be a year such as 2025')
  .min(1900, 'must be 1900 or later')
  .max(2100, 'must be 2100 or earlier')
  .describe('Year of the rows: the fiscal year of statements, the calendar year of report dates')
  .meta({ example: 2025 });

/** The `part` parameter of a file in parts, each part holding `what`. */
function partParam(what: string): z.ZodCoercedNumber {
  return z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(1000, 'must be at most 1000')
    .describe(`Part of the file, from 0; each part holds ${what}`)
    .meta({ example: 0 });
}

/** How a file in parts resumes: by part, and by byte range within one. */
const PART_RESUME = `Parts are the unit to resume by (ask again from the part that failed); within a part, ${RANGE_RESUME.charAt(0).toLowerCase()}${RANGE_RESUME.slice(1)}`;

const NEW_EACH_DAY: UpdateCadence = {
  frequency: 'end-of-day',
  when: 'After each US session’s close: the file is valued at the latest close, so it changes once a day.',
};

interface BulkSpec<P extends z.ZodObject> {
  path: string;
  /** The dataset of the per-symbol endpoint the file repeats (a bulk file is that data, all at once). */
  dataset: DatasetId | null;
  summary: string;
  description: string;
  params: P;
  row: z.ZodObject;
  cadence: UpdateCadence;
  example: string;
  resume?: string;
  /** What each row is: the per-symbol endpoint it repeats, in backticks (see {@link BulkFile}). */
  rows: string;
  /** The rows follow live prices (see {@link BulkFile}). */
  live?: boolean;
  fileName: (params: z.infer<P>) => string;
  batches: BulkFile<z.infer<P>>['batches'];
}

/** One bulk endpoint: Power and above, CSV by default, weighted, streamed. */
function bulkEndpoint<P extends z.ZodObject>(spec: BulkSpec<P>): EndpointDefinition {
  return defineEndpoint({
    path: spec.path,
    dataset: spec.dataset,
    group: GROUP,
    summary: spec.summary,
    description: `${spec.description} CSV unless datatype=json; one download counts as ${BULK_CALL_WEIGHT} calls.`,
    tier: DATA_TIERS.global,
    params: spec.params,
    row: spec.row,
    csv: true,
    maxAge: 0,
    cadence: spec.cadence,
    example: spec.example,
    handler: httpOnly(spec.path),
    bulk: {
      weight: BULK_CALL_WEIGHT,
      fileName: spec.fileName,
      resume: spec.resume ?? RANGE_RESUME,
      rows: spec.rows,
      ...(spec.live === true ? { live: true } : {}),
      batches: spec.batches,
    },
  });
}

const statementParams = z.object({ year: yearParam, period: periodParam });

function statementBulk(path: string, type: StatementType, what: string): EndpointDefinition {
  const single = endpointOf(statementEndpoints, path.replace('-bulk', ''));
  return bulkEndpoint({
    path,
    dataset: single.dataset,
    summary: `${what} (bulk)`,
    description: `Every company’s ${what.toLowerCase()} rows of one fiscal year, by symbol, each company’s periods newest first: for each company exactly the rows ${path.replace('-bulk', '')} answers for it with the same period.`,
    params: statementParams,
    row: single.row,
    rows: `\`${path.replace('-bulk', '')}\``,
    cadence: FILING_CADENCE,
    example: 'year=2025&period=annual',
    fileName: ({ year, period }) => `${path}-${String(year)}-${period}`,
    batches: (context) => statementBatches(context, type, context.params.year, context.params.period),
  });
}

/** A statement's growth file: a year's growth rows of every company, as its growth endpoint answers them. */
function growthBulk(path: string, type: StatementType, what: string): EndpointDefinition {
  const single = path.replace('-bulk', '');
  return bulkEndpoint({
    path,
    dataset: endpointOf(statementDerivedEndpoints, single).dataset,
    summary: `${what} growth (bulk)`,
    description: `Every company’s growth rows of one fiscal year for the ${what.toLowerCase()}, by symbol, each company’s periods newest first: for each company exactly the rows ${single} answers for it with the same period (growth from the period stored before each, the prior quarter for quarterly rows).`,
    params: statementParams,
    rows: `\`${single}\``,
    row: rowOf(statementDerivedEndpoints, single),
    cadence: FILING_CADENCE,
    example: 'year=2025&period=annual',
    fileName: ({ year, period }) => `${path}-${String(year)}-${period}`,
    batches: (context) => statementGrowthBatches(context, type, context.params.year, context.params.period),
  });
}

/** A file of one row per company, the row its per-symbol endpoint answers today, in symbol order. */
function todayBulk(
  path: string,
  summary: string,
  single: EndpointDefinition,
  what: string,
  batches: BulkSpec<z.ZodObject>['batches'],
): EndpointDefinition {
  return bulkEndpoint({
    path,
    dataset: single.dataset,
    summary,
    description: `${what}, in symbol order: for each company the row ${single.path} answers today.`,
    params: z.object({}),
    rows: `\`${single.path}\``,
    row: single.row,
    cadence: single.cadence,
    example: '',
    fileName: () => path,
    batches,
  });
}

const earningsRow = rowOf(eventEndpoints, 'earnings');

/** FMP's bulk files, Power plan and above. */
export const bulkEndpoints: EndpointDefinition[] = [
  bulkEndpoint({
    path: 'profile-bulk',
    dataset: endpointOf(companyEndpoints, 'profile').dataset,
    summary: 'Company profiles (bulk)',
    description: `Every security’s profile, ${PROFILE_PART_SIZE.toLocaleString('en-US')} securities per part in symbol order: part 0 first, then 1, 2, … until a part comes back empty (a header line alone in CSV). Each row is what profile answers for the symbol.`,
    params: z.object({ part: partParam(`${PROFILE_PART_SIZE} securities`) }),
    row: rowOf(companyEndpoints, 'profile'),
    rows: '`profile`',
    cadence: NEW_EACH_DAY,
    example: 'part=0',
    resume: PART_RESUME,
    // A profile's price is the live quote's.
    live: true,
    fileName: ({ part }) => `profile-bulk-part-${String(part)}`,
    batches: (context) => profileBatches(context, context.params.part),
  }),
  bulkEndpoint({
    path: 'eod-bulk',
    dataset: endpointOf(chartEndpoints, 'historical-price-eod/full').dataset,
    summary: 'End-of-day prices (bulk)',
    description:
      'Every symbol’s daily bar of one trading day, in symbol order: open, low, high and close adjusted for later splits as historical-price-eod/full answers them, adjClose adjusted for splits and dividends as historical-price-eod/dividend-adjusted answers it. A day without trading gives an empty file.',
    params: z.object({
      date: dateParam.describe('Trading day (YYYY-MM-DD)').meta({ example: '2026-11-20' }),
    }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      date: z.string().describe('Trading day (YYYY-MM-DD)'),
      open: z.number().describe('Opening price, split-adjusted'),
      low: z.number().describe('Lowest price, split-adjusted'),
      high: z.number().describe('Highest price, split-adjusted'),
      close: z.number().describe('Closing price, split-adjusted'),
      adjClose: z.number().describe('Closing price adjusted for splits and dividends'),
      volume: z.number().describe('Shares (or units) traded, in today’s share terms'),
    }),
    rows: '`historical-price-eod/full`, with the close of `historical-price-eod/dividend-adjusted` as `adjClose`',
    cadence: SESSION_CLOSE_CADENCE,
    example: 'date=2026-11-20',
    fileName: ({ date }) => `eod-bulk-${date}`,
    batches: (context) => eodBatches(context, context.params.date),
  }),
  statementBulk('income-statement-bulk', 'income', 'Income statements'),
  statementBulk('balance-sheet-statement-bulk', 'balance-sheet', 'Balance sheet statements'),
  statementBulk('cash-flow-statement-bulk', 'cash-flow', 'Cash flow statements'),
  bulkEndpoint({
    path: 'dcf-bulk',
    dataset: endpointOf(fundamentalEndpoints, 'discounted-cash-flow').dataset,
    summary: 'Discounted cash flow (bulk)',
    description:
      'Every company’s intrinsic value per share by the unlevered DCF, in symbol order: for each company the row discounted-cash-flow answers today.',
    params: z.object({}),
    row: rowOf(fundamentalEndpoints, 'discounted-cash-flow'),
    rows: '`discounted-cash-flow`',
    cadence: NEW_EACH_DAY,
    example: '',
    fileName: () => 'dcf-bulk',
    batches: (context) => dcfBatches(context),
  }),
  bulkEndpoint({
    path: 'scores-bulk',
    dataset: endpointOf(fundamentalEndpoints, 'financial-scores').dataset,
    summary: 'Financial scores (bulk)',
    description:
      'Every company’s Altman Z-score and Piotroski F-score, in symbol order: for each company the row financial-scores answers today.',
    params: z.object({}),
    row: rowOf(fundamentalEndpoints, 'financial-scores'),
    rows: '`financial-scores`',
    cadence: NEW_EACH_DAY,
    example: '',
    fileName: () => 'scores-bulk',
    batches: (context) => scoreBatches(context),
  }),
  bulkEndpoint({
    path: 'earnings-surprises-bulk',
    dataset: endpointOf(eventEndpoints, 'earnings').dataset,
    summary: 'Earnings surprises (bulk)',
    description:
      'Every reported quarter with a report date in one calendar year, by symbol, newest first within a symbol: reported against expected earnings per share, as earnings answers them. Upcoming reports (no actual yet) are not listed.',
    params: z.object({ year: yearParam }),
    row: z.object({
      symbol: earningsRow.shape.symbol as z.ZodString,
      date: earningsRow.shape.date as z.ZodString,
      epsActual: z.number().describe('Reported diluted earnings per share'),
      epsEstimated: earningsRow.shape.epsEstimated as z.ZodNullable<z.ZodNumber>,
      lastUpdated: earningsRow.shape.lastUpdated as z.ZodString,
    }),
    rows: '`earnings` (reported quarters only, with fewer fields)',
    cadence: {
      frequency: 'as-published',
      when: 'On each report day, once the results are published.',
    },
    example: 'year=2026',
    fileName: ({ year }) => `earnings-surprises-bulk-${String(year)}`,
    batches: (context) => earningsSurpriseBatches(context, context.params.year),
  }),
  bulkEndpoint({
    path: 'peers-bulk',
    dataset: endpointOf(companyEndpoints, 'stock-peers').dataset,
    summary: 'Stock peers (bulk)',
    description:
      'Every active stock with a sector and its peers as one comma-separated list, in symbol order: the symbols stock-peers answers for it, in its order.',
    params: z.object({}),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      peers: z.string().describe('The peers’ ticker symbols, comma-separated, closest first'),
    }),
    rows: '`stock-peers` (the peers’ symbols as one comma-separated list)',
    cadence: {
      ...SESSION_CLOSE_CADENCE,
      when: 'After each session’s close: peers are ordered by the market capitalisation of the latest close.',
    },
    example: '',
    fileName: () => 'peers-bulk',
    batches: (context) => peerBatches(context),
  }),
  todayBulk(
    'ratios-ttm-bulk',
    'Financial ratios, TTM (bulk)',
    endpointOf(statementDerivedEndpoints, 'ratios-ttm'),
    'Every company with quarterly statements and its financial ratios of the latest trailing twelve months, valued at the latest close',
    (context) => ratiosTtmBatches(context),
  ),
  todayBulk(
    'key-metrics-ttm-bulk',
    'Key metrics, TTM (bulk)',
    endpointOf(statementDerivedEndpoints, 'key-metrics-ttm'),
    'Every company with quarterly statements and its key metrics of the latest trailing twelve months, valued at the latest close',
    (context) => keyMetricsTtmBatches(context),
  ),
  todayBulk(
    'rating-bulk',
    'Ratings (bulk)',
    endpointOf(analystResearchEndpoints, 'ratings-snapshot'),
    'Every company’s rating (A+ to D−) with its six scores, from its latest fiscal year at the latest close',
    (context) => ratingBatches(context),
  ),
  todayBulk(
    'price-target-summary-bulk',
    'Price target summary (bulk)',
    endpointOf(analystResearchEndpoints, 'price-target-summary'),
    'Every company with a published price target and the count and mean of its targets over the last month, quarter, year and in all',
    (context) => priceTargetSummaryBatches(context),
  ),
  todayBulk(
    'upgrades-downgrades-consensus-bulk',
    'Analyst recommendations consensus (bulk)',
    endpointOf(analystEndpoints, 'grades-consensus'),
    'Every company brokers rated in the past year and how many rate it Strong Buy, Buy, Hold, Sell or Strong Sell, with the consensus',
    (context) => gradesConsensusBatches(context),
  ),
  bulkEndpoint({
    path: 'etf-holder-bulk',
    dataset: endpointOf(fundEndpoints, 'etf/holdings').dataset,
    summary: 'ETF holdings (bulk)',
    description: `Every ETF’s holdings, ${ETF_HOLDER_PART_SIZE.toLocaleString('en-US')} funds per part in symbol order, all of a fund’s positions in the same part: part 0 first, then 1, 2, … until a part comes back empty (a header line alone in CSV). A fund’s rows are what etf/holdings answers for it, largest position first; funds without stored holdings (bond and commodity funds) are left out.`,
    params: z.object({ part: partParam(`${String(ETF_HOLDER_PART_SIZE)} funds`) }),
    rows: '`etf/holdings` (for each fund, by fund symbol)',
    row: rowOf(fundEndpoints, 'etf/holdings'),
    cadence: endpointOf(fundEndpoints, 'etf/holdings').cadence,
    example: 'part=0',
    resume: PART_RESUME,
    // Positions are valued at live prices and currency rates.
    live: true,
    fileName: ({ part }) => `etf-holder-bulk-part-${String(part)}`,
    batches: (context) => etfHolderBatches(context, context.params.part),
  }),
  growthBulk('income-statement-growth-bulk', 'income', 'Income statement'),
  growthBulk('balance-sheet-statement-growth-bulk', 'balance-sheet', 'Balance sheet statement'),
  growthBulk('cash-flow-statement-growth-bulk', 'cash-flow', 'Cash flow statement'),
];
