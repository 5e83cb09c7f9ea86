import { z } from 'zod';
import {
  companyNotesOf,
  compensationBenchmark,
  employeeCountsOf,
  executiveCompensationOf,
  historicalMarketCap,
  latestMergers,
  marketCapitalizations,
  searchMergers,
  sharesFloatOf,
  sharesFloatPage,
} from '../../services/market-data/company-facts.ts';
import { profilesByCik } from '../../services/market-data/company-directory.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { resolveDailyRange } from '../../services/market-data/prices.ts';
import {
  dateParam,
  defineEndpoint,
  FILING_CADENCE,
  limitParam,
  pageParam,
  LIVE_QUOTE_CADENCE,
  SESSION_CLOSE_CADENCE,
  symbolParam,
  symbolsParam,
  type EndpointDefinition,
  type UpdateCadence,
} from '../endpoint.ts';
import { companyEndpoints, PROFILE_CADENCE } from './company.ts';
import { cikParam } from './directory.ts';

const symbolOnly = z.object({ symbol: symbolParam });

/** The profile's row schema, so profile-cik answers exactly what profile answers. */
const profileRow = companyEndpoints.find((endpoint) => endpoint.path === 'profile')?.row;
if (profileRow === undefined) throw new Error('the profile endpoint is not defined');

const marketCapRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  date: z.string().describe('Trading day of the close (YYYY-MM-DD)'),
  marketCap: z.number().describe('Close times shares outstanding, in the trading currency'),
});

const employeeRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  cik: z.string().describe('SEC Central Index Key of the company'),
  acceptanceTime: z.string().describe('When the SEC accepted the report (YYYY-MM-DD HH:mm:ss)'),
  periodOfReport: z.string().describe('Last day of the fiscal year reported (YYYY-MM-DD)'),
  companyName: z.string().describe('Company name'),
  formType: z.string().describe('Form of the report: 10-K'),
  filingDate: z.string().describe('Day the report was filed (YYYY-MM-DD)'),
  employeeCount: z.number().describe('Employees at the end of the fiscal year, as the report states'),
  source: z.string().describe('Link to the report'),
});

const mergerRow = z.object({
  symbol: z.string().describe('Ticker symbol of the acquirer'),
  companyName: z.string().describe('Name of the acquirer'),
  cik: z.string().describe('SEC Central Index Key of the acquirer'),
  targetedCompanyName: z.string().describe('Name of the company acquired'),
  targetedCik: z.string().describe('SEC Central Index Key of the company acquired'),
  targetedSymbol: z
    .string()
    .describe('Ticker the company acquired traded under; empty for private companies'),
  transactionDate: z.string().describe('Day of the transaction (YYYY-MM-DD)'),
  acceptedDate: z.string().describe('When the SEC accepted the filing (YYYY-MM-DD HH:mm:ss)'),
  link: z.string().describe('Link to the filing'),
});

const floatFields = {
  symbol: z.string().describe('Ticker symbol'),
  date: z.string().describe('When the figures were taken (YYYY-MM-DD HH:mm:ss)'),
  freeFloat: z
    .number()
    .describe('Float shares as a percentage of the outstanding shares (85.5 means 85.5 %)'),
  floatShares: z
    .number()
    .describe('Shares the public can trade: outstanding less those insiders and strategic holders keep'),
  outstandingShares: z.number().describe('Shares outstanding'),
};

/** Head counts and pay come with the annual report and the proxy statement. */
const ANNUAL_REPORT_CADENCE: UpdateCadence = {
  frequency: 'yearly',
  when: 'Once a year per company, within a day of its annual report (10-K) or proxy statement being filed.',
};

/** Mergers are filed on any business day. */
const MERGER_CADENCE: UpdateCadence = {
  frequency: 'daily',
  when: 'Once a day: filings the SEC accepted the day before are added before the US session opens.',
};

const MARKET_CAP_CADENCE: UpdateCadence = {
  ...SESSION_CLOSE_CADENCE,
  when: 'After each session’s close, when its daily bar is loaded: the close times the shares outstanding.',
};

/** The current market capitalisation follows the live price of the quote. */
const LIVE_MARKET_CAP_CADENCE: UpdateCadence = {
  ...LIVE_QUOTE_CADENCE,
  when: 'Real time during each market’s session (demo: simulated): the price the quote shows times the shares outstanding; the latest close outside it.',
};

