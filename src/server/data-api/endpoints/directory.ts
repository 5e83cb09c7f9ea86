import { z } from 'zod';
import {
  activelyTradingList,
  availableCountries,
  availableExchanges,
  availableIndustries,
  availableSectors,
  cikList,
  delistedCompanyList,
  exchangeVariants,
  searchByCik,
  searchByCusip,
  searchByIsin,
  symbolChangeList,
} from '../../services/market-data/company-directory.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { companyScreener } from '../../services/market-data/screener.ts';
import {
  defineEndpoint,
  DIRECTORY_CADENCE,
  limitParam,
  pageParam,
  symbolParam,
  type EndpointDefinition,
} from '../endpoint.ts';

/** Lists change only with new listings: clients may keep them for a day. */
const LIST_MAX_AGE = 86_400;
const noParams = z.object({});

/** A SEC Central Index Key, with or without its leading zeros. */
export const cikParam = z
  .string({ error: 'is required' })
  .trim()
  .regex(/^\d{1,10}$/, 'must be a CIK of up to ten digits such as 320193 or 0000320193')
  .describe('SEC Central Index Key; leading zeros may be left out')
  .meta({ example: '0000320193' });

/** An optional number bound of the screener, named in its 400 message. */
function bound(description: string) {
  return z.coerce
    .number({ error: 'must be a number' })
    .refine(Number.isFinite, 'must be a number')
    .optional()
    .describe(description);
}

/** An optional true/false flag as FMP writes it. */
function flag(description: string) {
  return z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .optional()
    .describe(description);
}

const screenerParams = z.object({
  marketCapMoreThan: bound('Only companies worth more than this (market capitalisation, trading currency)'),
  marketCapLowerThan: bound('Only companies worth less than this (market capitalisation, trading currency)'),
  sector: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(60, 'must be at most 60 characters')
    .optional()
    .describe('Sector, e.g. Technology (any case)'),
  industry: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(80, 'must be at most 80 characters')
    .optional()
    .describe('Industry, e.g. Consumer Electronics (any case)'),
  betaMoreThan: bound('Only securities with a beta above this'),
  betaLowerThan: bound('Only securities with a beta below this'),
  priceMoreThan: bound('Only securities whose latest price is above this'),
  priceLowerThan: bound('Only securities whose latest price is below this'),
  dividendMoreThan: bound('Only securities that paid more than this per share over the last year'),
  dividendLowerThan: bound('Only securities that paid less than this per share over the last year'),
  volumeMoreThan: bound('Only securities that traded more than this many shares on the latest day'),
  volumeLowerThan: bound('Only securities that traded fewer than this many shares on the latest day'),
  exchange: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{1,20}(,[A-Za-z]{1,20})*$/, 'must be exchange codes such as NASDAQ or NASDAQ,NYSE')
    .transform((value) => value.toUpperCase().split(','))
    .optional()
    .describe('Exchange code, or several separated by commas (NASDAQ,NYSE)'),
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code such as US')
    .transform((value) => value.toUpperCase())
    .optional()
    .describe('Country of the company (ISO 3166 alpha-2, e.g. US)'),
  isEtf: flag('true for ETFs only, false to leave them out'),
  isFund: flag('true for mutual funds only, false to leave them out'),
  isActivelyTrading: flag('true for securities still trading only, false for those no longer trading'),
  includeAllShareClasses: flag(
    'true to list every share class of a company (GOOG beside GOOGL); by default one per company',
  ),
  limit: limitParam(1000, 10_000),
});

const screenerRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  companyName: z.string().describe('Company or fund name'),
  marketCap: z.number().describe('Latest price times shares outstanding'),
  sector: z.string().describe('Sector; empty for funds'),
  industry: z.string().describe('Industry'),
  beta: z.number().describe('Sensitivity of the price to the market (1 moves with it)'),
  price: z.number().describe('Latest price: the close of the latest daily bar, split-adjusted'),
  lastAnnualDividend: z.number().describe('Dividends per share with ex-dates in the last 12 months'),
  volume: z.number().describe('Shares traded on the latest trading day'),
  exchange: z.string().describe('Full name of the listing venue'),
  exchangeShortName: z.string().describe('Short code of the listing venue'),
  country: z.string().describe('Country of the company (ISO 3166 alpha-2)'),
  isEtf: z.boolean().describe('True for exchange-traded funds'),
  isFund: z.boolean().describe('True for mutual funds'),
  isActivelyTrading: z.boolean().describe('False once the security no longer trades'),
});

