import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

// Market data behind the /stable/* API. Prices and the columns endpoints filter or sort on are typed;
// rows that FMP defines with dozens of fields which are only ever read together (statements, estimates,
// filings) are kept as FMP's own JSON, so the importer can load the API's answers unchanged.

/** Asset types the API lists separately (stock-list, etf-list, cryptocurrency-list, …). */
export const ASSET_TYPES = ['stock', 'etf', 'fund', 'crypto', 'forex', 'commodity', 'index'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/** Where rows came from: the deterministic demo generator or a loaded data set. */
export const DATA_SOURCES = ['demo', 'imported'] as const;
export type DataSource = (typeof DATA_SOURCES)[number];

export const STATEMENT_TYPES = ['income', 'balance-sheet', 'cash-flow'] as const;
export type StatementType = (typeof STATEMENT_TYPES)[number];

export const FISCAL_PERIODS = ['FY', 'Q1', 'Q2', 'Q3', 'Q4'] as const;
export type FiscalPeriod = (typeof FISCAL_PERIODS)[number];

export const NEWS_CATEGORIES = ['stock', 'crypto', 'forex', 'general'] as const;
export type NewsCategory = (typeof NEWS_CATEGORIES)[number];

const symbolRef = () =>
  text('symbol')
    .notNull()
    .references(() => securities.symbol, { onDelete: 'cascade', onUpdate: 'cascade' });

/** Every tradable or quoted instrument: one row per symbol, whatever its asset type. */
export const securities = pgTable(
  'securities',
  {
    symbol: text('symbol').primaryKey(),
    name: text('name').notNull(),
    assetType: text('asset_type', { enum: ASSET_TYPES }).notNull(),
    /** Short exchange code as FMP writes it (NASDAQ, NYSE, CRYPTO, FOREX, COMMODITY, INDEX, …). */
    exchange: text('exchange').notNull(),
    exchangeFullName: text('exchange_full_name').notNull(),
    currency: text('currency').notNull(),
    country: text('country').notNull().default(''),
    sector: text('sector').notNull().default(''),
    industry: text('industry').notNull().default(''),
    /** Shares (or coins) outstanding, for market capitalisation; null where it means nothing (forex). */
    sharesOutstanding: doublePrecision('shares_outstanding'),
    /** Part of the free plan's sample of symbols. */
    sample: boolean('sample').notNull().default(false),
    active: boolean('active').notNull().default(true),
    /** Type-specific facts: icoDate/circulatingSupply/totalSupply, fromCurrency/toCurrency, tradeMonth. */
    details: jsonb('details').$type<Record<string, string | number | null>>().notNull().default({}),
    source: text('source', { enum: DATA_SOURCES }).notNull().default('demo'),
  },
  (t) => [
    check(
      'securities_asset_type_check',
      sql`asset_type in ('stock', 'etf', 'fund', 'crypto', 'forex', 'commodity', 'index')`,
    ),
    check('securities_source_check', sql`source in ('demo', 'imported')`),
    index('securities_asset_type_idx').on(t.assetType),
    index('securities_sector_idx').on(t.sector),
  ],
);

/** Company facts shown by the profile endpoint and the symbol pages. */
export const companyProfiles = pgTable('company_profiles', {
  symbol: symbolRef().primaryKey(),
  description: text('description').notNull().default(''),
  ceo: text('ceo').notNull().default(''),
  website: text('website').notNull().default(''),
  phone: text('phone').notNull().default(''),
  address: text('address').notNull().default(''),
  city: text('city').notNull().default(''),
  state: text('state').notNull().default(''),
  zip: text('zip').notNull().default(''),
  cik: text('cik').notNull().default(''),
  isin: text('isin').notNull().default(''),
  cusip: text('cusip').notNull().default(''),
  fullTimeEmployees: integer('full_time_employees'),
  ipoDate: date('ipo_date', { mode: 'string' }),
  image: text('image').notNull().default(''),
  beta: doublePrecision('beta').notNull().default(1),
  isAdr: boolean('is_adr').notNull().default(false),
});

/** One trading day per symbol; adj_close reflects splits and dividends (back-adjusted). */
export const dailyPrices = pgTable(
  'daily_prices',
  {
    symbol: symbolRef(),
    date: date('date', { mode: 'string' }).notNull(),
    open: doublePrecision('open').notNull(),
    high: doublePrecision('high').notNull(),
    low: doublePrecision('low').notNull(),
    close: doublePrecision('close').notNull(),
    adjClose: doublePrecision('adj_close').notNull(),
    volume: bigint('volume', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.symbol, t.date] }),
    index('daily_prices_date_idx').on(t.date),
    check('daily_prices_range_check', sql`low <= high and volume >= 0`),
  ],
);

