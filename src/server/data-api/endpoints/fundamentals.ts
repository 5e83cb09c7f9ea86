import { z } from 'zod';
import {
  discountedCashFlowRows,
  enterpriseValueRows,
  financialScoreRows,
  keyMetricRows,
  ownerEarningRows,
  ratioRows,
} from '../../services/market-data/fundamentals.ts';
import type {
  EnterpriseValueRow,
  FinancialScoresRow,
  KeyMetricsRow,
  OwnerEarningsRow,
  RatiosRow,
} from '../../services/market-data/formulas.ts';
import type { FieldSpec } from '../../services/market-data/statements.ts';
import {
  defineEndpoint,
  FILING_CADENCE,
  limitParam,
  periodParam,
  symbolParam,
  type EndpointDefinition,
  type UpdateCadence,
} from '../endpoint.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { quarterlyTier, rowSchemaOf } from './statements.ts';

const GROUP = 'Financial metrics';
const FORMULAS =
  'Every value is computed from the statements by the formulas documented in the API docs (Formulas).';

/** A field list whose names must be keys of the formula's row type. */
type FieldsOf<T> = readonly (FieldSpec & { name: keyof T & string })[];

/**
 * The schema of a formula's row: built from the documented field list, typed as the formula's row so the
 * handler's answer is checked against it (the contract test checks names and order at run time).
 */
function formulaRowSchema<T extends object>(
  fields: FieldsOf<T>,
): z.ZodObject<{ [K in keyof T]-?: z.ZodType<T[K]> }> {
  return rowSchemaOf(fields) as unknown as z.ZodObject<{ [K in keyof T]-?: z.ZodType<T[K]> }>;
}

function numbers<N extends string>(entries: readonly (readonly [N, string])[]): (FieldSpec & { name: N })[] {
  return entries.map(([name, description]) => ({ name, kind: 'number', description }));
}

function text<N extends string>(name: N, description: string): FieldSpec & { name: N } {
  return { name, kind: 'string', description };
}

const periodHeader = [
  text('symbol', 'Ticker symbol'),
  text('date', 'Period end date (YYYY-MM-DD)'),
  text('fiscalYear', 'Fiscal year the period belongs to, e.g. "2024"'),
  text('period', 'Fiscal period: FY or Q1–Q4'),
  text('reportedCurrency', 'Currency of the statements (ISO 4217)'),
];

const RATIO_FIELDS: FieldsOf<RatiosRow> = [
  ...periodHeader,
  ...numbers([
    ['grossProfitMargin', 'Gross profit / revenue'],
    ['ebitMargin', 'EBIT / revenue'],
    ['ebitdaMargin', 'EBITDA / revenue'],
    ['operatingProfitMargin', 'Operating income / revenue'],
    ['pretaxProfitMargin', 'Income before tax / revenue'],
    ['continuousOperationsProfitMargin', 'Net income from continuing operations / revenue'],
    ['netProfitMargin', 'Net income / revenue'],
    ['bottomLineProfitMargin', 'Bottom-line net income / revenue'],
    ['receivablesTurnover', 'Revenue / net receivables'],
    ['payablesTurnover', 'Cost of revenue / accounts payable'],
    ['inventoryTurnover', 'Cost of revenue / inventory'],
    ['fixedAssetTurnover', 'Revenue / net property, plant and equipment'],
    ['assetTurnover', 'Revenue / total assets'],
    ['currentRatio', 'Total current assets / total current liabilities'],
    ['quickRatio', '(Current assets − inventory) / current liabilities'],
    ['solvencyRatio', '(Net income + depreciation and amortization) / total liabilities'],
    ['cashRatio', 'Cash and cash equivalents / current liabilities'],
    ['priceToEarningsRatio', 'Market capitalisation / net income (P/E)'],
    ['priceToEarningsGrowthRatio', 'P/E / EPS growth in percent (PEG)'],
    ['forwardPriceToEarningsGrowthRatio', 'P/E / expected EPS growth in percent'],
    ['priceToBookRatio', 'Market capitalisation / stockholders’ equity'],
    ['priceToSalesRatio', 'Market capitalisation / revenue'],
    ['priceToFreeCashFlowRatio', 'Market capitalisation / free cash flow'],
    ['priceToOperatingCashFlowRatio', 'Market capitalisation / operating cash flow'],
    ['debtToAssetsRatio', 'Total debt / total assets'],
    ['debtToEquityRatio', 'Total debt / stockholders’ equity'],
    ['debtToCapitalRatio', 'Total debt / (total debt + equity)'],
    ['longTermDebtToCapitalRatio', 'Long-term debt / (long-term debt + equity)'],
    ['financialLeverageRatio', 'Total assets / stockholders’ equity'],
    ['workingCapitalTurnoverRatio', 'Revenue / average working capital'],
    ['operatingCashFlowRatio', 'Operating cash flow / current liabilities'],
    ['operatingCashFlowSalesRatio', 'Operating cash flow / revenue'],
    ['freeCashFlowOperatingCashFlowRatio', 'Free cash flow / operating cash flow'],
    ['debtServiceCoverageRatio', '(EBITDA − income tax) / (short-term debt + interest expense)'],
    ['interestCoverageRatio', 'Operating income / interest expense'],
    ['shortTermOperatingCashFlowCoverageRatio', 'Operating cash flow / short-term debt'],
    ['operatingCashFlowCoverageRatio', 'Operating cash flow / total debt'],
    ['capitalExpenditureCoverageRatio', 'Operating cash flow / capital expenditure'],
    ['dividendPaidAndCapexCoverageRatio', 'Operating cash flow / (capital expenditure + dividends paid)'],
    ['dividendPayoutRatio', 'Dividends paid / net income'],
    ['dividendYield', 'Dividends paid / market capitalisation (fraction)'],
    ['dividendYieldPercentage', 'Dividend yield in percent'],
    ['revenuePerShare', 'Revenue / weighted average shares'],
    ['netIncomePerShare', 'Net income / weighted average shares'],
    ['interestDebtPerShare', '(Interest expense + total debt) / weighted average shares'],
    ['cashPerShare', 'Cash and short-term investments / weighted average shares'],
    ['bookValuePerShare', 'Stockholders’ equity / weighted average shares'],
    ['tangibleBookValuePerShare', '(Equity − goodwill and intangibles) / weighted average shares'],
    ['shareholdersEquityPerShare', 'Stockholders’ equity / weighted average shares'],
    ['operatingCashFlowPerShare', 'Operating cash flow / weighted average shares'],
    ['capexPerShare', 'Capital expenditure / weighted average shares'],
    ['freeCashFlowPerShare', 'Free cash flow / weighted average shares'],
    ['netIncomePerEBT', 'Net income / income before tax'],
    ['ebtPerEbit', 'Income before tax / EBIT'],
    ['priceToFairValue', 'Market capitalisation / book value'],
    ['debtToMarketCap', 'Total debt / market capitalisation'],
    ['effectiveTaxRate', 'Income tax expense / income before tax'],
    ['enterpriseValueMultiple', 'Enterprise value / EBITDA'],
    ['dividendPerShare', 'Cash dividends per share with an ex-date in the period'],
  ]),
];

