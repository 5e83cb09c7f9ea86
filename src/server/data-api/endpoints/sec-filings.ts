import { z } from 'zod';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import {
  allClassifiedCompanies,
  classifiedCompanies,
  companiesByCik,
  companiesByName,
  companiesBySymbol,
  filingRows,
  filingRowsWithFinancials,
  secProfileRows,
  sicListRows,
} from '../../services/market-data/sec-filings.ts';
import {
  dateParam,
  defineEndpoint,
  limitParam,
  pageParam,
  symbolParam,
  type EndpointDefinition,
  type UpdateCadence,
} from '../endpoint.ts';

/** A CIK: up to ten digits, leading zeros optional (320193 and 0000320193 are the same filer). */
export const cikParam = z
  .string({ error: 'is required' })
  .trim()
  .regex(/^\d{1,10}$/, 'must be a CIK of up to ten digits such as 0000320193')
  .describe('SEC Central Index Key, leading zeros optional')
  .meta({ example: '0000320193' });

const fromParam = dateParam.optional().describe('Earliest filing date (YYYY-MM-DD)');
const toParam = dateParam.optional().describe('Latest filing date (YYYY-MM-DD)');

const filingFields = {
  symbol: z.string().describe('Ticker symbol of the company; empty for filers without one'),
  cik: z.string().describe('SEC Central Index Key of the filer (ten digits)'),
  filingDate: z.string().describe('Date the filing was made (YYYY-MM-DD 00:00:00)'),
  acceptedDate: z.string().describe('When the SEC accepted the filing (YYYY-MM-DD HH:MM:SS, New York time)'),
  formType: z.string().describe('SEC form type: 10-K, 10-Q, 8-K, 4, 13F-HR, NPORT-P, SC 13G/A, S-1, C, D, …'),
};
const linkFields = {
  link: z.string().describe('The filing’s page on this site'),
  finalLink: z.string().describe('The filing’s main document on its page'),
};
const filingRow = z.object({ ...filingFields, ...linkFields });
const filingRowWithFinancials = z.object({
  ...filingFields,
  hasFinancials: z.boolean().describe('Whether the filing carries financial statements'),
  ...linkFields,
});

const companyRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  name: z.string().describe('Registrant name'),
  cik: z.string().describe('SEC Central Index Key (ten digits)'),
  sicCode: z.string().describe('Standard Industrial Classification code'),
  industryTitle: z.string().describe('The SEC’s title of the SIC code'),
  businessAddress: z.string().describe('Business address as registered'),
  phoneNumber: z.string().describe('Business phone number'),
});

/** Filings are indexed within minutes of their acceptance by the SEC. */
const FILINGS_CADENCE: UpdateCadence = {
  frequency: 'as-published',
  when: 'As filings are accepted by the SEC, through the day (EDGAR accepts filings 06:00–22:00 New York time).',
};

const REGISTRANT_CADENCE: UpdateCadence = {
  frequency: 'daily',
  when: 'Once a day, as the SEC’s registrant data (names, addresses, SIC codes) is taken in.',
};

const GROUP = 'SEC filings';

