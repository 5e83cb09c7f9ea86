import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { securities } from './market-schema.ts';

// SEC filings and what is filed with them: the filing index every filings endpoint and the filing pages
// read, House members' trades, 13F holdings per filer, Schedule 13D/G filings and private offerings
// (Form C, Form D). Rows FMP defines with many fields read together are kept as FMP's JSON.

type JsonRow = Record<string, string | number | boolean | null>;

/** One SEC filing (10-K, 10-Q, 8-K, 4, 13F-HR, SC 13G, S-1, C, D, …); its id is the accession number. */
export const secFilings = pgTable(
  'sec_filings',
  {
    id: text('id').primaryKey(),
    /** The company's ticker; empty for filers without one (institutions, private issuers). */
    symbol: text('symbol').notNull().default(''),
    cik: text('cik').notNull(),
    companyName: text('company_name').notNull(),
    formType: text('form_type').notNull(),
    filingDate: date('filing_date', { mode: 'string' }).notNull(),
    /** When the SEC accepted it, 'YYYY-MM-DD HH:MM:SS' (New York time). */
    acceptedDate: text('accepted_date').notNull(),
    hasFinancials: boolean('has_financials').notNull().default(false),
    /** The reporting period's end (10-K, 10-Q, 13F-HR) or the event's date (8-K). */
    periodEnd: date('period_end', { mode: 'string' }),
    /** Fiscal year and period (FY, Q1–Q4) of the statements a 10-K or 10-Q carries. */
    fiscalYear: integer('fiscal_year'),
    period: text('period'),
    /** What the filing reports, in a line: 'Results of Operations and Financial Condition (Items 2.02, 9.01)'. */
    description: text('description').notNull().default(''),
  },
  (t) => [
    index('sec_filings_filing_date_idx').on(t.filingDate),
    index('sec_filings_symbol_idx').on(t.symbol, t.filingDate),
    index('sec_filings_cik_idx').on(t.cik, t.filingDate),
    index('sec_filings_form_type_idx').on(t.formType, t.filingDate),
  ],
);

/** House members' periodic transaction reports, FMP's house-latest row as JSON. */
export const houseTrades = pgTable(
  'house_trades',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    symbol: text('symbol')
      .notNull()
      .references(() => securities.symbol, { onDelete: 'cascade', onUpdate: 'cascade' }),
    disclosureDate: date('disclosure_date', { mode: 'string' }).notNull(),
    data: jsonb('data').$type<JsonRow>().notNull(),
  },
  (t) => [index('house_trades_disclosure_date_idx').on(t.disclosureDate)],
);

/** Institutions that file 13F reports. */
export const institutionalHolders = pgTable('institutional_holders', {
  cik: text('cik').primaryKey(),
  name: text('name').notNull(),
});

/** What one 13F filer held of one stock at a calendar quarter's end (shares; values come from prices). */
export const institutionalHoldings = pgTable(
  'institutional_holdings',
  {
    /** The filer (institutional_holders.cik; not a reference, as holdings are written before the filers). */
    cik: text('cik').notNull(),
    symbol: text('symbol')
      .notNull()
      .references(() => securities.symbol, { onDelete: 'cascade', onUpdate: 'cascade' }),
    year: integer('year').notNull(),
    quarter: integer('quarter').notNull(),
    /** The accession number of the 13F-HR reporting it (sec_filings.id). */
    filingId: text('filing_id').notNull(),
    shares: bigint('shares', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.cik, t.symbol, t.year, t.quarter] }),
    index('institutional_holdings_symbol_idx').on(t.symbol, t.year, t.quarter),
    check('institutional_holdings_quarter_check', sql`quarter between 1 and 4`),
  ],
);

/** Schedule 13D/13G filings, FMP's acquisition-of-beneficial-ownership row as JSON. */
export const beneficialOwnership = pgTable(
  'beneficial_ownership',
  {
    id: text('id').primaryKey(),
    symbol: text('symbol')
      .notNull()
      .references(() => securities.symbol, { onDelete: 'cascade', onUpdate: 'cascade' }),
    filingDate: date('filing_date', { mode: 'string' }).notNull(),
    data: jsonb('data').$type<JsonRow>().notNull(),
  },
  (t) => [index('beneficial_ownership_symbol_idx').on(t.symbol, t.filingDate)],
);

/** Private offerings: Form C (crowdfunding) and Form D (exempt offerings), FMP's rows as JSON. */
export const privateOfferings = pgTable(
  'private_offerings',
  {
    id: text('id').primaryKey(),
    /** 'C' for crowdfunding, 'D' for fundraising. */
    kind: text('kind', { enum: ['C', 'D'] }).notNull(),
    cik: text('cik').notNull(),
    companyName: text('company_name').notNull(),
    filingDate: date('filing_date', { mode: 'string' }).notNull(),
    data: jsonb('data').$type<JsonRow>().notNull(),
  },
  (t) => [
    index('private_offerings_kind_idx').on(t.kind, t.filingDate),
    index('private_offerings_cik_idx').on(t.cik),
    check('private_offerings_kind_check', sql`kind in ('C', 'D')`),
  ],
);
