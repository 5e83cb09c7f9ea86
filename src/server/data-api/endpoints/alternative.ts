import { z } from 'zod';
import {
  esgRatingRows,
  insiderTradeRows,
  INSIDER_TRADE_FIELDS,
  POSITIONS_SUMMARY_FIELDS,
  positionsSummaryRows,
  SENATE_TRADE_FIELDS,
  senateTradeRows,
} from '../../services/market-data/alternative.ts';
import {
  dateParam,
  defineEndpoint,
  limitParam,
  pageParam,
  symbolParam,
  type EndpointDefinition,
} from '../endpoint.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { rowSchemaOf } from './statements.ts';

const yearParam = z.coerce
  .number({ error: 'is required and must be a year such as 2024' })
  .int('must be a year such as 2024')
  .min(1900, 'must be a year such as 2024')
  .max(2200, 'must be a year such as 2024')
  .describe('Calendar year');

const quarterParam = z.coerce
  .number({ error: 'is required and must be 1, 2, 3 or 4' })
  .int('must be 1, 2, 3 or 4')
  .min(1, 'must be 1, 2, 3 or 4')
  .max(4, 'must be 1, 2, 3 or 4')
  .describe('Calendar quarter (1–4)');

/** Filings and ratings beyond prices and statements: Power data, ownership summaries Professional. */
export const alternativeEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'esg-ratings',
    dataset: 'esg',
    group: 'Alternative data',
    summary: 'ESG ratings',
    description:
      'Environmental, social and governance risk rating of a company per fiscal year, with its rank within its industry, newest year first.',
    tier: DATA_TIERS.global,
    params: z.object({ symbol: symbolParam }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      cik: z.string().describe('SEC Central Index Key of the company'),
      companyName: z.string().describe('Company name'),
      industry: z.string().describe('Industry the rank is computed within'),
      fiscalYear: z.number().describe('Fiscal year rated'),
      ESGRiskRating: z.string().describe('Letter rating from AAA (lowest risk) to CCC'),
      industryRank: z.string().describe('Rank within the industry, e.g. "12 out of 64"'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 86400,
    cadence: {
      frequency: 'yearly',
      when: 'Once a year per company, when its rating for the fiscal year is published; industry ranks move as peers are rated.',
    },
    example: 'symbol=AAPL',
    handler: ({ db, params }) => esgRatingRows(db, params.symbol),
  }),
  defineEndpoint({
    path: 'insider-trading/latest',
    dataset: 'ownership-senate-insider',
    group: 'Alternative data',
    summary: 'Latest insider trades',
    description:
      'Form 4 filings of company insiders across all companies, newest filing first; date narrows them to one filing day.',
    tier: DATA_TIERS.global,
    params: z.object({
      date: dateParam.optional().describe('Only filings of this day (YYYY-MM-DD)'),
      page: pageParam,
      limit: limitParam(100, 1000),
    }),
    row: rowSchemaOf(INSIDER_TRADE_FIELDS),
    csv: true,
    maxAge: 900,
    cadence: {
      frequency: 'as-published',
      when: 'As Form 4 filings reach the SEC (insiders file within two business days of a trade), through the trading day.',
    },
    example: 'page=0&limit=100',
    handler: ({ db, params }) => insiderTradeRows(db, params),
  }),
  defineEndpoint({
    path: 'senate-latest',
    dataset: 'ownership-senate-insider',
    group: 'Alternative data',
    summary: 'Latest Senate trades',
    description: 'Periodic transaction reports of US senators, newest disclosure first.',
    tier: DATA_TIERS.global,
    params: z.object({ page: pageParam, limit: limitParam(100, 1000) }),
    row: rowSchemaOf(SENATE_TRADE_FIELDS),
    csv: true,
    maxAge: 900,
    cadence: {
      frequency: 'as-published',
      when: 'As senators’ periodic transaction reports are disclosed (within 45 days of a trade).',
    },
    example: 'page=0&limit=100',
    handler: ({ db, params }) => senateTradeRows(db, params),
  }),
  defineEndpoint({
    path: 'institutional-ownership/symbol-positions-summary',
    dataset: 'form-13f',
    group: 'Alternative data',
    summary: 'Institutional ownership summary',
    description:
      'What 13F filers held of a stock in one calendar quarter, compared with the quarter before: holders, shares, value, ownership percent, opened, increased, reduced and closed positions, and options.',
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam, year: yearParam, quarter: quarterParam }),
    row: rowSchemaOf(POSITIONS_SUMMARY_FIELDS),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 86400,
    cadence: {
      frequency: 'quarterly',
      when: 'Each quarter, as 13F filings arrive (they are due 45 days after the quarter’s end); a summary changes until the last filer of the quarter has filed.',
    },
    example: 'symbol=AAPL&year=2026&quarter=2',
    handler: ({ db, params }) => positionsSummaryRows(db, params.symbol, params.year, params.quarter),
  }),
];