/** Market capitalisation, float, head count, notes, pay and mergers of listed companies. */
export const companyFactEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'profile-cik',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Company profile by CIK',
    description:
      'The profile of each listing filed under a SEC Central Index Key that your plan covers, exactly as the profile endpoint answers it, in ticker order. Leading zeros may be left out. A CIK nobody files under answers [].',
    tier: DATA_TIERS.sample,
    params: z.object({ cik: cikParam }),
    row: profileRow,
    maxAge: 60,
    cadence: PROFILE_CADENCE,
    example: 'cik=320193',
    csv: false,
    // The row schema is the profile's own, typed loosely: rows are copied into plain records for it.
    handler: async ({ db, params, symbols, plan, now }) =>
      (await profilesByCik(db, symbols, params.cik, plan.dataTier, now)).map(
        (row): Record<string, unknown> => ({ ...row }),
      ),
  }),
  defineEndpoint({
    path: 'market-capitalization',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Market capitalisation',
    description:
      'The company’s current market capitalisation: the price the quote shows (live during the session, else the latest close) times the shares outstanding. An unknown symbol answers [].',
    tier: DATA_TIERS.sample,
    params: symbolOnly,
    symbolParam: 'symbol',
    row: marketCapRow,
    maxAge: 60,
    cadence: LIVE_MARKET_CAP_CADENCE,
    example: 'symbol=AAPL',
    csv: true,
    handler: ({ db, params, symbols, now }) => marketCapitalizations(db, symbols, [params.symbol], now),
  }),
  defineEndpoint({
    path: 'market-capitalization-batch',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Market capitalisation of several companies',
    description:
      'Current market capitalisation of each symbol (the price its quote shows times the shares outstanding), in the order asked; unknown symbols and repeats are left out.',
    tier: DATA_TIERS.sample,
    params: z.object({ symbols: symbolsParam }),
    symbolParam: 'symbols',
    row: marketCapRow,
    maxAge: 60,
    cadence: LIVE_MARKET_CAP_CADENCE,
    example: 'symbols=AAPL,MSFT',
    csv: true,
    handler: ({ db, params, symbols, now }) => marketCapitalizations(db, symbols, params.symbols, now),
  }),
  defineEndpoint({
    path: 'historical-market-capitalization',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Historical market capitalisation',
    description:
      'Market capitalisation per trading day: the split-adjusted close (as the daily chart shows it) times today’s shares outstanding, newest first, at most `limit` days. from and to bound the days (inclusive) within your plan’s history, as on the daily charts. An unknown symbol answers [].',
    tier: DATA_TIERS.sample,
    params: z.object({
      symbol: symbolParam,
      from: dateParam
        .optional()
        .describe(
          'First date (YYYY-MM-DD); default five years before "to", limited to the history of your plan',
        )
        .meta({ example: '2025-01-02' }),
      to: dateParam
        .optional()
        .describe('Last date (YYYY-MM-DD); default today')
        .meta({ example: '2025-12-31' }),
      limit: limitParam(100, 5000),
    }),
    symbolParam: 'symbol',
    row: marketCapRow,
    maxAge: 300,
    cadence: MARKET_CAP_CADENCE,
    history: true,
    example: 'symbol=AAPL',
    csv: true,
    handler: async ({ db, params, symbols, plan, now }) => {
      const security = symbols.get(params.symbol);
      if (security === undefined) return [];
      return historicalMarketCap(db, security, resolveDailyRange(params, plan, now), params.limit);
    },
  }),
  defineEndpoint({
    path: 'shares-float',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Shares float',
    description:
      'The shares the public can trade (float) next to the shares outstanding, as last reported, with the float as a percentage of them. A symbol without float figures answers [].',
    tier: DATA_TIERS.fundamentals,
    params: symbolOnly,
    symbolParam: 'symbol',
    row: z.object({
      ...floatFields,
      source: z.string().describe('Link to the filing the figures come from'),
    }),
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'symbol=AAPL',
    csv: true,
    handler: ({ db, params }) => sharesFloatOf(db, params.symbol),
  }),
  defineEndpoint({
    path: 'shares-float-all',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Shares float of every company',
    description:
      'Float and outstanding shares of every company with figures, in ticker order, a page at a time.',
    tier: DATA_TIERS.professional,
    params: z.object({ page: pageParam, limit: limitParam(1000, 5000) }),
    row: z.object(floatFields),
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'page=0&limit=100',
    csv: true,
    handler: ({ db, params }) => sharesFloatPage(db, params.page, params.limit),
  }),
  defineEndpoint({
    path: 'employee-count',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Employee count',
    description:
      'The head count the company’s latest annual report (10-K) states: the profile’s fullTimeEmployees. Companies that file no SEC reports answer [].',
    tier: DATA_TIERS.fundamentals,
    params: symbolOnly,
    symbolParam: 'symbol',
    row: employeeRow,
    maxAge: 3600,
    cadence: ANNUAL_REPORT_CADENCE,
    example: 'symbol=AAPL',
    csv: true,
    handler: ({ db, params }) => employeeCountsOf(db, params.symbol, 1),
  }),
  defineEndpoint({
    path: 'historical-employee-count',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Historical employee count',
    description:
      'The head count of each annual report (10-K) on file, the latest fiscal year first. Companies that file no SEC reports answer [].',
    tier: DATA_TIERS.fundamentals,
    params: z.object({ symbol: symbolParam, limit: limitParam(100, 1000) }),
    symbolParam: 'symbol',
    row: employeeRow,
    maxAge: 3600,
    cadence: ANNUAL_REPORT_CADENCE,
    example: 'symbol=AAPL',
    csv: true,
    handler: ({ db, params }) => employeeCountsOf(db, params.symbol, params.limit),
  }),
  defineEndpoint({
    path: 'company-notes',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Company notes',
    description:
      'The notes (bonds) the company issued that are listed, the soonest maturity first. A company without listed notes answers [].',
    tier: DATA_TIERS.fundamentals,
    params: symbolOnly,
    symbolParam: 'symbol',
    row: z.object({
      cik: z.string().describe('SEC Central Index Key of the issuer'),
      symbol: z.string().describe('Ticker symbol of the issuer'),
      title: z.string().describe('The notes as the indenture names them: coupon and maturity year'),
      exchange: z.string().describe('Short code of the venue the notes are listed on'),
    }),
    maxAge: 86_400,
    cadence: { frequency: 'as-published', when: 'When the company lists new notes or its notes mature.' },
    example: 'symbol=AAPL',
    csv: true,
    handler: ({ db, params }) => companyNotesOf(db, params.symbol),
  }),
  defineEndpoint({
    path: 'governance-executive-compensation',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Executive compensation',
    description:
      'Pay of the named executive officers per fiscal year from the summary compensation table of the proxy statement, the latest year first: salary, bonus, stock and option awards, incentive plan pay and the rest, which add up to the total. The latest year’s total is the pay key-executives shows.',
    tier: DATA_TIERS.professional,
    params: symbolOnly,
    symbolParam: 'symbol',
    row: z.object({
      cik: z.string().describe('SEC Central Index Key of the company'),
      symbol: z.string().describe('Ticker symbol'),
      companyName: z.string().describe('Company name'),
      filingDate: z.string().describe('Day the proxy statement was filed (YYYY-MM-DD)'),
      acceptedDate: z.string().describe('When the SEC accepted it (YYYY-MM-DD HH:mm:ss)'),
      nameAndPosition: z.string().describe('Executive and position, "Name, Title"'),
      year: z.number().describe('Fiscal year paid for'),
      salary: z.number().describe('Base salary'),
      bonus: z.number().describe('Discretionary bonus'),
      stockAward: z.number().describe('Grant-date value of stock awards'),
      optionAward: z.number().describe('Grant-date value of option awards'),
      incentivePlanCompensation: z.number().describe('Non-equity incentive plan pay'),
      allOtherCompensation: z.number().describe('Everything else (perquisites, retirement contributions)'),
      total: z.number().describe('Sum of the components'),
      link: z.string().describe('Link to the proxy statement'),
    }),
    maxAge: 86_400,
    cadence: ANNUAL_REPORT_CADENCE,
    example: 'symbol=AAPL',
    csv: true,
    handler: ({ db, params }) => executiveCompensationOf(db, params.symbol),
  }),
  defineEndpoint({
    path: 'executive-compensation-benchmark',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Executive compensation by industry',
    description:
      'The mean total pay of the named executive officers of each industry, computed from every company’s executive compensation rows of the year, by industry name; every year, the latest first, when no year is given.',
    tier: DATA_TIERS.professional,
    params: z.object({
      year: z.coerce
        .number({ error: 'must be a year such as 2025' })
        .int('must be a year such as 2025')
        .min(1900, 'must be a year such as 2025')
        .max(2200, 'must be a year such as 2025')
        .optional()
        .describe('Fiscal year; every year when left out')
        .meta({ example: 2025 }),
    }),
    row: z.object({
      industryTitle: z.string().describe('Industry'),
      year: z.number().describe('Fiscal year'),
      averageCompensation: z.number().describe('Mean total pay of the industry’s named executives that year'),
    }),
    maxAge: 86_400,
    cadence: ANNUAL_REPORT_CADENCE,
    example: 'year=2025',
    csv: true,
    handler: ({ db, params }) => compensationBenchmark(db, params.year),
  }),
  defineEndpoint({
    path: 'mergers-acquisitions-latest',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Latest mergers and acquisitions',
    description:
      'Merger and acquisition filings of listed acquirers, the latest accepted first, a page at a time; the target’s ticker is empty for private companies.',
    tier: DATA_TIERS.professional,
    params: z.object({ page: pageParam, limit: limitParam(100, 1000) }),
    row: mergerRow,
    maxAge: 3600,
    cadence: MERGER_CADENCE,
    example: 'page=0&limit=100',
    csv: true,
    handler: ({ db, params }) => latestMergers(db, params.page, params.limit),
  }),
  defineEndpoint({
    path: 'mergers-acquisitions-search',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Search mergers and acquisitions',
    description:
      'Merger and acquisition filings whose acquirer or target name contains the text (any case), the latest accepted first.',
    tier: DATA_TIERS.professional,
    params: z.object({
      name: z
        .string({ error: 'is required' })
        .trim()
        .min(2, 'must be at least 2 characters')
        .max(100, 'must be at most 100 characters')
        .describe('Part of the acquirer’s or the target’s name')
        .meta({ example: 'Summit' }),
      limit: limitParam(100, 1000),
    }),
    row: mergerRow,
    maxAge: 3600,
    cadence: MERGER_CADENCE,
    example: 'name=Inc',
    csv: true,
    handler: ({ db, params }) => searchMergers(db, params.name, params.limit),
  }),
];
