import { z } from 'zod';
import {
  CROWDFUNDING_FIELDS,
  FUNDRAISING_FIELDS,
  latestOfferingRows,
  offeringIssuerRows,
  offeringRowsByCik,
  type OfferingField,
} from '../../services/market-data/offerings.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import {
  extractRows,
  holderAnalyticsRows,
  holderIndustryRows,
  holderPerformanceRows,
  industrySummaryRows,
  latestThirteenFRows,
  thirteenFDateRows,
} from '../../services/market-data/thirteen-f.ts';
import {
  defineEndpoint,
  limitParam,
  pageParam,
  symbolParam,
  type EndpointDefinition,
  type UpdateCadence,
} from '../endpoint.ts';
import { cikParam } from './sec-filings.ts';

/** A calendar year (13F and N-PORT reports are read by calendar quarter). */
export const yearParam = z.coerce
  .number({ error: 'is required and must be a year such as 2024' })
  .int('must be a year such as 2024')
  .min(1900, 'must be a year such as 2024')
  .max(2200, 'must be a year such as 2024')
  .describe('Calendar year');

/** A calendar quarter, 1 to 4. */
export const quarterParam = z.coerce
  .number({ error: 'is required and must be 1, 2, 3 or 4' })
  .int('must be 1, 2, 3 or 4')
  .min(1, 'must be 1, 2, 3 or 4')
  .max(4, 'must be 1, 2, 3 or 4')
  .describe('Calendar quarter (1–4)');

const THIRTEEN_F_CADENCE: UpdateCadence = {
  frequency: 'quarterly',
  when: 'Each quarter, as 13F reports arrive (they are due 45 days after the quarter’s end); values follow the quarter-end closes.',
};

const OFFERING_CADENCE: UpdateCadence = {
  frequency: 'as-published',
  when: 'As Form C and Form D filings are accepted by the SEC, through the day.',
};

const GROUP_13F = 'Form 13F';
const GROUP_OFFERINGS = 'Private offerings';

const num = (description: string): z.ZodNumber => z.number().describe(description);
const str = (description: string): z.ZodString => z.string().describe(description);

const change = (name: string, label: string): Record<string, z.ZodNumber> => ({
  [name]: num(`${label}, this quarter`),
  [`last${name.charAt(0).toUpperCase()}${name.slice(1)}`]: num(`${label}, previous quarter`),
  [`changeIn${name.charAt(0).toUpperCase()}${name.slice(1)}`]: num(`Change of ${label.toLowerCase()}`),
  [`changeIn${name.charAt(0).toUpperCase()}${name.slice(1)}Percentage`]: num(
    `Change of ${label.toLowerCase()}, in percent`,
  ),
});

function offeringRow(fields: readonly OfferingField[]): z.ZodObject<Record<string, z.ZodType>> {
  return z.object(
    Object.fromEntries(
      fields.map((f) => [
        f.name,
        (f.kind === 'boolean' ? z.boolean() : f.kind === 'number' ? z.number() : z.string()).describe(
          f.description,
        ),
      ]),
    ),
  );
}

