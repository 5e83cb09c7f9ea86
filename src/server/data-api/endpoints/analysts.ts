import { z } from 'zod';
import {
  ANALYST_ESTIMATE_FIELDS,
  analystEstimateRows,
  gradeRows,
  gradesConsensus,
  priceTargetConsensus,
} from '../../services/market-data/analysts.ts';
import { defineEndpoint, limitParam, pageParam, symbolParam, type EndpointDefinition } from '../endpoint.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { rowSchemaOf } from './statements.ts';

/** Analysts' forecasts, targets and ratings: Professional data. */
export const analystEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'analyst-estimates',
    dataset: 'analyst-estimates-targets',
    group: 'Analysts',
    summary: 'Analyst estimates',
    description:
      'Consensus forecasts (low, high and average) of revenue, EBITDA, EBIT, net income, SG&A and earnings per share for future fiscal years or quarters, furthest period first.',
    tier: DATA_TIERS.professional,
    params: z.object({
      symbol: symbolParam,
      period: z
        .enum(['annual', 'quarter'], {
          error: (issue) =>
            issue.input === undefined ? 'is required: annual or quarter' : 'must be annual or quarter',
        })
        .describe('Fiscal years (annual) or quarters (quarter)'),
      page: pageParam,
      limit: limitParam(10, 1000),
    }),
    row: rowSchemaOf(ANALYST_ESTIMATE_FIELDS),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'daily',
      when: 'Once a day, after the US session’s close: the consensus takes in the forecasts analysts revised that day.',
    },
    example: 'symbol=AAPL&period=annual',
    handler: ({ db, params }) => analystEstimateRows(db, params),
  }),
  defineEndpoint({
    path: 'price-target-consensus',
    dataset: 'analyst-estimates-targets',
    group: 'Analysts',
    summary: 'Price target consensus',
    description:
      'The highest, lowest, average (consensus) and median twelve-month price target of the analysts covering a symbol.',
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      targetHigh: z.number().describe('Highest price target'),
      targetLow: z.number().describe('Lowest price target'),
      targetConsensus: z.number().describe('Average price target'),
      targetMedian: z.number().describe('Median price target'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'daily',
      when: 'Once a day, after the US session’s close: targets published that day join the consensus.',
    },
    example: 'symbol=AAPL',
    handler: ({ db, params }) => priceTargetConsensus(db, params.symbol),
  }),
  defineEndpoint({
    path: 'grades',
    dataset: 'analyst-estimates-targets',
    group: 'Analysts',
    summary: 'Analyst grades',
    description:
      'Rating changes published by brokers (upgrades, downgrades, initiations and maintained ratings), newest first.',
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam, limit: limitParam(100, 1000) }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      date: z.string().describe('Date of the rating action (YYYY-MM-DD)'),
      gradingCompany: z.string().describe('Broker or research firm that issued the rating'),
      previousGrade: z.string().describe('Rating before the action, empty for an initiation'),
      newGrade: z.string().describe('Rating after the action'),
      action: z.string().describe('Kind of action, e.g. upgrade, downgrade or maintain'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'as-published',
      when: 'As brokers publish rating actions, during and after the trading day.',
    },
    example: 'symbol=AAPL',
    handler: ({ db, params }) => gradeRows(db, params.symbol, params.limit),
  }),
  defineEndpoint({
    path: 'grades-consensus',
    dataset: 'analyst-estimates-targets',
    group: 'Analysts',
    summary: 'Analyst recommendations consensus',
    description:
      'How many brokers rate a symbol Strong Buy, Buy, Hold, Sell or Strong Sell (each broker once, by its latest rating of the past year) and the consensus of those ratings; see the recommendations formula.',
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      strongBuy: z.number().describe('Brokers whose latest rating counts as Strong Buy'),
      buy: z.number().describe('Brokers whose latest rating counts as Buy (Buy, Outperform, Overweight, …)'),
      hold: z
        .number()
        .describe('Brokers whose latest rating counts as Hold (Hold, Neutral, Equal Weight, …)'),
      sell: z
        .number()
        .describe('Brokers whose latest rating counts as Sell (Sell, Underperform, Underweight, …)'),
      strongSell: z.number().describe('Brokers whose latest rating counts as Strong Sell'),
      consensus: z
        .string()
        .describe('The mean of the ratings (Strong Buy 5 … Strong Sell 1) rounded to a label, e.g. Buy'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'as-published',
      when: 'As brokers publish rating actions; a rating leaves the count a year after it was published.',
    },
    example: 'symbol=AAPL',
    handler: ({ db, params, now }) => gradesConsensus(db, params.symbol, now),
  }),
];
