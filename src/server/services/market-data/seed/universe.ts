import type { AssetType } from '../../../db/market-schema.ts';
import { dayOf, fromDay, toDay, type TradingCalendar } from './calendar.ts';
import { NAME_PREFIXES } from './names.ts';
import { createRandom, round, type Random } from './random.ts';
import { SECTORS, type SectorProfile } from './sectors.ts';

/**
 * The demo data set's list of instruments and the character of each (how its price moves, whether it pays
 * dividends, how its business looks). Everything here is decided by the seed alone, never by the "as of" date,
 * so that regenerating later only appends data.
 */

export type Scale = 'full' | 'test';

/** core: 30 years of prices and 10 years of statements; large: statements for 5 years; tail: prices only. */
export type Tier = 'core' | 'large' | 'tail';

/** The date at which every price path passes through its anchor (the "current" price of the demo world). */
export const ANCHOR_DATE = '2026-11-20';
/** First day of the long price histories. */
export const PRICE_EPOCH = '1996-01-02';
/** First generated day of the shorter histories (they are cut to about a year when written). */
export const TAIL_EPOCH = '2024-06-03';

export const ANCHOR_DAY = toDay(ANCHOR_DATE);
export const PRICE_EPOCH_DAY = toDay(PRICE_EPOCH);
export const TAIL_EPOCH_DAY = toDay(TAIL_EPOCH);

/** Symbols every demo data set holds, with their real names, so examples and documentation work. */
export const FAMILIAR_SYMBOLS = [
  'AAPL',
  'MSFT',
  'AMZN',
  'TSLA',
  'NVDA',
  'GOOGL',
  'META',
  'JPM',
  'V',
  'JNJ',
  'XOM',
  'WMT',
  'SPY',
  'QQQ',
  'BTCUSD',
  'ETHUSD',
  'EURUSD',
  'GBPUSD',
  'USDJPY',
  'GCUSD',
  'CLUSD',
  '^GSPC',
  '^DJI',
  '^IXIC',
] as const;

export interface SplitEvent {
  day: number;
  numerator: number;
  denominator: number;
}

export interface DividendPolicy {
  /** Target yearly yield when the payout is reset. */
  yield: number;
  /** First ex-dividend date considered. */
  startDay: number;
  frequency: 'Quarterly' | 'Monthly';
  /** Month (1–3) of the first quarterly ex-date in a year. */
  firstMonth: number;
  /** Day of month around which ex-dates fall. */
  dayOfMonth: number;
}

export interface FundamentalsSpec {
  fiscalYearEndMonth: number;
  /** Yearly revenue at the anchor date, in the reporting currency. */
  revenue: number;
  /** Yearly revenue growth (log) before the anchor. */
  growth: number;
  grossMargin: number;
  netMargin: number;
  researchRatio: number;
  capexRatio: number;
  inventoryDays: number;
  taxRate: number;
  /** Yearly change of the share count (negative: buybacks). */
  shareChange: number;
  /** First fiscal year generated (statements are cut to the scale's count when written). */
  firstFiscalYear: number;
  /** Whether revenue is seasonal with a strong holiday quarter. */
  seasonal: boolean;
}

/** Facts about familiar companies that a generator would get wrong. */
export interface CompanyFacts {
  ceo: string;
  website: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  cik: string;
  isin: string;
  employees: number;
}

export type PriceModel = 'gbm' | 'volatility-index' | 'yield-index';

export interface SecuritySpec {
  symbol: string;
  name: string;
  assetType: AssetType;
  exchange: string;
  exchangeFullName: string;
  currency: string;
  country: string;
  sector: string;
  industry: string;
  sharesOutstanding: number | null;
  sample: boolean;
  details: Record<string, string | number | null>;
  familiar: boolean;
  tier: Tier;
  calendar: TradingCalendar;
  /** First generated trading day. */
  startDay: number;
  /** (day, price) points the path passes through, in anchor-date share terms; the last is at ANCHOR_DAY. */
  knots: readonly (readonly [number, number])[];
  /** Yearly idiosyncratic volatility. */
  vol: number;
  /** Loading on the common factor. */
  beta: number;
  factor: 'equity' | 'crypto' | 'none';
  model: PriceModel;
  /** For yield indexes: the treasury maturity they follow. */
  yieldMaturity?: 'month3' | 'year5' | 'year10' | 'year30';
  /** Real splits (familiar symbols); others get generated splits at splitRate per day. */
  fixedSplits: readonly SplitEvent[] | null;
  splitRate: number;
  dividend: DividendPolicy | null;
  fundamentals: FundamentalsSpec | null;
  ipoDate: string | null;
  /** Average daily volume at the anchor date, in shares (or contracts, coins, index units). */
  volume: number;
  /** Market capitalisation at the anchor date, in the trading currency. */
  marketCap: number | null;
  facts: CompanyFacts | null;
}

interface ExchangeInfo {
  code: string;
  fullName: string;
  currency: string;
  country: string;
  suffix: string;
  count: number;
  /** Largest company's market cap, USD. */
  topCap: number;
  capExponent: number;
  medianPrice: number;
  priceDecimals: number;
  sectorTilt: Partial<Record<string, number>>;
}

/** US dollars per unit of each trading currency, for sizing companies consistently. */
export const USD_PER_UNIT: Readonly<Record<string, number>> = {
  USD: 1,
  GBP: 1.27,
  EUR: 1.08,
  CAD: 0.72,
  JPY: 0.0065,
  HKD: 0.128,
};

const EXCHANGES: readonly ExchangeInfo[] = [
  {
    code: 'NASDAQ',
    fullName: 'NASDAQ Global Select',
    currency: 'USD',
    country: 'US',
    suffix: '',
    count: 1950,
    topCap: 5e11,
    capExponent: 1.05,
    medianPrice: 35,
    priceDecimals: 2,
    sectorTilt: { Technology: 1.8, Healthcare: 1.8, Utilities: 0.3, 'Real Estate': 0.5, Energy: 0.5 },
  },
  {
    code: 'NYSE',
    fullName: 'New York Stock Exchange',
    currency: 'USD',
    country: 'US',
    suffix: '',
    count: 1450,
    topCap: 6e11,
    capExponent: 1.0,
    medianPrice: 55,
    priceDecimals: 2,
    sectorTilt: {
      'Financial Services': 1.4,
      Industrials: 1.3,
      Energy: 1.3,
      'Real Estate': 1.5,
      Utilities: 2,
      Technology: 0.7,
    },
  },
  {
    code: 'AMEX',
    fullName: 'New York Stock Exchange Arca',
    currency: 'USD',
    country: 'US',
    suffix: '',
    count: 220,
    topCap: 5e9,
    capExponent: 0.9,
    medianPrice: 12,
    priceDecimals: 2,
    sectorTilt: { Energy: 2, 'Basic Materials': 2.5, Technology: 0.5 },
  },
  {
    code: 'LSE',
    fullName: 'London Stock Exchange',
    currency: 'GBP',
    country: 'GB',
    suffix: '.L',
    count: 200,
    topCap: 1.5e11,
    capExponent: 1.1,
    medianPrice: 9,
    priceDecimals: 2,
    sectorTilt: { 'Financial Services': 1.5, 'Basic Materials': 1.5, Energy: 1.3 },
  },
  {
    code: 'XETRA',
    fullName: 'Deutsche Börse Xetra',
    currency: 'EUR',
    country: 'DE',
    suffix: '.DE',
    count: 120,
    topCap: 1.5e11,
    capExponent: 1.1,
    medianPrice: 60,
    priceDecimals: 2,
    sectorTilt: { Industrials: 1.6, 'Consumer Cyclical': 1.4 },
  },
  {
    code: 'TSX',
    fullName: 'Toronto Stock Exchange',
    currency: 'CAD',
    country: 'CA',
    suffix: '.TO',
    count: 160,
    topCap: 1.2e11,
    capExponent: 1.1,
    medianPrice: 30,
    priceDecimals: 2,
    sectorTilt: { 'Basic Materials': 3, Energy: 3, 'Financial Services': 1.5, Technology: 0.6 },
  },
  {
    code: 'JPX',
    fullName: 'Japan Exchange',
    currency: 'JPY',
    country: 'JP',
    suffix: '.T',
    count: 180,
    topCap: 2e11,
    capExponent: 1.1,
    medianPrice: 2500,
    priceDecimals: 1,
    sectorTilt: { Industrials: 1.6, 'Consumer Cyclical': 1.5, Technology: 1.2 },
  },
  {
    code: 'HKSE',
    fullName: 'Hong Kong Stock Exchange',
    currency: 'HKD',
    country: 'HK',
    suffix: '.HK',
    count: 130,
    topCap: 2e11,
    capExponent: 1.1,
    medianPrice: 25,
    priceDecimals: 2,
    sectorTilt: { 'Real Estate': 2.5, 'Financial Services': 1.5, 'Communication Services': 1.5 },
  },
  {
    code: 'EURONEXT',
    fullName: 'Euronext Paris',
    currency: 'EUR',
    country: 'FR',
    suffix: '.PA',
    count: 140,
    topCap: 2e11,
    capExponent: 1.1,
    medianPrice: 50,
    priceDecimals: 2,
    sectorTilt: { 'Consumer Cyclical': 1.5, Industrials: 1.3, 'Consumer Defensive': 1.4 },
  },
];

const CORPORATE_SUFFIX: Readonly<Record<string, readonly string[]>> = {
  US: ['Inc.', 'Corporation', 'Holdings, Inc.', 'Group, Inc.', 'Co.', 'Inc.', 'Corp.'],
  GB: ['plc', 'Group plc', 'Holdings plc'],
  DE: ['AG', 'SE', 'Group AG'],
  CA: ['Inc.', 'Corporation', 'Ltd.'],
  JP: ['Co., Ltd.', 'Corporation', 'Holdings, Inc.'],
  HK: ['Limited', 'Holdings Limited', 'Group Limited'],
  FR: ['SA', 'SE', 'Groupe SA'],
};

interface FamiliarStock {
  symbol: string;
  name: string;
  exchange: 'NASDAQ' | 'NYSE';
  sector: string;
  industry: string;
  fyEnd: number;
  ipo: string;
  shares: number;
  knots: readonly (readonly [string, number])[];
  vol: number;
  beta: number;
  splits: readonly (readonly [string, number, number])[];
  dividend: { yield: number; start: string; firstMonth: number; dayOfMonth: number } | null;
  revenue: number;
  growth: number;
  grossMargin: number;
  netMargin: number;
  research: number;
  capex: number;
  inventoryDays: number;
  shareChange: number;
  seasonal: boolean;
  facts: CompanyFacts;
}

