import { z } from 'zod';
import { DATA_TIERS, INTRADAY_TIER, InvalidParametersError } from '../../services/market-data/plan-access.ts';
import { indicatorRows, TIMEFRAMES } from '../../services/market-data/technical.ts';
import {
  INDICATOR_FIELDS,
  INDICATORS,
  type Indicator,
} from '../../services/market-data/technical-indicators.ts';
import {
  dateParam,
  defineEndpoint,
  SESSION_CLOSE_CADENCE,
  symbolParam,
  type EndpointDefinition,
} from '../endpoint.ts';

const params = z.object({
  symbol: symbolParam,
  periodLength: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(200, 'must be at most 200')
    .describe('Number of bars the indicator looks back over, e.g. 10 (1 to 200)')
    .meta({ example: 10 }),
  timeframe: z
    .enum(TIMEFRAMES, { error: `must be one of ${TIMEFRAMES.join(', ')}` })
    .describe('Bar width: 1min, 5min, 15min, 30min, 1hour, 4hour (intraday plans) or 1day')
    .meta({ example: '1day' }),
  from: dateParam
    .optional()
    .describe(
      'First day answered (YYYY-MM-DD); default five years before "to" for daily bars (limited to the history of your plan), a week before the latest bar for intraday ones',
    )
    .meta({ example: '2026-01-02' }),
  to: dateParam
    .optional()
    .describe('Last day answered (YYYY-MM-DD); default today')
    .meta({ example: '2026-11-20' }),
});

/** What each indicator is, for its summary and description. */
const ABOUT: Readonly<Record<Indicator, { summary: string; value: string; text: string }>> = {
  sma: {
    summary: 'Simple moving average (SMA)',
    value: 'Mean of the last periodLength closes',
    text: 'The mean of the last periodLength closes.',
  },
  ema: {
    summary: 'Exponential moving average (EMA)',
    value: 'Exponential moving average of the closes, α = 2 / (periodLength + 1)',
    text: 'The closes smoothed with α = 2 / (periodLength + 1), seeded by the simple average of the first periodLength closes.',
  },
  wma: {
    summary: 'Weighted moving average (WMA)',
    value: 'Linearly weighted average of the last periodLength closes',
    text: 'The last periodLength closes weighted linearly: the newest weighs periodLength, the oldest 1.',
  },
  dema: {
    summary: 'Double exponential moving average (DEMA)',
    value: '2 × EMA − EMA of the EMA',
    text: 'Twice the EMA less the EMA of the EMA, which follows the price with less lag than the EMA.',
  },
  tema: {
    summary: 'Triple exponential moving average (TEMA)',
    value: '3 × EMA − 3 × EMA(EMA) + EMA(EMA(EMA))',
    text: 'Three times the EMA less three times its EMA plus the EMA of that, with still less lag than the DEMA.',
  },
  rsi: {
    summary: 'Relative strength index (RSI)',
    value: 'Relative strength index, 0 to 100',
    text: 'Wilder’s relative strength index, 0 to 100: average gains against average losses of the closes, Wilder-smoothed.',
  },
  standarddeviation: {
    summary: 'Standard deviation',
    value: 'Population standard deviation of the last periodLength closes',
    text: 'The population standard deviation of the last periodLength closes, in price units.',
  },
  williams: {
    summary: 'Williams %R',
    value: 'Williams %R, 0 (close at the high) to −100 (close at the low)',
    text: 'Where the close stands in the range of the last periodLength bars: 0 at the highest high, −100 at the lowest low.',
  },
  adx: {
    summary: 'Average directional index (ADX)',
    value: 'Average directional index, 0 to 100',
    text: 'Wilder’s average directional index, 0 to 100: the strength of a trend, whichever its direction, from the directional movement of highs and lows.',
  },
};

function indicatorEndpoint(indicator: Indicator): EndpointDefinition {
  const about = ABOUT[indicator];
  return defineEndpoint({
    path: `technical-indicators/${indicator}`,
    dataset: 'advanced',
    group: 'Technical indicators',
    summary: about.summary,
    description: `${about.text} Each bar of the timeframe with the indicator’s value, newest first; prices split-adjusted as the charts answer them. The indicator runs over the whole stored history, so a date shows the same value whatever window is asked for; bars before it has enough history are left out. The formulas are on the Technical indicators page (Formulas). Daily bars follow your plan’s years of history; intraday timeframes need the Professional plan, like the intraday charts.`,
    tier: DATA_TIERS.sample,
    params,
    symbolParam: 'symbol',
    tierFor: (query) =>
      query.timeframe === '1day' ? undefined : { tier: INTRADAY_TIER, subject: 'intraday indicators' },
    row: z.object({
      date: z
        .string()
        .describe('Trading day (YYYY-MM-DD), or the bar’s exchange-local start (YYYY-MM-DD HH:mm:ss)'),
      open: z.number().describe('Opening price of the bar'),
      high: z.number().describe('Highest price of the bar'),
      low: z.number().describe('Lowest price of the bar'),
      close: z.number().describe('Closing price of the bar'),
      volume: z.number().describe('Shares (or units) traded in the bar'),
      [INDICATOR_FIELDS[indicator]]: z.number().describe(about.value),
    }),
    maxAge: 300,
    cadence: SESSION_CLOSE_CADENCE,
    history: true,
    example: 'symbol=AAPL&periodLength=10&timeframe=1day',
    csv: true,
    handler: async ({ db, params: query, plan, symbols, now }) => {
      if (query.from !== undefined && query.to !== undefined && query.from > query.to)
        throw new InvalidParametersError('Parameter "from" must be on or before "to".');
      const security = symbols.get(query.symbol);
      if (security === undefined) return [];
      return indicatorRows(db, security, indicator, query, plan, now);
    },
  });
}

/** The technical indicators, computed on request from the stored daily or intraday bars. */
export const technicalEndpoints: EndpointDefinition[] = INDICATORS.map(indicatorEndpoint);
