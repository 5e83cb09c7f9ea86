import { z } from 'zod';
import { marketMovers, sectorPerformance, type MoverKind } from '../../services/market-data/movers.ts';
import { dateParam, defineEndpoint, SESSION_CLOSE_CADENCE, type EndpointDefinition } from '../endpoint.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';

const moverRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  price: z.number().describe('Close of the latest trading day'),
  name: z.string().describe('Company name'),
  change: z.number().describe('Close minus the previous close'),
  changesPercentage: z.number().describe('Change from the previous close, in percent (2.5 means 2.5 %)'),
  exchange: z.string().describe('Short code of the listing venue'),
});

const MOVERS_SCOPE =
  'US-listed stocks priced at 1 or more on the latest trading day, compared with their previous close (split-adjusted), top 50.';

function moversEndpoint(path: string, kind: MoverKind, summary: string, order: string): EndpointDefinition {
  return defineEndpoint({
    path,
    dataset: 'market-data-real-time',
    group: 'Market performance',
    summary,
    description: `${order} ${MOVERS_SCOPE}`,
    tier: DATA_TIERS.sample,
    params: z.object({}),
    row: moverRow,
    maxAge: 300,
    cadence: {
      ...SESSION_CLOSE_CADENCE,
      when: 'After the US session’s close (16:00 New York time), from the day’s daily bars.',
    },
    example: '',
    csv: true,
    handler: ({ db, symbols, now }) => marketMovers(db, symbols, kind, now),
  });
}

export const marketEndpoints: EndpointDefinition[] = [
  moversEndpoint('biggest-gainers', 'gainers', 'Biggest gainers', 'Stocks that rose most, by percentage.'),
  moversEndpoint('biggest-losers', 'losers', 'Biggest losers', 'Stocks that fell most, by percentage.'),
  moversEndpoint('most-actives', 'actives', 'Most active stocks', 'Stocks with the most shares traded.'),
  defineEndpoint({
    path: 'sector-performance-snapshot',
    dataset: 'market-data-real-time',
    group: 'Market performance',
    summary: 'Sector performance',
    description:
      'Mean daily change of the stocks of each sector on one day, one row per sector and exchange, sorted by sector then exchange. A day without trading answers [].',
    tier: DATA_TIERS.fundamentals,
    params: z.object({
      date: dateParam.describe('Trading day (YYYY-MM-DD)').meta({ example: '2026-11-20' }),
      exchange: z
        .string()
        .trim()
        .regex(/^[A-Za-z]{1,20}$/, 'must be an exchange code such as NASDAQ or NYSE')
        .optional()
        .describe('Only stocks listed on this exchange (NASDAQ, NYSE, …)'),
      sector: z
        .string()
        .trim()
        .min(1, 'must not be empty')
        .max(60, 'must be at most 60 characters')
        .optional()
        .describe('Only this sector, e.g. Technology (case-insensitive)'),
    }),
    row: z.object({
      date: z.string().describe('Trading day (YYYY-MM-DD)'),
      sector: z.string().describe('Sector'),
      exchange: z.string().describe('Short code of the listing venue'),
      averageChange: z
        .number()
        .describe('Mean change of the sector’s stocks from their previous close, in percent'),
    }),
    maxAge: 3600,
    cadence: {
      ...SESSION_CLOSE_CADENCE,
      when: 'After each session’s close: a new row per sector and exchange for the day.',
    },
    example: 'date=2026-11-20',
    csv: true,
    handler: ({ db, params, symbols }) => sectorPerformance(db, symbols, params),
  }),
];