const FAMILIAR_STOCKS: readonly FamiliarStock[] = [
  {
    symbol: 'AAPL',
    name: 'Apple Inc.',
    exchange: 'NASDAQ',
    sector: 'Technology',
    industry: 'Consumer Electronics',
    fyEnd: 9,
    ipo: '1980-12-12',
    shares: 15.1e9,
    vol: 0.26,
    beta: 1.2,
    knots: [
      ['1996-01-02', 0.29],
      ['1997-12-23', 0.12],
      ['2000-03-22', 1.2],
      ['2003-04-17', 0.23],
      ['2007-12-27', 7.0],
      ['2009-01-20', 2.9],
      ['2012-09-19', 25],
      ['2015-05-22', 32],
      ['2016-05-12', 22],
      ['2018-10-03', 55],
      ['2019-01-03', 35],
      ['2020-03-23', 55],
      ['2022-01-03', 180],
      ['2023-01-05', 125],
      ['2024-12-26', 258],
    ],
    splits: [
      ['2000-06-21', 2, 1],
      ['2005-02-28', 2, 1],
      ['2014-06-09', 7, 1],
      ['2020-08-31', 4, 1],
    ],
    dividend: { yield: 0.0045, start: '2012-08-09', firstMonth: 2, dayOfMonth: 9 },
    revenue: 4.1e11,
    growth: 0.07,
    grossMargin: 0.46,
    netMargin: 0.25,
    research: 0.08,
    capex: 0.025,
    inventoryDays: 10,
    shareChange: -0.03,
    seasonal: true,
    facts: {
      ceo: 'Timothy D. Cook',
      website: 'https://www.apple.com',
      phone: '(408) 996-1010',
      address: 'One Apple Park Way',
      city: 'Cupertino',
      state: 'CA',
      zip: '95014',
      cik: '0000320193',
      isin: 'US0378331005',
      employees: 164000,
    },
  },
  {
    symbol: 'MSFT',
    name: 'Microsoft Corporation',
    exchange: 'NASDAQ',
    sector: 'Technology',
    industry: 'Software - Infrastructure',
    fyEnd: 6,
    ipo: '1986-03-13',
    shares: 7.43e9,
    vol: 0.2,
    beta: 1.1,
    knots: [
      ['1996-01-02', 5.5],
      ['1999-12-27', 58],
      ['2002-07-23', 21],
      ['2009-03-09', 15],
      ['2014-01-02', 37],
      ['2018-10-01', 115],
      ['2020-03-16', 135],
      ['2021-11-19', 343],
      ['2022-11-03', 214],
      ['2024-07-05', 467],
    ],
    splits: [
      ['1996-12-09', 2, 1],
      ['1998-02-23', 2, 1],
      ['1999-03-29', 2, 1],
      ['2003-02-18', 2, 1],
    ],
    dividend: { yield: 0.008, start: '2003-02-19', firstMonth: 2, dayOfMonth: 15 },
    revenue: 2.9e11,
    growth: 0.1,
    grossMargin: 0.69,
    netMargin: 0.36,
    research: 0.12,
    capex: 0.15,
    inventoryDays: 8,
    shareChange: -0.01,
    seasonal: false,
    facts: {
      ceo: 'Satya Nadella',
      website: 'https://www.microsoft.com',
      phone: '(425) 882-8080',
      address: 'One Microsoft Way',
      city: 'Redmond',
      state: 'WA',
      zip: '98052-6399',
      cik: '0000789019',
      isin: 'US5949181045',
      employees: 228000,
    },
  },
  {
    symbol: 'AMZN',
    name: 'Amazon.com, Inc.',
    exchange: 'NASDAQ',
    sector: 'Consumer Cyclical',
    industry: 'Specialty Retail',
    fyEnd: 12,
    ipo: '1997-05-15',
    shares: 10.6e9,
    vol: 0.3,
    beta: 1.3,
    knots: [
      ['1997-05-15', 0.075],
      ['1999-12-09', 5.6],
      ['2001-09-28', 0.3],
      ['2007-12-10', 4.7],
      ['2008-11-20', 1.7],
      ['2015-01-02', 15],
      ['2018-09-04', 100],
      ['2018-12-24', 67],
      ['2020-07-10', 160],
      ['2021-07-08', 187],
      ['2022-12-28', 83],
      ['2024-12-16', 232],
    ],
    splits: [
      ['1998-06-02', 2, 1],
      ['1999-01-05', 3, 1],
      ['1999-09-02', 2, 1],
      ['2022-06-06', 20, 1],
    ],
    dividend: null,
    revenue: 6.6e11,
    growth: 0.17,
    grossMargin: 0.49,
    netMargin: 0.09,
    research: 0.14,
    capex: 0.12,
    inventoryDays: 40,
    shareChange: 0.01,
    seasonal: true,
    facts: {
      ceo: 'Andrew R. Jassy',
      website: 'https://www.amazon.com',
      phone: '(206) 266-1000',
      address: '410 Terry Avenue North',
      city: 'Seattle',
      state: 'WA',
      zip: '98109-5210',
      cik: '0001018724',
      isin: 'US0231351067',
      employees: 1556000,
    },
  },
  {
    symbol: 'TSLA',
    name: 'Tesla, Inc.',
    exchange: 'NASDAQ',
    sector: 'Consumer Cyclical',
    industry: 'Auto - Manufacturers',
    fyEnd: 12,
    ipo: '2010-06-29',
    shares: 3.22e9,
    vol: 0.5,
    beta: 1.8,
    knots: [
      ['2010-06-29', 1.59],
      ['2013-09-30', 12.9],
      ['2016-02-10', 9.6],
      ['2019-06-03', 11.9],
      ['2020-12-31', 235],
      ['2021-11-04', 409],
      ['2023-01-03', 108],
      ['2024-12-17', 479],
    ],
    splits: [
      ['2020-08-31', 5, 1],
      ['2022-08-25', 3, 1],
    ],
    dividend: null,
    revenue: 1.0e11,
    growth: 0.35,
    grossMargin: 0.18,
    netMargin: 0.07,
    research: 0.05,
    capex: 0.1,
    inventoryDays: 60,
    shareChange: 0.01,
    seasonal: false,
    facts: {
      ceo: 'Elon R. Musk',
      website: 'https://www.tesla.com',
      phone: '(512) 516-8177',
      address: '1 Tesla Road',
      city: 'Austin',
      state: 'TX',
      zip: '78725',
      cik: '0001318605',
      isin: 'US88160R1014',
      employees: 125665,
    },
  },
  {
    symbol: 'NVDA',
    name: 'NVIDIA Corporation',
    exchange: 'NASDAQ',
    sector: 'Technology',
    industry: 'Semiconductors',
    fyEnd: 1,
    ipo: '1999-01-22',
    shares: 24.4e9,
    vol: 0.42,
    beta: 1.7,
    knots: [
      ['1999-01-22', 0.035],
      ['2002-01-02', 0.9],
      ['2002-10-08', 0.07],
      ['2007-10-31', 0.9],
      ['2008-11-20', 0.15],
      ['2015-01-02', 0.5],
      ['2018-10-01', 7.2],
      ['2018-12-24', 3.2],
      ['2021-11-29', 33],
      ['2022-10-13', 11],
      ['2024-06-18', 135],
      ['2025-01-06', 149],
    ],
    splits: [
      ['2000-06-27', 2, 1],
      ['2001-09-12', 2, 1],
      ['2006-04-07', 2, 1],
      ['2007-09-11', 3, 2],
      ['2021-07-20', 4, 1],
      ['2024-06-10', 10, 1],
    ],
    dividend: { yield: 0.0003, start: '2012-11-20', firstMonth: 3, dayOfMonth: 5 },
    revenue: 1.6e11,
    growth: 0.3,
    grossMargin: 0.74,
    netMargin: 0.53,
    research: 0.1,
    capex: 0.02,
    inventoryDays: 90,
    shareChange: -0.005,
    seasonal: false,
    facts: {
      ceo: 'Jensen Huang',
      website: 'https://www.nvidia.com',
      phone: '(408) 486-2000',
      address: '2788 San Tomas Expressway',
      city: 'Santa Clara',
      state: 'CA',
      zip: '95051',
      cik: '0001045810',
      isin: 'US67066G1040',
      employees: 36000,
    },
  },
  {
    symbol: 'GOOGL',
    name: 'Alphabet Inc.',
    exchange: 'NASDAQ',
    sector: 'Communication Services',
    industry: 'Internet Content & Information',
    fyEnd: 12,
    ipo: '2004-08-19',
    shares: 12.2e9,
    vol: 0.24,
    beta: 1.05,
    knots: [
      ['2004-08-19', 2.5],
      ['2007-11-06', 18.6],
      ['2008-11-21', 6.6],
      ['2014-02-26', 30.5],
      ['2018-07-26', 64],
      ['2020-03-23', 53],
      ['2021-11-18', 149],
      ['2022-11-03', 83],
      ['2024-07-10', 191],
    ],
    splits: [
      ['2014-04-03', 2002, 1000],
      ['2022-07-18', 20, 1],
    ],
    dividend: { yield: 0.0045, start: '2024-06-10', firstMonth: 3, dayOfMonth: 10 },
    revenue: 3.7e11,
    growth: 0.16,
    grossMargin: 0.58,
    netMargin: 0.29,
    research: 0.14,
    capex: 0.14,
    inventoryDays: 0,
    shareChange: -0.02,
    seasonal: false,
    facts: {
      ceo: 'Sundar Pichai',
      website: 'https://abc.xyz',
      phone: '(650) 253-0000',
      address: '1600 Amphitheatre Parkway',
      city: 'Mountain View',
      state: 'CA',
      zip: '94043',
      cik: '0001652044',
      isin: 'US02079K3059',
      employees: 183323,
    },
  },
  {
    symbol: 'META',
    name: 'Meta Platforms, Inc.',
    exchange: 'NASDAQ',
    sector: 'Communication Services',
    industry: 'Internet Content & Information',
    fyEnd: 12,
    ipo: '2012-05-18',
    shares: 2.52e9,
    vol: 0.34,
    beta: 1.25,
    knots: [
      ['2012-05-18', 38.2],
      ['2012-09-04', 17.7],
      ['2018-07-25', 217],
      ['2018-12-24', 124],
      ['2021-09-07', 382],
      ['2022-11-03', 89],
      ['2024-10-04', 595],
    ],
    splits: [],
    dividend: { yield: 0.0035, start: '2024-02-21', firstMonth: 3, dayOfMonth: 14 },
    revenue: 1.8e11,
    growth: 0.22,
    grossMargin: 0.81,
    netMargin: 0.37,
    research: 0.26,
    capex: 0.2,
    inventoryDays: 0,
    shareChange: -0.015,
    seasonal: true,
    facts: {
      ceo: 'Mark Elliot Zuckerberg',
      website: 'https://investor.atmeta.com',
      phone: '(650) 543-4800',
      address: '1 Meta Way',
      city: 'Menlo Park',
      state: 'CA',
      zip: '94025',
      cik: '0001326801',
      isin: 'US30303M1027',
      employees: 76834,
    },
  },
  {
    symbol: 'JPM',
    name: 'JPMorgan Chase & Co.',
    exchange: 'NYSE',
    sector: 'Financial Services',
    industry: 'Banks - Diversified',
    fyEnd: 12,
    ipo: '1969-03-05',
    shares: 2.8e9,
    vol: 0.2,
    beta: 1.1,
    knots: [
      ['1996-01-02', 21],
      ['2000-01-14', 45],
      ['2002-10-09', 15.5],
      ['2007-05-31', 52],
      ['2009-03-06', 15.9],
      ['2014-01-02', 58],
      ['2020-01-02', 141],
      ['2020-03-23', 79],
      ['2021-10-25', 171],
      ['2022-10-12', 103],
      ['2024-11-25', 251],
    ],
    splits: [['2000-06-12', 3, 2]],
    dividend: { yield: 0.021, start: '1996-01-02', firstMonth: 1, dayOfMonth: 5 },
    revenue: 1.8e11,
    growth: 0.06,
    grossMargin: 0.62,
    netMargin: 0.3,
    research: 0,
    capex: 0.02,
    inventoryDays: 0,
    shareChange: -0.02,
    seasonal: false,
    facts: {
      ceo: 'James Dimon',
      website: 'https://www.jpmorganchase.com',
      phone: '(212) 270-6000',
      address: '270 Park Avenue',
      city: 'New York',
      state: 'NY',
      zip: '10172',
      cik: '0000019617',
      isin: 'US46625H1005',
      employees: 317233,
    },
  },
  {
    symbol: 'V',
    name: 'Visa Inc.',
    exchange: 'NYSE',
    sector: 'Financial Services',
    industry: 'Financial - Credit Services',
    fyEnd: 9,
    ipo: '2008-03-19',
    shares: 1.95e9,
    vol: 0.18,
    beta: 0.95,
    knots: [
      ['2008-03-19', 14.1],
      ['2008-11-20', 11.3],
      ['2015-03-02', 68],
      ['2020-02-19', 214],
      ['2020-03-16', 139],
      ['2021-07-26', 250],
      ['2022-09-30', 178],
      ['2024-12-16', 318],
    ],
    splits: [['2015-03-19', 4, 1]],
    dividend: { yield: 0.0075, start: '2008-05-12', firstMonth: 2, dayOfMonth: 9 },
    revenue: 3.9e10,
    growth: 0.1,
    grossMargin: 0.8,
    netMargin: 0.54,
    research: 0,
    capex: 0.035,
    inventoryDays: 0,
    shareChange: -0.02,
    seasonal: false,
    facts: {
      ceo: 'Ryan M. McInerney',
      website: 'https://www.visa.com',
      phone: '(650) 432-3200',
      address: 'PO Box 8999',
      city: 'San Francisco',
      state: 'CA',
      zip: '94128-8999',
      cik: '0001403161',
      isin: 'US92826C8394',
      employees: 31600,
    },
  },
  {
    symbol: 'JNJ',
    name: 'Johnson & Johnson',
    exchange: 'NYSE',
    sector: 'Healthcare',
    industry: 'Drug Manufacturers - General',
    fyEnd: 12,
    ipo: '1944-09-25',
    shares: 2.41e9,
    vol: 0.14,
    beta: 0.55,
    knots: [
      ['1996-01-02', 21],
      ['1998-12-31', 41],
      ['2001-12-31', 59],
      ['2008-04-30', 66],
      ['2009-03-09', 46],
      ['2016-07-29', 125],
      ['2020-03-23', 112],
      ['2022-04-21', 184],
      ['2023-10-27', 145],
    ],
    splits: [['2001-06-13', 2, 1]],
    dividend: { yield: 0.032, start: '1996-01-02', firstMonth: 2, dayOfMonth: 20 },
    revenue: 9.0e10,
    growth: 0.035,
    grossMargin: 0.69,
    netMargin: 0.18,
    research: 0.17,
    capex: 0.05,
    inventoryDays: 200,
    shareChange: -0.005,
    seasonal: false,
    facts: {
      ceo: 'Joaquin Duato',
      website: 'https://www.jnj.com',
      phone: '(732) 524-0400',
      address: 'One Johnson & Johnson Plaza',
      city: 'New Brunswick',
      state: 'NJ',
      zip: '08933',
      cik: '0000200406',
      isin: 'US4781601046',
      employees: 138100,
    },
  },
  {
    symbol: 'XOM',
    name: 'Exxon Mobil Corporation',
    exchange: 'NYSE',
    sector: 'Energy',
    industry: 'Oil & Gas Integrated',
    fyEnd: 12,
    ipo: '1920-01-01',
    shares: 4.34e9,
    vol: 0.22,
    beta: 0.85,
    knots: [
      ['1996-01-02', 20],
      ['1999-07-19', 42],
      ['2002-10-09', 30],
      ['2008-05-21', 95],
      ['2009-03-09', 62],
      ['2014-07-01', 104],
      ['2016-01-20', 72],
      ['2020-03-23', 31],
      ['2022-11-14', 114],
    ],
    splits: [
      ['1997-04-14', 2, 1],
      ['2001-07-19', 2, 1],
    ],
    dividend: { yield: 0.035, start: '1996-01-02', firstMonth: 2, dayOfMonth: 13 },
    revenue: 3.4e11,
    growth: 0.035,
    grossMargin: 0.23,
    netMargin: 0.1,
    research: 0.003,
    capex: 0.07,
    inventoryDays: 30,
    shareChange: -0.005,
    seasonal: false,
    facts: {
      ceo: 'Darren W. Woods',
      website: 'https://corporate.exxonmobil.com',
      phone: '(972) 940-6000',
      address: '22777 Springwoods Village Parkway',
      city: 'Spring',
      state: 'TX',
      zip: '77389-1425',
      cik: '0000034088',
      isin: 'US30231G1022',
      employees: 61000,
    },
  },
  {
    symbol: 'WMT',
    name: 'Walmart Inc.',
    exchange: 'NYSE',
    sector: 'Consumer Defensive',
    industry: 'Discount Stores',
    fyEnd: 1,
    ipo: '1972-08-25',
    shares: 8.0e9,
    vol: 0.16,
    beta: 0.5,
    knots: [
      ['1996-01-02', 3.8],
      ['1999-12-27', 23],
      ['2005-01-03', 17.5],
      ['2008-12-08', 19.5],
      ['2012-01-03', 20],
      ['2015-01-26', 29],
      ['2015-11-02', 19.5],
      ['2020-03-23', 37],
      ['2022-04-21', 53],
      ['2024-11-29', 92],
    ],
    splits: [
      ['1999-04-20', 2, 1],
      ['2024-02-26', 3, 1],
    ],
    dividend: { yield: 0.01, start: '1996-01-02', firstMonth: 3, dayOfMonth: 15 },
    revenue: 7.0e11,
    growth: 0.04,
    grossMargin: 0.245,
    netMargin: 0.028,
    research: 0,
    capex: 0.03,
    inventoryDays: 42,
    shareChange: -0.01,
    seasonal: true,
    facts: {
      ceo: 'C. Douglas McMillon',
      website: 'https://corporate.walmart.com',
      phone: '(479) 273-4000',
      address: '702 Southwest 8th Street',
      city: 'Bentonville',
      state: 'AR',
      zip: '72716',
      cik: '0000104169',
      isin: 'US9311421039',
      employees: 2100000,
    },
  },
];

