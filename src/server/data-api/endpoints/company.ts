import { z } from 'zod';
import { companyExecutives, profiles, stockPeers } from '../../services/market-data/company.ts';
import {
  defineEndpoint,
  SESSION_CLOSE_CADENCE,
  symbolParam,
  type EndpointDefinition,
  type UpdateCadence,
} from '../endpoint.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';

/**
 * A profile carries the live price of its quote, kept for a minute, beside company facts that change at most
 * once a day.
 */
export const PROFILE_CADENCE: UpdateCadence = {
  frequency: 'intraday',
  when: 'Price, change, volume and ranges those of the live quote during each market’s session (demo: simulated), refreshed at most once a minute, and the latest close outside it; company facts (officers, address, description, identifiers) once a day, when they have changed.',
};

export const companyEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'profile',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Company profile',
    description:
      'Company facts with the latest price: identifiers, listing, sector and industry, contact details, the trailing year’s dividends per share and the 52-week range. Coins, pairs and indexes answer with empty company fields. An unknown symbol answers [].',
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam }),
    symbolParam: 'symbol',
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      price: z
        .number()
        .describe(
          "Latest price: during the market's session the live price (demo: simulated around the stored bars), else the close of the latest daily bar",
        ),
      marketCap: z.number().describe('Price times shares outstanding; 0 where shares mean nothing'),
      beta: z.number().describe('Sensitivity of the price to the market (1 moves with it)'),
      lastDividend: z
        .number()
        .describe('Dividends per share with ex-dates in the last 12 months, split-adjusted'),
      range: z.string().describe('52-week price range, "low-high"'),
      change: z.number().describe('Price minus the previous close'),
      changePercentage: z.number().describe('Change from the previous close, in percent'),
      volume: z.number().describe('Volume of the latest trading day'),
      averageVolume: z
        .number()
        .describe('Mean daily volume of the last 63 trading days (about three months)'),
      companyName: z.string().describe('Company (or fund, coin, pair, index) name'),
      currency: z.string().describe('Trading currency (ISO 4217)'),
      cik: z
        .string()
        .nullable()
        .describe('SEC Central Index Key; null when the company files no SEC reports'),
      isin: z.string().nullable().describe('International Securities Identification Number; null when none'),
      cusip: z.string().nullable().describe('CUSIP identifier; null when none'),
      exchangeFullName: z.string().describe('Full name of the listing venue'),
      exchange: z.string().describe('Short code of the listing venue'),
      industry: z.string().describe('Industry'),
      website: z.string().describe('Company website'),
      description: z.string().describe('What the company does'),
      ceo: z.string().describe('Chief executive officer'),
      sector: z.string().describe('Sector (GICS-style)'),
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
    maxAge: 60,
    cadence: PROFILE_CADENCE,
    example: 'symbol=AAPL',
    csv: false,
    handler: ({ db, params, symbols, now }) => profiles(db, symbols, [params.symbol], now),
  }),
  defineEndpoint({
    path: 'key-executives',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Key executives',
    description:
      'The company’s officers in the order it lists them, with their pay where disclosed (null otherwise). An unknown symbol answers [].',
    tier: DATA_TIERS.fundamentals,
    params: z.object({ symbol: symbolParam }),
    symbolParam: 'symbol',
    row: z.object({
      title: z.string().describe('Position held'),
      name: z.string().describe('Full name'),
      pay: z.number().nullable().describe('Yearly pay; null when not disclosed'),
      currencyPay: z.string().describe('Currency of the pay (ISO 4217)'),
      gender: z.string().describe('Gender as disclosed (male, female) or empty'),
      yearBorn: z.number().nullable().describe('Year of birth; null when not disclosed'),
      active: z.boolean().describe('Whether the person still holds the position'),
    }),
    maxAge: 3600,
    cadence: {
      frequency: 'as-published',
      when: 'As companies disclose a change of officers or of their pay (annual proxy statements and other filings).',
    },
    example: 'symbol=AAPL',
    csv: true,
    handler: ({ db, params, symbols }) => {
      const security = symbols.get(params.symbol);
      return security === undefined ? Promise.resolve([]) : companyExecutives(db, security.symbol);
    },
  }),
  defineEndpoint({
    path: 'stock-peers',
    dataset: 'company-profile',
    group: 'Company',
    summary: 'Stock peers',
    description:
      'Up to ten comparable stocks: same sector and trading currency, those of the same industry first, each group by closeness of market capitalisation; the company itself is never listed. Non-stocks and unknown symbols answer [].',
    tier: DATA_TIERS.sample,
    params: z.object({ symbol: symbolParam }),
    symbolParam: 'symbol',
    row: z.object({
      symbol: z.string().describe('Ticker symbol of the peer'),
      companyName: z.string().describe('Company name of the peer'),
      price: z.number().describe('Latest close of the peer (end of day: the quote moves during the session)'),
      mktCap: z.number().describe('Market capitalisation of the peer: price times shares outstanding'),
    }),
    maxAge: 3600,
    cadence: {
      ...SESSION_CLOSE_CADENCE,
      when: 'After each session’s close: peers are ordered by the market capitalisation of the latest close.',
    },
    example: 'symbol=AAPL',
    csv: true,
    handler: ({ db, params, symbols, now }) => stockPeers(db, symbols, params.symbol, now),
  }),
];
