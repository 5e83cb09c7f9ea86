import { z } from 'zod';
import { isoDay } from '../../../lib/iso-date.ts';
import { InvalidParametersError, DATA_TIERS } from '../../services/market-data/plan-access.ts';
import {
  groupChangeHistory,
  groupChangeOn,
  groupPe,
  groupRange,
  type GroupKey,
} from '../../services/market-data/sector-performance.ts';
import { dateParam, defineEndpoint, SESSION_CLOSE_CADENCE, type EndpointDefinition } from '../endpoint.ts';

const exchangeFilter = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{1,20}$/, 'must be an exchange code such as NASDAQ or NYSE')
  .optional()
  .describe('Only stocks listed on this exchange (NASDAQ, NYSE, …)');

function groupName(key: GroupKey, example: string): z.ZodString {
  return z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'must not be empty')
    .max(80, 'must be at most 80 characters')
    .describe(`The ${key}, e.g. ${example} (case-insensitive)`)
    .meta({ example });
}

const EXAMPLES: Record<GroupKey, string> = { sector: 'Technology', industry: 'Semiconductors' };

/** Years one history request may span. */
const MAX_RANGE_YEARS = 5;

function checkedRange(
  params: { from?: string | undefined; to?: string | undefined },
  now: Date,
): { from: string; to: string } {
  const range = groupRange(params, isoDay(now));
  if (range.from > range.to) throw new InvalidParametersError('Parameter "from" must be on or before "to".');
  if (Number(range.to.slice(0, 4)) - Number(range.from.slice(0, 4)) > MAX_RANGE_YEARS)
    throw new InvalidParametersError(`Parameters "from" and "to" may span at most ${MAX_RANGE_YEARS} years.`);
  return range;
}

const CHANGE_TEXT =
  'the mean (equal-weighted) change of the group’s stocks from their previous close, in percent, as sector-performance-snapshot computes it; a split between two closes is taken out';
const PE_TEXT =
  'market-cap-weighted: the total market capitalisation of the group’s stocks (each day’s close in today’s share terms times the shares outstanding) over their total net income of the four latest quarters filed by that day; a group whose earnings sum to zero or less is left out';

const RANGE_PARAMS = {
  from: dateParam.optional().describe('First day (YYYY-MM-DD); default three months before `to`'),
  to: dateParam.optional().describe('Last day (YYYY-MM-DD); default today'),
};

function changeRow(key: GroupKey) {
  return z.object({
    date: z.string().describe('Trading day (YYYY-MM-DD)'),
    [key]: z.string().describe(key === 'sector' ? 'Sector' : 'Industry'),
    exchange: z.string().describe('Short code of the listing venue'),
    averageChange: z
      .number()
      .describe('Mean change of the group’s stocks from their previous close, in percent'),
  });
}

function peRow(key: GroupKey) {
  return z.object({
    date: z.string().describe('Trading day (YYYY-MM-DD)'),
    [key]: z.string().describe(key === 'sector' ? 'Sector' : 'Industry'),
    exchange: z.string().describe('Short code of the listing venue'),
    pe: z.number().describe('Price-to-earnings ratio of the group, market-cap-weighted'),
  });
}

/** Renames the service's `group` to the field the endpoint answers (sector or industry). */
function named<T extends { group: string; date: string; exchange: string }>(
  key: GroupKey,
  rows: T[],
  value: (row: T) => Record<string, number>,
): Record<string, string | number>[] {
  return rows.map((row) => ({ date: row.date, [key]: row.group, exchange: row.exchange, ...value(row) }));
}

const SNAPSHOT_DATE = dateParam.describe('Trading day (YYYY-MM-DD)').meta({ example: '2026-11-20' });

/** A snapshot's parameters: the day, and optionally one exchange and one sector or industry. */
const SNAPSHOT_PARAMS = {
  sector: z.object({
    date: SNAPSHOT_DATE,
    exchange: exchangeFilter,
    sector: groupName('sector', EXAMPLES.sector)
      .optional()
      .describe(`Only this sector, e.g. ${EXAMPLES.sector} (case-insensitive)`),
  }),
  industry: z.object({
    date: SNAPSHOT_DATE,
    exchange: exchangeFilter,
    industry: groupName('industry', EXAMPLES.industry)
      .optional()
      .describe(`Only this industry, e.g. ${EXAMPLES.industry} (case-insensitive)`),
  }),
};

/** A history's parameters: the sector or industry, the range and optionally one exchange. */
const HISTORY_PARAMS = {
  sector: z.object({
    sector: groupName('sector', EXAMPLES.sector),
    ...RANGE_PARAMS,
    exchange: exchangeFilter,
  }),
  industry: z.object({
    industry: groupName('industry', EXAMPLES.industry),
    ...RANGE_PARAMS,
    exchange: exchangeFilter,
  }),
};

