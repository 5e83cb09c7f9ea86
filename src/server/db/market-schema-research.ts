import { sql } from 'drizzle-orm';
import {
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
import { securities } from './market-schema.ts';

// Research data the demo generator writes beside the analysts' and ownership tables: analysts'
// price-target notes, ESG disclosures with their scores, and the weekly Commitment of Traders reports.

const symbolRef = () =>
  text('symbol')
    .notNull()
    .references(() => securities.symbol, { onDelete: 'cascade', onUpdate: 'cascade' });

/** One analyst's published price target (a note), from which the price-target summary is counted. */
export const priceTargetNews = pgTable(
  'price_target_news',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    symbol: symbolRef(),
    publishedAt: timestamp('published_at', { mode: 'string' }).notNull(),
    title: text('title').notNull(),
    url: text('url').notNull(),
    analystName: text('analyst_name').notNull(),
    analystCompany: text('analyst_company').notNull(),
    publisher: text('publisher').notNull(),
    priceTarget: doublePrecision('price_target').notNull(),
    /** The target in today's share terms (divided by later split ratios). */
    adjPriceTarget: doublePrecision('adj_price_target').notNull(),
    priceWhenPosted: doublePrecision('price_when_posted').notNull(),
  },
  (t) => [
    index('price_target_news_symbol_idx').on(t.symbol, t.publishedAt),
    index('price_target_news_published_idx').on(t.publishedAt),
  ],
);

/** A company's ESG disclosure of one fiscal year with its scores (0–100, higher is better). */
export const esgDisclosures = pgTable(
  'esg_disclosures',
  {
    symbol: symbolRef(),
    fiscalYear: integer('fiscal_year').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    acceptedDate: timestamp('accepted_date', { mode: 'string' }).notNull(),
    formType: text('form_type').notNull(),
    environmentalScore: doublePrecision('environmental_score').notNull(),
    socialScore: doublePrecision('social_score').notNull(),
    governanceScore: doublePrecision('governance_score').notNull(),
    esgScore: doublePrecision('esg_score').notNull(),
    url: text('url').notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.fiscalYear] })],
);

/** The CFTC's weekly Commitment of Traders report of one futures market, FMP's row as JSON. */
export const cotReports = pgTable(
  'cot_reports',
  {
    symbol: symbolRef(),
    date: date('date', { mode: 'string' }).notNull(),
    data: jsonb('data').$type<Record<string, string | number | null>>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.symbol, t.date] }),
    check('cot_reports_data_check', sql`jsonb_typeof(data) = 'object'`),
  ],
);
