import { z } from 'zod';
import { dividendRows, earningsRows, splitRows } from '../../services/market-data/events.ts';
import { defineEndpoint, limitParam, symbolParam, type EndpointDefinition } from '../endpoint.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';

/** Corporate events per symbol: dividends and splits are free, earnings come with fundamentals. */
export const eventEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'dividends',
    dataset: 'calendars',
    group: 'Earnings, dividends and splits',
    summary: 'Dividends',
    description:
      'Cash dividends of a symbol, newest ex-date first. adjDividend restates the amount in today’s shares (divided by later split ratios); yield annualises the payment by its frequency over the as-traded close of the ex-date, in percent.',
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam, limit: limitParam(100, 1000) }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      date: z.string().describe('Ex-dividend date (YYYY-MM-DD)'),
      recordDate: z.string().describe('Record date (YYYY-MM-DD), empty when not announced'),
      paymentDate: z.string().describe('Payment date (YYYY-MM-DD), empty when not announced'),
      declarationDate: z.string().describe('Declaration date (YYYY-MM-DD), empty when not announced'),
      adjDividend: z.number().describe('Dividend per share adjusted for later splits'),
      dividend: z.number().describe('Dividend per share as paid'),
      yield: z
        .number()
        .describe('Annualised dividend over the close on the ex-date, in percent (1.5 means 1.5 %)'),
      frequency: z
        .string()
        .describe('Payment frequency: Quarterly, Monthly, Semi-Annual, Annual or Irregular'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'as-published',
      when: 'As companies declare dividends: a new row on the declaration, record and payment dates as they are announced.',
    },
    example: 'symbol=AAPL',
    handler: ({ db, params }) => dividendRows(db, params.symbol, params.limit),
  }),
  defineEndpoint({
    path: 'splits',
    dataset: 'calendars',
    group: 'Earnings, dividends and splits',
    summary: 'Stock splits',
    description:
      'Stock splits of a symbol, newest first: numerator new shares for every denominator old shares (4 for 1 is numerator 4, denominator 1).',
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam, limit: limitParam(100, 1000) }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      date: z.string().describe('Date the split took effect (YYYY-MM-DD)'),
      numerator: z.number().describe('Shares after the split for every denominator shares before'),
      denominator: z.number().describe('Shares before the split'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'as-published',
      when: 'As companies announce splits; the price history is re-adjusted on the day the split takes effect.',
    },
    example: 'symbol=AAPL',
    handler: ({ db, params }) => splitRows(db, params.symbol, params.limit),
  }),
  defineEndpoint({
    path: 'earnings',
    dataset: 'calendars',
    group: 'Earnings, dividends and splits',
    summary: 'Earnings reports',
    description:
      'Reported and expected earnings per quarter, newest first. The upcoming report comes first with estimates only: its actuals are null until it is published.',
    tier: DATA_TIERS.fundamentals,
    params: z.object({ symbol: symbolParam, limit: limitParam(100, 1000) }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      date: z.string().describe('Report date (YYYY-MM-DD)'),
      epsActual: z
        .number()
        .nullable()
        .describe('Reported diluted earnings per share; null before the report'),
      epsEstimated: z.number().nullable().describe('Consensus earnings per share estimate'),
      revenueActual: z.number().nullable().describe('Reported revenue; null before the report'),
      revenueEstimated: z.number().nullable().describe('Consensus revenue estimate'),
      lastUpdated: z.string().describe('Date the row last changed (YYYY-MM-DD)'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'as-published',
      when: 'On each report day, once the results are published (actuals replace null); estimates as the consensus moves, once a day.',
    },
    example: 'symbol=AAPL',
    handler: ({ db, params }) => earningsRows(db, params.symbol, params.limit),
  }),
];