const ANCHOR_PRICES: Readonly<Record<string, number>> = {
  AAPL: 230,
  MSFT: 420,
  AMZN: 220,
  TSLA: 400,
  NVDA: 140,
  GOOGL: 190,
  META: 590,
  JPM: 240,
  V: 315,
  JNJ: 145,
  XOM: 108,
  WMT: 92,
};

interface IndexDef {
  symbol: string;
  name: string;
  currency: string;
  start: number;
  anchor: number;
  beta: number;
  vol: number;
  knots?: readonly (readonly [string, number])[];
  model?: PriceModel;
  maturity?: 'month3' | 'year5' | 'year10' | 'year30';
  volume: number;
}

const INDEXES: readonly IndexDef[] = [
  {
    symbol: '^GSPC',
    name: 'S&P 500',
    currency: 'USD',
    start: 620,
    anchor: 5900,
    beta: 1,
    vol: 0,
    volume: 4.2e9,
    knots: [
      ['2000-03-24', 1527],
      ['2002-10-09', 777],
      ['2007-10-09', 1565],
      ['2009-03-09', 677],
      ['2011-10-03', 1099],
      ['2015-05-21', 2131],
      ['2016-02-11', 1829],
      ['2018-09-20', 2930],
      ['2018-12-24', 2351],
      ['2020-02-19', 3386],
      ['2020-03-23', 2237],
      ['2022-01-03', 4796],
      ['2022-10-12', 3577],
      ['2024-12-06', 6090],
    ],
  },
  {
    symbol: '^DJI',
    name: 'Dow Jones Industrial Average',
    currency: 'USD',
    start: 5100,
    anchor: 43000,
    beta: 0.95,
    vol: 0.04,
    volume: 3.5e8,
    knots: [
      ['2000-01-14', 11723],
      ['2002-10-09', 7286],
      ['2007-10-09', 14165],
      ['2009-03-09', 6547],
      ['2020-02-12', 29551],
      ['2020-03-23', 18592],
      ['2022-01-04', 36800],
      ['2022-09-30', 28725],
      ['2024-12-04', 45000],
    ],
  },
  {
    symbol: '^IXIC',
    name: 'NASDAQ Composite',
    currency: 'USD',
    start: 1050,
    anchor: 19500,
    beta: 1.15,
    vol: 0.06,
    volume: 6.5e9,
    knots: [
      ['2000-03-10', 5048],
      ['2002-10-09', 1114],
      ['2007-10-31', 2859],
      ['2009-03-09', 1268],
      ['2015-07-20', 5218],
      ['2020-02-19', 9817],
      ['2020-03-23', 6860],
      ['2021-11-19', 16057],
      ['2022-12-28', 10213],
      ['2024-12-16', 20173],
    ],
  },
  {
    symbol: '^NDX',
    name: 'NASDAQ 100',
    currency: 'USD',
    start: 580,
    anchor: 21000,
    beta: 1.2,
    vol: 0.06,
    volume: 1.2e9,
    knots: [
      ['2000-03-27', 4704],
      ['2002-10-07', 804],
      ['2009-03-09', 1043],
      ['2021-11-19', 16573],
      ['2022-12-28', 10679],
    ],
  },
  {
    symbol: '^RUT',
    name: 'Russell 2000',
    currency: 'USD',
    start: 315,
    anchor: 2300,
    beta: 1.15,
    vol: 0.08,
    volume: 1.5e9,
  },
  {
    symbol: '^NYA',
    name: 'NYSE Composite',
    currency: 'USD',
    start: 3300,
    anchor: 19500,
    beta: 0.95,
    vol: 0.03,
    volume: 3.8e9,
  },
  {
    symbol: '^XAX',
    name: 'NYSE American Composite',
    currency: 'USD',
    start: 560,
    anchor: 5000,
    beta: 0.8,
    vol: 0.08,
    volume: 2.5e8,
  },
  {
    symbol: '^DJT',
    name: 'Dow Jones Transportation Average',
    currency: 'USD',
    start: 1950,
    anchor: 16000,
    beta: 1.1,
    vol: 0.08,
    volume: 1.2e8,
  },
  {
    symbol: '^DJU',
    name: 'Dow Jones Utility Average',
    currency: 'USD',
    start: 220,
    anchor: 1000,
    beta: 0.5,
    vol: 0.1,
    volume: 8e7,
  },
  {
    symbol: '^SOX',
    name: 'PHLX Semiconductor',
    currency: 'USD',
    start: 250,
    anchor: 4900,
    beta: 1.5,
    vol: 0.15,
    volume: 9e8,
  },
  {
    symbol: '^VIX',
    name: 'CBOE Volatility Index',
    currency: 'USD',
    start: 12,
    anchor: 16,
    beta: 0,
    vol: 0,
    volume: 0,
    model: 'volatility-index',
  },
  {
    symbol: '^TNX',
    name: 'Treasury Yield 10 Years',
    currency: 'USD',
    start: 5.6,
    anchor: 4.1,
    beta: 0,
    vol: 0,
    volume: 0,
    model: 'yield-index',
    maturity: 'year10',
  },
  {
    symbol: '^TYX',
    name: 'Treasury Yield 30 Years',
    currency: 'USD',
    start: 6,
    anchor: 4.4,
    beta: 0,
    vol: 0,
    volume: 0,
    model: 'yield-index',
    maturity: 'year30',
  },
  {
    symbol: '^FVX',
    name: 'Treasury Yield 5 Years',
    currency: 'USD',
    start: 5.4,
    anchor: 3.9,
    beta: 0,
    vol: 0,
    volume: 0,
    model: 'yield-index',
    maturity: 'year5',
  },
  {
    symbol: '^IRX',
    name: '13 Week Treasury Bill',
    currency: 'USD',
    start: 5,
    anchor: 3.7,
    beta: 0,
    vol: 0,
    volume: 0,
    model: 'yield-index',
    maturity: 'month3',
  },
  {
    symbol: '^FTSE',
    name: 'FTSE 100',
    currency: 'GBP',
    start: 3700,
    anchor: 8300,
    beta: 0.7,
    vol: 0.1,
    volume: 7e8,
  },
  {
    symbol: '^GDAXI',
    name: 'DAX Performance Index',
    currency: 'EUR',
    start: 2300,
    anchor: 20000,
    beta: 0.9,
    vol: 0.12,
    volume: 8e7,
  },
  {
    symbol: '^FCHI',
    name: 'CAC 40',
    currency: 'EUR',
    start: 1900,
    anchor: 7400,
    beta: 0.85,
    vol: 0.11,
    volume: 9e7,
  },
  {
    symbol: '^STOXX50E',
    name: 'EURO STOXX 50',
    currency: 'EUR',
    start: 1850,
    anchor: 4900,
    beta: 0.85,
    vol: 0.11,
    volume: 4e7,
  },
  {
    symbol: '^IBEX',
    name: 'IBEX 35',
    currency: 'EUR',
    start: 3600,
    anchor: 11700,
    beta: 0.85,
    vol: 0.13,
    volume: 2e8,
  },
  {
    symbol: '^AEX',
    name: 'AEX-Index',
    currency: 'EUR',
    start: 480,
    anchor: 880,
    beta: 0.85,
    vol: 0.11,
    volume: 8e7,
  },
  {
    symbol: '^SSMI',
    name: 'SMI PR',
    currency: 'CHF',
    start: 3400,
    anchor: 11600,
    beta: 0.7,
    vol: 0.1,
    volume: 4e7,
  },
  {
    symbol: '^N225',
    name: 'Nikkei 225',
    currency: 'JPY',
    start: 20000,
    anchor: 39000,
    beta: 0.6,
    vol: 0.15,
    volume: 1.2e8,
    knots: [
      ['2003-04-28', 7608],
      ['2007-07-09', 18261],
      ['2009-03-10', 7055],
      ['2012-11-14', 8665],
      ['2015-06-24', 20868],
      ['2020-03-19', 16553],
      ['2021-02-16', 30467],
      ['2024-07-11', 42224],
    ],
  },
  {
    symbol: '^HSI',
    name: 'HANG SENG INDEX',
    currency: 'HKD',
    start: 10000,
    anchor: 19500,
    beta: 0.6,
    vol: 0.17,
    volume: 2.5e9,
    knots: [
      ['2007-10-30', 31638],
      ['2008-10-27', 11015],
      ['2018-01-26', 33154],
      ['2024-01-22', 14961],
    ],
  },
  {
    symbol: '^GSPTSE',
    name: 'S&P/TSX Composite index',
    currency: 'CAD',
    start: 4700,
    anchor: 25000,
    beta: 0.75,
    vol: 0.09,
    volume: 2.2e8,
  },
  {
    symbol: '^AXJO',
    name: 'S&P/ASX 200',
    currency: 'AUD',
    start: 2200,
    anchor: 8300,
    beta: 0.6,
    vol: 0.1,
    volume: 6e8,
  },
  {
    symbol: '^KS11',
    name: 'KOSPI Composite Index',
    currency: 'KRW',
    start: 880,
    anchor: 2450,
    beta: 0.7,
    vol: 0.17,
    volume: 4.5e8,
  },
  {
    symbol: '^BSESN',
    name: 'S&P BSE SENSEX',
    currency: 'INR',
    start: 3100,
    anchor: 78000,
    beta: 0.55,
    vol: 0.17,
    volume: 1e7,
  },
  {
    symbol: '^NSEI',
    name: 'NIFTY 50',
    currency: 'INR',
    start: 1000,
    anchor: 23500,
    beta: 0.55,
    vol: 0.17,
    volume: 3e8,
  },
  {
    symbol: '^SSEC',
    name: 'SSE Composite Index',
    currency: 'CNY',
    start: 550,
    anchor: 3350,
    beta: 0.3,
    vol: 0.22,
    volume: 4e8,
  },
  {
    symbol: '^TWII',
    name: 'TSEC CAPITALIZATION WEIGHTED STOCK INDEX',
    currency: 'TWD',
    start: 5000,
    anchor: 22800,
    beta: 0.7,
    vol: 0.17,
    volume: 5e6,
  },
  {
    symbol: '^BVSP',
    name: 'IBOVESPA',
    currency: 'BRL',
    start: 4000,
    anchor: 125000,
    beta: 0.7,
    vol: 0.22,
    volume: 1e7,
  },
  {
    symbol: '^MXX',
    name: 'IPC MEXICO',
    currency: 'MXN',
    start: 2800,
    anchor: 50000,
    beta: 0.6,
    vol: 0.16,
    volume: 2e8,
  },
];

