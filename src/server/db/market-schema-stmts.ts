import { sql } from 'drizzle-orm';
import { check, date, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { securities } from './market-schema.ts';

/** How a company splits its revenue: by product line or by region. */
export const SEGMENT_KINDS = ['product', 'geographic'] as const;
export type SegmentKind = (typeof SEGMENT_KINDS)[number];

/**
 * Revenue by segment of each filed period: one row per company, kind and fiscal period, the segments'
 * revenues in `data` (segment name → revenue), which add up to the period's stored revenue.
 */
export const revenueSegments = pgTable(
  'revenue_segments',
  {
    symbol: text('symbol')
      .notNull()
      .references(() => securities.symbol, { onDelete: 'cascade', onUpdate: 'cascade' }),
    kind: text('kind', { enum: SEGMENT_KINDS }).notNull(),
    fiscalYear: integer('fiscal_year').notNull(),
    period: text('period').notNull(),
    /** Period end date. */
    date: date('date', { mode: 'string' }).notNull(),
    reportedCurrency: text('reported_currency').notNull(),
    data: jsonb('data').$type<Record<string, number>>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.symbol, t.kind, t.fiscalYear, t.period] }),
    check('revenue_segments_kind_check', sql`kind in ('product', 'geographic')`),
  ],
);