/** 13F holdings analytics (Professional, as ownership data) and private offerings (Professional, as SEC filings). */
export const ownershipEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'institutional-ownership/latest',
    dataset: 'form-13f',
    group: GROUP_13F,
    summary: 'Latest 13F filings',
    description:
      'The latest quarterly holdings reports (Form 13F-HR) of institutional investment managers, newest filing first.',
    tier: DATA_TIERS.professional,
    params: z.object({ page: pageParam, limit: limitParam(100, 1000) }),
    row: z.object({
      cik: str('CIK of the filer'),
      name: str('Name of the filer'),
      date: str('Quarter end the report covers (YYYY-MM-DD)'),
      filingDate: str('Filing date (YYYY-MM-DD 00:00:00)'),
      acceptedDate: str('When the SEC accepted it (YYYY-MM-DD HH:MM:SS)'),
      formType: str('Form type: 13F-HR'),
      link: str('The report’s page on this site'),
      finalLink: str('The report’s holdings on its page'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: THIRTEEN_F_CADENCE,
    example: 'page=0&limit=100',
    handler: ({ db, params }) => latestThirteenFRows(db, params),
  }),
  defineEndpoint({
    path: 'institutional-ownership/extract',
    dataset: 'form-13f',
    group: GROUP_13F,
    summary: '13F holdings of a filer',
    description:
      'What a filer reported for a quarter: each stock with its shares and its value at the quarter-end close, largest first.',
    tier: DATA_TIERS.professional,
    params: z.object({
      cik: cikParam.meta({ example: '0000810001' }),
      year: yearParam,
      quarter: quarterParam,
    }),
    row: z.object({
      date: str('Quarter end (YYYY-MM-DD)'),
      filingDate: str('Filing date (YYYY-MM-DD)'),
      acceptedDate: str('When the SEC accepted it (YYYY-MM-DD HH:MM:SS)'),
      cik: str('CIK of the filer'),
      securityCusip: str('CUSIP of the security'),
      symbol: str('Ticker symbol'),
      nameOfIssuer: str('Issuer name'),
      shares: num('Shares held'),
      titleOfClass: str('Class of the security: COM for common stock'),
      sharesType: str('SH for shares, PRN for principal'),
      putCallShare: str('Share, Put or Call'),
      value: num('Value at the quarter-end close'),
      link: str('The report’s page on this site'),
      finalLink: str('The report’s holdings on its page'),
    }),
    csv: true,
    maxAge: 86400,
    cadence: THIRTEEN_F_CADENCE,
    example: 'cik=0000810001&year=2026&quarter=2',
    handler: ({ db, params }) => extractRows(db, params.cik, params.year, params.quarter),
  }),
  defineEndpoint({
    path: 'institutional-ownership/dates',
    dataset: 'form-13f',
    group: GROUP_13F,
    summary: '13F report dates of a filer',
    description: 'The quarters a filer reported holdings for, newest first.',
    tier: DATA_TIERS.professional,
    params: z.object({ cik: cikParam.meta({ example: '0000810001' }) }),
    row: z.object({
      date: str('Quarter end (YYYY-MM-DD)'),
      year: num('Calendar year'),
      quarter: num('Calendar quarter (1–4)'),
    }),
    csv: true,
    maxAge: 86400,
    cadence: THIRTEEN_F_CADENCE,
    example: 'cik=0000810001',
    handler: ({ db, params }) => thirteenFDateRows(db, params.cik),
  }),
  defineEndpoint({
    path: 'institutional-ownership/extract-analytics/holder',
    dataset: 'form-13f',
    group: GROUP_13F,
    summary: 'Holders of a stock with analytics',
    description:
      'Every 13F filer’s position in a stock for a quarter against the quarter before: weight in its portfolio, value, shares, ownership of the company, holding period, average price paid and the gain from price; filers who sold out are listed with zero shares. Largest value first.',
    tier: DATA_TIERS.professional,
    params: z.object({
      symbol: symbolParam,
      year: yearParam,
      quarter: quarterParam,
      page: pageParam,
      limit: limitParam(10, 100),
    }),
    row: z.object({
      date: str('Quarter end (YYYY-MM-DD)'),
      cik: str('CIK of the filer'),
      filingDate: str('Filing date of the report (YYYY-MM-DD); empty for a filer who sold out'),
      investorName: str('Name of the filer'),
      symbol: str('Ticker symbol'),
      securityName: str('Issuer name'),
      typeOfSecurity: str('Class of the security: COM for common stock'),
      securityCusip: str('CUSIP of the security'),
      sharesType: str('SH for shares'),
      putCallShare: str('Share, Put or Call'),
      investmentDiscretion: str('SOLE, SHARED or DFND'),
      industryTitle: str('SIC industry title of the issuer'),
      ...change('weight', 'Weight in the filer’s portfolio (percent)'),
      ...change('marketValue', 'Value at the quarter-end close'),
      ...change('sharesNumber', 'Shares held'),
      quarterEndPrice: num('Last close of the quarter'),
      avgPricePaid: num('Average price paid: added shares at their quarter-end closes'),
      isNew: z.boolean().describe('Whether the position was opened this quarter'),
      isSoldOut: z.boolean().describe('Whether the position was closed this quarter'),
      ...change('ownership', 'Percent of the shares outstanding held'),
      holdingPeriod: num('Quarters the position has been held without a break'),
      firstAdded: str('Quarter end when the position was opened (YYYY-MM-DD)'),
      performance: num('Gain from price: last quarter’s shares times the change of the quarter-end close'),
      performancePercentage: num('Performance over last quarter’s value, in percent'),
      lastPerformance: num('Performance in the previous quarter'),
      changeInPerformance: num('Change of performance'),
      isCountedForPerformance: z
        .boolean()
        .describe('Whether the position was held last quarter, so its performance counts'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 86400,
    cadence: THIRTEEN_F_CADENCE,
    example: 'symbol=AAPL&year=2026&quarter=2&page=0&limit=10',
    handler: ({ db, params }) => holderAnalyticsRows(db, params),
  }),
  defineEndpoint({
    path: 'institutional-ownership/holder-performance-summary',
    dataset: 'form-13f',
    group: GROUP_13F,
    summary: 'Performance of a 13F filer',
    description:
      'A filer’s portfolio per quarter, newest first: size, positions added and removed, value, holding periods, turnover, and the gain from price over the quarter, one, three and five years and since its first report (compounded), also against the S&P 500.',
    tier: DATA_TIERS.professional,
    params: z.object({ cik: cikParam.meta({ example: '0000810001' }), page: pageParam }),
    row: z.object({
      date: str('Quarter end (YYYY-MM-DD)'),
      cik: str('CIK of the filer'),
      investorName: str('Name of the filer'),
      portfolioSize: num('Positions held'),
      securitiesAdded: num('Positions opened this quarter'),
      securitiesRemoved: num('Positions closed this quarter'),
      marketValue: num('Portfolio value at the quarter-end closes'),
      previousMarketValue: num('Portfolio value a quarter before'),
      changeInMarketValue: num('Change of the portfolio value'),
      changeInMarketValuePercentage: num('Change of the portfolio value, in percent'),
      averageHoldingPeriod: num('Mean quarters the positions have been held'),
      averageHoldingPeriodTop10: num('Mean quarters the ten largest positions have been held'),
      averageHoldingPeriodTop20: num('Mean quarters the twenty largest positions have been held'),
      turnover: num('The lesser of bought and sold value over the mean portfolio value'),
      turnoverAlternateSell: num('Sold value over the previous portfolio value'),
      turnoverAlternateBuy: num('Bought value over the previous portfolio value'),
      performance: num('Gain from price this quarter'),
      performancePercentage: num('Gain from price over the previous value, in percent'),
      lastPerformance: num('Gain from price the quarter before'),
      changeInPerformance: num('Change of the gain from price'),
      performance1year: num('Gain from price over the last four quarters'),
      performancePercentage1year: num('Compounded quarterly gains of the last four quarters, in percent'),
      performance3year: num('Gain from price over the last twelve quarters (as far as reported)'),
      performancePercentage3year: num('Compounded quarterly gains of the last twelve quarters, in percent'),
      performance5year: num('Gain from price over the last twenty quarters (as far as reported)'),
      performancePercentage5year: num('Compounded quarterly gains of the last twenty quarters, in percent'),
      performanceSinceInception: num('Gain from price since the first report'),
      performanceSinceInceptionPercentage: num(
        'Compounded quarterly gains since the first report, in percent',
      ),
      performanceRelativeToSP500Percentage: num('Quarter’s gain minus the S&P 500’s, in percentage points'),
      performance1yearRelativeToSP500Percentage: num(
        'One-year gain minus the S&P 500’s, in percentage points',
      ),
      performance3yearRelativeToSP500Percentage: num(
        'Three-year gain minus the S&P 500’s, in percentage points',
      ),
      performance5yearRelativeToSP500Percentage: num(
        'Five-year gain minus the S&P 500’s, in percentage points',
      ),
      performanceSinceInceptionRelativeToSP500Percentage: num(
        'Gain since the first report minus the S&P 500’s, in percentage points',
      ),
    }),
    csv: true,
    maxAge: 86400,
    cadence: THIRTEEN_F_CADENCE,
    example: 'cik=0000810001',
    handler: ({ db, params }) => holderPerformanceRows(db, params.cik, params.page),
  }),
  defineEndpoint({
    path: 'institutional-ownership/holder-industry-breakdown',
    dataset: 'form-13f',
    group: GROUP_13F,
    summary: 'Industry breakdown of a 13F filer',
    description:
      'A filer’s portfolio of a quarter split by the SIC industry of the companies: weights against the quarter before and the gain from price, largest weight first.',
    tier: DATA_TIERS.professional,
    params: z.object({
      cik: cikParam.meta({ example: '0000810001' }),
      year: yearParam,
      quarter: quarterParam,
    }),
    row: z.object({
      date: str('Quarter end (YYYY-MM-DD)'),
      cik: str('CIK of the filer'),
      investorName: str('Name of the filer'),
      industryTitle: str('SIC industry title'),
      ...change('weight', 'Weight of the industry in the portfolio (percent)'),
      performance: num('Gain from price of the industry’s positions'),
      performancePercentage: num('Gain from price over the industry’s previous value, in percent'),
      lastPerformance: num('Gain from price the quarter before'),
      changeInPerformance: num('Change of the gain from price'),
    }),
    csv: true,
    maxAge: 86400,
    cadence: THIRTEEN_F_CADENCE,
    example: 'cik=0000810001&year=2026&quarter=2',
    handler: ({ db, params }) => holderIndustryRows(db, params.cik, params.year, params.quarter),
  }),
  defineEndpoint({
    path: 'institutional-ownership/industry-summary',
    dataset: 'form-13f',
    group: GROUP_13F,
    summary: '13F holdings by industry',
    description:
      'What all 13F filers held per SIC industry at a quarter’s end, valued at the quarter-end closes, largest first.',
    tier: DATA_TIERS.professional,
    params: z.object({ year: yearParam, quarter: quarterParam }),
    row: z.object({
      industryTitle: str('SIC industry title'),
      industryValue: num('Value held at the quarter-end closes'),
      date: str('Quarter end (YYYY-MM-DD)'),
    }),
    csv: true,
    maxAge: 86400,
    cadence: THIRTEEN_F_CADENCE,
    example: 'year=2026&quarter=2',
    handler: ({ db, params }) => industrySummaryRows(db, params.year, params.quarter),
  }),
  defineEndpoint({
    path: 'crowdfunding-offerings-latest',
    dataset: 'advanced',
    group: GROUP_OFFERINGS,
    summary: 'Latest crowdfunding offerings',
    description:
      'Offering statements under Regulation Crowdfunding (Form C and amendments) of all issuers, newest filing first: terms, intermediary and the issuer’s last two fiscal years.',
    tier: DATA_TIERS.professional,
    params: z.object({ page: pageParam, limit: limitParam(100, 1000) }),
    row: offeringRow(CROWDFUNDING_FIELDS),
    csv: true,
    maxAge: 3600,
    cadence: OFFERING_CADENCE,
    example: 'page=0&limit=100',
    handler: ({ db, params }) => latestOfferingRows(db, 'C', params),
  }),
  defineEndpoint({
    path: 'crowdfunding-offerings-search',
    dataset: 'advanced',
    group: GROUP_OFFERINGS,
    summary: 'Search crowdfunding issuers',
    description:
      'Issuers of crowdfunding offerings whose name contains the text, with their latest filing date, by name.',
    tier: DATA_TIERS.professional,
    params: z.object({
      name: z
        .string({ error: 'is required' })
        .trim()
        .min(1, 'is required')
        .max(100, 'must be at most 100 characters')
        .describe('Part of the issuer name (any case)')
        .meta({ example: 'Brewing' }),
    }),
    row: z.object({
      cik: str('CIK of the issuer'),
      name: str('Issuer name'),
      date: str('Latest filing date (YYYY-MM-DD 00:00:00)'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: OFFERING_CADENCE,
    example: 'name=a',
    handler: ({ db, params }) => offeringIssuerRows(db, 'C', params.name),
  }),
  defineEndpoint({
    path: 'crowdfunding-offerings',
    dataset: 'advanced',
    group: GROUP_OFFERINGS,
    summary: 'Crowdfunding offerings of an issuer',
    description: 'An issuer’s Form C filings and amendments, newest first.',
    tier: DATA_TIERS.professional,
    params: z.object({ cik: cikParam }),
    row: offeringRow(CROWDFUNDING_FIELDS),
    csv: true,
    maxAge: 3600,
    cadence: OFFERING_CADENCE,
    example: 'cik=0002100163',
    handler: ({ db, params }) => offeringRowsByCik(db, 'C', params.cik),
  }),
  defineEndpoint({
    path: 'fundraising-latest',
    dataset: 'advanced',
    group: GROUP_OFFERINGS,
    summary: 'Latest exempt offerings (Form D)',
    description:
      'Notices of exempt offerings of securities (Form D and amendments) of all issuers, newest filing first: amounts offered and sold, investors, exemptions and a related person.',
    tier: DATA_TIERS.professional,
    params: z.object({ page: pageParam, limit: limitParam(100, 1000) }),
    row: offeringRow(FUNDRAISING_FIELDS),
    csv: true,
    maxAge: 3600,
    cadence: OFFERING_CADENCE,
    example: 'page=0&limit=100',
    handler: ({ db, params }) => latestOfferingRows(db, 'D', params),
  }),
  defineEndpoint({
    path: 'fundraising-search',
    dataset: 'advanced',
    group: GROUP_OFFERINGS,
    summary: 'Search Form D issuers',
    description:
      'Issuers of exempt offerings whose name contains the text, with their latest filing date, by name.',
    tier: DATA_TIERS.professional,
    params: z.object({
      name: z
        .string({ error: 'is required' })
        .trim()
        .min(1, 'is required')
        .max(100, 'must be at most 100 characters')
        .describe('Part of the issuer name (any case)')
        .meta({ example: 'Fund' }),
    }),
    row: z.object({
      cik: str('CIK of the issuer'),
      name: str('Issuer name'),
      date: str('Latest filing date (YYYY-MM-DD 00:00:00)'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: OFFERING_CADENCE,
    example: 'name=a',
    handler: ({ db, params }) => offeringIssuerRows(db, 'D', params.name),
  }),
  defineEndpoint({
    path: 'fundraising',
    dataset: 'advanced',
    group: GROUP_OFFERINGS,
    summary: 'Exempt offerings of an issuer',
    description: 'An issuer’s Form D filings and amendments, newest first.',
    tier: DATA_TIERS.professional,
    params: z.object({ cik: cikParam }),
    row: offeringRow(FUNDRAISING_FIELDS),
    csv: true,
    maxAge: 3600,
    cadence: OFFERING_CADENCE,
    example: 'cik=0002150551',
    handler: ({ db, params }) => offeringRowsByCik(db, 'D', params.cik),
  }),
];
