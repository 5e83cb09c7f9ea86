import { z } from 'zod';
import {
  BALANCE_SHEET_FIELDS,
  CASH_FLOW_FIELDS,
  INCOME_STATEMENT_FIELDS,
  isQuarterly,
  statementRows,
  type FieldSpec,
  type PeriodSelector,
} from '../../services/market-data/statements.ts';
import type { StatementType } from '../../db/schema.ts';
import {
  defineEndpoint,
  FILING_CADENCE,
  limitParam,
  periodParam,
  symbolParam,
  type EndpointDefinition,
} from '../endpoint.ts';
import { DATA_TIERS, type DataTier } from '../../services/market-data/plan-access.ts';

function fieldSchema(field: FieldSpec): z.ZodType {
  switch (field.kind) {
    case 'string':
      return z.string().describe(field.description);
    case 'number':
      return z.number().describe(field.description);
    case 'nullableString':
      return z.string().nullable().describe(field.description);
    case 'nullableNumber':
      return z.number().nullable().describe(field.description);
  }
}

/**
 * A row schema built from the same field list the services project stored JSON onto, so the documented
 * fields and the answered keys can never drift apart.
 */
export function rowSchemaOf(fields: readonly FieldSpec[]): z.ZodObject<Record<string, z.ZodType>> {
  return z.object(Object.fromEntries(fields.map((field) => [field.name, fieldSchema(field)])));
}

/**
 * Quarterly rows are a Professional feature; annual ones come with every plan, Free included (for the
 * symbols the plan reads), as FMP's free plan serves them to a client's first calls.
 */
export function quarterlyTier(
  subject: string,
): (params: { period: PeriodSelector }) => { tier: DataTier; subject: string } | undefined {
  return (params) => (isQuarterly(params.period) ? { tier: DATA_TIERS.professional, subject } : undefined);
}

const statementParams = z.object({
  symbol: symbolParam,
  period: periodParam,
  limit: limitParam(5, 100),
});

function statementEndpoint(
  path: string,
  type: StatementType,
  summary: string,
  description: string,
  fields: readonly FieldSpec[],
): EndpointDefinition {
  return defineEndpoint({
    path,
    dataset: 'fundamental-financial-statements',
    group: 'Statements',
    summary,
    description: `${description} Newest period first; period=annual (or FY) lists fiscal years, period=quarter every quarter, Q1–Q4 one fiscal quarter of each year. Quarterly rows need the Professional plan.`,
    tier: DATA_TIERS.sample,
    params: statementParams,
    row: rowSchemaOf(fields),
    symbolParam: 'symbol',
    tierFor: quarterlyTier('quarterly statements'),
    csv: true,
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'symbol=AAPL&period=annual&limit=5',
    handler: ({ db, params }) => statementRows(db, type, params),
  });
}

/** Statements as filed, one endpoint per statement, sharing the period and limit rules. */
export const statementEndpoints: EndpointDefinition[] = [
  statementEndpoint(
    'income-statement',
    'income',
    'Income statement',
    'Revenue, expenses, profit and earnings per share of each reported period, as filed.',
    INCOME_STATEMENT_FIELDS,
  ),
  statementEndpoint(
    'balance-sheet-statement',
    'balance-sheet',
    'Balance sheet statement',
    'Assets, liabilities and equity at the end of each reported period, as filed.',
    BALANCE_SHEET_FIELDS,
  ),
  statementEndpoint(
    'cash-flow-statement',
    'cash-flow',
    'Cash flow statement',
    'Operating, investing and financing cash flows of each reported period, as filed.',
    CASH_FLOW_FIELDS,
  ),
];