/** The sector or industry a request names, whichever the endpoint asks for. */
function groupOf(params: Partial<Record<GroupKey, string | undefined>>, key: GroupKey): string | undefined {
  return params[key];
}

const DAILY_CADENCE = {
  ...SESSION_CLOSE_CADENCE,
  when: 'After each session’s close: a new row per group and exchange for the day.',
};

function changeSnapshot(key: GroupKey): EndpointDefinition {
  return defineEndpoint({
    path: `${key}-performance-snapshot`,
    dataset: 'market-data-real-time',
    group: 'Sectors and industries',
    summary: key === 'sector' ? 'Sector performance' : 'Industry performance',
    description: `For one trading day, ${CHANGE_TEXT}. One row per ${key} and exchange, sorted by ${key} then exchange; a day without trading answers [].`,
    tier: DATA_TIERS.fundamentals,
    params: SNAPSHOT_PARAMS[key],
    row: changeRow(key),
    maxAge: 3600,
    cadence: DAILY_CADENCE,
    example: 'date=2026-11-20',
    csv: true,
    handler: async ({ db, params, symbols }) =>
      named(
        key,
        await groupChangeOn(db, symbols, params.date, {
          key,
          name: groupOf(params, key),
          exchange: params.exchange,
        }),
        (row) => ({ averageChange: row.averageChange }),
      ),
  });
}

function changeHistory(key: GroupKey): EndpointDefinition {
  return defineEndpoint({
    path: `historical-${key}-performance`,
    dataset: 'market-data-historic',
    group: 'Sectors and industries',
    summary: key === 'sector' ? 'Sector performance history' : 'Industry performance history',
    description: `For each trading day of a range (at most ${MAX_RANGE_YEARS} years), ${CHANGE_TEXT}. One row per day and exchange, oldest first.`,
    tier: DATA_TIERS.fundamentals,
    params: HISTORY_PARAMS[key],
    row: changeRow(key),
    maxAge: 3600,
    cadence: DAILY_CADENCE,
    example: `${key}=${EXAMPLES[key]}&from=2026-11-01&to=2026-11-20`,
    csv: true,
    handler: async ({ db, params, symbols, now }) =>
      named(
        key,
        await groupChangeHistory(db, symbols, checkedRange(params, now), {
          key,
          name: groupOf(params, key),
          exchange: params.exchange,
        }),
        (row) => ({ averageChange: row.averageChange }),
      ),
  });
}

function peSnapshot(key: GroupKey): EndpointDefinition {
  return defineEndpoint({
    path: `${key}-pe-snapshot`,
    dataset: 'market-data-real-time',
    group: 'Sectors and industries',
    summary: key === 'sector' ? 'Sector P/E ratios' : 'Industry P/E ratios',
    description: `For one trading day, the price-to-earnings ratio of each ${key}, ${PE_TEXT}. One row per ${key} and exchange, sorted by ${key} then exchange; a day without trading answers [].`,
    tier: DATA_TIERS.fundamentals,
    params: SNAPSHOT_PARAMS[key],
    row: peRow(key),
    maxAge: 3600,
    cadence: DAILY_CADENCE,
    example: 'date=2026-11-20',
    csv: true,
    handler: async ({ db, params, symbols }) =>
      named(
        key,
        await groupPe(
          db,
          symbols,
          { from: params.date, to: params.date },
          { key, name: groupOf(params, key), exchange: params.exchange },
        ),
        (row) => ({ pe: row.pe }),
      ),
  });
}

function peHistory(key: GroupKey): EndpointDefinition {
  return defineEndpoint({
    path: `historical-${key}-pe`,
    dataset: 'market-data-historic',
    group: 'Sectors and industries',
    summary: key === 'sector' ? 'Sector P/E history' : 'Industry P/E history',
    description: `For each trading day of a range (at most ${MAX_RANGE_YEARS} years), the price-to-earnings ratio of one ${key}, ${PE_TEXT}. One row per day and exchange, oldest first.`,
    tier: DATA_TIERS.fundamentals,
    params: HISTORY_PARAMS[key],
    row: peRow(key),
    maxAge: 3600,
    cadence: DAILY_CADENCE,
    example: `${key}=${EXAMPLES[key]}&from=2026-11-01&to=2026-11-20`,
    csv: true,
    handler: async ({ db, params, symbols, now }) =>
      named(
        key,
        await groupPe(db, symbols, checkedRange(params, now), {
          key,
          name: groupOf(params, key),
          exchange: params.exchange,
        }),
        (row) => ({ pe: row.pe }),
      ),
  });
}

/** Sector and industry performance and P/E ratios (the sector performance snapshot lives in market.ts). */
export const sectorEndpoints: EndpointDefinition[] = [
  changeSnapshot('industry'),
  changeHistory('sector'),
  changeHistory('industry'),
  peSnapshot('sector'),
  peSnapshot('industry'),
  peHistory('sector'),
  peHistory('industry'),
];