/** SEC filings and the SEC's registrant data: Professional, as the plan catalogue sells "SEC filings" there. */
export const secFilingEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'sec-filings-8k',
    dataset: 'advanced',
    group: GROUP,
    summary: 'Latest 8-K filings',
    description:
      'Current reports (Form 8-K) of all companies, newest first: earnings releases, shareholder votes, changes of directors and officers. from and to narrow them to filing dates.',
    tier: DATA_TIERS.professional,
    params: z.object({ from: fromParam, to: toParam, page: pageParam, limit: limitParam(100, 1000) }),
    row: filingRowWithFinancials,
    csv: true,
    maxAge: 900,
    cadence: FILINGS_CADENCE,
    example: 'from=2026-10-01&to=2026-11-20&page=0&limit=100',
    handler: ({ db, params }) => filingRowsWithFinancials(db, { ...params, currentReports: true }),
  }),
  defineEndpoint({
    path: 'sec-filings-financials',
    dataset: 'advanced',
    group: GROUP,
    summary: 'Latest filings with financial statements',
    description:
      'Filings that carry financial statements (10-K, 10-Q, the 8-K of an earnings release, S-1, Form C) of all filers, newest first.',
    tier: DATA_TIERS.professional,
    params: z.object({ from: fromParam, to: toParam, page: pageParam, limit: limitParam(100, 1000) }),
    row: filingRowWithFinancials,
    csv: true,
    maxAge: 900,
    cadence: FILINGS_CADENCE,
    example: 'from=2026-10-01&to=2026-11-20&page=0&limit=100',
    handler: ({ db, params }) => filingRowsWithFinancials(db, { ...params, withFinancials: true }),
  }),
  defineEndpoint({
    path: 'sec-filings-search/form-type',
    dataset: 'advanced',
    group: GROUP,
    summary: 'Filings by form type',
    description:
      'Filings of one form type (10-K, 10-Q, 8-K, 4, 13F-HR, NPORT-P, SC 13G/A, S-1, C, D, …) of all filers, newest first.',
    tier: DATA_TIERS.professional,
    params: z.object({
      formType: z
        .string({ error: 'is required' })
        .trim()
        .min(1, 'is required')
        .max(20, 'must be at most 20 characters')
        .describe('SEC form type, e.g. 10-K')
        .meta({ example: '10-K' }),
      from: fromParam,
      to: toParam,
      page: pageParam,
      limit: limitParam(100, 1000),
    }),
    row: filingRow,
    csv: true,
    maxAge: 900,
    cadence: FILINGS_CADENCE,
    example: 'formType=10-K&from=2026-01-01&to=2026-11-20&page=0&limit=100',
    handler: ({ db, params }) => filingRows(db, params),
  }),
  defineEndpoint({
    path: 'sec-filings-search/symbol',
    dataset: 'advanced',
    group: GROUP,
    summary: 'Filings of a company by symbol',
    description:
      'Every filing of one company (its reports, current reports, insiders’ Form 4s, Schedule 13G filings about it) or of one fund (its quarterly NPORT-P holdings reports), newest first.',
    tier: DATA_TIERS.professional,
    params: z.object({
      symbol: symbolParam,
      from: fromParam,
      to: toParam,
      page: pageParam,
      limit: limitParam(100, 1000),
    }),
    row: filingRow,
    symbolParam: 'symbol',
    csv: true,
    maxAge: 900,
    cadence: FILINGS_CADENCE,
    example: 'symbol=AAPL&from=2026-01-01&to=2026-11-20&page=0&limit=100',
    handler: ({ db, params }) => filingRows(db, params),
  }),
  defineEndpoint({
    path: 'sec-filings-search/cik',
    dataset: 'advanced',
    group: GROUP,
    summary: 'Filings by CIK',
    description:
      'Every filing of one filer, a company or an institution, by its Central Index Key, newest first.',
    tier: DATA_TIERS.professional,
    params: z.object({
      cik: cikParam,
      from: fromParam,
      to: toParam,
      page: pageParam,
      limit: limitParam(100, 1000),
    }),
    row: filingRow,
    csv: true,
    maxAge: 900,
    cadence: FILINGS_CADENCE,
    example: 'cik=0000320193&from=2026-01-01&to=2026-11-20&page=0&limit=100',
    handler: ({ db, params }) => filingRows(db, params),
  }),
  defineEndpoint({
    path: 'sec-filings-company-search/name',
    dataset: 'advanced',
    group: GROUP,
    summary: 'SEC registrants by name',
    description:
      'Companies filing with the SEC whose name contains the text (any case), with their SIC code and business address, by symbol.',
    tier: DATA_TIERS.professional,
    params: z.object({
      company: z
        .string({ error: 'is required' })
        .trim()
        .min(1, 'is required')
        .max(100, 'must be at most 100 characters')
        .describe('Part of the company name')
        .meta({ example: 'Apple' }),
    }),
    row: companyRow,
    csv: true,
    maxAge: 86400,
    cadence: REGISTRANT_CADENCE,
    example: 'company=Apple',
    handler: ({ db, params }) => companiesByName(db, params.company),
  }),
  defineEndpoint({
    path: 'sec-filings-company-search/symbol',
    dataset: 'advanced',
    group: GROUP,
    summary: 'SEC registrant by symbol',
    description:
      'The company behind a ticker as the SEC registers it: CIK, SIC code, business address and phone.',
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam }),
    row: companyRow,
    symbolParam: 'symbol',
    csv: true,
    maxAge: 86400,
    cadence: REGISTRANT_CADENCE,
    example: 'symbol=AAPL',
    handler: ({ db, params }) => companiesBySymbol(db, params.symbol),
  }),
  defineEndpoint({
    path: 'sec-filings-company-search/cik',
    dataset: 'advanced',
    group: GROUP,
    summary: 'SEC registrant by CIK',
    description:
      'The company with a Central Index Key as the SEC registers it: ticker, SIC code, business address and phone.',
    tier: DATA_TIERS.professional,
    params: z.object({ cik: cikParam }),
    row: companyRow,
    csv: true,
    maxAge: 86400,
    cadence: REGISTRANT_CADENCE,
    example: 'cik=0000320193',
    handler: ({ db, params }) => companiesByCik(db, params.cik),
  }),
  defineEndpoint({
    path: 'sec-profile',
    dataset: 'advanced',
    group: GROUP,
    summary: 'SEC company profile',
    description:
      'A company’s full registration: CIK, SIC code and group, addresses, state of incorporation, fiscal year end (from its annual statements), IPO date, employees, the 52-week price range and identifiers.',
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      cik: z.string().describe('SEC Central Index Key (ten digits)'),
      registrantName: z.string().describe('Registrant name'),
      sicCode: z.string().describe('Standard Industrial Classification code'),
      sicDescription: z.string().describe('The SEC’s title of the SIC code'),
      sicGroup: z.string().describe('Division of the SIC code, e.g. Manufacturing'),
      isin: z.string().describe('ISIN of the common stock'),
      businessAddress: z.string().describe('Business address'),
      mailingAddress: z.string().describe('Mailing address'),
      phoneNumber: z.string().describe('Business phone number'),
      postalCode: z.string().describe('Postal code of the business address'),
      city: z.string().describe('City of the business address'),
      state: z.string().describe('State of the business address'),
      country: z.string().describe('Country of the business address'),
      description: z.string().describe('Business description'),
      ceo: z.string().describe('Chief executive officer'),
      website: z.string().describe('Company website'),
      exchange: z.string().describe('Exchange the stock is listed on'),
      stateLocation: z.string().describe('State where the company is located'),
      stateOfIncorporation: z.string().describe('State of incorporation'),
      fiscalYearEnd: z.string().describe('Fiscal year end (MM-DD), from the latest annual statements'),
      ipoDate: z.string().describe('IPO date (YYYY-MM-DD), empty when unknown'),
      employees: z.string().describe('Full-time employees'),
      secFilingsUrl: z.string().describe('The company’s page on this site'),
      taxIdentificationNumber: z.string().describe('IRS employer identification number'),
      fiftyTwoWeekRange: z.string().describe('Lowest and highest price of the last 52 weeks, "low - high"'),
      isActive: z.boolean().describe('Whether the stock is actively traded'),
      assetType: z.string().describe('Asset type: stock'),
      openFigiComposite: z.string().describe('Composite FIGI'),
      priceCurrency: z.string().describe('Trading currency'),
      marketSector: z.string().describe('Market sector: Equity'),
      securityType: z.string().nullable().describe('Security type, e.g. Common Stock'),
      isEtf: z.boolean().describe('Whether it is an ETF'),
      isAdr: z.boolean().describe('Whether it is an American depositary receipt'),
      isFund: z.boolean().describe('Whether it is a fund'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 86400,
    cadence: REGISTRANT_CADENCE,
    example: 'symbol=AAPL',
    handler: ({ db, params }) => secProfileRows(db, params.symbol),
  }),
  defineEndpoint({
    path: 'standard-industrial-classification-list',
    dataset: 'advanced',
    group: GROUP,
    summary: 'SIC codes',
    description:
      'The Standard Industrial Classification codes companies file under, with the SEC office that reviews each, by code; industryTitle and sicCode narrow the list.',
    tier: DATA_TIERS.professional,
    params: z.object({
      industryTitle: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .optional()
        .describe('Part of the industry title (any case)'),
      sicCode: z
        .string()
        .trim()
        .regex(/^\d{1,4}$/, 'must be up to four digits such as 7372')
        .optional()
        .describe('SIC code or its leading digits'),
    }),
    row: z.object({
      office: z.string().describe('SEC office reviewing the industry'),
      sicCode: z.string().describe('Standard Industrial Classification code'),
      industryTitle: z.string().describe('The SEC’s title of the code'),
    }),
    csv: true,
    maxAge: 86400,
    cadence: REGISTRANT_CADENCE,
    example: '',
    handler: ({ params }) => Promise.resolve(sicListRows(params)),
  }),
  defineEndpoint({
    path: 'industry-classification-search',
    dataset: 'advanced',
    group: GROUP,
    summary: 'Companies by SIC code, symbol or CIK',
    description:
      'Companies with their SIC classification, found by any of symbol, CIK and SIC code (all given must match), by symbol.',
    tier: DATA_TIERS.professional,
    params: z.object({
      symbol: symbolParam.optional().describe('Ticker symbol'),
      cik: cikParam.optional().describe('SEC Central Index Key, leading zeros optional'),
      sicCode: z
        .string()
        .trim()
        .regex(/^\d{4}$/, 'must be four digits such as 7372')
        .optional()
        .describe('SIC code'),
    }),
    row: companyRow,
    csv: true,
    maxAge: 86400,
    cadence: REGISTRANT_CADENCE,
    example: 'sicCode=3571',
    handler: ({ db, params }) => classifiedCompanies(db, params),
  }),
  defineEndpoint({
    path: 'all-industry-classification',
    dataset: 'advanced',
    group: GROUP,
    summary: 'All companies with their SIC codes',
    description:
      'Every company filing with the SEC with its SIC classification, by symbol, a page at a time.',
    tier: DATA_TIERS.professional,
    params: z.object({ page: pageParam, limit: limitParam(100, 1000) }),
    row: companyRow,
    csv: true,
    maxAge: 86400,
    cadence: REGISTRANT_CADENCE,
    example: 'page=0&limit=100',
    handler: ({ db, params }) => allClassifiedCompanies(db, params),
  }),
];