interface ForexDef {
  from: string;
  to: string;
  fromName: string;
  toName: string;
  anchor: number;
  vol: number;
  /** Long history from this date, for the major pairs. */
  since?: string;
  start?: number;
  knots?: readonly (readonly [string, number])[];
}

const CURRENCY_NAMES: Readonly<Record<string, string>> = {
  USD: 'US Dollar',
  EUR: 'Euro',
  GBP: 'British Pound',
  JPY: 'Japanese Yen',
  CHF: 'Swiss Franc',
  AUD: 'Australian Dollar',
  CAD: 'Canadian Dollar',
  NZD: 'New Zealand Dollar',
  CNH: 'Chinese Yuan Offshore',
  HKD: 'Hong Kong Dollar',
  SGD: 'Singapore Dollar',
  SEK: 'Swedish Krona',
  NOK: 'Norwegian Krone',
  MXN: 'Mexican Peso',
  ZAR: 'South African Rand',
  TRY: 'Turkish Lira',
  INR: 'Indian Rupee',
  KRW: 'South Korean Won',
  PLN: 'Polish Zloty',
  DKK: 'Danish Krone',
};

const fx = (pair: string, anchor: number, vol: number, extra: Partial<ForexDef> = {}): ForexDef => {
  const from = pair.slice(0, 3);
  const to = pair.slice(3, 6);
  return {
    from,
    to,
    fromName: CURRENCY_NAMES[from] ?? from,
    toName: CURRENCY_NAMES[to] ?? to,
    anchor,
    vol,
    ...extra,
  };
};

const FOREX: readonly ForexDef[] = [
  fx('EURUSD', 1.08, 0.075, {
    since: '1999-01-04',
    start: 1.17,
    knots: [
      ['2000-10-25', 0.83],
      ['2008-07-15', 1.59],
      ['2010-06-07', 1.19],
      ['2014-05-06', 1.39],
      ['2015-03-13', 1.05],
      ['2018-02-15', 1.25],
      ['2022-09-27', 0.96],
      ['2023-07-17', 1.12],
    ],
  }),
  fx('GBPUSD', 1.27, 0.08, {
    since: PRICE_EPOCH,
    start: 1.55,
    knots: [
      ['2007-11-08', 2.11],
      ['2009-01-23', 1.37],
      ['2016-10-07', 1.21],
      ['2020-03-19', 1.15],
      ['2022-09-26', 1.04],
    ],
  }),
  fx('USDJPY', 154, 0.09, {
    since: PRICE_EPOCH,
    start: 105,
    knots: [
      ['1998-08-11', 147],
      ['2011-10-31', 76],
      ['2015-06-05', 125],
      ['2020-12-17', 103],
      ['2024-07-03', 161],
    ],
  }),
  fx('USDCHF', 0.88, 0.085, {
    since: PRICE_EPOCH,
    start: 1.16,
    knots: [
      ['2000-10-26', 1.82],
      ['2011-08-09', 0.73],
    ],
  }),
  fx('AUDUSD', 0.65, 0.1, {
    since: PRICE_EPOCH,
    start: 0.74,
    knots: [
      ['2001-04-02', 0.48],
      ['2011-07-27', 1.1],
    ],
  }),
  fx('USDCAD', 1.4, 0.07, {
    since: PRICE_EPOCH,
    start: 1.37,
    knots: [
      ['2002-01-18', 1.61],
      ['2007-11-07', 0.92],
    ],
  }),
  fx('NZDUSD', 0.59, 0.1, {
    since: PRICE_EPOCH,
    start: 0.66,
    knots: [
      ['2000-10-25', 0.39],
      ['2014-07-24', 0.88],
    ],
  }),
  fx('EURGBP', 0.85, 0.07),
  fx('EURJPY', 166, 0.09),
  fx('GBPJPY', 196, 0.1),
  fx('EURCHF', 0.94, 0.06),
  fx('AUDJPY', 100, 0.11),
  fx('EURAUD', 1.66, 0.08),
  fx('EURCAD', 1.51, 0.07),
  fx('GBPCHF', 1.12, 0.08),
  fx('CADJPY', 110, 0.1),
  fx('CHFJPY', 175, 0.09),
  fx('NZDJPY', 91, 0.11),
  fx('AUDNZD', 1.1, 0.06),
  fx('AUDCAD', 0.91, 0.07),
  fx('USDCNH', 7.25, 0.04),
  fx('USDHKD', 7.78, 0.004),
  fx('USDSGD', 1.35, 0.05),
  fx('USDSEK', 10.9, 0.1),
  fx('USDNOK', 11.1, 0.11),
  fx('USDMXN', 20.3, 0.12),
  fx('USDZAR', 18.1, 0.15),
  fx('USDTRY', 34.5, 0.15),
  fx('USDINR', 84.5, 0.05),
  fx('USDKRW', 1400, 0.08),
  fx('USDPLN', 4.05, 0.1),
  fx('EURNOK', 11.8, 0.08),
  fx('EURSEK', 11.5, 0.07),
];

interface CryptoDef {
  base: string;
  name: string;
  price: number;
  circulating: number;
  total: number | null;
  ico: string;
  knots?: readonly (readonly [string, number])[];
}

const c = (
  base: string,
  name: string,
  price: number,
  circulating: number,
  total: number | null,
  ico: string,
): CryptoDef => ({
  base,
  name,
  price,
  circulating,
  total,
  ico,
});

const CRYPTO: readonly CryptoDef[] = [
  {
    ...c('BTC', 'Bitcoin', 90000, 19.8e6, 21e6, '2010-07-17'),
    knots: [
      ['2011-06-08', 29.6],
      ['2011-11-18', 2.1],
      ['2013-12-04', 1150],
      ['2015-01-14', 176],
      ['2017-12-17', 19300],
      ['2018-12-15', 3240],
      ['2019-06-26', 12900],
      ['2020-03-12', 4900],
      ['2021-04-14', 63500],
      ['2021-07-20', 29800],
      ['2021-11-10', 67500],
      ['2022-11-21', 15800],
      ['2024-03-14', 73100],
      ['2024-12-17', 106000],
    ],
  },
  {
    ...c('ETH', 'Ethereum', 3300, 120.4e6, null, '2015-08-07'),
    knots: [
      ['2016-06-17', 20],
      ['2016-12-20', 7.2],
      ['2018-01-13', 1400],
      ['2018-12-15', 84],
      ['2021-11-10', 4800],
      ['2022-06-18', 995],
      ['2024-03-12', 4050],
    ],
  },
  c('SOL', 'Solana', 190, 4.8e8, 5.9e8, '2020-04-10'),
  c('XRP', 'XRP', 2.2, 5.7e10, 1e11, '2013-08-04'),
  c('BNB', 'BNB', 690, 1.44e8, 1.44e8, '2017-07-25'),
  c('DOGE', 'Dogecoin', 0.32, 1.47e11, null, '2013-12-15'),
  c('ADA', 'Cardano', 0.9, 3.5e10, 4.5e10, '2017-10-01'),
  c('TRX', 'TRON', 0.25, 8.6e10, null, '2017-09-13'),
  c('AVAX', 'Avalanche', 37, 4.1e8, 7.2e8, '2020-09-22'),
  c('LINK', 'Chainlink', 22, 6.3e8, 1e9, '2017-09-19'),
  c('DOT', 'Polkadot', 7, 1.5e9, null, '2020-08-19'),
  c('LTC', 'Litecoin', 100, 7.5e7, 8.4e7, '2011-10-07'),
  c('BCH', 'Bitcoin Cash', 450, 1.98e7, 2.1e7, '2017-08-01'),
  c('SHIB', 'Shiba Inu', 0.000021, 5.89e14, 5.89e14, '2020-08-01'),
  c('XLM', 'Stellar', 0.4, 3e10, 5e10, '2014-07-31'),
  c('ATOM', 'Cosmos', 6.5, 3.9e8, null, '2019-03-14'),
  c('UNI', 'Uniswap', 13, 6e8, 1e9, '2020-09-17'),
  c('ETC', 'Ethereum Classic', 27, 1.5e8, 2.1e8, '2016-07-20'),
  c('FIL', 'Filecoin', 5, 6e8, 1.96e9, '2020-10-15'),
  c('HBAR', 'Hedera', 0.28, 3.8e10, 5e10, '2019-09-16'),
  c('APT', 'Aptos', 9, 5.6e8, 1.1e9, '2022-10-12'),
  c('ARB', 'Arbitrum', 0.75, 4.3e9, 1e10, '2023-03-23'),
  c('OP', 'Optimism', 1.9, 1.3e9, 4.3e9, '2022-05-31'),
  c('NEAR', 'NEAR Protocol', 5.2, 1.2e9, null, '2020-10-13'),
  c('ICP', 'Internet Computer', 10, 4.8e8, null, '2021-05-10'),
  c('VET', 'VeChain', 0.045, 8.6e10, 8.6e10, '2018-07-10'),
  c('ALGO', 'Algorand', 0.38, 8.3e9, 1e10, '2019-06-20'),
  c('AAVE', 'Aave', 330, 1.5e7, 1.6e7, '2020-10-02'),
  c('MKR', 'Maker', 1600, 8.8e5, 1e6, '2017-12-19'),
  c('GRT', 'The Graph', 0.22, 9.5e9, 1.08e10, '2020-12-17'),
  c('SAND', 'The Sandbox', 0.6, 2.4e9, 3e9, '2020-08-14'),
  c('MANA', 'Decentraland', 0.55, 1.9e9, 2.2e9, '2017-09-17'),
  c('AXS', 'Axie Infinity', 6.5, 1.5e8, 2.7e8, '2020-11-04'),
  c('EOS', 'EOS', 0.8, 1.5e9, null, '2017-07-01'),
  c('XTZ', 'Tezos', 1.3, 1e9, null, '2017-10-02'),
  c('THETA', 'Theta Network', 2, 1e9, 1e9, '2018-01-17'),
  c('EGLD', 'MultiversX', 32, 2.7e7, 3.1e7, '2020-09-02'),
  c('FLOW', 'Flow', 0.75, 1.5e9, 1.5e9, '2021-01-27'),
  c('CHZ', 'Chiliz', 0.09, 8.8e9, 8.9e9, '2019-07-01'),
  c('KAVA', 'Kava', 0.5, 1.08e9, null, '2019-10-25'),
  c('ZEC', 'Zcash', 55, 1.6e7, 2.1e7, '2016-10-28'),
  c('DASH', 'Dash', 35, 1.2e7, 1.89e7, '2014-01-18'),
  c('NEO', 'Neo', 14, 7e7, 1e8, '2016-09-09'),
  c('IOTA', 'IOTA', 0.3, 3.4e9, null, '2017-06-13'),
  c('CRV', 'Curve DAO Token', 0.9, 1.2e9, 3.3e9, '2020-08-14'),
  c('COMP', 'Compound', 75, 8.8e6, 1e7, '2020-06-16'),
  c('SNX', 'Synthetix', 2.4, 3.4e8, 3.4e8, '2018-03-12'),
  c('1INCH', '1inch Network', 0.45, 1.3e9, 1.5e9, '2020-12-25'),
  c('BAT', 'Basic Attention Token', 0.25, 1.5e9, 1.5e9, '2017-05-31'),
  c('ENJ', 'Enjin Coin', 0.3, 1.7e9, 1.8e9, '2017-10-24'),
  c('ZIL', 'Zilliqa', 0.025, 1.9e10, 2.1e10, '2018-01-25'),
  c('QTUM', 'Qtum', 3.8, 1.05e8, 1.07e8, '2017-05-24'),
  c('RVN', 'Ravencoin', 0.02, 1.4e10, 2.1e10, '2018-01-03'),
  c('SUSHI', 'SushiSwap', 1.4, 2.7e8, 2.9e8, '2020-08-28'),
  c('YFI', 'yearn.finance', 8500, 3.3e4, 3.7e4, '2020-07-17'),
  c('LRC', 'Loopring', 0.2, 1.37e9, 1.37e9, '2017-08-06'),
  c('KSM', 'Kusama', 30, 1.6e7, null, '2019-09-19'),
  c('CELO', 'Celo', 0.7, 5.6e8, 1e9, '2020-05-22'),
  c('ANKR', 'Ankr', 0.04, 1e10, 1e10, '2019-03-06'),
  c('STX', 'Stacks', 1.8, 1.5e9, 1.8e9, '2019-10-25'),
  c('INJ', 'Injective', 24, 9.7e7, 1e8, '2020-10-21'),
  c('SUI', 'Sui', 4.2, 2.9e9, 1e10, '2023-05-03'),
  c('SEI', 'Sei', 0.45, 4e9, 1e10, '2023-08-15'),
  c('TIA', 'Celestia', 6, 4.4e8, 1.05e9, '2023-10-31'),
  c('PEPE', 'Pepe', 0.000019, 4.2e14, 4.2e14, '2023-04-17'),
  c('WIF', 'dogwifhat', 2.5, 9.99e8, 9.99e8, '2023-12-20'),
  c('BONK', 'Bonk', 0.00003, 7.5e13, 9.3e13, '2022-12-25'),
  c('FLOKI', 'FLOKI', 0.00018, 9.6e12, 1e13, '2021-06-25'),
  c('RENDER', 'Render', 7.5, 5.1e8, 5.3e8, '2020-06-11'),
  c('IMX', 'Immutable', 1.4, 1.6e9, 2e9, '2021-06-24'),
  c('LDO', 'Lido DAO', 1.9, 8.9e8, 1e9, '2020-12-17'),
  c('RUNE', 'THORChain', 5, 3.4e8, 4.3e8, '2019-07-23'),
  c('KAS', 'Kaspa', 0.13, 2.5e10, 2.9e10, '2021-11-07'),
  c('TON', 'Toncoin', 5.5, 2.5e9, 5.1e9, '2021-08-26'),
  c('XMR', 'Monero', 190, 1.84e7, null, '2014-04-18'),
  c('OKB', 'OKB', 48, 6e7, 3e8, '2019-02-28'),
  c('CRO', 'Cronos', 0.15, 2.7e10, 3e10, '2018-12-14'),
  c('LEO', 'UNUS SED LEO', 9, 9.2e8, 9.9e8, '2019-05-21'),
  c('GALA', 'Gala', 0.04, 3.8e10, 5e10, '2020-09-16'),
  c('MINA', 'Mina', 0.7, 1.18e9, 1.18e9, '2021-06-01'),
  c('ROSE', 'Oasis Network', 0.09, 6.7e9, 1e10, '2020-11-18'),
  c('QNT', 'Quant', 110, 1.45e7, 1.46e7, '2018-08-09'),
  c('XDC', 'XDC Network', 0.05, 1.5e10, 3.8e10, '2018-04-01'),
  c('HNT', 'Helium', 6, 1.7e8, 2.2e8, '2020-05-01'),
  c('AR', 'Arweave', 18, 6.5e7, 6.6e7, '2018-05-01'),
  c('JASMY', 'JasmyCoin', 0.035, 4.8e10, 5e10, '2021-05-24'),
  c('BLUR', 'Blur', 0.3, 2.3e9, 3e9, '2023-02-14'),
  c('DYDX', 'dYdX', 1.6, 7e8, 1e9, '2021-09-08'),
  c('GMX', 'GMX', 25, 1e7, 1.3e7, '2021-09-01'),
  c('PENDLE', 'Pendle', 5, 1.6e8, 2.6e8, '2021-04-29'),
  c('JUP', 'Jupiter', 0.9, 1.35e9, 1e10, '2024-01-31'),
  c('PYTH', 'Pyth Network', 0.4, 3.6e9, 1e10, '2023-11-20'),
  c('STRK', 'Starknet', 0.5, 2e9, 1e10, '2024-02-20'),
  c('ENA', 'Ethena', 0.9, 3e9, 1.5e10, '2024-04-02'),
  c('ONDO', 'Ondo', 1.4, 1.4e9, 1e10, '2024-01-18'),
  c('WLD', 'Worldcoin', 2.3, 6.5e8, 1e10, '2023-07-24'),
  c('FET', 'Artificial Superintelligence Alliance', 1.4, 2.4e9, 2.6e9, '2019-02-25'),
];