/** One-minute bars; coarser intervals (5min … 4hour) are aggregated from them on request. */
export const intradayPrices = pgTable(
  'intraday_prices',
  {
    symbol: symbolRef(),
    /** Exchange-local time of the bar's start, as FMP writes it ("2026-11-20 15:59:00"). */
    time: timestamp('time', { mode: 'string' }).notNull(),
    open: doublePrecision('open').notNull(),
    high: doublePrecision('high').notNull(),
    low: doublePrecision('low').notNull(),
    close: doublePrecision('close').notNull(),
    volume: bigint('volume', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.time] })],
);

/** Income, balance-sheet and cash-flow statements, each row FMP's JSON for one period. */
export const financialStatements = pgTable(
  'financial_statements',
  {
    symbol: symbolRef(),
    statement: text('statement', { enum: STATEMENT_TYPES }).notNull(),
    fiscalYear: integer('fiscal_year').notNull(),
    period: text('period', { enum: FISCAL_PERIODS }).notNull(),
    /** Period end date. */
    date: date('date', { mode: 'string' }).notNull(),
    data: jsonb('data').$type<Record<string, string | number | null>>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.symbol, t.statement, t.fiscalYear, t.period] }),
    check('financial_statements_statement_check', sql`statement in ('income', 'balance-sheet', 'cash-flow')`),
    check('financial_statements_period_check', sql`period in ('FY', 'Q1', 'Q2', 'Q3', 'Q4')`),
    index('financial_statements_date_idx').on(t.symbol, t.statement, t.date),
  ],
);

export const dividends = pgTable(
  'dividends',
  {
    symbol: symbolRef(),
    /** Ex-dividend date. */
    date: date('date', { mode: 'string' }).notNull(),
    recordDate: date('record_date', { mode: 'string' }),
    paymentDate: date('payment_date', { mode: 'string' }),
    declarationDate: date('declaration_date', { mode: 'string' }),
    dividend: doublePrecision('dividend').notNull(),
    /** The dividend in today's share terms (divided by later split ratios). */
    adjDividend: doublePrecision('adj_dividend').notNull(),
    frequency: text('frequency').notNull().default('Quarterly'),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.date] })],
);

export const splits = pgTable(
  'splits',
  {
    symbol: symbolRef(),
    date: date('date', { mode: 'string' }).notNull(),
    numerator: doublePrecision('numerator').notNull(),
    denominator: doublePrecision('denominator').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.symbol, t.date] }),
    check('splits_ratio_check', sql`numerator > 0 and denominator > 0`),
  ],
);

export const keyExecutives = pgTable(
  'key_executives',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    symbol: symbolRef(),
    name: text('name').notNull(),
    title: text('title').notNull(),
    pay: bigint('pay', { mode: 'number' }),
    currencyPay: text('currency_pay').notNull().default('USD'),
    gender: text('gender').notNull().default(''),
    yearBorn: integer('year_born'),
    active: boolean('active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [index('key_executives_symbol_idx').on(t.symbol)],
);

/** Articles; stock news names its symbol, crypto and forex news their pair. */
export const news = pgTable(
  'news',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    category: text('category', { enum: NEWS_CATEGORIES }).notNull(),
    symbol: text('symbol'),
    publishedAt: timestamp('published_at', { mode: 'string' }).notNull(),
    publisher: text('publisher').notNull(),
    title: text('title').notNull(),
    image: text('image').notNull().default(''),
    site: text('site').notNull(),
    text: text('text').notNull(),
    url: text('url').notNull().unique(),
  },
  (t) => [
    check('news_category_check', sql`category in ('stock', 'crypto', 'forex', 'general')`),
    index('news_category_published_idx').on(t.category, t.publishedAt),
    index('news_symbol_published_idx').on(t.symbol, t.publishedAt),
  ],
);

export const earningCallTranscripts = pgTable(
  'earning_call_transcripts',
  {
    symbol: symbolRef(),
    fiscalYear: integer('fiscal_year').notNull(),
    quarter: integer('quarter').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    content: text('content').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.symbol, t.fiscalYear, t.quarter] }),
    check('earning_call_transcripts_quarter_check', sql`quarter between 1 and 4`),
  ],
);

/** Consensus forecasts per future period, FMP's analyst-estimates row as JSON. */
export const analystEstimates = pgTable(
  'analyst_estimates',
  {
    symbol: symbolRef(),
    period: text('period', { enum: ['annual', 'quarter'] }).notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    data: jsonb('data').$type<Record<string, string | number | null>>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.symbol, t.period, t.date] }),
    check('analyst_estimates_period_check', sql`period in ('annual', 'quarter')`),
  ],
);

