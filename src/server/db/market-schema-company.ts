import {
  bigint,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { securities } from './market-schema.ts';

// Company facts behind the directory and company endpoints (symbol changes, delistings, float, head count,
// notes, pay, mergers). Rows that name a listed security follow it when it is renamed or removed.

const symbolRef = () =>
  text('symbol')
    .notNull()
    .references(() => securities.symbol, { onDelete: 'cascade', onUpdate: 'cascade' });

/** Past ticker changes: the listing now trading as new_symbol traded as old_symbol until `date`. */
export const symbolChanges = pgTable(
  'symbol_changes',
  {
    date: date('date', { mode: 'string' }).notNull(),
    companyName: text('company_name').notNull(),
    oldSymbol: text('old_symbol').notNull(),
    newSymbol: text('new_symbol').notNull(),
  },
  (t) => [primaryKey({ columns: [t.oldSymbol, t.date] }), index('symbol_changes_date_idx').on(t.date)],
);

/** Securities no longer listed: they have no prices any more, so they are kept apart from `securities`. */
export const delistedCompanies = pgTable(
  'delisted_companies',
  {
    symbol: text('symbol').primaryKey(),
    companyName: text('company_name').notNull(),
    exchange: text('exchange').notNull(),
    ipoDate: date('ipo_date', { mode: 'string' }).notNull(),
    delistedDate: date('delisted_date', { mode: 'string' }).notNull(),
  },
  (t) => [index('delisted_companies_delisted_date_idx').on(t.delistedDate)],
);

/** The shares the public can trade (free float) next to those outstanding, as last reported. */
export const sharesFloat = pgTable('shares_float', {
  symbol: symbolRef().primaryKey(),
  /** When the figures were taken, exchange-neutral wall time ("2026-11-19 12:10:05"). */
  date: timestamp('date', { mode: 'string' }).notNull(),
  /** Float shares as a percentage of the outstanding shares. */
  freeFloat: doublePrecision('free_float').notNull(),
  floatShares: bigint('float_shares', { mode: 'number' }).notNull(),
  outstandingShares: bigint('outstanding_shares', { mode: 'number' }).notNull(),
  source: text('source').notNull(),
});

/** Head count as each annual report (10-K) states it. */
export const employeeCounts = pgTable(
  'employee_counts',
  {
    symbol: symbolRef(),
    periodOfReport: date('period_of_report', { mode: 'string' }).notNull(),
    cik: text('cik').notNull(),
    acceptanceTime: timestamp('acceptance_time', { mode: 'string' }).notNull(),
    companyName: text('company_name').notNull(),
    formType: text('form_type').notNull(),
    filingDate: date('filing_date', { mode: 'string' }).notNull(),
    employeeCount: integer('employee_count').notNull(),
    source: text('source').notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.periodOfReport] })],
);

/** Notes and bonds a company has issued that trade under their own ticker. */
export const companyNotes = pgTable(
  'company_notes',
  {
    symbol: symbolRef(),
    /** What the note is, as its indenture names it: "4.650% Notes due 2046". */
    title: text('title').notNull(),
    /** Where the notes are listed. */
    exchange: text('exchange').notNull(),
    /** Maturity, for ordering: soonest first. */
    maturity: date('maturity', { mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.title] })],
);

/** Pay of named executives per fiscal year, as the proxy statement's summary compensation table lists it. */
export const executiveCompensation = pgTable(
  'executive_compensation',
  {
    symbol: symbolRef(),
    year: integer('year').notNull(),
    nameAndPosition: text('name_and_position').notNull(),
    cik: text('cik').notNull(),
    companyName: text('company_name').notNull(),
    industry: text('industry').notNull(),
    filingDate: date('filing_date', { mode: 'string' }).notNull(),
    acceptedDate: timestamp('accepted_date', { mode: 'string' }).notNull(),
    salary: bigint('salary', { mode: 'number' }).notNull(),
    bonus: bigint('bonus', { mode: 'number' }).notNull(),
    stockAward: bigint('stock_award', { mode: 'number' }).notNull(),
    optionAward: bigint('option_award', { mode: 'number' }).notNull(),
    incentivePlanCompensation: bigint('incentive_plan_compensation', { mode: 'number' }).notNull(),
    allOtherCompensation: bigint('all_other_compensation', { mode: 'number' }).notNull(),
    total: bigint('total', { mode: 'number' }).notNull(),
    link: text('link').notNull(),
    sortOrder: integer('sort_order').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.symbol, t.year, t.nameAndPosition] }),
    index('executive_compensation_year_idx').on(t.year, t.industry),
  ],
);

/** Mergers and acquisitions as filed with the SEC: the acquirer is a listed company. */
export const mergersAcquisitions = pgTable(
  'mergers_acquisitions',
  {
    id: uuid('id').primaryKey(),
    symbol: symbolRef(),
    companyName: text('company_name').notNull(),
    cik: text('cik').notNull(),
    targetedCompanyName: text('targeted_company_name').notNull(),
    targetedCik: text('targeted_cik').notNull(),
    targetedSymbol: text('targeted_symbol').notNull(),
    transactionDate: date('transaction_date', { mode: 'string' }).notNull(),
    acceptedDate: timestamp('accepted_date', { mode: 'string' }).notNull(),
    link: text('link').notNull(),
  },
  (t) => [index('mergers_acquisitions_accepted_idx').on(t.acceptedDate)],
);
