import { asc, avg, desc, eq, ilike, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  companyNotes,
  companyProfiles,
  employeeCounts,
  executiveCompensation,
  mergersAcquisitions,
  sharesFloat,
  type Security,
} from '../../db/schema.ts';
import { knownSymbols, latestMarketCaps } from './company-directory.ts';
import type { SymbolDirectory } from './directory.ts';
import { dailyBars, round, roundPrice, type DateRange } from './prices.ts';
import { marketCap } from './quotes.ts';

/**
 * Company facts beside the profile: market capitalisation (now and per day), free float, head count per
 * annual report, listed notes, executive pay and its industry averages, and mergers and acquisitions.
 */

export interface MarketCapRow {
  symbol: string;
  date: string;
  marketCap: number;
}

export interface SharesFloatRow {
  symbol: string;
  date: string;
  freeFloat: number;
  floatShares: number;
  outstandingShares: number;
  source: string;
}

export type SharesFloatAllRow = Omit<SharesFloatRow, 'source'>;

export interface EmployeeCountRow {
  symbol: string;
  cik: string;
  acceptanceTime: string;
  periodOfReport: string;
  companyName: string;
  formType: string;
  filingDate: string;
  employeeCount: number;
  source: string;
}

export interface CompanyNoteRow {
  cik: string;
  symbol: string;
  title: string;
  exchange: string;
}

export interface ExecutiveCompensationRow {
  cik: string;
  symbol: string;
  companyName: string;
  filingDate: string;
  acceptedDate: string;
  nameAndPosition: string;
  year: number;
  salary: number;
  bonus: number;
  stockAward: number;
  optionAward: number;
  incentivePlanCompensation: number;
  allOtherCompensation: number;
  total: number;
  link: string;
}

export interface CompensationBenchmarkRow {
  industryTitle: string;
  year: number;
  averageCompensation: number;
}

export interface MergerRow {
  symbol: string;
  companyName: string;
  cik: string;
  targetedCompanyName: string;
  targetedCik: string;
  targetedSymbol: string;
  transactionDate: string;
  acceptedDate: string;
  link: string;
}

/** Market capitalisation at the latest close of each known symbol with prices, in the order asked. */
export async function marketCapitalizations(
  db: Db,
  directory: SymbolDirectory,
  symbols: readonly string[],
  now: Date,
): Promise<MarketCapRow[]> {
  const known = knownSymbols(directory, symbols).map((security) => security.symbol);
  const caps = await latestMarketCaps(db, directory, known, now);
  const rows: MarketCapRow[] = [];
  for (const symbol of known) {
    const cap = caps.get(symbol);
    if (cap !== undefined) rows.push({ symbol, date: cap.date, marketCap: cap.marketCap });
  }
  return rows;
}

/**
 * Market capitalisation per trading day: the split-adjusted close (rounded as the charts show it) times
 * today's shares outstanding, newest first, at most `limit` days.
 */
export async function historicalMarketCap(
  db: Db,
  security: Pick<Security, 'symbol' | 'assetType' | 'sharesOutstanding'>,
  range: DateRange,
  limit: number,
): Promise<MarketCapRow[]> {
  const bars = await dailyBars(db, security.symbol, range, 'split');
  return bars.slice(0, limit).map((bar) => ({
    symbol: security.symbol,
    date: bar.date,
    marketCap: marketCap(roundPrice(bar.close, security.assetType), security),
  }));
}

const floatColumns = {
  symbol: sharesFloat.symbol,
  date: sharesFloat.date,
  freeFloat: sharesFloat.freeFloat,
  floatShares: sharesFloat.floatShares,
  outstandingShares: sharesFloat.outstandingShares,
};

/** The latest float figures of one company ([] when none are on file). */
export async function sharesFloatOf(db: Db, symbol: string): Promise<SharesFloatRow[]> {
  return db
    .select({ ...floatColumns, source: sharesFloat.source })
    .from(sharesFloat)
    .where(eq(sharesFloat.symbol, symbol));
}

/** Float figures of every company, a page at a time in ticker order. */
export async function sharesFloatPage(db: Db, page: number, limit: number): Promise<SharesFloatAllRow[]> {
  return db
    .select(floatColumns)
    .from(sharesFloat)
    .orderBy(asc(sharesFloat.symbol))
    .limit(limit)
    .offset(page * limit);
}