export const priceTargets = pgTable('price_targets', {
  symbol: symbolRef().primaryKey(),
  targetHigh: doublePrecision('target_high').notNull(),
  targetLow: doublePrecision('target_low').notNull(),
  targetConsensus: doublePrecision('target_consensus').notNull(),
  targetMedian: doublePrecision('target_median').notNull(),
});

/** Analyst rating changes. */
export const grades = pgTable(
  'grades',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    symbol: symbolRef(),
    date: date('date', { mode: 'string' }).notNull(),
    gradingCompany: text('grading_company').notNull(),
    previousGrade: text('previous_grade').notNull().default(''),
    newGrade: text('new_grade').notNull(),
    action: text('action').notNull(),
  },
  (t) => [index('grades_symbol_date_idx').on(t.symbol, t.date)],
);

/** Reported and expected earnings per quarter; future rows have no actuals yet. */
export const earnings = pgTable(
  'earnings',
  {
    symbol: symbolRef(),
    date: date('date', { mode: 'string' }).notNull(),
    epsActual: doublePrecision('eps_actual'),
    epsEstimated: doublePrecision('eps_estimated'),
    revenueActual: doublePrecision('revenue_actual'),
    revenueEstimated: doublePrecision('revenue_estimated'),
    lastUpdated: date('last_updated', { mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.date] })],
);

/** US Treasury par yield curve, percent. */
export const treasuryRates = pgTable('treasury_rates', {
  date: date('date', { mode: 'string' }).primaryKey(),
  month1: doublePrecision('month1').notNull(),
  month2: doublePrecision('month2').notNull(),
  month3: doublePrecision('month3').notNull(),
  month6: doublePrecision('month6').notNull(),
  year1: doublePrecision('year1').notNull(),
  year2: doublePrecision('year2').notNull(),
  year3: doublePrecision('year3').notNull(),
  year5: doublePrecision('year5').notNull(),
  year7: doublePrecision('year7').notNull(),
  year10: doublePrecision('year10').notNull(),
  year20: doublePrecision('year20').notNull(),
  year30: doublePrecision('year30').notNull(),
});

export const economicIndicators = pgTable(
  'economic_indicators',
  {
    name: text('name').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    value: doublePrecision('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.name, t.date] })],
);

export const esgRatings = pgTable(
  'esg_ratings',
  {
    symbol: symbolRef(),
    fiscalYear: integer('fiscal_year').notNull(),
    /** Letter rating, AAA … CCC. */
    esgRiskRating: text('esg_risk_rating').notNull(),
    /** "rank out of count" within the industry, e.g. "12 out of 64". */
    industryRank: text('industry_rank').notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.fiscalYear] })],
);

/** Form 4 filings, FMP's insider-trading row as JSON. */
export const insiderTrades = pgTable(
  'insider_trades',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    symbol: symbolRef(),
    filingDate: date('filing_date', { mode: 'string' }).notNull(),
    data: jsonb('data').$type<Record<string, string | number | null>>().notNull(),
  },
  (t) => [
    index('insider_trades_filing_date_idx').on(t.filingDate),
    index('insider_trades_symbol_idx').on(t.symbol),
  ],
);

/** Senators' periodic transaction reports, FMP's senate-latest row as JSON. */
export const senateTrades = pgTable(
  'senate_trades',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    symbol: symbolRef(),
    disclosureDate: date('disclosure_date', { mode: 'string' }).notNull(),
    data: jsonb('data').$type<Record<string, string | number | null>>().notNull(),
  },
  (t) => [index('senate_trades_disclosure_date_idx').on(t.disclosureDate)],
);

/** 13F ownership summary per symbol and quarter, FMP's symbol-positions-summary row as JSON. */
export const institutionalOwnership = pgTable(
  'institutional_ownership',
  {
    symbol: symbolRef(),
    year: integer('year').notNull(),
    quarter: integer('quarter').notNull(),
    data: jsonb('data').$type<Record<string, string | number | null>>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.symbol, t.year, t.quarter] }),
    check('institutional_ownership_quarter_check', sql`quarter between 1 and 4`),
  ],
);

/** Facts about the loaded data set (which generator and seed made it, when), keyed by name. */
export const datasetInfo = pgTable('dataset_info', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<Record<string, unknown>>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type Security = typeof securities.$inferSelect;
export type CompanyProfile = typeof companyProfiles.$inferSelect;
export type DailyPrice = typeof dailyPrices.$inferSelect;
export type IntradayPrice = typeof intradayPrices.$inferSelect;
export type FinancialStatementRow = typeof financialStatements.$inferSelect;
export type Dividend = typeof dividends.$inferSelect;
export type Split = typeof splits.$inferSelect;
export type NewsArticle = typeof news.$inferSelect;
