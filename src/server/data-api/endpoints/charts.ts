import { z } from 'zod';
import {
  historicalDividendAdjusted,
  historicalFull,
  historicalLight,
  historicalUnadjusted,
  INTRADAY_INTERVALS,
  intradayChart,
  resolveDailyRange,
  type IntradayInterval,
} from '../../services/market-data/prices.ts';
import {
  dateParam,
  defineEndpoint,
  SESSION_CLOSE_CADENCE,
  symbolParam,
  type EndpointDefinition,
} from '../endpoint.ts';
import {
  DATA_TIERS,
  INTRADAY_TIER,
  InvalidParametersError,
  type DataTier,
} from '../../services/market-data/plan-access.ts';
import type { Db } from '../../db/client.ts';
import type { Security } from '../../db/schema.ts';

const dailyParams = z.object({
  symbol: symbolParam,
  from: dateParam
    .optional()
    .describe('First date (YYYY-MM-DD); default five years before "to", limited to the history of your plan')
    .meta({ example: '2025-01-02' }),
  to: dateParam.optional().describe('Last date (YYYY-MM-DD); default today').meta({ example: '2025-12-31' }),
});

const intradayParams = z.object({
  symbol: symbolParam,
  from: dateParam
    .optional()
    .describe('First day (YYYY-MM-DD); default a week before the latest bar')
    .meta({ example: '2025-01-02' }),
  to: dateParam
    .optional()
    .describe('Last day (YYYY-MM-DD); default the latest bar')
    .meta({ example: '2025-01-03' }),
});

/** FMP names these fields adj* for both variants; `basis` says what they are adjusted for. */
function adjustedRow(basis: string) {
  return z.object({
    symbol: z.string().describe('Ticker symbol'),
    date: z.string().describe('Trading day (YYYY-MM-DD)'),
    adjOpen: z.number().describe(`Opening price, ${basis}`),
    adjHigh: z.number().describe(`Highest price, ${basis}`),
    adjLow: z.number().describe(`Lowest price, ${basis}`),
    adjClose: z.number().describe(`Closing price, ${basis}`),
    volume: z.number().describe('Shares (or units) traded'),
  });
}

const DAILY_MAX_AGE = 300;
const ORDER = 'Newest first; from and to bound the days (inclusive). An unknown symbol answers [].';

function checkOrder(params: { from?: string | undefined; to?: string | undefined }): void {
  if (params.from !== undefined && params.to !== undefined && params.from > params.to) {
    throw new InvalidParametersError('Parameter "from" must be on or before "to".');
  }
}

function intradayEndpoint(interval: IntradayInterval): EndpointDefinition {
  const minutes = INTRADAY_INTERVALS[interval];
  const width = minutes === 1 ? 'one-minute' : minutes < 60 ? `${minutes}-minute` : `${minutes / 60}-hour`;
  return defineEndpoint({
    path: `historical-chart/${interval}`,
    dataset: 'market-data-historic',
    group: 'Charts',
    summary: `Intraday chart, ${interval} bars`,
    description: `Intraday ${width} bars${minutes === 1 ? '' : ' aggregated from one-minute bars, starting at the session open (09:30 for US stocks, midnight for round-the-clock markets)'}. Times are exchange-local; the first bar of a period carries its open, the last its close. ${ORDER}`,
    tier: INTRADAY_TIER,
    params: intradayParams,
    symbolParam: 'symbol',
    row: z.object({
      date: z.string().describe('Start of the bar, exchange-local time (YYYY-MM-DD HH:mm:ss)'),
      open: z.number().describe('Price at the start of the bar'),
      low: z.number().describe('Lowest price within the bar'),
      high: z.number().describe('Highest price within the bar'),
      close: z.number().describe('Price at the end of the bar'),
      volume: z.number().describe('Shares (or units) traded within the bar'),
    }),
    maxAge: 60,
    cadence: {
      frequency: 'intraday',
      when: `A new bar as each ${width} interval closes during the trading session (round the clock for crypto and forex); the day’s bars are complete after the session’s close.`,
    },
    example: 'symbol=AAPL',
    csv: true,
    handler: async ({ db, params, symbols }) => {
      checkOrder(params);
      const security = symbols.get(params.symbol);
      if (security === undefined) return [];
      return intradayChart(db, security, interval, params);
    },
  });
}

