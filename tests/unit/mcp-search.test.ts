import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { EndpointSearch, stem } from '../../src/server/data-api/mcp-tools.ts';

/*
 * search_endpoints as an assistant uses it: a question in a user's words, the endpoints it should
 * call among the first three answers. The index is built from the definitions as the MCP server
 * builds it, so a change to a definition's words that loses a common question fails here.
 */

const search = new EndpointSearch(ALL_ENDPOINTS);

/** The paths of the first three matches, for a caller on the widest data tier. */
function topThree(question: string): string[] {
  return search.search(question, 3, 4).map((match) => match.path);
}

/** Common questions and the endpoint (any one of them) an assistant should find in the top three. */
const QUESTIONS: readonly (readonly [question: string, expected: readonly string[]])[] = [
  ['stock price history', ['historical-price-eod/full', 'historical-price-eod/light']],
  ['historical stock prices', ['historical-price-eod/full', 'historical-price-eod/light']],
  ['end of day prices for AAPL', ['historical-price-eod/full', 'historical-price-eod/light']],
  ['current stock price', ['quote']],
  ['real-time quote', ['quote']],
  ['income statement', ['income-statement']],
  ['financial statements', ['income-statement', 'balance-sheet-statement', 'cash-flow-statement']],
  ['balance sheet', ['balance-sheet-statement']],
  ['cash flow', ['cash-flow-statement']],
  ['company profile', ['profile']],
  ['dividend history', ['dividends']],
  ['stock splits', ['splits']],
  ['earnings calendar', ['earnings-calendar']],
  ['earnings surprises', ['earnings']],
  ['analyst price target', ['price-target-consensus', 'price-target-summary']],
  ['EPS estimates', ['analyst-estimates']],
  ['insider trades', ['insider-trading/latest', 'insider-trading/search']],
  ['congress trading', ['senate-trades', 'house-trades', 'senate-latest', 'house-latest']],
  ['intraday 5 minute bars', ['historical-chart/5min']],
  [
    'intraday prices',
    ['historical-chart/1min', 'historical-chart/5min', 'historical-chart/15min', 'historical-chart/30min'],
  ],
  ['market cap', ['market-capitalization']],
  ['P/E ratio', ['ratios']],
  ['DCF valuation', ['discounted-cash-flow']],
  ['top gainers today', ['biggest-gainers']],
  ['interest rates', ['treasury-rates']],
  ['treasury yields', ['treasury-rates']],
  ['company news', ['news/stock']],
  ['ETF holdings', ['etf/holdings']],
  ['find a company by name', ['search-name']],
  ['ticker lookup', ['search-symbol']],
  ['GDP and inflation', ['economic-indicators']],
  ['moving average', ['technical-indicators/sma', 'technical-indicators/ema']],
  ['earnings call transcript', ['earning-call-transcript']],
  ['S&P 500 constituents', ['sp500-constituent']],
  ['forex exchange rate', ['batch-forex-quotes', 'quote']],
  ['gold price', ['batch-commodity-quotes']],
  ['my api usage', ['api-usage']],
];

describe('search_endpoints', () => {
  it.each(QUESTIONS)('finds the right endpoint among the first three for "%s"', (question, expected) => {
    const found = topThree(question);
    expect(
      found.some((path) => expected.includes(path)),
      `${question}: ${found.join(', ')}`,
    ).toBe(true);
  });

  it('puts the plain endpoint before its variants unless the question names one', () => {
    expect(topThree('income statement')[0]).toBe('income-statement');
    expect(topThree('company profile')[0]).toBe('profile');
    expect(topThree('cash flow statement ttm')[0]).toBe('cash-flow-statement-ttm');
    expect(topThree('bulk income statements')[0]).toBe('income-statement-bulk');
  });

  it('leaves out words no endpoint has, such as a ticker, and forgives small typos', () => {
    expect(topThree('AAPL income statement')[0]).toBe('income-statement');
    expect(topThree('dividens')[0]).toBe('dividends');
  });

  it("says which matches the caller's plan includes", () => {
    const [intraday] = search.search('intraday 5min bars', 1, 0);
    expect(intraday).toMatchObject({
      path: 'historical-chart/5min',
      tier: 'Professional',
      includedInYourPlan: false,
      requiredParameters: ['symbol'],
    });
  });

  it('meets the forms of a word, keeping at least four letters', () => {
    expect(new Set(['history', 'historical'].map(stem)).size).toBe(1);
    expect(new Set(['trade', 'trades', 'trading'].map(stem)).size).toBe(1);
    expect(new Set(['rate', 'rates'].map(stem))).toEqual(new Set(['rate']));
  });
});