interface CommodityDef {
  symbol: string;
  name: string;
  anchor: number;
  vol: number;
  currency: string;
  month: string;
  volume: number;
  start?: number;
  knots?: readonly (readonly [string, number])[];
}

const COMMODITIES: readonly CommodityDef[] = [
  {
    symbol: 'GCUSD',
    name: 'Gold Futures',
    anchor: 2650,
    vol: 0.15,
    currency: 'USD',
    month: 'Feb',
    volume: 180000,
    start: 390,
    knots: [
      ['1999-08-25', 253],
      ['2008-03-17', 1000],
      ['2011-09-05', 1890],
      ['2015-12-17', 1050],
      ['2020-08-06', 2060],
      ['2022-09-28', 1620],
      ['2024-10-30', 2790],
    ],
  },
  {
    symbol: 'CLUSD',
    name: 'Crude Oil',
    anchor: 70,
    vol: 0.35,
    currency: 'USD',
    month: 'Jan',
    volume: 320000,
    start: 19.5,
    knots: [
      ['1998-12-10', 10.8],
      ['2008-07-11', 145],
      ['2008-12-19', 33.9],
      ['2011-04-29', 113],
      ['2016-02-11', 26.2],
      ['2020-04-21', 11.6],
      ['2022-06-08', 122],
      ['2023-03-17', 66.7],
    ],
  },
  {
    symbol: 'SIUSD',
    name: 'Silver Futures',
    anchor: 31,
    vol: 0.28,
    currency: 'USD',
    month: 'Mar',
    volume: 60000,
  },
  { symbol: 'PLUSD', name: 'Platinum', anchor: 950, vol: 0.25, currency: 'USD', month: 'Jan', volume: 20000 },
  {
    symbol: 'PAUSD',
    name: 'Palladium',
    anchor: 1000,
    vol: 0.35,
    currency: 'USD',
    month: 'Mar',
    volume: 5000,
  },
  { symbol: 'HGUSD', name: 'Copper', anchor: 4.15, vol: 0.22, currency: 'USD', month: 'Mar', volume: 70000 },
  {
    symbol: 'ALIUSD',
    name: 'Aluminum Futures',
    anchor: 2550,
    vol: 0.2,
    currency: 'USD',
    month: 'Jan',
    volume: 1500,
  },
  {
    symbol: 'BZUSD',
    name: 'Brent Crude Oil',
    anchor: 74,
    vol: 0.33,
    currency: 'USD',
    month: 'Feb',
    volume: 250000,
  },
  {
    symbol: 'NGUSD',
    name: 'Natural Gas',
    anchor: 3.2,
    vol: 0.55,
    currency: 'USD',
    month: 'Jan',
    volume: 300000,
  },
  {
    symbol: 'RBUSD',
    name: 'Gasoline RBOB',
    anchor: 2.0,
    vol: 0.35,
    currency: 'USD',
    month: 'Jan',
    volume: 80000,
  },
  {
    symbol: 'HOUSD',
    name: 'Heating Oil',
    anchor: 2.25,
    vol: 0.33,
    currency: 'USD',
    month: 'Jan',
    volume: 70000,
  },
  {
    symbol: 'ZCUSX',
    name: 'Corn Futures',
    anchor: 445,
    vol: 0.25,
    currency: 'USX',
    month: 'Mar',
    volume: 200000,
  },
  {
    symbol: 'ZSUSX',
    name: 'Soybean Futures',
    anchor: 990,
    vol: 0.2,
    currency: 'USX',
    month: 'Jan',
    volume: 120000,
  },
  {
    symbol: 'ZWUSX',
    name: 'Wheat Futures',
    anchor: 540,
    vol: 0.3,
    currency: 'USX',
    month: 'Mar',
    volume: 90000,
  },
  {
    symbol: 'KEUSX',
    name: 'KC HRW Wheat Futures',
    anchor: 555,
    vol: 0.3,
    currency: 'USX',
    month: 'Mar',
    volume: 40000,
  },
  {
    symbol: 'ZOUSX',
    name: 'Oat Futures',
    anchor: 345,
    vol: 0.3,
    currency: 'USX',
    month: 'Mar',
    volume: 1000,
  },
  {
    symbol: 'ZLUSX',
    name: 'Soybean Oil Futures',
    anchor: 41,
    vol: 0.28,
    currency: 'USX',
    month: 'Jan',
    volume: 70000,
  },
  {
    symbol: 'ZMUSD',
    name: 'Soybean Meal Futures',
    anchor: 295,
    vol: 0.25,
    currency: 'USD',
    month: 'Jan',
    volume: 60000,
  },
  {
    symbol: 'ZRUSD',
    name: 'Rough Rice Futures',
    anchor: 14.5,
    vol: 0.2,
    currency: 'USD',
    month: 'Jan',
    volume: 1500,
  },
  { symbol: 'CCUSD', name: 'Cocoa', anchor: 10500, vol: 0.45, currency: 'USD', month: 'Mar', volume: 15000 },
  { symbol: 'KCUSX', name: 'Coffee', anchor: 320, vol: 0.35, currency: 'USX', month: 'Mar', volume: 25000 },
  { symbol: 'SBUSX', name: 'Sugar', anchor: 21.5, vol: 0.3, currency: 'USX', month: 'Mar', volume: 90000 },
  { symbol: 'CTUSX', name: 'Cotton', anchor: 70, vol: 0.25, currency: 'USX', month: 'Mar', volume: 25000 },
  {
    symbol: 'OJUSX',
    name: 'Orange Juice',
    anchor: 480,
    vol: 0.4,
    currency: 'USX',
    month: 'Jan',
    volume: 1200,
  },
  { symbol: 'LBUSD', name: 'Lumber', anchor: 560, vol: 0.35, currency: 'USD', month: 'Jan', volume: 800 },
  {
    symbol: 'LEUSX',
    name: 'Live Cattle Futures',
    anchor: 190,
    vol: 0.15,
    currency: 'USX',
    month: 'Feb',
    volume: 30000,
  },
  {
    symbol: 'GFUSX',
    name: 'Feeder Cattle Futures',
    anchor: 255,
    vol: 0.17,
    currency: 'USX',
    month: 'Jan',
    volume: 8000,
  },
  {
    symbol: 'HEUSX',
    name: 'Lean Hogs Futures',
    anchor: 83,
    vol: 0.25,
    currency: 'USX',
    month: 'Feb',
    volume: 25000,
  },
  {
    symbol: 'DCUSD',
    name: 'Class III Milk Futures',
    anchor: 18.5,
    vol: 0.2,
    currency: 'USD',
    month: 'Jan',
    volume: 1500,
  },
  {
    symbol: 'ESUSD',
    name: 'E-Mini S&P 500',
    anchor: 5950,
    vol: 0.17,
    currency: 'USD',
    month: 'Dec',
    volume: 1500000,
  },
  {
    symbol: 'NQUSD',
    name: 'Nasdaq 100',
    anchor: 21200,
    vol: 0.22,
    currency: 'USD',
    month: 'Dec',
    volume: 500000,
  },
  {
    symbol: 'YMUSD',
    name: 'Mini Dow Jones Indus.-$5',
    anchor: 43200,
    vol: 0.16,
    currency: 'USD',
    month: 'Dec',
    volume: 150000,
  },
  {
    symbol: 'RTYUSD',
    name: 'E-mini Russell 2000 Index Futures',
    anchor: 2320,
    vol: 0.22,
    currency: 'USD',
    month: 'Dec',
    volume: 150000,
  },
  {
    symbol: 'ZBUSD',
    name: '30 Year U.S. Treasury Bond Futures',
    anchor: 117,
    vol: 0.12,
    currency: 'USD',
    month: 'Mar',
    volume: 350000,
  },
  {
    symbol: 'ZNUSD',
    name: '10-Year T-Note Futures',
    anchor: 109,
    vol: 0.07,
    currency: 'USD',
    month: 'Mar',
    volume: 1500000,
  },
  {
    symbol: 'ZFUSD',
    name: 'Five-Year US Treasury Note Futures',
    anchor: 106,
    vol: 0.05,
    currency: 'USD',
    month: 'Mar',
    volume: 900000,
  },
  {
    symbol: 'ZTUSD',
    name: '2-Year T-Note Futures',
    anchor: 103,
    vol: 0.02,
    currency: 'USD',
    month: 'Mar',
    volume: 600000,
  },
  {
    symbol: 'DXUSD',
    name: 'US Dollar',
    anchor: 106,
    vol: 0.07,
    currency: 'USD',
    month: 'Mar',
    volume: 20000,
  },
  {
    symbol: 'MGCUSD',
    name: 'Micro Gold Futures',
    anchor: 2650,
    vol: 0.15,
    currency: 'USD',
    month: 'Feb',
    volume: 100000,
  },
  {
    symbol: 'SILUSD',
    name: 'Micro Silver Futures',
    anchor: 31,
    vol: 0.28,
    currency: 'USD',
    month: 'Mar',
    volume: 5000,
  },
];

