import { sql } from 'drizzle-orm';
import { check, date, doublePrecision, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { securities } from './market-schema.ts';

// Index memberships with their history of changes, and the holdings of funds (ETFs and mutual funds).

/** The indexes whose members are kept: S&P 500, Nasdaq 100 and the Dow Jones Industrial Average. */
export const CONSTITUENT_INDEXES = ['sp500', 'nasdaq', 'dowjones'] as const;
export type ConstituentIndex = (typeof CONSTITUENT_INDEXES)[number];

const memberRef = (name: string) =>
  text(name).references(() => securities.symbol, { onDelete: 'cascade', onUpdate: 'cascade' });

/** Today's members of each index, with the date each joined. */
export const indexConstituents = pgTable(
  'index_constituents',
  {
    indexCode: text('index_code', { enum: CONSTITUENT_INDEXES }).notNull(),
    symbol: memberRef('symbol').notNull(),
    dateFirstAdded: date('date_first_added', { mode: 'string' }).notNull(),
    /** Year the company was founded, as FMP writes it ('1976'). */
    founded: text('founded').notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.indexCode, t.symbol] }),
    check('index_constituents_index_check', sql`index_code in ('sp500', 'nasdaq', 'dowjones')`),
  ],
);

/** One change of an index's members: a company added in place of another, on a date, for a reason. */
export const indexConstituentChanges = pgTable(
  'index_constituent_changes',
  {
    indexCode: text('index_code', { enum: CONSTITUENT_INDEXES }).notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    /** The ticker added (a member since), or null when a member left without a replacement. */
    addedSymbol: memberRef('added_symbol'),
    removedSymbol: memberRef('removed_symbol'),
    reason: text('reason').notNull(),
    sequence: integer('sequence').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.indexCode, t.sequence] }),
    check('index_constituent_changes_index_check', sql`index_code in ('sp500', 'nasdaq', 'dowjones')`),
    index('index_constituent_changes_date_idx').on(t.indexCode, t.date),
  ],
);

/**
 * What a fund (an ETF or a mutual fund) holds: shares of each security per report. A fund's latest report
 * is the holdings it publishes itself (ETFs daily); the reports it files with the SEC on Form N-PORT name
 * their filing. Values and weights are not stored: they follow prices.
 */
export const etfHoldings = pgTable(
  'etf_holdings',
  {
    /** The fund (an ETF or a mutual fund). */
    etfSymbol: memberRef('etf_symbol').notNull(),
    assetSymbol: memberRef('asset_symbol').notNull(),
    shares: doublePrecision('shares').notNull(),
    /** The date the report gives the holdings as of (a filing's period end). */
    reportDate: date('report_date', { mode: 'string' }).notNull(),
    /** The accession number of the NPORT-P filing that reports them (sec_filings.id); null when the fund published them itself. */
    filingId: text('filing_id'),
  },
  (t) => [
    primaryKey({ columns: [t.etfSymbol, t.reportDate, t.assetSymbol] }),
    index('etf_holdings_asset_idx').on(t.assetSymbol),
    check('etf_holdings_shares_check', sql`shares > 0`),
  ],
);
