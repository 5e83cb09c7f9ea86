import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { financialStatements, type FiscalPeriod, type StatementType } from '../../db/schema.ts';
import {
  BALANCE_LINES,
  CASH_FLOW_LINES,
  IDENTITY_FIELDS,
  INCOME_LINES,
  type StatementLine,
} from '../../../lib/statement-fields.ts';

/** How a field is written in an answer: FMP's JSON types, so projections and schemas agree. */
export type FieldKind = 'string' | 'number' | 'nullableString' | 'nullableNumber';

/** One field of an FMP row: its name, JSON type and the text the API documentation shows. */
export interface FieldSpec {
  name: string;
  kind: FieldKind;
  description: string;
}

/** A row as the API answers it: FMP's field names in FMP's order. */
export type ApiRow = Record<string, string | number | null>;

/** A statement's numeric lines as fields of its answer rows. */
function numberFields(lines: readonly StatementLine[]): FieldSpec[] {
  return lines.map(({ name, description }) => ({ name, kind: 'number', description }));
}

/**
 * Stored rows are JSON (jsonb forgets key order) and may come from imports with loose types, so every
 * answer is rebuilt field by field: FMP's order, FMP's types, and never NaN/Infinity or a missing key.
 */
export function projectRow(data: Readonly<Record<string, unknown>>, fields: readonly FieldSpec[]): ApiRow {
  const row: ApiRow = {};
  for (const field of fields) row[field.name] = coerceField(data[field.name], field.kind);
  return row;
}

/** Brings one value to the field's JSON type (numbers from numeric strings, '' or null for absent values). */
export function coerceField(value: unknown, kind: FieldKind): string | number | null {
  if (kind === 'string' || kind === 'nullableString') {
    if (value === null || value === undefined) return kind === 'string' ? '' : null;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
      return String(value);
    return typeof value === 'object' ? JSON.stringify(value) : '';
  }
  if (value === null || value === undefined || value === '') return kind === 'number' ? 0 : null;
  const number = typeof value === 'number' ? value : Number(value);
  if (Number.isFinite(number)) return number;
  return kind === 'number' ? 0 : null;
}

const identityFields: FieldSpec[] = IDENTITY_FIELDS.map(({ name, description }) => ({
  name,
  kind: 'string',
  description,
}));

/** FMP's income-statement row, in FMP's order. */
export const INCOME_STATEMENT_FIELDS: readonly FieldSpec[] = [
  ...identityFields,
  ...numberFields(INCOME_LINES),
];

/** FMP's balance-sheet-statement row, in FMP's order. */
export const BALANCE_SHEET_FIELDS: readonly FieldSpec[] = [...identityFields, ...numberFields(BALANCE_LINES)];

/** FMP's cash-flow-statement row, in FMP's order. */
export const CASH_FLOW_FIELDS: readonly FieldSpec[] = [...identityFields, ...numberFields(CASH_FLOW_LINES)];

/** The field list of each stored statement type. */
export const STATEMENT_FIELDS: Readonly<Record<StatementType, readonly FieldSpec[]>> = {
  income: INCOME_STATEMENT_FIELDS,
  'balance-sheet': BALANCE_SHEET_FIELDS,
  'cash-flow': CASH_FLOW_FIELDS,
};

/** The period parameter as FMP accepts it. */
export type PeriodSelector = 'annual' | 'quarter' | FiscalPeriod;

/** Stored period codes a period parameter selects: annual and FY are the full years, quarter any quarter. */
export function periodsFor(selector: PeriodSelector): FiscalPeriod[] {
  if (selector === 'annual' || selector === 'FY') return ['FY'];
  if (selector === 'quarter') return ['Q1', 'Q2', 'Q3', 'Q4'];
  return [selector];
}

/** Whether a period parameter reads quarterly rows (a higher plan than annual ones). */
export function isQuarterly(selector: PeriodSelector): boolean {
  return selector !== 'annual' && selector !== 'FY';
}

/** A statement request as the API takes it; the symbol pages pass the same shape. */
export interface StatementQuery {
  symbol: string;
  period: PeriodSelector;
  limit: number;
}