/** Look-ups by filing identifiers, a company's listings, the screener and the directory's lists. */
export const directoryEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'search-cik',
    dataset: 'search-directory',
    group: 'Directory',
    summary: 'Search by CIK',
    description:
      'The listings of the company filing under a SEC Central Index Key, in ticker order. Leading zeros may be left out (320193 finds 0000320193). A CIK nobody files under answers [].',
    tier: DATA_TIERS.sample,
    params: z.object({ cik: cikParam, limit: limitParam(50, 1000) }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      companyName: z.string().describe('Company name'),
      cik: z.string().describe('SEC Central Index Key, ten digits'),
      exchangeFullName: z.string().describe('Full name of the listing venue'),
      exchange: z.string().describe('Short code of the listing venue'),
      currency: z.string().describe('Trading currency (ISO 4217)'),
    }),
    maxAge: 3600,
    cadence: DIRECTORY_CADENCE,
    example: 'cik=320193',
    csv: true,
    handler: ({ db, params, symbols }) => searchByCik(db, symbols, params.cik, params.limit),
  }),
  defineEndpoint({
    path: 'search-cusip',
    dataset: 'search-directory',
    group: 'Directory',
    summary: 'Search by CUSIP',
    description:
      'The security with a CUSIP (nine characters, any case) and its market capitalisation at the latest close. An unknown CUSIP answers [].',
    tier: DATA_TIERS.sample,
    params: z.object({
      cusip: z
        .string({ error: 'is required' })
        .trim()
        .regex(/^[A-Za-z0-9]{9}$/, 'must be a CUSIP of nine letters and digits such as 037833100')
        .describe('CUSIP identifier')
        .meta({ example: '037833100' }),
    }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      companyName: z.string().describe('Company name'),
      cusip: z.string().describe('CUSIP identifier'),
      marketCap: z.number().describe('Latest price times shares outstanding'),
    }),
    maxAge: 3600,
    cadence: DIRECTORY_CADENCE,
    example: 'cusip=037833100',
    csv: true,
    handler: ({ db, params, symbols, now }) => searchByCusip(db, symbols, params.cusip, now),
  }),
  defineEndpoint({
    path: 'search-isin',
    dataset: 'search-directory',
    group: 'Directory',
    summary: 'Search by ISIN',
    description:
      'The securities with an International Securities Identification Number (twelve characters, any case), with their market capitalisation at the latest close. An unknown ISIN answers [].',
    tier: DATA_TIERS.sample,
    params: z.object({
      isin: z
        .string({ error: 'is required' })
        .trim()
        .regex(/^[A-Za-z]{2}[A-Za-z0-9]{9}\d$/, 'must be an ISIN such as US0378331005')
        .describe('International Securities Identification Number')
        .meta({ example: 'US0378331005' }),
    }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      name: z.string().describe('Company name'),
      isin: z.string().describe('International Securities Identification Number'),
      marketCap: z.number().describe('Latest price times shares outstanding'),
    }),
    maxAge: 3600,
    cadence: DIRECTORY_CADENCE,
    example: 'isin=US0378331005',
    csv: true,
    handler: ({ db, params, symbols, now }) => searchByIsin(db, symbols, params.isin, now),
  }),
  defineEndpoint({
    path: 'search-exchange-variants',
    dataset: 'search-directory',
    group: 'Directory',
    summary: 'Listings of a company on every exchange',
    description:
      'Every listing of the symbol’s company (the securities sharing its ISIN) that your plan covers, with its profile in FMP’s older field names (mktCap, volAvg, lastDiv, changes) and the discounted cash flow value per share, where statements allow one, with the price’s distance to it (dcfDiff = price − dcf). An unknown symbol answers [].',
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam }),
    symbolParam: 'symbol',
    row: z.object({
      symbol: z.string().describe('Ticker symbol of the listing'),
      price: z.number().describe('Latest price: the close of the latest daily bar'),
      beta: z.number().describe('Sensitivity of the price to the market (1 moves with it)'),
      volAvg: z.number().describe('Mean daily volume of the last 63 trading days'),
      mktCap: z.number().describe('Price times shares outstanding'),
      lastDiv: z.number().describe('Dividends per share with ex-dates in the last 12 months'),
      range: z.string().describe('52-week price range, "low-high"'),
      changes: z.number().describe('Price minus the previous close'),
      companyName: z.string().describe('Company name'),
      currency: z.string().describe('Trading currency (ISO 4217)'),
      cik: z
        .string()
        .nullable()
        .describe('SEC Central Index Key; null when the company files no SEC reports'),
      isin: z.string().nullable().describe('International Securities Identification Number; null when none'),
      cusip: z.string().nullable().describe('CUSIP identifier; null when none'),
      exchange: z.string().describe('Full name of the listing venue'),
      exchangeShortName: z.string().describe('Short code of the listing venue'),
      industry: z.string().describe('Industry'),
      website: z.string().describe('Company website'),
      description: z.string().describe('What the company does'),
      ceo: z.string().describe('Chief executive officer'),
      sector: z.string().describe('Sector'),
      country: z.string().describe('Country of the headquarters (ISO 3166 alpha-2)'),
      fullTimeEmployees: z
        .string()
        .nullable()
        .describe('Full-time employees, as a string; null when unknown'),
      phone: z.string().describe('Telephone number of the headquarters'),
      address: z.string().describe('Street address of the headquarters'),
      city: z.string().describe('City of the headquarters'),
      state: z.string().describe('State or region of the headquarters'),
      zip: z.string().describe('Postal code of the headquarters'),
      dcfDiff: z.number().nullable().describe('Price minus the DCF value; null without a DCF value'),
      dcf: z
        .number()
        .nullable()
        .describe(
          'Discounted cash flow value per share (see the DCF formula); null without annual statements',
        ),
      image: z.string().describe('URL of the company logo; empty when there is none'),
      ipoDate: z
        .string()
        .nullable()
        .describe('Date of the initial public offering (YYYY-MM-DD); null when unknown'),
      defaultImage: z.boolean().describe('True when no logo of the company is available'),
      isEtf: z.boolean().describe('True for exchange-traded funds'),
      isActivelyTrading: z.boolean().describe('False once the security is delisted'),
      isAdr: z.boolean().describe('True for American depositary receipts'),
      isFund: z.boolean().describe('True for mutual funds'),
    }),
    maxAge: 3600,
    cadence: {
      frequency: 'end-of-day',
      when: 'Prices and the DCF value after each session’s close; listings once a day, with the directory.',
    },
    example: 'symbol=AAPL',
    csv: false,
    handler: ({ db, params, symbols, plan, now }) =>
      exchangeVariants(db, symbols, params.symbol, plan.dataTier, now),
  }),
  defineEndpoint({
    path: 'company-screener',
    dataset: 'search-directory',
    group: 'Directory',
    summary: 'Company screener',
    description:
      'Stocks, ETFs and funds matching every filter given, the largest market capitalisation first. Numeric bounds are exclusive (priceMoreThan=100 leaves out a price of exactly 100); price, volume and market capitalisation are those of the latest daily bar, dividends those with ex-dates in the last 12 months. Only the symbols your plan covers are screened, and one share class per company unless includeAllShareClasses=true.',
    tier: DATA_TIERS.fundamentals,
    params: screenerParams,
    row: screenerRow,
    maxAge: 300,
    cadence: {
      frequency: 'end-of-day',
      when: 'After each session’s close, when its daily bars are loaded; listings once a day, with the directory.',
    },
    example: 'marketCapMoreThan=1000000000&sector=Technology&limit=20',
    csv: true,
    handler: ({ db, params, plan, now }) => companyScreener(db, params, plan.dataTier, now),
  }),
  defineEndpoint({
    path: 'symbol-change',
    dataset: 'search-directory',
    group: 'Directory',
    summary: 'Ticker changes',
    description:
      'Listed companies that changed their ticker, with the old and the new one and the day of the change, the latest first.',
    tier: DATA_TIERS.sample,
    params: z.object({ limit: limitParam(100, 5000) }),
    row: z.object({
      date: z.string().describe('Day the new ticker took effect (YYYY-MM-DD)'),
      companyName: z.string().describe('Company name'),
      oldSymbol: z.string().describe('Ticker before the change'),
      newSymbol: z.string().describe('Ticker after the change'),
    }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: '',
    csv: true,
    handler: ({ db, params }) => symbolChangeList(db, params.limit),
  }),
  defineEndpoint({
    path: 'actively-trading-list',
    dataset: 'search-directory',
    group: 'Directory',
    summary: 'Securities trading today',
    description: 'Every security still trading, of every asset type, with its name, in ticker order.',
    tier: DATA_TIERS.sample,
    params: noParams,
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      name: z.string().describe('Name of the company, fund, coin, pair or index'),
    }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: '',
    csv: true,
    handler: ({ symbols }) => Promise.resolve([...activelyTradingList(symbols)]),
  }),
  defineEndpoint({
    path: 'cik-list',
    dataset: 'search-directory',
    group: 'Directory',
    summary: 'SEC filers',
    description:
      'Every SEC Central Index Key of a listed company, with the company’s name, in CIK order, a page at a time.',
    tier: DATA_TIERS.sample,
    params: z.object({ page: pageParam, limit: limitParam(1000, 10_000) }),
    row: z.object({
      cik: z.string().describe('SEC Central Index Key, ten digits'),
      companyName: z.string().describe('Company name'),
    }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: 'page=0&limit=100',
    csv: true,
    handler: ({ db, params }) => cikList(db, params.page, params.limit),
  }),
  defineEndpoint({
    path: 'delisted-companies',
    dataset: 'search-directory',
    group: 'Directory',
    summary: 'Delisted companies',
    description:
      'Companies no longer listed on a US exchange, with their listing and delisting days, the latest delisting first, a page at a time.',
    tier: DATA_TIERS.sample,
    params: z.object({ page: pageParam, limit: limitParam(100, 100) }),
    row: z.object({
      symbol: z.string().describe('Ticker the company traded under'),
      companyName: z.string().describe('Company name'),
      exchange: z.string().describe('Short code of the venue it left'),
      ipoDate: z.string().describe('Day of the initial public offering (YYYY-MM-DD)'),
      delistedDate: z.string().describe('Last day of the listing (YYYY-MM-DD)'),
    }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: 'page=0&limit=100',
    csv: true,
    handler: ({ db, params }) => delistedCompanyList(db, params.page, params.limit),
  }),
  defineEndpoint({
    path: 'available-exchanges',
    dataset: 'search-directory',
    group: 'Directory',
    summary: 'Exchanges',
    description:
      'Every venue with listed securities, with its full name, country, the suffix its tickers carry (N/A when none) and how late its prices are shown, in code order.',
    tier: DATA_TIERS.sample,
    params: noParams,
    row: z.object({
      exchange: z.string().describe('Short code of the venue'),
      name: z.string().describe('Full name of the venue'),
      countryName: z.string().describe('Country of the venue; empty for markets without one (crypto, forex)'),
      countryCode: z.string().describe('Country code (ISO 3166 alpha-2); empty for markets without one'),
      symbolSuffix: z.string().describe('Suffix of the venue’s tickers, e.g. .L; N/A when they carry none'),
      delay: z.string().describe('How late prices are shown: Real-time, or the exchange’s delay'),
    }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: '',
    csv: true,
    handler: ({ symbols }) => Promise.resolve([...availableExchanges(symbols)]),
  }),
  defineEndpoint({
    path: 'available-sectors',
    dataset: 'search-directory',
    group: 'Directory',
    summary: 'Sectors',
    description:
      'Every sector a listed company is classified in, alphabetically: the values the screener’s sector filter takes.',
    tier: DATA_TIERS.sample,
    params: noParams,
    row: z.object({ sector: z.string().describe('Sector name') }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: '',
    csv: true,
    handler: ({ symbols }) => Promise.resolve([...availableSectors(symbols)]),
  }),
  defineEndpoint({
    path: 'available-industries',
    dataset: 'search-directory',
    group: 'Directory',
    summary: 'Industries',
    description:
      'Every industry a listed company or fund is classified in, alphabetically: the values the screener’s industry filter takes.',
    tier: DATA_TIERS.sample,
    params: noParams,
    row: z.object({ industry: z.string().describe('Industry name') }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: '',
    csv: true,
    handler: ({ symbols }) => Promise.resolve([...availableIndustries(symbols)]),
  }),
  defineEndpoint({
    path: 'available-countries',
    dataset: 'search-directory',
    group: 'Directory',
    summary: 'Countries',
    description:
      'Every country (ISO 3166 alpha-2) a listed company is based in, alphabetically: the values the screener’s country filter takes.',
    tier: DATA_TIERS.sample,
    params: noParams,
    row: z.object({ country: z.string().describe('Country code (ISO 3166 alpha-2)') }),
    maxAge: LIST_MAX_AGE,
    cadence: DIRECTORY_CADENCE,
    example: '',
    csv: true,
    handler: ({ symbols }) => Promise.resolve([...availableCountries(symbols)]),
  }),
];
