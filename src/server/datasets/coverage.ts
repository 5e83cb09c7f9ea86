import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { AssetType } from '../db/schema.ts';
import { memoPerDatabase } from '../services/market-data/memo.ts';

/*
 * How much of a dataset the database holds, counted when a page asks (and kept a few minutes): how
 * many securities (or companies, indicators, filers) it covers, from when to when, and how many
 * records. Each dataset names its reader in catalog.ts, built from the few shapes below; the queries
 * lean on the tables' keys (one index probe per security for prices), so a count stays cheap on the
 * whole market.
 */

/** What a dataset covers, as counted in the database. */
export interface DatasetCoverage {
  /** Distinct securities, companies, series or filers with data. */
  covered: number;
  /** What `covered` counts, plural: 'securities', 'companies', 'indicators'. */
  coveredUnit: string;
  /** Rows of its main kind (statements, transcripts, filings), or null when they say nothing useful. */
  records: number | null;
  recordsUnit: string;
  /**
   * The first and last date held: ISO dates (`2006-01-03`) or, for yearly data, fiscal years
   * (`2021`); null without dates (profiles, the directory) or without rows.
   */
  first: string | null;
  last: string | null;
  /** Whether the page shows the history (first date and years) or only the latest date. */
  history: boolean;
}

/** Reads a dataset's coverage from a database. */
export type CoverageReader = (db: Db) => Promise<DatasetCoverage>;

/** The tables coverage is counted in, and their columns: names the readers may use, nothing else. */
type CountedTable =
  | 'financial_statements'
  | 'economic_indicators'
  | 'company_profiles'
  | 'grades'
  | 'earning_call_transcripts'
  | 'securities'
  | 'earnings'
  | 'sec_filings'
  | 'insider_trades';
type CountedColumn = 'symbol' | 'name' | 'cik' | 'date' | 'filing_date' | 'exchange';

interface Aggregates {
  covered: number | string | null;
  records: number | string | null;
  first: string | null;
  last: string | null;
}

function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return (result as { rows?: T[] }).rows ?? [];
}

async function aggregates(db: Db, query: SQL): Promise<Aggregates> {
  const [row] = rowsOf<Aggregates>(await db.execute(query));
  return row ?? { covered: 0, records: null, first: null, last: null };
}

/** A date column as `YYYY-MM-DD` whatever the driver makes of it (a string, or a Date at UTC midnight). */
function isoDate(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return typeof value === 'string' ? value.slice(0, 10) : null;
}

function count(value: number | string | null): number {
  return value === null ? 0 : Number(value);
}

/**
 * Securities of some asset types with daily prices: how many, and the first and last trading day of
 * any of them (each security's first and last bar read from its key, not by scanning the bars).
 */
export function priceCoverage(options: {
  assetTypes: readonly AssetType[] | 'all';
  unit: string;
  history: boolean;
}): CoverageReader {
  const types =
    options.assetTypes === 'all'
      ? sql`true`
      : sql`s.asset_type in (${sql.join(
          options.assetTypes.map((type) => sql`${type}`),
          sql`, `,
        )})`;
  return async (db) => {
    const row = await aggregates(
      db,
      sql`select count(b.first) as covered, null as records, min(b.first) as first, max(b.last) as last
        from securities s
        cross join lateral (
          select min(d.date) as first, max(d.date) as last from daily_prices d where d.symbol = s.symbol
        ) b
        where ${types}`,
    );
    return {
      covered: count(row.covered),
      coveredUnit: options.unit,
      records: null,
      recordsUnit: '',
      first: isoDate(row.first),
      last: isoDate(row.last),
      history: options.history,
    };
  };
}

/**
 * One table's distinct keys (symbols, indicator names, filers), its rows, and the range of a date
 * column if it has one; `groups` counts distinct values of another column instead of rows
 * (the exchanges of the directory).
 */
export function countCoverage(options: {
  table: CountedTable;
  key: CountedColumn;
  unit: string;
  date?: CountedColumn;
  records?: string;
  groups?: CountedColumn;
}): CoverageReader {
  const table = sql.identifier(options.table);
  const key = sql.identifier(options.key);
  const dates =
    options.date === undefined
      ? sql`null as first, null as last`
      : sql`min(${sql.identifier(options.date)}) as first, max(${sql.identifier(options.date)}) as last`;
  const records =
    options.groups !== undefined
      ? sql`count(distinct ${sql.identifier(options.groups)})`
      : options.records !== undefined
        ? sql`count(*)`
        : sql`null`;
  return async (db) => {
    const row = await aggregates(
      db,
      sql`select count(distinct ${key}) as covered, ${records} as records, ${dates}
        from ${table} where ${key} <> ''`,
    );
    return {
      covered: count(row.covered),
      coveredUnit: options.unit,
      records: row.records === null ? null : count(row.records),
      recordsUnit: options.groups === undefined ? (options.records ?? '') : `${options.groups}s`,
      first: isoDate(row.first),
      last: isoDate(row.last),
      history: options.date !== undefined,
    };
  };
}

/**
 * Quarterly holdings (13F): distinct filers, positions, and the first and last quarter held, each as
 * the quarter's last day.
 */
export function quarterCoverage(options: {
  table: 'institutional_holdings';
  key: 'cik';
  unit: string;
  records: string;
}): CoverageReader {
  const table = sql.identifier(options.table);
  const key = sql.identifier(options.key);
  return async (db) => {
    const row = await aggregates(
      db,
      sql`select count(distinct ${key}) as covered, count(*) as records,
          min(make_date(year, quarter * 3, 1) + interval '1 month' - interval '1 day')::date as first,
          max(make_date(year, quarter * 3, 1) + interval '1 month' - interval '1 day')::date as last
        from ${table}`,
    );
    return {
      covered: count(row.covered),
      coveredUnit: options.unit,
      records: count(row.records),
      recordsUnit: options.records,
      first: isoDate(row.first),
      last: isoDate(row.last),
      history: true,
    };
  };
}

/** Yearly data (ESG ratings): distinct companies, rows, and the first and last fiscal year. */
export function fiscalYearCoverage(options: {
  table: 'esg_ratings';
  unit: string;
  records: string;
}): CoverageReader {
  const table = sql.identifier(options.table);
  return async (db) => {
    const row = await aggregates(
      db,
      sql`select count(distinct symbol) as covered, count(*) as records,
          min(fiscal_year)::text as first, max(fiscal_year)::text as last
        from ${table}`,
    );
    return {
      covered: count(row.covered),
      coveredUnit: options.unit,
      records: count(row.records),
      recordsUnit: options.records,
      first: row.first,
      last: row.last,
      history: true,
    };
  };
}

/** Coverage changes only when data is loaded, so a count is kept this long. */
export const COVERAGE_TTL_MS = 10 * 60_000;

const coverageMemo = memoPerDatabase<DatasetCoverage>({ max: 64, ttlMs: COVERAGE_TTL_MS });

/** A dataset's coverage, counted at most once per {@link COVERAGE_TTL_MS} per database. */
export function cachedCoverage(db: Db, id: string, reader: CoverageReader): Promise<DatasetCoverage> {
  return coverageMemo(db).load(id, () => reader(db));
}