interface EtfTheme {
  label: string;
  assetClass: 'Equity' | 'Fixed Income' | 'Commodity';
  beta: number;
  vol: number;
  yield: number;
  monthly: boolean;
  expense: number;
}

const ETF_THEMES: readonly EtfTheme[] = [
  {
    label: 'US Large Cap',
    assetClass: 'Equity',
    beta: 1,
    vol: 0.01,
    yield: 0.013,
    monthly: false,
    expense: 0.0005,
  },
  {
    label: 'US Total Market',
    assetClass: 'Equity',
    beta: 1.02,
    vol: 0.015,
    yield: 0.013,
    monthly: false,
    expense: 0.0004,
  },
  {
    label: 'US Mid Cap',
    assetClass: 'Equity',
    beta: 1.1,
    vol: 0.05,
    yield: 0.014,
    monthly: false,
    expense: 0.001,
  },
  {
    label: 'US Small Cap',
    assetClass: 'Equity',
    beta: 1.2,
    vol: 0.08,
    yield: 0.012,
    monthly: false,
    expense: 0.0015,
  },
  {
    label: 'Dividend Growth',
    assetClass: 'Equity',
    beta: 0.8,
    vol: 0.05,
    yield: 0.028,
    monthly: false,
    expense: 0.0035,
  },
  {
    label: 'High Dividend',
    assetClass: 'Equity',
    beta: 0.75,
    vol: 0.06,
    yield: 0.038,
    monthly: false,
    expense: 0.004,
  },
  {
    label: 'Growth',
    assetClass: 'Equity',
    beta: 1.15,
    vol: 0.05,
    yield: 0.005,
    monthly: false,
    expense: 0.002,
  },
  {
    label: 'Value',
    assetClass: 'Equity',
    beta: 0.9,
    vol: 0.04,
    yield: 0.022,
    monthly: false,
    expense: 0.002,
  },
  {
    label: 'Momentum Factor',
    assetClass: 'Equity',
    beta: 1.1,
    vol: 0.07,
    yield: 0.008,
    monthly: false,
    expense: 0.0015,
  },
  {
    label: 'Quality Factor',
    assetClass: 'Equity',
    beta: 0.95,
    vol: 0.04,
    yield: 0.012,
    monthly: false,
    expense: 0.0015,
  },
  {
    label: 'Low Volatility',
    assetClass: 'Equity',
    beta: 0.65,
    vol: 0.04,
    yield: 0.02,
    monthly: false,
    expense: 0.0025,
  },
  {
    label: 'Equal Weight',
    assetClass: 'Equity',
    beta: 1.05,
    vol: 0.04,
    yield: 0.015,
    monthly: false,
    expense: 0.002,
  },
  {
    label: 'Technology Select',
    assetClass: 'Equity',
    beta: 1.25,
    vol: 0.08,
    yield: 0.007,
    monthly: false,
    expense: 0.001,
  },
  {
    label: 'Healthcare Select',
    assetClass: 'Equity',
    beta: 0.75,
    vol: 0.07,
    yield: 0.015,
    monthly: false,
    expense: 0.001,
  },
  {
    label: 'Financials Select',
    assetClass: 'Equity',
    beta: 1.1,
    vol: 0.08,
    yield: 0.017,
    monthly: false,
    expense: 0.001,
  },
  {
    label: 'Energy Select',
    assetClass: 'Equity',
    beta: 0.9,
    vol: 0.2,
    yield: 0.033,
    monthly: false,
    expense: 0.001,
  },
  {
    label: 'Industrials Select',
    assetClass: 'Equity',
    beta: 1.05,
    vol: 0.06,
    yield: 0.015,
    monthly: false,
    expense: 0.001,
  },
  {
    label: 'Consumer Staples Select',
    assetClass: 'Equity',
    beta: 0.6,
    vol: 0.06,
    yield: 0.025,
    monthly: false,
    expense: 0.001,
  },
  {
    label: 'Consumer Discretionary Select',
    assetClass: 'Equity',
    beta: 1.2,
    vol: 0.08,
    yield: 0.008,
    monthly: false,
    expense: 0.001,
  },
  {
    label: 'Utilities Select',
    assetClass: 'Equity',
    beta: 0.45,
    vol: 0.1,
    yield: 0.03,
    monthly: false,
    expense: 0.001,
  },
  {
    label: 'Real Estate Select',
    assetClass: 'Equity',
    beta: 0.85,
    vol: 0.1,
    yield: 0.035,
    monthly: false,
    expense: 0.001,
  },
  {
    label: 'Materials Select',
    assetClass: 'Equity',
    beta: 1.05,
    vol: 0.1,
    yield: 0.019,
    monthly: false,
    expense: 0.001,
  },
  {
    label: 'Communication Services Select',
    assetClass: 'Equity',
    beta: 1.05,
    vol: 0.08,
    yield: 0.009,
    monthly: false,
    expense: 0.001,
  },
  {
    label: 'Semiconductor',
    assetClass: 'Equity',
    beta: 1.5,
    vol: 0.15,
    yield: 0.006,
    monthly: false,
    expense: 0.0035,
  },
  {
    label: 'Biotech',
    assetClass: 'Equity',
    beta: 0.9,
    vol: 0.18,
    yield: 0.002,
    monthly: false,
    expense: 0.0035,
  },
  {
    label: 'Regional Banks',
    assetClass: 'Equity',
    beta: 1.15,
    vol: 0.15,
    yield: 0.027,
    monthly: false,
    expense: 0.0035,
  },
  {
    label: 'Homebuilders',
    assetClass: 'Equity',
    beta: 1.3,
    vol: 0.18,
    yield: 0.006,
    monthly: false,
    expense: 0.0035,
  },
  {
    label: 'Clean Energy',
    assetClass: 'Equity',
    beta: 1.3,
    vol: 0.3,
    yield: 0.01,
    monthly: false,
    expense: 0.004,
  },
  {
    label: 'Cybersecurity',
    assetClass: 'Equity',
    beta: 1.2,
    vol: 0.15,
    yield: 0.002,
    monthly: false,
    expense: 0.005,
  },
  {
    label: 'Cloud Computing',
    assetClass: 'Equity',
    beta: 1.35,
    vol: 0.18,
    yield: 0.001,
    monthly: false,
    expense: 0.0055,
  },
  {
    label: 'Robotics & Automation',
    assetClass: 'Equity',
    beta: 1.3,
    vol: 0.15,
    yield: 0.003,
    monthly: false,
    expense: 0.0055,
  },
  {
    label: 'Infrastructure',
    assetClass: 'Equity',
    beta: 0.85,
    vol: 0.08,
    yield: 0.025,
    monthly: false,
    expense: 0.004,
  },
  {
    label: 'Water Resources',
    assetClass: 'Equity',
    beta: 0.95,
    vol: 0.08,
    yield: 0.01,
    monthly: false,
    expense: 0.006,
  },
  {
    label: 'Developed Markets',
    assetClass: 'Equity',
    beta: 0.8,
    vol: 0.08,
    yield: 0.03,
    monthly: false,
    expense: 0.0007,
  },
  {
    label: 'Emerging Markets',
    assetClass: 'Equity',
    beta: 0.75,
    vol: 0.14,
    yield: 0.028,
    monthly: false,
    expense: 0.0008,
  },
  { label: 'Europe', assetClass: 'Equity', beta: 0.8, vol: 0.1, yield: 0.03, monthly: false, expense: 0.001 },
  {
    label: 'Japan',
    assetClass: 'Equity',
    beta: 0.6,
    vol: 0.12,
    yield: 0.02,
    monthly: false,
    expense: 0.0025,
  },
  {
    label: 'China Large Cap',
    assetClass: 'Equity',
    beta: 0.6,
    vol: 0.22,
    yield: 0.022,
    monthly: false,
    expense: 0.005,
  },
  {
    label: 'Canada',
    assetClass: 'Equity',
    beta: 0.8,
    vol: 0.09,
    yield: 0.027,
    monthly: false,
    expense: 0.005,
  },
  {
    label: 'United Kingdom',
    assetClass: 'Equity',
    beta: 0.7,
    vol: 0.1,
    yield: 0.035,
    monthly: false,
    expense: 0.005,
  },
  {
    label: 'India',
    assetClass: 'Equity',
    beta: 0.6,
    vol: 0.16,
    yield: 0.01,
    monthly: false,
    expense: 0.0065,
  },
  {
    label: 'Aggregate Bond',
    assetClass: 'Fixed Income',
    beta: 0.05,
    vol: 0.05,
    yield: 0.034,
    monthly: true,
    expense: 0.0003,
  },
  {
    label: 'Short-Term Treasury',
    assetClass: 'Fixed Income',
    beta: 0,
    vol: 0.015,
    yield: 0.042,
    monthly: true,
    expense: 0.0003,
  },
  {
    label: '7-10 Year Treasury',
    assetClass: 'Fixed Income',
    beta: -0.05,
    vol: 0.07,
    yield: 0.033,
    monthly: true,
    expense: 0.0015,
  },
  {
    label: '20+ Year Treasury',
    assetClass: 'Fixed Income',
    beta: -0.1,
    vol: 0.14,
    yield: 0.04,
    monthly: true,
    expense: 0.0015,
  },
  {
    label: 'TIPS Bond',
    assetClass: 'Fixed Income',
    beta: 0.02,
    vol: 0.05,
    yield: 0.03,
    monthly: true,
    expense: 0.0019,
  },
  {
    label: 'Investment Grade Corporate Bond',
    assetClass: 'Fixed Income',
    beta: 0.1,
    vol: 0.07,
    yield: 0.042,
    monthly: true,
    expense: 0.0014,
  },
  {
    label: 'High Yield Bond',
    assetClass: 'Fixed Income',
    beta: 0.3,
    vol: 0.06,
    yield: 0.058,
    monthly: true,
    expense: 0.004,
  },
  {
    label: 'Municipal Bond',
    assetClass: 'Fixed Income',
    beta: 0.03,
    vol: 0.04,
    yield: 0.028,
    monthly: true,
    expense: 0.0005,
  },
  {
    label: 'Ultra Short Income',
    assetClass: 'Fixed Income',
    beta: 0,
    vol: 0.006,
    yield: 0.048,
    monthly: true,
    expense: 0.002,
  },
  {
    label: 'Gold Trust',
    assetClass: 'Commodity',
    beta: 0.05,
    vol: 0.15,
    yield: 0,
    monthly: false,
    expense: 0.0025,
  },
  {
    label: 'Silver Trust',
    assetClass: 'Commodity',
    beta: 0.2,
    vol: 0.27,
    yield: 0,
    monthly: false,
    expense: 0.005,
  },
  {
    label: 'Broad Commodity',
    assetClass: 'Commodity',
    beta: 0.3,
    vol: 0.16,
    yield: 0,
    monthly: false,
    expense: 0.0065,
  },
  {
    label: 'Oil Fund',
    assetClass: 'Commodity',
    beta: 0.4,
    vol: 0.33,
    yield: 0,
    monthly: false,
    expense: 0.007,
  },
];

const ETF_ISSUERS = [
  'Northwind',
  'Bluecrest',
  'Summit Shares',
  'Harborline',
  'Granite Funds',
  'Evergreen',
  'Crescent',
  'Keystone',
  'Meridian',
  'Pioneerpoint',
  'Lakeshore',
  'Beacon',
] as const;

const yearsBetween = (from: number, to: number): number => (to - from) / 365.25;

function knotList(
  startDay: number,
  startPrice: number,
  knots: readonly (readonly [string, number])[] | undefined,
  anchor: number,
): (readonly [number, number])[] {
  const list: (readonly [number, number])[] = [[startDay, startPrice]];
  for (const [iso, price] of knots ?? []) {
    const day = toDay(iso);
    if (day > startDay && day < ANCHOR_DAY) list.push([day, price]);
  }
  list.push([ANCHOR_DAY, anchor]);
  return list;
}

/** Luhn check digit over an ISIN's characters (letters count as two digits). */
function isinCheckDigit(body: string): number {
  const digits = body
    .split('')
    .map((ch) => (/\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55)))
    .join('');
  let sum = 0;
  let double = true;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let v = Number(digits.charAt(i));
    if (double) {
      v *= 2;
      if (v > 9) v -= 9;
    }
    sum += v;
    double = !double;
  }
  return (10 - (sum % 10)) % 10;
}

/** A plausible ISIN for a generated company (country prefix, nine characters, check digit). */
export function makeIsin(country: string, random: Random): string {
  const chars = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ';
  let body = country;
  for (let i = 0; i < 9; i += 1) body += chars.charAt(random.int(0, i < 6 ? 9 : chars.length - 1));
  return `${body}${isinCheckDigit(body)}`;
}

function pickSector(random: Random, tilt: Partial<Record<string, number>>): SectorProfile {
  return random.weighted(SECTORS.map((s) => [s, s.weight * (tilt[s.name] ?? 1)] as const));
}

function lettersOf(text: string): string {
  return text.toUpperCase().replace(/[^A-Z]/g, '');
}

