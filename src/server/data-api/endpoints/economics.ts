import { z } from 'zod';
import {
  ECONOMIC_INDICATOR_NAMES,
  economicIndicatorRows,
  treasuryRateRows,
} from '../../services/market-data/economics.ts';
import { dateParam, defineEndpoint, type EndpointDefinition } from '../endpoint.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { checkDateRange } from './news.ts';

const yieldField = (term: string): z.ZodNumber => z.number().describe(`${term} par yield, percent`);

/** Market-wide economic series: no symbol, so no symbol coverage applies. */
export const economicsEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'treasury-rates',
    dataset: 'economics',
    group: 'Economics',
    summary: 'Treasury rates',
    description:
      'The daily US Treasury par yield curve from one month to thirty years, in percent, newest day first. Without from and to, the last three months.',
    tier: DATA_TIERS.sample,
    params: z.object({
      from: dateParam.optional().describe('First day (YYYY-MM-DD); default three months before to'),
      to: dateParam.optional().describe('Last day (YYYY-MM-DD); default today'),
    }),
    row: z.object({
      date: z.string().describe('Day of the curve (YYYY-MM-DD)'),
      month1: yieldField('1-month'),
      month2: yieldField('2-month'),
      month3: yieldField('3-month'),
      month6: yieldField('6-month'),
      year1: yieldField('1-year'),
      year2: yieldField('2-year'),
      year3: yieldField('3-year'),
      year5: yieldField('5-year'),
      year7: yieldField('7-year'),
      year10: yieldField('10-year'),
      year20: yieldField('20-year'),
      year30: yieldField('30-year'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'end-of-day',
      when: 'Each US business day, once the Treasury publishes the day’s par yield curve (late afternoon, New York time).',
    },
    example: '',
    handler: ({ db, params, now }) => {
      checkDateRange(params.from, params.to);
      return treasuryRateRows(db, params, now);
    },
  }),
  defineEndpoint({
    path: 'economic-indicators',
    dataset: 'economics',
    group: 'Economics',
    summary: 'Economic indicators',
    description:
      'Observations of one US economic series (GDP, CPI, unemployment rate, federal funds rate, …), newest first, optionally within dates.',
    tier: DATA_TIERS.global,
    params: z.object({
      name: z
        .enum(ECONOMIC_INDICATOR_NAMES, {
          error: (issue) =>
            `${issue.input === undefined ? 'is required' : 'is not an indicator we know'}; use one of ${ECONOMIC_INDICATOR_NAMES.join(', ')}`,
        })
        .describe(`Indicator: ${ECONOMIC_INDICATOR_NAMES.join(', ')}`)
        .meta({ example: 'GDP' }),
      from: dateParam.optional().describe('First observation date (YYYY-MM-DD)'),
      to: dateParam.optional().describe('Last observation date (YYYY-MM-DD)'),
    }),
    row: z.object({
      name: z.string().describe('Indicator name'),
      date: z.string().describe('Observation date (YYYY-MM-DD)'),
      value: z
        .number()
        .describe('Observed value, in the indicator’s own unit (billions of dollars, percent, index points)'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'as-published',
      when: 'On each series’ release day: GDP quarterly, CPI, retail sales, unemployment and most others monthly, the federal funds rate after each rate decision.',
    },
    example: 'name=GDP',
    handler: ({ db, params }) => {
      checkDateRange(params.from, params.to);
      return economicIndicatorRows(db, params.name, params);
    },
  }),
];
