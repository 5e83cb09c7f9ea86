import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import {
  AftermarketEndpoints,
  AnalystEndpoints,
  CompanyEndpoints,
  ETFEndpoints,
  EconomicEndpoints,
  FinancialEndpoints,
  FMPClient,
  InsiderEndpoints,
  MarketEndpoints,
  NewsEndpoints,
  QuoteEndpoints,
  ScreenerEndpoints,
  SenateHouseEndpoints,
  StockEndpoints,
  TechnicalEndpoints,
  ValuationEndpoints,
  type APIResponse,
} from 'fmp-node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_AS_OF, openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

/*
 * A third-party FMP client library from npm (fmp-node-api, written by someone outside this project),
 * pointed at this data API by changing only its base URL, makes every call it knows on FMP's stable API.
 *
 * The library's `FMP` facade checks a key against FMP's own key shape (32 or more letters and digits)
 * before any call; this product's keys carry a `tlk_` prefix for secret scanners, which that check
 * refuses. So the test builds the library's exported `FMPClient` and endpoint classes, which its
 * README offers for composing a client, and sets the base URL of the axios instance that the library
 * sends its stable calls through: nothing else of the library is changed.
 */

let h: DataApiHarness;
let server: ServerType;
let client: FMPClient;

beforeAll(async () => {
  h = await openDataApiHarness();
  const key = await h.keyFor('commercialEnterprise');
  server = serve({ fetch: h.api.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  client = new FMPClient({ apiKey: key });
  const stable = (client as unknown as { stableClient: { defaults: { baseURL?: string } } }).stableClient;
  stable.defaults.baseURL = `${base}/stable`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await h.close();
});

const SYMBOL = 'AAPL';
const YEAR_AGO = '2025-11-20';

/** Every stable call of the library, named as the library names it, with arguments a client would pass. */
const CALLS: readonly (readonly [string, (c: FMPClient) => Promise<APIResponse>])[] = [
  ['company.getCompanyProfile', (c) => new CompanyEndpoints(c).getCompanyProfile(SYMBOL)],
  ['company.getExecutiveCompensation', (c) => new CompanyEndpoints(c).getExecutiveCompensation(SYMBOL)],
  ['company.getCompanyNotes', (c) => new CompanyEndpoints(c).getCompanyNotes(SYMBOL)],
  ['company.getHistoricalEmployeeCount', (c) => new CompanyEndpoints(c).getHistoricalEmployeeCount(SYMBOL)],
  ['company.getSharesFloat', (c) => new CompanyEndpoints(c).getSharesFloat(SYMBOL)],
  ['company.getStockPeers', (c) => new CompanyEndpoints(c).getStockPeers(SYMBOL)],
  [
    'economic.getTreasuryRates',
    (c) => new EconomicEndpoints(c).getTreasuryRates({ from: YEAR_AGO, to: HARNESS_AS_OF }),
  ],
  ['economic.getEconomicIndicators', (c) => new EconomicEndpoints(c).getEconomicIndicators({ name: 'GDP' })],
  ['etf.getProfile', (c) => new ETFEndpoints(c).getProfile('SPY')],
  ['etf.getSectorWeighting', (c) => new ETFEndpoints(c).getSectorWeighting('SPY')],
  ['etf.getCountryWeighting', (c) => new ETFEndpoints(c).getCountryWeighting('SPY')],
  ...(
    [
      'getIncomeStatement',
      'getBalanceSheet',
      'getCashFlowStatement',
      'getKeyMetrics',
      'getFinancialRatios',
      'getEnterpriseValue',
      'getCashflowGrowth',
      'getIncomeGrowth',
      'getBalanceSheetGrowth',
      'getFinancialGrowth',
    ] as const
  ).map(
    (method) =>
      [
        `financial.${method}`,
        (c: FMPClient) => new FinancialEndpoints(c)[method]({ symbol: SYMBOL, period: 'quarter', limit: 4 }),
      ] as const,
  ),
  [
    'financial.getEarningsHistorical',
    (c) => new FinancialEndpoints(c).getEarningsHistorical({ symbol: SYMBOL }),
  ],
  ['financial.getFinancialScores', (c) => new FinancialEndpoints(c).getFinancialScores({ symbol: SYMBOL })],
  ['financial.getKeyMetricsTTM', (c) => new FinancialEndpoints(c).getKeyMetricsTTM({ symbol: SYMBOL })],
  [
    'financial.getFinancialRatiosTTM',
    (c) => new FinancialEndpoints(c).getFinancialRatiosTTM({ symbol: SYMBOL }),
  ],
  [
    'financial.getRevenueProductSegmentation',
    (c) => new FinancialEndpoints(c).getRevenueProductSegmentation({ symbol: SYMBOL }),
  ],
  [
    'financial.getRevenueGeographicSegmentation',
    (c) => new FinancialEndpoints(c).getRevenueGeographicSegmentation({ symbol: SYMBOL }),
  ],
  ['insider.getInsiderTradingRSS', (c) => new InsiderEndpoints(c).getInsiderTradingRSS({ page: 0 })],
  ['insider.searchInsiderTrading', (c) => new InsiderEndpoints(c).searchInsiderTrading({ symbol: SYMBOL })],
  ['insider.getTransactionTypes', (c) => new InsiderEndpoints(c).getTransactionTypes()],
  [
    'insider.getInsiderTradeStatistics',
    (c) => new InsiderEndpoints(c).getInsiderTradeStatistics({ symbol: SYMBOL }),
  ],
  [
    'insider.getBeneficialOwnership',
    (c) => new InsiderEndpoints(c).getBeneficialOwnership({ symbol: SYMBOL }),
  ],
  ['market.getMarketHours', (c) => new MarketEndpoints(c).getMarketHours()],
  ['market.getGainers', (c) => new MarketEndpoints(c).getGainers()],
  ['market.getLosers', (c) => new MarketEndpoints(c).getLosers()],
  ['market.getMostActive', (c) => new MarketEndpoints(c).getMostActive()],
  [
    'market.getSectorPerformance',
    (c) => new MarketEndpoints(c).getSectorPerformance({ date: HARNESS_AS_OF }),
  ],
  [
    'market.getIndustryPESnapshot',
    (c) => new MarketEndpoints(c).getIndustryPESnapshot({ date: HARNESS_AS_OF }),
  ],
  ['news.getArticles', (c) => new NewsEndpoints(c).getArticles({ page: 0, limit: 20 })],
  ['news.getStockNews', (c) => new NewsEndpoints(c).getStockNews({ page: 0, limit: 20 })],
  ['news.getCryptoNews', (c) => new NewsEndpoints(c).getCryptoNews({ page: 0, limit: 20 })],
  ['news.getForexNews', (c) => new NewsEndpoints(c).getForexNews({ page: 0, limit: 20 })],
  [
    'news.getStockNewsBySymbol',
    (c) => new NewsEndpoints(c).getStockNewsBySymbol({ symbols: [SYMBOL, 'MSFT'], page: 0 }),
  ],
  [
    'news.getCryptoNewsBySymbol',
    (c) => new NewsEndpoints(c).getCryptoNewsBySymbol({ symbols: ['BTCUSD'], page: 0 }),
  ],
  [
    'news.getForexNewsBySymbol',
    (c) => new NewsEndpoints(c).getForexNewsBySymbol({ symbols: ['EURUSD'], page: 0 }),
  ],
  ['quote.getQuoteShort', (c) => new QuoteEndpoints(c).getQuoteShort(SYMBOL)],
  [
    'screener.getScreener',
    (c) => new ScreenerEndpoints(c).getScreener({ marketCapMoreThan: 1e9, limit: 10 }),
  ],
  ['screener.getAvailableExchanges', (c) => new ScreenerEndpoints(c).getAvailableExchanges()],
  ['screener.getAvailableSectors', (c) => new ScreenerEndpoints(c).getAvailableSectors()],
  ['screener.getAvailableIndustries', (c) => new ScreenerEndpoints(c).getAvailableIndustries()],
  ['screener.getAvailableCountries', (c) => new ScreenerEndpoints(c).getAvailableCountries()],
  ['analyst.getEstimates', (c) => new AnalystEndpoints(c).getEstimates({ symbol: SYMBOL })],
  [
    'analyst.getPriceTargetConsensus',
    (c) => new AnalystEndpoints(c).getPriceTargetConsensus({ symbol: SYMBOL }),
  ],
  ['analyst.getPriceTargetSummary', (c) => new AnalystEndpoints(c).getPriceTargetSummary({ symbol: SYMBOL })],
  ['analyst.getGrades', (c) => new AnalystEndpoints(c).getGrades({ symbol: SYMBOL })],
  ['analyst.getGradesConsensus', (c) => new AnalystEndpoints(c).getGradesConsensus({ symbol: SYMBOL })],
  [
    'valuation.getDiscountedCashFlow',
    (c) => new ValuationEndpoints(c).getDiscountedCashFlow({ symbol: SYMBOL }),
  ],
  ['valuation.getRatingSnapshot', (c) => new ValuationEndpoints(c).getRatingSnapshot({ symbol: SYMBOL })],
  ['valuation.getHistoricalRating', (c) => new ValuationEndpoints(c).getHistoricalRating({ symbol: SYMBOL })],
  ...(['sma', 'ema', 'wma', 'dema', 'tema', 'rsi', 'standardDeviation', 'williams', 'adx'] as const).map(
    (type) =>
      [
        `technical.getTechnicalIndicator(${type})`,
        (c: FMPClient) =>
          new TechnicalEndpoints(c).getTechnicalIndicator({
            symbol: SYMBOL,
            type,
            periodLength: 10,
            timeframe: '1day',
          }),
      ] as const,
  ),
  ['senateHouse.getSenateTrading', (c) => new SenateHouseEndpoints(c).getSenateTrading({ symbol: SYMBOL })],
  [
    'senateHouse.getSenateTradingRSSFeed',
    (c) => new SenateHouseEndpoints(c).getSenateTradingRSSFeed({ page: 0 }),
  ],
  ['senateHouse.getHouseTrading', (c) => new SenateHouseEndpoints(c).getHouseTrading({ symbol: SYMBOL })],
  [
    'senateHouse.getHouseTradingRSSFeed',
    (c) => new SenateHouseEndpoints(c).getHouseTradingRSSFeed({ page: 0 }),
  ],
  ['stock.getPriceChange', (c) => new StockEndpoints(c).getPriceChange(SYMBOL)],
  ['aftermarket.getTrade', (c) => new AftermarketEndpoints(c).getTrade(SYMBOL)],
  ['aftermarket.getQuote', (c) => new AftermarketEndpoints(c).getQuote(SYMBOL)],
];

describe('a third-party FMP client library pointed at this API', () => {
  it.each(CALLS)('answers %s with data and no error', async (_name, call) => {
    const answer = await call(client);
    expect(answer.error, JSON.stringify(answer)).toBeNull();
    expect(answer.success).toBe(true);
    expect(answer.status).toBe(200);
    const data = answer.data;
    if (Array.isArray(data)) expect(data.length).toBeGreaterThan(0);
    else expect(Object.keys(data as object).length).toBeGreaterThan(0);
  });

  it('finds the trades of a senator and a representative the latest feeds name, by that name', async () => {
    const trades = new SenateHouseEndpoints(client);
    for (const [latest, byName] of [
      [() => trades.getSenateTradingRSSFeed({ page: 0 }), trades.getSenateTradingByName.bind(trades)],
      [() => trades.getHouseTradingRSSFeed({ page: 0 }), trades.getHouseTradingByName.bind(trades)],
    ] as const) {
      const feed = await latest();
      const first = (feed.data as { firstName: string; lastName: string }[])[0];
      expect(first).toBeDefined();
      const named = await byName({ name: first?.lastName ?? '' });
      expect(named.success).toBe(true);
      expect((named.data as { lastName: string }[]).every((row) => row.lastName === first?.lastName)).toBe(
        true,
      );
    }
  });

  it('reports a call beyond the plan as the plan restriction FMP would give, with the plan to choose', async () => {
    const freeClient = new FMPClient({ apiKey: await h.keyFor('free') });
    const source = (client as unknown as { stableClient: { defaults: { baseURL?: string } } }).stableClient;
    (
      freeClient as unknown as { stableClient: { defaults: { baseURL?: string | undefined } } }
    ).stableClient.defaults.baseURL = source.defaults.baseURL;
    const answer = await new FinancialEndpoints(freeClient).getIncomeStatement({
      symbol: SYMBOL,
      period: 'quarter',
      limit: 4,
    });
    expect(answer.success).toBe(false);
    expect(answer.status).toBe(402);
    expect(answer.errorType).toBe('plan-restricted');
    expect(answer.error).toMatch(/Professional/);
  });
});