const KEY_METRIC_FIELDS: FieldsOf<KeyMetricsRow> = [
  ...periodHeader,
  ...numbers([
    ['marketCap', 'Close at the period end × weighted average shares'],
    ['enterpriseValue', 'Market capitalisation + total debt − cash and cash equivalents'],
    ['evToSales', 'Enterprise value / revenue'],
    ['evToOperatingCashFlow', 'Enterprise value / operating cash flow'],
    ['evToFreeCashFlow', 'Enterprise value / free cash flow'],
    ['evToEBITDA', 'Enterprise value / EBITDA'],
    ['netDebtToEBITDA', 'Net debt / EBITDA'],
    ['currentRatio', 'Total current assets / total current liabilities'],
    ['incomeQuality', 'Operating cash flow / net income'],
    ['grahamNumber', '√(22.5 × EPS × book value per share)'],
    ['grahamNetNet', '(Cash + 75 % of receivables + 50 % of inventory − total liabilities) / shares'],
    ['taxBurden', 'Net income / income before tax'],
    ['interestBurden', 'Income before tax / EBIT'],
    ['workingCapital', 'Total current assets − total current liabilities'],
    ['investedCapital', 'Working capital + net property, plant and equipment'],
    ['returnOnAssets', 'Net income / total assets'],
    ['operatingReturnOnAssets', 'Operating income / average total assets'],
    ['returnOnTangibleAssets', 'Net income / (total assets − goodwill and intangibles)'],
    ['returnOnEquity', 'Net income / stockholders’ equity'],
    ['returnOnInvestedCapital', 'Operating income after tax / invested capital'],
    ['returnOnCapitalEmployed', 'Operating income / (total assets − current liabilities)'],
    ['earningsYield', 'Net income / market capitalisation'],
    ['freeCashFlowYield', 'Free cash flow / market capitalisation'],
    ['capexToOperatingCashFlow', 'Capital expenditure / operating cash flow'],
    ['capexToDepreciation', 'Capital expenditure / depreciation and amortization'],
    ['capexToRevenue', 'Capital expenditure / revenue'],
    ['salesGeneralAndAdministrativeToRevenue', 'SG&A expenses / revenue'],
    ['researchAndDevelopementToRevenue', 'Research and development expenses / revenue'],
    ['stockBasedCompensationToRevenue', 'Stock-based compensation / revenue'],
    ['intangiblesToTotalAssets', 'Goodwill and intangible assets / total assets'],
    ['averageReceivables', 'Mean of this and the previous period’s net receivables'],
    ['averagePayables', 'Mean of this and the previous period’s accounts payable'],
    ['averageInventory', 'Mean of this and the previous period’s inventory'],
    ['daysOfSalesOutstanding', 'Net receivables / revenue × days in the period'],
    ['daysOfPayablesOutstanding', 'Accounts payable / cost of revenue × days in the period'],
    ['daysOfInventoryOutstanding', 'Inventory / cost of revenue × days in the period'],
    ['operatingCycle', 'Days of sales outstanding + days of inventory outstanding'],
    ['cashConversionCycle', 'Operating cycle − days of payables outstanding'],
    ['freeCashFlowToEquity', 'Operating cash flow + capital expenditure + net debt issuance'],
    [
      'freeCashFlowToFirm',
      'EBIT after tax + depreciation + capital expenditure − increase in working capital',
    ],
    ['tangibleAssetValue', 'Total assets − goodwill and intangibles − total liabilities'],
    ['netCurrentAssetValue', 'Total current assets − total liabilities'],
  ]),
];

