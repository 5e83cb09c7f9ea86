import { z } from 'zod';
import { customDcf, customDcfRows, customLeveredDcfRows } from '../../services/market-data/custom-dcf.ts';
import { marketRiskPremiumRows } from '../../services/market-data/risk-premium.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { defineEndpoint, symbolParam, type EndpointDefinition, type UpdateCadence } from '../endpoint.ts';

const GROUP = 'Valuation';

function rate(min: number, max: number, text: string) {
  return z.coerce
    .number({ error: 'must be a number' })
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`)
    .optional()
    .describe(text);
}

/** The client's assumptions, FMP's names and units; each left out takes the stored data's value. */
const assumptionParams = {
  revenueGrowthPct: rate(
    -1,
    10,
    'Yearly revenue growth, a fraction (0.08 = 8 %); the recent mean growth by default',
  ),
  ebitdaPct: rate(-10, 10, 'EBITDA over revenue, a fraction; the latest fiscal year’s by default'),
  depreciationAndAmortizationPct: rate(-10, 10, 'Depreciation and amortisation over revenue, a fraction'),
  cashAndShortTermInvestmentsPct: rate(-10, 10, 'Cash and short-term investments over revenue, a fraction'),
  receivablesPct: rate(-10, 10, 'Receivables over revenue, a fraction'),
  inventoriesPct: rate(-10, 10, 'Inventories over revenue, a fraction'),
  payablePct: rate(-10, 10, 'Payables over revenue, a fraction'),
  ebitPct: rate(-10, 10, 'EBIT over revenue, a fraction'),
  capitalExpenditurePct: rate(
    -10,
    10,
    'Capital expenditure (its size) over revenue, a fraction; moves the cash flow',
  ),
  operatingCashFlowPct: rate(-10, 10, 'Operating cash flow over revenue, a fraction; moves the cash flow'),
  taxRate: rate(0, 1, 'Tax rate, a fraction; the latest effective rate by default'),
  longTermGrowthRate: rate(-10, 20, 'Growth after the projection years, in percent (2.5 = 2.5 %)'),
  costOfDebt: rate(0, 100, 'Pre-tax cost of debt, in percent; interest over debt by default'),
  costOfEquity: rate(
    0,
    100,
    'Cost of equity, in percent; CAPM’s (risk-free rate + beta × premium) by default',
  ),
  marketRiskPremium: rate(0, 50, 'Market (equity) risk premium, in percent; 4.72 by default'),
  beta: rate(-5, 10, 'Beta of the stock; the company profile’s by default'),
  riskFreeRate: rate(-5, 50, 'Risk-free rate, in percent; the 10-year Treasury yield by default'),
};

const money = (text: string) => z.number().describe(text);

const capitalFields = {
  price: money('Latest close, as traded'),
  beta: money('Beta used'),
  dilutedSharesOutstanding: money('Shares the value is divided by'),
  costofDebt: money('Pre-tax cost of debt, in percent'),
  taxRate: money('Tax rate, in percent'),
  afterTaxCostOfDebt: money('Cost of debt after tax, in percent'),
  riskFreeRate: money('Risk-free rate, in percent'),
  marketRiskPremium: money('Market risk premium, in percent'),
  costOfEquity: money('Cost of equity, in percent'),
  totalDebt: money('Total debt'),
  totalEquity: money('Market value of the equity (price × shares)'),
  totalCapital: money('Total debt plus the market value of the equity'),
  debtWeighting: money('Debt’s share of the capital, in percent'),
  equityWeighting: money('Equity’s share of the capital, in percent'),
  wacc: money('Discount rate used, in percent: the WACC (unlevered) or the cost of equity (levered)'),
};

/** FMP's custom-discounted-cash-flow row. */
const customDcfRow = z.object({
  year: z.string().describe('Projected fiscal year'),
  symbol: z.string().describe('Ticker symbol'),
  revenue: money('Projected revenue'),
  revenuePercentage: money('Revenue growth, in percent'),
  ebitda: money('Projected EBITDA'),
  ebitdaPercentage: money('EBITDA over revenue, in percent'),
  ebit: money('Projected EBIT'),
  ebitPercentage: money('EBIT over revenue, in percent'),
  depreciation: money('Projected depreciation and amortisation'),
  depreciationPercentage: money('Depreciation over revenue, in percent'),
  totalCash: money('Projected cash and short-term investments'),
  totalCashPercentage: money('Cash over revenue, in percent'),
  receivables: money('Projected receivables'),
  receivablesPercentage: money('Receivables over revenue, in percent'),
  inventories: money('Projected inventories'),
  inventoriesPercentage: money('Inventories over revenue, in percent'),
  payable: money('Projected payables'),
  payablePercentage: money('Payables over revenue, in percent'),
  capitalExpenditure: money('Projected capital expenditure (negative)'),
  capitalExpenditurePercentage: money('Capital expenditure over revenue, in percent'),
  ...capitalFields,
  taxRateCash: money('Tax rate applied to EBIT, in percent'),
  ebiat: money('EBIT after tax'),
  ufcf: money('Unlevered free cash flow of the year'),
  sumPvUfcf: money('Present value of the projected cash flows'),
  longTermGrowthRate: money('Growth after the projection, in percent'),
  terminalValue: money('Terminal value at the end of the projection'),
  presentTerminalValue: money('Present value of the terminal value'),
  enterpriseValue: money('Value of operations'),
  netDebt: money('Debt less cash'),
  equityValue: money('Enterprise value less net debt'),
  equityValuePerShare: money('Equity value per share'),
  freeCashFlowT1: money('Cash flow of the first year after the projection'),
});

/** FMP's custom-levered-discounted-cash-flow row. */
const customLeveredDcfRow = z.object({
  year: z.string().describe('Projected fiscal year'),
  symbol: z.string().describe('Ticker symbol'),
  revenue: money('Projected revenue'),
  revenuePercentage: money('Revenue growth, in percent'),
  capitalExpenditure: money('Projected capital expenditure (negative)'),
  capitalExpenditurePercentage: money('Capital expenditure over revenue, in percent'),
  ...capitalFields,
  operatingCashFlow: money('Projected operating cash flow'),
  pvLfcf: money('Present value of the year’s levered free cash flow'),
  sumPvLfcf: money('Present value of the projected cash flows'),
  longTermGrowthRate: money('Growth after the projection, in percent'),
  freeCashFlow: money('Levered free cash flow of the year'),
  terminalValue: money('Terminal value at the end of the projection'),
  presentTerminalValue: money('Present value of the terminal value'),
  enterpriseValue: money('Equity value plus net debt'),
  netDebt: money('Debt less cash'),
  equityValue: money('Present value of the cash flows to equity'),
  equityValuePerShare: money('Equity value per share'),
  freeCashFlowT1: money('Cash flow of the first year after the projection'),
  operatingCashFlowPercentage: money('Operating cash flow over revenue, in percent'),
});

const CUSTOM_CADENCE: UpdateCadence = {
  frequency: 'end-of-day',
  when: 'After each US session’s close (the latest price and Treasury yield), and with each new annual report.',
};

const MODEL_NOTE =
  'Revenue grows at revenueGrowthPct; each year’s cash flow is its revenue times the cash margin (operating cash flow, less capital expenditure, as shares of revenue), discounted and given a Gordon terminal value as on the discounted-cash-flow endpoints. Every assumption left out takes the stored data’s value, so without any the value per share is the discounted-cash-flow endpoint’s. One row per projected year; the valuation is repeated on each.';

/** Valuations with the client's assumptions, and the market risk premium per country. */
export const valuationEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'custom-discounted-cash-flow',
    dataset: 'advanced',
    group: GROUP,
    summary: 'Custom discounted cash flow',
    description: `An unlevered DCF of a symbol with your own assumptions (growth, margins, tax, rates, beta): free cash flow to the firm, discounted at the WACC, less net debt. After-tax interest is part of the cash flow, so a tax rate moves it too. ${MODEL_NOTE}`,
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam, ...assumptionParams }),
    row: customDcfRow,
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: CUSTOM_CADENCE,
    example: 'symbol=AAPL',
    handler: async ({ db, params, symbols, now }) => {
      const { symbol, ...assumptions } = params;
      const model = await customDcf(db, symbols, symbol, now, 'unlevered', assumptions);
      return model === undefined ? [] : (customDcfRows(model) as z.infer<typeof customDcfRow>[]);
    },
  }),
  defineEndpoint({
    path: 'custom-levered-discounted-cash-flow',
    dataset: 'advanced',
    group: GROUP,
    summary: 'Custom levered discounted cash flow',
    description: `A levered DCF of a symbol with your own assumptions: free cash flow to equity (with the year’s net borrowing), discounted at the cost of equity. ${MODEL_NOTE}`,
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam, ...assumptionParams }),
    row: customLeveredDcfRow,
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: CUSTOM_CADENCE,
    example: 'symbol=AAPL',
    handler: async ({ db, params, symbols, now }) => {
      const { symbol, ...assumptions } = params;
      const model = await customDcf(db, symbols, symbol, now, 'levered', assumptions);
      return model === undefined
        ? []
        : (customLeveredDcfRows(model) as z.infer<typeof customLeveredDcfRow>[]);
    },
  }),
  defineEndpoint({
    path: 'market-risk-premium',
    dataset: 'economics',
    group: GROUP,
    summary: 'Market risk premium',
    description:
      'The equity risk premium of each country, by country: the country risk premium (a default spread for the country’s sovereign rating, scaled by the volatility of equities against bonds) added to the mature-market premium of 4.72 % the DCF models use. Approximate demo figures in the manner of Damodaran’s country risk tables.',
    tier: DATA_TIERS.sample,
    params: z.object({}),
    row: z.object({
      country: z.string().describe('Country'),
      continent: z.string().describe('Continent'),
      countryRiskPremium: z.number().describe('Premium for the country’s risk, in percent'),
      totalEquityRiskPremium: z
        .number()
        .describe('Mature-market premium plus the country risk premium, in percent'),
    }),
    csv: true,
    maxAge: 86400,
    cadence: { frequency: 'yearly', when: 'Once a year, in January, when the country premiums are revised.' },
    example: '',
    handler: () => Promise.resolve(marketRiskPremiumRows()),
  }),
];