/** Ticker candidates built from a company's name, like exchanges' listing staff would choose them. */
function tickerFor(
  words: readonly string[],
  length: number,
  random: Random,
  taken: (candidate: string) => boolean,
): string {
  const first = lettersOf(words[0] ?? 'X');
  const second = lettersOf(words[1] ?? '');
  const all = first + second;
  const candidates = [
    first.slice(0, length),
    (first.slice(0, 1) + second.slice(0, length - 1)).slice(0, length),
    (first.slice(0, 2) + second.slice(0, length - 2)).slice(0, length),
    (first.slice(0, length - 1) + second.slice(0, 1)).slice(0, length),
  ];
  for (let i = 0; i < 6; i += 1) {
    let t = first.charAt(0);
    let pos = 1;
    while (t.length < length && pos < all.length) {
      if (random.chance(0.5)) t += all.charAt(pos);
      pos += 1;
    }
    candidates.push(t);
  }
  for (const candidate of candidates) {
    if (candidate.length === length && !taken(candidate)) return candidate;
  }
  for (let attempt = 0; ; attempt += 1) {
    const size = length + Math.floor(attempt / 40);
    let t = attempt < 20 ? first.charAt(0) || 'X' : '';
    while (t.length < size) t += String.fromCharCode(65 + random.int(0, 25));
    if (!taken(t)) return t;
  }
}

function generatedStocks(seed: number, used: Set<string>): SecuritySpec[] {
  const random = createRandom(seed, 'universe', 'stocks');
  const names = new Set<string>();
  const out: SecuritySpec[] = [];
  for (const ex of EXCHANGES) {
    const usdPerUnit = USD_PER_UNIT[ex.currency] ?? 1;
    for (let rank = 1; rank <= ex.count; rank += 1) {
      const sector = pickSector(random, ex.sectorTilt);
      const industry = random.pick(sector.industries);
      let name = '';
      let words: string[] = [];
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const prefix = random.pick(NAME_PREFIXES);
        const noun = random.pick(industry.nouns);
        const suffix = random.pick(CORPORATE_SUFFIX[ex.country] ?? ['Inc.']);
        const candidate =
          attempt < 25
            ? `${prefix} ${noun} ${suffix}`
            : `${prefix} ${random.pick(NAME_PREFIXES)} ${noun} ${suffix}`;
        if (!names.has(candidate)) {
          name = candidate;
          words = [prefix, noun];
          break;
        }
      }
      names.add(name);
      let symbol: string;
      if (ex.code === 'JPX' || ex.code === 'HKSE') {
        do {
          symbol = `${String(random.int(ex.code === 'JPX' ? 1300 : 1, 9999)).padStart(4, '0')}${ex.suffix}`;
        } while (used.has(symbol));
      } else {
        const length = ex.country !== 'US' ? random.int(3, 4) : ex.code === 'NASDAQ' ? 4 : random.int(2, 4);
        const base = tickerFor(words, length, random, (t) => used.has(`${t}${ex.suffix}`));
        symbol = `${base}${ex.suffix}`;
      }
      used.add(symbol);
      const capUsd = ex.topCap * rank ** -ex.capExponent * random.logNormal(1, 0.3);
      const capLocal = capUsd / usdPerUnit;
      const priceMedian = ex.medianPrice * (capUsd / 1e10) ** 0.12;
      const anchor = round(
        Math.min(Math.max(random.logNormal(priceMedian, 0.6), ex.medianPrice / 30), ex.medianPrice * 40),
        ex.priceDecimals,
      );
      const shares = Math.round(capLocal / anchor / 1000) * 1000;
      const ipoYear = random.chance(0.35) ? random.int(1960, 1995) : random.int(1996, 2022);
      const ipo = dayOf(ipoYear, random.int(1, 12), random.int(1, 28));
      const dividend = random.chance(sector.dividendProbability)
        ? {
            yield: random.range(sector.dividendYield[0], sector.dividendYield[1]),
            startDay: Math.max(ipo + 365, PRICE_EPOCH_DAY + random.int(0, 365 * 15)),
            frequency: 'Quarterly' as const,
            firstMonth: random.int(1, 3),
            dayOfMonth: random.int(3, 24),
          }
        : null;
      out.push({
        symbol,
        name,
        assetType: 'stock',
        exchange: ex.code,
        exchangeFullName: ex.fullName,
        currency: ex.currency,
        country: ex.country,
        sector: sector.name,
        industry: industry.name,
        sharesOutstanding: shares,
        sample: false,
        details: {},
        familiar: false,
        tier: 'tail',
        calendar: 'exchange',
        startDay: TAIL_EPOCH_DAY,
        knots: [],
        vol: sector.vol * random.range(0.8, 1.25),
        beta: random.range(sector.beta[0], sector.beta[1]) * (ex.country === 'US' ? 1 : 0.6),
        factor: 'equity',
        model: 'gbm',
        fixedSplits: null,
        splitRate: 0.00005,
        dividend,
        fundamentals: null,
        ipoDate: fromDay(ipo),
        volume: shares * random.logNormal(0.006, 0.5),
        marketCap: capLocal,
        facts: null,
      });
    }
  }
  return out;
}

function fundamentalsFor(spec: SecuritySpec, random: Random, firstFiscalYear: number): FundamentalsSpec {
  const sector = SECTORS.find((s) => s.name === spec.sector) ?? SECTORS[0];
  if (!sector) throw new Error('no sectors');
  const ps = random.range(sector.priceToSales[0], sector.priceToSales[1]);
  const cap = spec.marketCap ?? 1e9;
  const fyEnd = random.weighted<number>([
    [12, 80],
    [3, 6],
    [6, 5],
    [9, 5],
    [1, 4],
  ]);
  return {
    fiscalYearEndMonth:
      spec.country === 'JP' ? 3 : spec.country === 'US' || spec.country === 'CA' ? fyEnd : 12,
    revenue: cap / ps,
    growth: Math.max(-0.05, sector.drift * random.range(0.3, 1.4) + random.normal() * 0.03),
    grossMargin: random.range(sector.grossMargin[0], sector.grossMargin[1]),
    netMargin: random.chance(spec.tier === 'tail' ? 0.3 : 0.1)
      ? -random.range(0.02, 0.2)
      : random.range(sector.netMargin[0], sector.netMargin[1]),
    researchRatio: random.range(sector.researchRatio[0], sector.researchRatio[1]),
    capexRatio: random.range(sector.capexRatio[0], sector.capexRatio[1]),
    inventoryDays: random.range(sector.inventoryDays[0], sector.inventoryDays[1]),
    taxRate: random.range(0.15, 0.26),
    shareChange: random.range(-0.03, 0.02),
    firstFiscalYear,
    seasonal: sector.name === 'Consumer Cyclical' || sector.name === 'Consumer Defensive',
  };
}