/** Head count per annual report, the latest report first. */
export async function employeeCountsOf(db: Db, symbol: string, limit: number): Promise<EmployeeCountRow[]> {
  return db
    .select({
      symbol: employeeCounts.symbol,
      cik: employeeCounts.cik,
      acceptanceTime: employeeCounts.acceptanceTime,
      periodOfReport: employeeCounts.periodOfReport,
      companyName: employeeCounts.companyName,
      formType: employeeCounts.formType,
      filingDate: employeeCounts.filingDate,
      employeeCount: employeeCounts.employeeCount,
      source: employeeCounts.source,
    })
    .from(employeeCounts)
    .where(eq(employeeCounts.symbol, symbol))
    .orderBy(desc(employeeCounts.periodOfReport))
    .limit(limit);
}

/** The company's listed notes, the soonest maturity first. */
export async function companyNotesOf(db: Db, symbol: string): Promise<CompanyNoteRow[]> {
  return db
    .select({
      cik: companyProfiles.cik,
      symbol: companyNotes.symbol,
      title: companyNotes.title,
      exchange: companyNotes.exchange,
    })
    .from(companyNotes)
    .innerJoin(companyProfiles, eq(companyProfiles.symbol, companyNotes.symbol))
    .where(eq(companyNotes.symbol, symbol))
    .orderBy(asc(companyNotes.maturity), asc(companyNotes.title));
}

/** Named executives' pay per proxy year, the latest year first, officers in the company's order. */
export async function executiveCompensationOf(db: Db, symbol: string): Promise<ExecutiveCompensationRow[]> {
  return db
    .select({
      cik: executiveCompensation.cik,
      symbol: executiveCompensation.symbol,
      companyName: executiveCompensation.companyName,
      filingDate: executiveCompensation.filingDate,
      acceptedDate: executiveCompensation.acceptedDate,
      nameAndPosition: executiveCompensation.nameAndPosition,
      year: executiveCompensation.year,
      salary: executiveCompensation.salary,
      bonus: executiveCompensation.bonus,
      stockAward: executiveCompensation.stockAward,
      optionAward: executiveCompensation.optionAward,
      incentivePlanCompensation: executiveCompensation.incentivePlanCompensation,
      allOtherCompensation: executiveCompensation.allOtherCompensation,
      total: executiveCompensation.total,
      link: executiveCompensation.link,
    })
    .from(executiveCompensation)
    .where(eq(executiveCompensation.symbol, symbol))
    .orderBy(desc(executiveCompensation.year), asc(executiveCompensation.sortOrder));
}

/**
 * The mean total pay of the named executives of each industry and year (every executive row counts
 * once), by year (the latest first) and industry; one year when `year` is given.
 */
export async function compensationBenchmark(
  db: Db,
  year: number | undefined,
): Promise<CompensationBenchmarkRow[]> {
  const rows = await db
    .select({
      industryTitle: executiveCompensation.industry,
      year: executiveCompensation.year,
      averageCompensation: avg(executiveCompensation.total).mapWith(Number),
    })
    .from(executiveCompensation)
    .where(year === undefined ? undefined : eq(executiveCompensation.year, year))
    .groupBy(executiveCompensation.industry, executiveCompensation.year)
    .orderBy(desc(executiveCompensation.year), asc(executiveCompensation.industry));
  return rows.map((row) => ({ ...row, averageCompensation: round(row.averageCompensation, 2) }));
}

const mergerColumns = {
  symbol: mergersAcquisitions.symbol,
  companyName: mergersAcquisitions.companyName,
  cik: mergersAcquisitions.cik,
  targetedCompanyName: mergersAcquisitions.targetedCompanyName,
  targetedCik: mergersAcquisitions.targetedCik,
  targetedSymbol: mergersAcquisitions.targetedSymbol,
  transactionDate: mergersAcquisitions.transactionDate,
  acceptedDate: mergersAcquisitions.acceptedDate,
  link: mergersAcquisitions.link,
};

/** Merger and acquisition filings, the latest accepted first. */
export async function latestMergers(db: Db, page: number, limit: number): Promise<MergerRow[]> {
  return db
    .select(mergerColumns)
    .from(mergersAcquisitions)
    .orderBy(desc(mergersAcquisitions.acceptedDate), asc(mergersAcquisitions.id))
    .limit(limit)
    .offset(page * limit);
}

/** Escapes LIKE's wildcards so a name is matched as written. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Filings whose acquirer or target name contains `name` (any case), the latest accepted first. */
export async function searchMergers(db: Db, name: string, limit: number): Promise<MergerRow[]> {
  const pattern = `%${likeLiteral(name)}%`;
  return db
    .select(mergerColumns)
    .from(mergersAcquisitions)
    .where(
      or(
        ilike(mergersAcquisitions.companyName, pattern),
        ilike(mergersAcquisitions.targetedCompanyName, pattern),
      ),
    )
    .orderBy(desc(mergersAcquisitions.acceptedDate), asc(mergersAcquisitions.id))
    .limit(limit);
}