/** One statement type of a symbol, newest period first, each row FMP's JSON in FMP's order. */
export async function statementRows(db: Db, type: StatementType, query: StatementQuery): Promise<ApiRow[]> {
  const rows = await db
    .select({ data: financialStatements.data })
    .from(financialStatements)
    .where(
      and(
        eq(financialStatements.symbol, query.symbol),
        eq(financialStatements.statement, type),
        inArray(financialStatements.period, periodsFor(query.period)),
      ),
    )
    .orderBy(desc(financialStatements.date))
    .limit(query.limit);
  const fields = STATEMENT_FIELDS[type];
  return rows.map((row) => projectRow(row.data, fields));
}

/** The three statements of one fiscal period, as stored (FMP's JSON). */
export interface StoredStatementSet {
  fiscalYear: number;
  period: FiscalPeriod;
  date: string;
  income: Record<string, unknown>;
  balance: Record<string, unknown>;
  cashFlow: Record<string, unknown>;
}

/**
 * The periods that have all three statements, newest first: the computed endpoints need income,
 * balance sheet and cash flow of the same period. `limit` counts complete periods.
 */
export async function statementSets(
  db: Db,
  symbol: string,
  period: PeriodSelector,
  limit: number,
): Promise<StoredStatementSet[]> {
  const periods = periodsFor(period);
  // Newest rows of every type in one query; three rows per period, so 3 × limit covers complete sets.
  const rows = await db
    .select(STORED_ROW)
    .from(financialStatements)
    .where(and(eq(financialStatements.symbol, symbol), inArray(financialStatements.period, periods)))
    .orderBy(desc(financialStatements.date), sql`${financialStatements.statement}`)
    .limit(limit * 3 + 3);
  return completeSets(rows).slice(0, limit);
}

/**
 * The complete periods of several symbols at once, each symbol's newest first, as {@link statementSets}
 * gives them: for a bulk file, one query per batch of symbols instead of one per symbol. `where`
 * narrows the rows (a window of fiscal years, periods before a date).
 */
export async function statementSetsOf(
  db: Db,
  symbols: readonly string[],
  period: PeriodSelector,
  where?: SQL,
): Promise<Map<string, StoredStatementSet[]>> {
  const bySymbol = new Map<string, StoredStatementSet[]>();
  if (symbols.length === 0) return bySymbol;
  const rows = await db
    .select({ symbol: financialStatements.symbol, ...STORED_ROW })
    .from(financialStatements)
    .where(
      and(
        inArray(financialStatements.symbol, [...symbols]),
        inArray(financialStatements.period, periodsFor(period)),
        where,
      ),
    )
    .orderBy(
      financialStatements.symbol,
      desc(financialStatements.date),
      sql`${financialStatements.statement}`,
    );
  const rowsBySymbol = new Map<string, StoredRow[]>();
  for (const row of rows) {
    const list = rowsBySymbol.get(row.symbol);
    if (list === undefined) rowsBySymbol.set(row.symbol, [row]);
    else list.push(row);
  }
  for (const [symbol, list] of rowsBySymbol) bySymbol.set(symbol, completeSets(list));
  return bySymbol;
}

/** The columns a statement set is built from. */
const STORED_ROW = {
  statement: financialStatements.statement,
  fiscalYear: financialStatements.fiscalYear,
  period: financialStatements.period,
  date: financialStatements.date,
  data: financialStatements.data,
};

/** A stored statement row as {@link completeSets} reads it. */
interface StoredRow {
  statement: StatementType;
  fiscalYear: number;
  period: FiscalPeriod;
  date: string;
  data: Record<string, unknown>;
}

/** One symbol's rows grouped into periods; only periods with all three statements, newest first. */
function completeSets(rows: readonly StoredRow[]): StoredStatementSet[] {
  const byPeriod = new Map<
    string,
    Partial<StoredStatementSet> & { fiscalYear: number; period: FiscalPeriod; date: string }
  >();
  for (const row of rows) {
    const key = `${row.fiscalYear}-${row.period}`;
    let set = byPeriod.get(key);
    if (set === undefined) {
      set = { fiscalYear: row.fiscalYear, period: row.period, date: row.date };
      byPeriod.set(key, set);
    }
    if (row.statement === 'income') set.income = row.data;
    else if (row.statement === 'balance-sheet') set.balance = row.data;
    else set.cashFlow = row.data;
  }
  const complete: StoredStatementSet[] = [];
  for (const set of byPeriod.values()) {
    const { income, balance, cashFlow } = set;
    if (income === undefined || balance === undefined || cashFlow === undefined) continue;
    complete.push({
      fiscalYear: set.fiscalYear,
      period: set.period,
      date: set.date,
      income,
      balance,
      cashFlow,
    });
  }
  complete.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  return complete;
}