/** The full universe, before any cut for the test scale. Pure function of the seed. */
function fullUniverse(seed: number): SecuritySpec[] {
  const used = new Set<string>(FAMILIAR_SYMBOLS);
  const specs: SecuritySpec[] = [];

  for (const f of FAMILIAR_STOCKS) {
    const anchor = ANCHOR_PRICES[f.symbol] ?? 100;
    const ipoDay = toDay(f.ipo);
    const startDay = Math.max(PRICE_EPOCH_DAY, ipoDay);
    const [firstIso, firstPrice] = f.knots[0] ?? [f.ipo, anchor];
    const ex = EXCHANGES.find((e) => e.code === f.exchange);
    specs.push({
      symbol: f.symbol,
      name: f.name,
      assetType: 'stock',
      exchange: f.exchange,
      exchangeFullName: ex?.fullName ?? f.exchange,
      currency: 'USD',
      country: 'US',
      sector: f.sector,
      industry: f.industry,
      sharesOutstanding: f.shares,
      sample: true,
      details: {},
      familiar: true,
      tier: 'core',
      calendar: 'exchange',
      startDay,
      knots: knotList(Math.max(startDay, toDay(firstIso)), firstPrice, f.knots.slice(1), anchor),
      vol: f.vol,
      beta: f.beta,
      factor: 'equity',
      model: 'gbm',
      fixedSplits: f.splits.map(([iso, numerator, denominator]) => ({
        day: toDay(iso),
        numerator,
        denominator,
      })),
      splitRate: 0,
      dividend: f.dividend
        ? {
            yield: f.dividend.yield,
            startDay: toDay(f.dividend.start),
            frequency: 'Quarterly',
            firstMonth: f.dividend.firstMonth,
            dayOfMonth: f.dividend.dayOfMonth,
          }
        : null,
      fundamentals: {
        fiscalYearEndMonth: f.fyEnd,
        revenue: f.revenue,
        growth: f.growth,
        grossMargin: f.grossMargin,
        netMargin: f.netMargin,
        researchRatio: f.research,
        capexRatio: f.capex,
        inventoryDays: f.inventoryDays,
        taxRate: 0.16,
        shareChange: f.shareChange,
        firstFiscalYear: Math.max(2012, Number(f.ipo.slice(0, 4)) + 1),
        seasonal: f.seasonal,
      },
      ipoDate: f.ipo,
      volume: f.shares * (f.symbol === 'TSLA' ? 0.03 : 0.006),
      marketCap: f.shares * anchor,
      facts: f.facts,
    });
  }

  // Generated companies: sized, then tiered by size (the largest US names get the long history).
  const generated = generatedStocks(seed, used);
  const usByCap = generated
    .filter((s) => s.country === 'US')
    .sort((a, b) => (b.marketCap ?? 0) - (a.marketCap ?? 0));
  const core = new Set(usByCap.slice(0, 40).map((s) => s.symbol));
  const sample = new Set(usByCap.slice(0, 80).map((s) => s.symbol));
  const byUsdCap = [...generated].sort(
    (a, b) =>
      (b.marketCap ?? 0) * (USD_PER_UNIT[b.currency] ?? 1) -
      (a.marketCap ?? 0) * (USD_PER_UNIT[a.currency] ?? 1),
  );
  const large = new Set(
    byUsdCap
      .filter((s) => !core.has(s.symbol))
      .slice(0, 1000)
      .map((s) => s.symbol),
  );
  for (const spec of generated) {
    const random = createRandom(seed, 'character', spec.symbol);
    const sector = SECTORS.find((s) => s.name === spec.sector);
    const drift = sector?.drift ?? 0.06;
    const anchor = (spec.marketCap ?? 0) / (spec.sharesOutstanding ?? 1);
    spec.sample = sample.has(spec.symbol);
    if (core.has(spec.symbol)) {
      spec.tier = 'core';
      spec.splitRate = 0.0003;
      const ipoDay = toDay(spec.ipoDate ?? PRICE_EPOCH);
      spec.startDay = Math.max(PRICE_EPOCH_DAY, ipoDay);
    } else {
      spec.tier = large.has(spec.symbol) ? 'large' : 'tail';
      spec.vol *= spec.tier === 'tail' ? 1.4 : 1.1;
    }
    const years = yearsBetween(spec.startDay, ANCHOR_DAY);
    const startPrice =
      anchor * Math.exp(-drift * years + random.normal() * 0.35 * Math.sqrt(Math.min(years, 10)));
    spec.knots = knotList(spec.startDay, startPrice, undefined, anchor);
    if (spec.tier !== 'tail') {
      spec.fundamentals = fundamentalsFor(spec, random, spec.tier === 'core' ? 2012 : 2018);
    }
    specs.push(spec);
  }

  // Exchange-traded funds.
  const etfRandom = createRandom(seed, 'universe', 'etfs');
  specs.push(
    etfSpec({
      symbol: 'SPY',
      name: 'SPDR S&P 500 ETF Trust',
      exchange: 'AMEX',
      theme: ETF_THEMES[0],
      inception: '1993-01-22',
      start: 61,
      anchor: 590,
      volume: 45e6,
      shares: 1.0e9,
      knots: [],
      issuer: 'SPDR',
    }),
    etfSpec({
      symbol: 'QQQ',
      name: 'Invesco QQQ Trust, Series 1',
      exchange: 'NASDAQ',
      theme: ETF_THEMES[12],
      inception: '1999-03-10',
      start: 51,
      anchor: 515,
      volume: 35e6,
      shares: 6.1e8,
      issuer: 'Invesco',
      knots: [
        ['2000-03-10', 115],
        ['2002-10-07', 20],
        ['2007-10-31', 55],
        ['2009-03-09', 26],
        ['2020-02-19', 237],
        ['2021-11-19', 408],
        ['2022-12-28', 261],
      ],
      splits: [{ day: toDay('2000-03-20'), numerator: 2, denominator: 1 }],
    }),
  );
  const etfNames = new Set<string>();
  let etfCount = 0;
  while (etfCount < 298) {
    const theme = etfRandom.pick(ETF_THEMES);
    const issuer = etfRandom.pick(ETF_ISSUERS);
    const name = `${issuer} ${theme.label} ETF`;
    if (etfNames.has(name)) {
      if (etfNames.size >= ETF_THEMES.length * ETF_ISSUERS.length) break;
      continue;
    }
    etfNames.add(name);
    const words = [issuer, theme.label];
    const symbol = tickerFor(words, etfRandom.int(3, 4), etfRandom, (t) => used.has(t));
    used.add(symbol);
    const anchor = round(etfRandom.logNormal(theme.assetClass === 'Fixed Income' ? 60 : 80, 0.7), 2);
    const inception = dayOf(etfRandom.int(2000, 2021), etfRandom.int(1, 12), etfRandom.int(1, 28));
    const aum = 1e10 * (etfCount + 1) ** -1.1 * etfRandom.logNormal(1, 0.5) + 5e7;
    specs.push(
      etfSpec({
        symbol,
        name,
        exchange: etfRandom.chance(0.8) ? 'AMEX' : 'NASDAQ',
        theme,
        inception: fromDay(inception),
        start: anchor * etfRandom.logNormal(0.85, 0.15),
        anchor,
        volume: (aum / anchor) * etfRandom.logNormal(0.01, 0.4),
        shares: Math.round(aum / anchor),
        issuer,
        sample: etfCount < 18,
        knots: [],
      }),
    );
    etfCount += 1;
  }

  // Cryptocurrencies.
  CRYPTO.forEach((cd, index) => {
    const symbol = `${cd.base}USD`;
    const core = cd.base === 'BTC' || cd.base === 'ETH';
    const ico = toDay(cd.ico);
    const startDay = core ? ico : Math.max(TAIL_EPOCH_DAY, ico);
    const random = createRandom(seed, 'character', symbol);
    const startPrice = core
      ? cd.base === 'BTC'
        ? 0.08
        : 2.8
      : cd.price * random.logNormal(ico > TAIL_EPOCH_DAY ? 0.8 : 0.35, 0.6);
    specs.push({
      symbol,
      name: `${cd.name} USD`,
      assetType: 'crypto',
      exchange: 'CRYPTO',
      exchangeFullName: 'Cryptocurrency',
      currency: 'USD',
      country: '',
      sector: '',
      industry: '',
      sharesOutstanding: cd.circulating,
      sample: index < 10,
      details: { icoDate: cd.ico, circulatingSupply: cd.circulating, totalSupply: cd.total },
      familiar: core,
      tier: core ? 'core' : 'tail',
      calendar: 'crypto',
      startDay,
      knots: knotList(startDay, startPrice, cd.knots, cd.price),
      vol: cd.base === 'BTC' ? 0 : core ? 0.45 : random.range(0.5, 0.9),
      beta: cd.base === 'BTC' ? 1 : core ? 1.1 : random.range(0.9, 1.4),
      factor: 'crypto',
      model: 'gbm',
      fixedSplits: [],
      splitRate: 0,
      dividend: null,
      fundamentals: null,
      ipoDate: null,
      volume: (cd.circulating * cd.price * (core ? 0.03 : random.range(0.01, 0.08))) / cd.price,
      marketCap: cd.circulating * cd.price,
      facts: null,
    });
  });

  // Currency pairs.
  for (const f of FOREX) {
    const symbol = `${f.from}${f.to}`;
    const random = createRandom(seed, 'character', symbol);
    const since = f.since ? toDay(f.since) : TAIL_EPOCH_DAY;
    const startPrice = f.start ?? f.anchor * random.logNormal(1, 0.06);
    const decimals = f.anchor > 20 ? 3 : 5;
    specs.push({
      symbol,
      name: `${f.from}/${f.to}`,
      assetType: 'forex',
      exchange: 'FOREX',
      exchangeFullName: 'Foreign Exchange',
      currency: f.to,
      country: '',
      sector: '',
      industry: '',
      sharesOutstanding: null,
      sample: f.since !== undefined,
      details: { fromCurrency: f.from, toCurrency: f.to, fromName: f.fromName, toName: f.toName, decimals },
      familiar: symbol === 'EURUSD' || symbol === 'GBPUSD' || symbol === 'USDJPY',
      tier: f.since ? 'core' : 'tail',
      calendar: 'forex',
      startDay: since,
      knots: knotList(since, startPrice, f.knots, f.anchor),
      vol: f.vol,
      beta: 0,
      factor: 'none',
      model: 'gbm',
      fixedSplits: [],
      splitRate: 0,
      dividend: null,
      fundamentals: null,
      ipoDate: null,
      volume: random.range(60_000, 250_000),
      marketCap: null,
      facts: null,
    });
  }

  // Commodity futures.
  for (const cm of COMMODITIES) {
    const random = createRandom(seed, 'character', cm.symbol);
    const core = cm.symbol === 'GCUSD' || cm.symbol === 'CLUSD';
    const startDay = core ? PRICE_EPOCH_DAY : TAIL_EPOCH_DAY;
    specs.push({
      symbol: cm.symbol,
      name: cm.name,
      assetType: 'commodity',
      exchange: 'COMMODITY',
      exchangeFullName: 'Commodity',
      currency: cm.currency,
      country: '',
      sector: '',
      industry: '',
      sharesOutstanding: null,
      sample: core || cm.symbol === 'SIUSD' || cm.symbol === 'NGUSD' || cm.symbol === 'HGUSD',
      details: { tradeMonth: cm.month, currency: cm.currency },
      familiar: core,
      tier: core ? 'core' : 'tail',
      calendar: 'exchange',
      startDay,
      knots: knotList(startDay, cm.start ?? cm.anchor * random.logNormal(0.9, 0.15), cm.knots, cm.anchor),
      vol: cm.vol,
      beta:
        cm.symbol.startsWith('ES') ||
        cm.symbol.startsWith('NQ') ||
        cm.symbol.startsWith('YM') ||
        cm.symbol.startsWith('RTY')
          ? 1
          : 0,
      factor:
        cm.symbol.startsWith('ES') ||
        cm.symbol.startsWith('NQ') ||
        cm.symbol.startsWith('YM') ||
        cm.symbol.startsWith('RTY')
          ? 'equity'
          : 'none',
      model: 'gbm',
      fixedSplits: [],
      splitRate: 0,
      dividend: null,
      fundamentals: null,
      ipoDate: null,
      volume: cm.volume,
      marketCap: null,
      facts: null,
    });
  }

  // Indexes.
  for (const ix of INDEXES) {
    const familiar = ix.symbol === '^GSPC' || ix.symbol === '^DJI' || ix.symbol === '^IXIC';
    specs.push({
      symbol: ix.symbol,
      name: ix.name,
      assetType: 'index',
      exchange: 'INDEX',
      exchangeFullName: 'Index',
      currency: ix.currency,
      country: '',
      sector: '',
      industry: '',
      sharesOutstanding: null,
      sample: familiar || ix.symbol === '^RUT' || ix.symbol === '^VIX' || ix.symbol === '^NDX',
      details: {},
      familiar,
      tier: 'core',
      calendar: 'exchange',
      startDay: PRICE_EPOCH_DAY,
      knots: knotList(PRICE_EPOCH_DAY, ix.start, ix.knots, ix.anchor),
      vol: ix.vol,
      beta: ix.beta,
      factor: ix.beta === 0 ? 'none' : 'equity',
      model: ix.model ?? 'gbm',
      ...(ix.maturity ? { yieldMaturity: ix.maturity } : {}),
      fixedSplits: [],
      splitRate: 0,
      dividend: null,
      fundamentals: null,
      ipoDate: null,
      volume: ix.volume,
      marketCap: null,
      facts: null,
    });
  }

  // Anchors are nudged so "current" prices are not suspiciously round.
  for (const spec of specs) {
    const last = spec.knots[spec.knots.length - 1];
    if (!last || spec.model !== 'gbm') continue;
    const jitter = createRandom(seed, 'anchor', spec.symbol).logNormal(1, 0.015);
    spec.knots = [...spec.knots.slice(0, -1), [last[0], last[1] * jitter] as const];
  }
  return specs;
}

interface EtfInput {
  symbol: string;
  name: string;
  exchange: 'AMEX' | 'NASDAQ';
  theme: EtfTheme | undefined;
  inception: string;
  start: number;
  anchor: number;
  volume: number;
  shares: number;
  issuer: string;
  knots: readonly (readonly [string, number])[];
  splits?: readonly SplitEvent[];
  sample?: boolean;
}

function etfSpec(input: EtfInput): SecuritySpec {
  const theme = input.theme ?? ETF_THEMES[0];
  if (!theme) throw new Error('no ETF themes');
  const familiar = input.symbol === 'SPY' || input.symbol === 'QQQ';
  const inceptionDay = toDay(input.inception);
  const startDay = familiar
    ? Math.max(PRICE_EPOCH_DAY, inceptionDay)
    : Math.max(TAIL_EPOCH_DAY, inceptionDay);
  return {
    symbol: input.symbol,
    name: input.name,
    assetType: 'etf',
    exchange: input.exchange,
    exchangeFullName: input.exchange === 'AMEX' ? 'New York Stock Exchange Arca' : 'NASDAQ Global Market',
    currency: 'USD',
    country: 'US',
    sector: '',
    industry:
      theme.assetClass === 'Equity'
        ? 'Asset Management'
        : theme.assetClass === 'Fixed Income'
          ? 'Asset Management - Bonds'
          : 'Asset Management - Commodities',
    sharesOutstanding: input.shares,
    sample: familiar || input.sample === true,
    details: {
      etfCompany: input.issuer,
      assetClass: theme.assetClass,
      expenseRatio: familiar ? (input.symbol === 'SPY' ? 0.0945 : 0.2) : round(theme.expense * 100, 4),
      inceptionDate: input.inception,
    },
    familiar,
    tier: familiar ? 'core' : 'tail',
    calendar: 'exchange',
    startDay,
    knots: knotList(startDay, input.start, input.knots, input.anchor),
    vol: theme.vol,
    beta: theme.beta,
    factor: theme.beta === 0 && theme.assetClass !== 'Equity' ? 'none' : 'equity',
    model: 'gbm',
    fixedSplits: input.splits ?? [],
    splitRate: 0,
    dividend:
      theme.yield > 0
        ? {
            yield: input.symbol === 'QQQ' ? 0.006 : theme.yield,
            startDay,
            frequency: theme.monthly ? 'Monthly' : 'Quarterly',
            firstMonth: 3,
            dayOfMonth: 18,
          }
        : null,
    fundamentals: null,
    ipoDate: input.inception,
    volume: input.volume,
    marketCap: input.shares * input.anchor,
    facts: null,
  };
}

const TEST_EXTRA_SYMBOLS = [
  'SOLUSD',
  'XRPUSD',
  'BNBUSD',
  'DOGEUSD',
  'ADAUSD',
  'USDCHF',
  'AUDUSD',
  'EURGBP',
  'SIUSD',
  'NGUSD',
  'HGUSD',
  'ZCUSX',
  '^RUT',
  '^VIX',
  '^FTSE',
  '^N225',
  '^TNX',
];

/**
 * The instruments of a data set. The test scale keeps the familiar symbols and about forty others of every
 * asset type, taken from the full universe so that a symbol's data is the same at both scales.
 */
export function buildUniverse(seed: number, scale: Scale): SecuritySpec[] {
  const all = fullUniverse(seed);
  if (scale === 'full') return all;
  const keep = new Set<string>([...FAMILIAR_SYMBOLS, ...TEST_EXTRA_SYMBOLS]);
  const stocks = all.filter((s) => s.assetType === 'stock' && !s.familiar);
  const byCap = (list: SecuritySpec[]): SecuritySpec[] =>
    [...list].sort(
      (a, b) =>
        (b.marketCap ?? 0) * (USD_PER_UNIT[b.currency] ?? 1) -
        (a.marketCap ?? 0) * (USD_PER_UNIT[a.currency] ?? 1),
    );
  const usCore = stocks.filter((s) => s.tier === 'core');
  const usLarge = byCap(stocks.filter((s) => s.tier === 'large' && s.country === 'US'));
  for (const s of usCore.slice(0, 4)) keep.add(s.symbol);
  for (let i = 0; i < 8; i += 1) {
    const s = usLarge[Math.floor((i * usLarge.length) / 8)];
    if (s) keep.add(s.symbol);
  }
  for (const ex of ['LSE', 'XETRA', 'TSX', 'JPX', 'HKSE', 'EURONEXT']) {
    const s = byCap(stocks.filter((x) => x.exchange === ex && x.tier === 'large'))[0];
    if (s) keep.add(s.symbol);
  }
  const tail = stocks.filter((s) => s.tier === 'tail');
  for (let i = 0; i < 4; i += 1) {
    const s = tail[Math.floor((i * tail.length) / 4) + 7];
    if (s) keep.add(s.symbol);
  }
  const etfs = all.filter((s) => s.assetType === 'etf' && !s.familiar && s.sample);
  for (const s of etfs.slice(0, 5)) keep.add(s.symbol);
  return all.filter((s) => keep.has(s.symbol));
}