/**
 * One daily-history endpoint: the same parameters, default range and plan limits for every variant;
 * only the rows differ.
 */
function dailyEndpoint<R extends z.ZodObject>(spec: {
  path: string;
  summary: string;
  description: string;
  tier: DataTier;
  row: R;
  read: (db: Db, security: Security, range: ReturnType<typeof resolveDailyRange>) => Promise<z.infer<R>[]>;
}): EndpointDefinition {
  return defineEndpoint({
    path: spec.path,
    dataset: 'market-data-historic',
    group: 'Charts',
    summary: spec.summary,
    description: spec.description,
    tier: spec.tier,
    params: dailyParams,
    symbolParam: 'symbol',
    row: spec.row,
    maxAge: DAILY_MAX_AGE,
    cadence: SESSION_CLOSE_CADENCE,
    history: true,
    example: 'symbol=AAPL',
    csv: true,
    handler: async ({ db, params, plan, symbols, now }) => {
      const security = symbols.get(params.symbol);
      if (security === undefined) return [];
      return spec.read(db, security, resolveDailyRange(params, plan, now));
    },
  });
}

export const chartEndpoints: EndpointDefinition[] = [
  dailyEndpoint({
    path: 'historical-price-eod/light',
    summary: 'Daily prices, light',
    description: `Daily closing price and volume, adjusted for splits. ${ORDER}`,
    tier: DATA_TIERS.sample,
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      date: z.string().describe('Trading day (YYYY-MM-DD)'),
      price: z.number().describe('Closing price, adjusted for later splits'),
      volume: z.number().describe('Shares (or units) traded, in today’s share terms'),
    }),
    read: historicalLight,
  }),
  dailyEndpoint({
    path: 'historical-price-eod/full',
    summary: 'Daily prices, full',
    description: `Daily open, high, low, close and volume adjusted for splits (prices divided by the later split ratios, volume multiplied), with change = close − open, changePercent = change / open × 100 and vwap = (high + low + close) / 3. ${ORDER}`,
    tier: DATA_TIERS.sample,
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      date: z.string().describe('Trading day (YYYY-MM-DD)'),
      open: z.number().describe('Opening price, split-adjusted'),
      high: z.number().describe('Highest price, split-adjusted'),
      low: z.number().describe('Lowest price, split-adjusted'),
      close: z.number().describe('Closing price, split-adjusted'),
      volume: z.number().describe('Shares (or units) traded, in today’s share terms'),
      change: z.number().describe('Close minus open'),
      changePercent: z.number().describe('Change as a percentage of the open (2.5 means 2.5 %)'),
      vwap: z.number().describe('Typical price of the day: (high + low + close) / 3'),
    }),
    read: historicalFull,
  }),
  dailyEndpoint({
    path: 'historical-price-eod/non-split-adjusted',
    summary: 'Daily prices as traded',
    description: `Daily prices as they were traded on the day, before any split adjustment (a 4-for-1 split shows as a price four times higher before it). ${ORDER}`,
    tier: DATA_TIERS.fundamentals,
    row: adjustedRow('as traded that day (not adjusted for splits)'),
    read: historicalUnadjusted,
  }),
  dailyEndpoint({
    path: 'historical-price-eod/dividend-adjusted',
    summary: 'Daily prices adjusted for dividends',
    description: `Daily prices adjusted for splits and dividends (total-return prices): the adjusted close is back-adjusted for every later split and dividend, and open, high and low are scaled by the same factor. ${ORDER}`,
    tier: DATA_TIERS.fundamentals,
    row: adjustedRow('adjusted for splits and dividends'),
    read: historicalDividendAdjusted,
  }),
  ...(Object.keys(INTRADAY_INTERVALS) as IntradayInterval[]).map(intradayEndpoint),
];