const ENTERPRISE_VALUE_FIELDS: FieldsOf<EnterpriseValueRow> = [
  text('symbol', 'Ticker symbol'),
  text('date', 'Period end date (YYYY-MM-DD)'),
  ...numbers([
    ['stockPrice', 'Close of the last trading day on or before the period end, as traded'],
    ['numberOfShares', 'Weighted average shares outstanding of the period'],
    ['marketCapitalization', 'Stock price × number of shares'],
    ['minusCashAndCashEquivalents', 'Cash and cash equivalents subtracted'],
    ['addTotalDebt', 'Total debt added'],
    ['enterpriseValue', 'Market capitalisation − cash and cash equivalents + total debt'],
  ]),
];

const FINANCIAL_SCORE_FIELDS: FieldsOf<FinancialScoresRow> = [
  text('symbol', 'Ticker symbol'),
  text('reportedCurrency', 'Currency of the statements (ISO 4217)'),
  ...numbers([
    [
      'altmanZScore',
      'Altman Z-score (1968): 1.2·WC/TA + 1.4·RE/TA + 3.3·EBIT/TA + 0.6·MVE/TL + 1.0·Sales/TA',
    ],
    [
      'piotroskiScore',
      'Piotroski F-score, 0–9: one point per passed test of profitability, leverage and efficiency',
    ],
    ['workingCapital', 'Total current assets − total current liabilities (latest fiscal year)'],
    ['totalAssets', 'Total assets (latest fiscal year)'],
    ['retainedEarnings', 'Retained earnings (latest fiscal year)'],
    ['ebit', 'Earnings before interest and taxes (latest fiscal year)'],
    ['marketCap', 'Latest close × shares outstanding'],
    ['totalLiabilities', 'Total liabilities (latest fiscal year)'],
    ['revenue', 'Revenue (latest fiscal year)'],
  ]),
];

const OWNER_EARNINGS_FIELDS: FieldsOf<OwnerEarningsRow> = [
  text('symbol', 'Ticker symbol'),
  text('reportedCurrency', 'Currency of the statements (ISO 4217)'),
  text('fiscalYear', 'Fiscal year, e.g. "2024"'),
  text('period', 'Fiscal period (FY)'),
  text('date', 'Period end date (YYYY-MM-DD)'),
  ...numbers([
    [
      'averagePPE',
      'Net property, plant and equipment per unit of revenue, averaged over this and the prior year',
    ],
    ['maintenanceCapex', 'Capital expenditure needed to keep the business as it is (negative)'],
    ['ownersEarnings', 'Operating cash flow + maintenance capex'],
    ['growthCapex', 'Capital expenditure that financed revenue growth (negative)'],
    ['ownersEarningsPerShare', 'Owner earnings / weighted average shares'],
  ]),
];

const dcfRow = (model: string) =>
  z.object({
    symbol: z.string().describe('Ticker symbol'),
    date: z.string().describe('Valuation date: the date of the latest close (YYYY-MM-DD)'),
    dcf: z.number().describe(`Equity value per share by the ${model}`),
    'Stock Price': z.number().describe('Latest close, as traded'),
  });

/** Valued at the latest close as well as from the statements: both move these figures. */
const VALUED_DAILY: UpdateCadence = {
  frequency: 'end-of-day',
  when: 'After each US session’s close (the latest price, market capitalisation and Treasury yield they use), and with each new annual report.',
};

const periodParams = z.object({ symbol: symbolParam, period: periodParam, limit: limitParam(5, 100) });

/**
 * Figures computed on request from the statements and prices, never stored, so they follow any import.
 * They are open wherever the annual statements are (every plan, for the symbols it reads); quarterly
 * rows need Professional.
 */
