import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { revenueSegments, type SegmentKind } from '../../db/schema.ts';
import { periodsFor, type PeriodSelector } from './statements.ts';

/** One row of `revenue-product-segmentation` or `revenue-geographic-segmentation`. */
export interface SegmentationRow {
  symbol: string;
  fiscalYear: number;
  period: string;
  reportedCurrency: string;
  date: string;
  data: Record<string, number>;
}

/**
 * A company's revenue by product line or by region, newest period first, as stored by the seed; the
 * segments of a period largest first.
 */
export async function segmentationRows(
  db: Db,
  kind: SegmentKind,
  query: { symbol: string; period: PeriodSelector; limit: number },
): Promise<SegmentationRow[]> {
  const rows = await db
    .select({
      symbol: revenueSegments.symbol,
      fiscalYear: revenueSegments.fiscalYear,
      period: revenueSegments.period,
      reportedCurrency: revenueSegments.reportedCurrency,
      date: revenueSegments.date,
      data: revenueSegments.data,
    })
    .from(revenueSegments)
    .where(
      and(
        eq(revenueSegments.symbol, query.symbol),
        eq(revenueSegments.kind, kind),
        inArray(revenueSegments.period, periodsFor(query.period)),
      ),
    )
    .orderBy(desc(revenueSegments.date), desc(revenueSegments.period))
    .limit(query.limit);
  return rows.map((row) => ({ ...row, data: largestFirst(row.data) }));
}

/** Segments largest first: stored JSON keeps no key order, and the biggest segment is what a reader looks for. */
function largestFirst(data: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(data).sort(([, a], [, b]) => b - a));
}
