import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { financialStatements, revenueSegments, securities, type SegmentKind } from '../../../db/schema.ts';
import { createRandom } from './random.ts';

/**
 * Revenue by segment, derived once at seed time from the stored income statements: every filed period's
 * revenue split into product lines (named after the company's sector) and regions, with a mix that is
 * the company's own and drifts a little from period to period. The parts add up to the stored revenue
 * exactly, so an answer never disagrees with the income statement.
 */

/** Product lines by sector, the first two to four of which a company reports. */
const PRODUCT_LINES: Readonly<Record<string, readonly string[]>> = {
  Technology: ['Hardware', 'Software', 'Services', 'Licensing'],
  Healthcare: ['Pharmaceuticals', 'Medical Devices', 'Diagnostics', 'Consumer Health'],
  'Financial Services': ['Banking', 'Asset Management', 'Insurance', 'Payments'],
  'Consumer Cyclical': ['Vehicles', 'Apparel', 'Online Stores', 'Services'],
  'Consumer Defensive': ['Food', 'Beverages', 'Household Products', 'Personal Care'],
  Industrials: ['Machinery', 'Aerospace', 'Building Products', 'Services'],
  Energy: ['Upstream', 'Downstream', 'Chemicals', 'Power'],
  'Basic Materials': ['Chemicals', 'Metals', 'Packaging', 'Specialty Materials'],
  'Communication Services': ['Advertising', 'Subscriptions', 'Devices', 'Licensing'],
  'Real Estate': ['Rental Income', 'Property Management', 'Development', 'Other'],
  Utilities: ['Electric', 'Gas', 'Water', 'Renewables'],
};
const DEFAULT_LINES = ['Products', 'Services', 'Other'] as const;

/** Regions every company reports its revenue by. */
const REGIONS = ['Americas', 'Europe', 'Asia Pacific', 'Rest of World'] as const;

/** Rows written per insert statement. */
const BATCH = 500;

/**
 * `revenue` split by `weights` into whole amounts that add up to it exactly: each part rounded, the
 * last one taking what the rounding left.
 */
export function splitRevenue(
  revenue: number,
  names: readonly string[],
  weights: readonly number[],
): Record<string, number> {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const parts: Record<string, number> = {};
  let assigned = 0;
  names.forEach((name, index) => {
    const last = index === names.length - 1;
    const amount = last ? revenue - assigned : Math.round((revenue * (weights[index] ?? 0)) / total);
    parts[name] = amount;
    assigned += amount;
  });
  return parts;
}

/** The segments a company reports, with its own base mix (the same in every period). */
function companyMix(
  seed: number,
  symbol: string,
  kind: SegmentKind,
  sector: string,
): { names: string[]; base: number[] } {
  const random = createRandom(seed, 'segments', kind, symbol);
  const pool = kind === 'geographic' ? REGIONS : (PRODUCT_LINES[sector] ?? DEFAULT_LINES);
  const count = kind === 'geographic' ? pool.length : random.int(2, Math.min(4, pool.length));
  const names = pool.slice(0, count);
  return { names, base: names.map(() => random.range(0.5, 3)) };
}

/** Writes the product and geographic segments of every stored income statement. */
export async function seedRevenueSegments(db: Db, seed: number): Promise<number> {
  const incomes = await db
    .select({
      symbol: financialStatements.symbol,
      fiscalYear: financialStatements.fiscalYear,
      period: financialStatements.period,
      date: financialStatements.date,
      data: financialStatements.data,
      sector: securities.sector,
    })
    .from(financialStatements)
    .innerJoin(securities, eq(securities.symbol, financialStatements.symbol))
    .where(and(eq(financialStatements.statement, 'income')))
    .orderBy(asc(financialStatements.symbol), asc(financialStatements.date));
  const rows: (typeof revenueSegments.$inferInsert)[] = [];
  for (const income of incomes) {
    const revenue = Number(income.data.revenue ?? 0);
    if (!Number.isFinite(revenue) || revenue <= 0) continue;
    for (const kind of ['product', 'geographic'] as const) {
      const { names, base } = companyMix(seed, income.symbol, kind, income.sector);
      const drift = createRandom(seed, 'segments', kind, income.symbol, income.fiscalYear, income.period);
      const weights = base.map((weight) => weight * (1 + 0.08 * drift.normal()));
      rows.push({
        symbol: income.symbol,
        kind,
        fiscalYear: income.fiscalYear,
        period: income.period,
        date: income.date,
        reportedCurrency: String(income.data.reportedCurrency ?? 'USD'),
        data: splitRevenue(
          revenue,
          names,
          weights.map((weight) => Math.max(weight, 0.05)),
        ),
      });
    }
  }
  for (let start = 0; start < rows.length; start += BATCH) {
    await db.insert(revenueSegments).values(rows.slice(start, start + BATCH));
  }
  return rows.length;
}