export const fundamentalEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'key-metrics',
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: 'Key metrics',
    description: `Valuation, return, efficiency and cash-flow metrics per reported period, newest first, valued at the close of each period end. ${FORMULAS} Quarterly rows need the Professional plan.`,
    tier: DATA_TIERS.sample,
    params: periodParams,
    row: formulaRowSchema<KeyMetricsRow>(KEY_METRIC_FIELDS),
    symbolParam: 'symbol',
    tierFor: quarterlyTier('quarterly metrics'),
    csv: true,
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'symbol=AAPL&period=annual&limit=5',
    handler: ({ db, params }) => keyMetricRows(db, params.symbol, params.period, params.limit),
  }),
  defineEndpoint({
    path: 'ratios',
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: 'Financial ratios',
    description: `Margins, turnover, liquidity, leverage, coverage, valuation and per-share ratios per reported period, newest first, valued at the close of each period end. ${FORMULAS} Quarterly rows need the Professional plan.`,
    tier: DATA_TIERS.sample,
    params: periodParams,
    row: formulaRowSchema<RatiosRow>(RATIO_FIELDS),
    symbolParam: 'symbol',
    tierFor: quarterlyTier('quarterly ratios'),
    csv: true,
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'symbol=AAPL&period=annual&limit=5',
    handler: ({ db, params }) => ratioRows(db, params.symbol, params.period, params.limit),
  }),
  defineEndpoint({
    path: 'financial-scores',
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: 'Financial scores',
    description: `The Altman Z-score and the Piotroski F-score of the latest fiscal year, with the inputs of the Z-score; the market capitalisation is today’s. ${FORMULAS}`,
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam }),
    row: formulaRowSchema<FinancialScoresRow>(FINANCIAL_SCORE_FIELDS),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: VALUED_DAILY,
    example: 'symbol=AAPL',
    handler: ({ db, params, symbols, now }) => financialScoreRows(db, symbols, params.symbol, now),
  }),
  defineEndpoint({
    path: 'owner-earnings',
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: 'Owner earnings',
    description: `Buffett’s owner earnings per fiscal year, newest first: operating cash flow less the capital expenditure that maintains the business (estimated by the revenue-growth method). ${FORMULAS}`,
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam, limit: limitParam(5, 100) }),
    row: formulaRowSchema<OwnerEarningsRow>(OWNER_EARNINGS_FIELDS),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'yearly',
      when: 'Once a year per company, when the annual report (10-K or its equivalent) is filed.',
    },
    example: 'symbol=AAPL',
    handler: ({ db, params }) => ownerEarningRows(db, params.symbol, params.limit),
  }),
  defineEndpoint({
    path: 'enterprise-values',
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: 'Enterprise values',
    description: `Enterprise value at each period end, newest first: the close of that day times the period’s weighted average shares, less cash, plus debt. ${FORMULAS} Quarterly rows need the Professional plan.`,
    tier: DATA_TIERS.sample,
    params: periodParams,
    row: formulaRowSchema<EnterpriseValueRow>(ENTERPRISE_VALUE_FIELDS),
    symbolParam: 'symbol',
    tierFor: quarterlyTier('quarterly enterprise values'),
    csv: true,
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'symbol=AAPL&period=annual&limit=5',
    handler: ({ db, params }) => enterpriseValueRows(db, params.symbol, params.period, params.limit),
  }),
  defineEndpoint({
    path: 'discounted-cash-flow',
    dataset: 'advanced',
    group: GROUP,
    summary: 'Discounted cash flow',
    description: `Intrinsic value per share by an unlevered DCF: free cash flow to the firm projected five years at the recent revenue growth, discounted at the WACC (CAPM cost of equity from the 10-year Treasury yield and the beta, after-tax cost of debt), with a Gordon terminal value, less net debt. ${FORMULAS}`,
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam }),
    row: dcfRow('unlevered discounted cash flow model'),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: VALUED_DAILY,
    example: 'symbol=AAPL',
    handler: ({ db, params, symbols, now }) =>
      discountedCashFlowRows(db, symbols, params.symbol, now, 'unlevered'),
  }),
  defineEndpoint({
    path: 'levered-discounted-cash-flow',
    dataset: 'advanced',
    group: GROUP,
    summary: 'Levered discounted cash flow',
    description: `Intrinsic value per share by a levered DCF: free cash flow to equity projected five years and discounted at the CAPM cost of equity, with a Gordon terminal value. ${FORMULAS}`,
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam }),
    row: dcfRow('levered discounted cash flow model'),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: VALUED_DAILY,
    example: 'symbol=AAPL',
    handler: ({ db, params, symbols, now }) =>
      discountedCashFlowRows(db, symbols, params.symbol, now, 'levered'),
  }),
];
