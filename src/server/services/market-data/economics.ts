import { and, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import { isoDay, shiftIsoMonths } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import { economicIndicators, treasuryRates } from '../../db/schema.ts';

/**
 * The indicator names FMP's economic-indicators endpoint accepts; a name outside it is a client error
 * (FMP answers it with an error, not with an empty list), whatever the loaded data set holds.
 */
export const ECONOMIC_INDICATOR_NAMES = [
  'GDP',
  'realGDP',
  'nominalPotentialGDP',
  'realGDPPerCapita',
  'federalFunds',
  'CPI',
  'inflationRate',
  'inflation',
  'retailSales',
  'consumerSentiment',
  'durableGoods',
  'unemploymentRate',
  'totalNonfarmPayroll',
  'initialClaims',
  'industrialProductionTotalIndex',
  'newPrivatelyOwnedHousingUnitsStartedTotalUnits',
  'totalVehicleSales',
  'retailMoneyFunds',
  'smoothedUSRecessionProbabilities',
  '3MonthOr90DayRatesAndYieldsCertificatesOfDeposit',
  'commercialBankInterestRateOnCreditCardPlansAllAccounts',
  '30YearFixedRateMortgageAverage',
  '15YearFixedRateMortgageAverage',
] as const;
/** A series the economic-indicators endpoint serves. */
export type EconomicIndicatorName = (typeof ECONOMIC_INDICATOR_NAMES)[number];

/** FMP's treasury-rates row: the par yield curve of one day, in percent. */
export interface TreasuryRateRow {
  date: string;
  month1: number;
  month2: number;
  month3: number;
  month6: number;
  year1: number;
  year2: number;
  year3: number;
  year5: number;
  year7: number;
  year10: number;
  year20: number;
  year30: number;
}

/** FMP's economic-indicators row. */
export interface EconomicIndicatorRow {
  name: string;
  date: string;
  value: number;
}

/** Optional inclusive bounds (YYYY-MM-DD): either side may be left open. */
export interface DateRange {
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * The dates a treasury-rates request reads: as given, else the three months up to `to` (or today), as
 * FMP defaults to a recent window rather than thirty years of curves.
 */
export function treasuryRange(range: DateRange, now: Date): { from: string; to: string } {
  const to = range.to ?? isoDay(now);
  const from = range.from ?? shiftIsoMonths(to, -3);
  return { from, to };
}

/** Daily yield curves within the range, newest first. */
export async function treasuryRateRows(db: Db, range: DateRange, now: Date): Promise<TreasuryRateRow[]> {
  const { from, to } = treasuryRange(range, now);
  const rows = await db
    .select()
    .from(treasuryRates)
    .where(and(gte(treasuryRates.date, from), lte(treasuryRates.date, to)))
    .orderBy(desc(treasuryRates.date));
  return rows.map((row) => ({
    date: row.date,
    month1: row.month1,
    month2: row.month2,
    month3: row.month3,
    month6: row.month6,
    year1: row.year1,
    year2: row.year2,
    year3: row.year3,
    year5: row.year5,
    year7: row.year7,
    year10: row.year10,
    year20: row.year20,
    year30: row.year30,
  }));
}

/** The latest stored yield curve on or before a date (the risk-free rate of valuations). */
export async function treasuryRateOn(db: Db, date: string): Promise<TreasuryRateRow | undefined> {
  const [row] = await db
    .select()
    .from(treasuryRates)
    .where(lte(treasuryRates.date, date))
    .orderBy(desc(treasuryRates.date))
    .limit(1);
  return row;
}

/** One indicator's observations within the (optional) range, newest first. */
export async function economicIndicatorRows(
  db: Db,
  name: EconomicIndicatorName,
  range: DateRange,
): Promise<EconomicIndicatorRow[]> {
  const conditions: SQL[] = [eq(economicIndicators.name, name)];
  if (range.from !== undefined) conditions.push(gte(economicIndicators.date, range.from));
  if (range.to !== undefined) conditions.push(lte(economicIndicators.date, range.to));
  const rows = await db
    .select()
    .from(economicIndicators)
    .where(and(...conditions))
    .orderBy(desc(economicIndicators.date));
  return rows.map((row) => ({ name: row.name, date: row.date, value: row.value }));
}
