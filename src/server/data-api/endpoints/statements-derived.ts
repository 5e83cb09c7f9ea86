import { z } from 'zod';
import type { StatementType } from '../../db/schema.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import {
  FINANCIAL_GROWTH_FIELDS,
  financialGrowthRows,
  growthFields,
  statementGrowthRows,
} from '../../services/market-data/statement-growth.ts';
import {
  keyMetricsTtmRows,
  ratiosTtmRows,
  ttmStatementRows,
} from '../../services/market-data/statement-ttm.ts';
import { STATEMENT_FIELDS } from '../../services/market-data/statements.ts';
import {
  defineEndpoint,
  FILING_CADENCE,
  limitParam,
  periodParam,
  symbolParam,
  type EndpointDefinition,
  type UpdateCadence,
} from '../endpoint.ts';
import { fundamentalEndpoints } from './fundamentals.ts';
import { quarterlyTier, rowSchemaOf } from './statements.ts';

/** One group for everything read off the statements over time: TTM figures and growth. */
const GROUP = 'Statement analysis';

const TTM =
  'Trailing twelve months (TTM): the four latest consecutive quarters read as one year; income and cash-flow lines are the sum of the four quarters (per-share lines too), share counts their mean, and the balance sheet the latest quarter’s.';

const STATEMENT_NAMES: Readonly<Record<StatementType, { path: string; name: string }>> = {
  income: { path: 'income-statement', name: 'Income statement' },
  'balance-sheet': { path: 'balance-sheet-statement', name: 'Balance sheet statement' },
  'cash-flow': { path: 'cash-flow-statement', name: 'Cash flow statement' },
};

function ttmStatementEndpoint(type: StatementType): EndpointDefinition {
  const { path, name } = STATEMENT_NAMES[type];
  const what =
    type === 'balance-sheet'
      ? 'The balance sheet at the end of each trailing twelve months: the latest quarter’s, as filed.'
      : `The ${name.toLowerCase()} over trailing twelve months, one row for each quarter that closes four consecutive quarters.`;
  return defineEndpoint({
    path: `${path}-ttm`,
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: `${name}, TTM`,
    description: `${what} The same fields as \`${path}\`, the identity fields (date, fiscal year, period) the latest quarter’s; newest first. ${TTM} Built from the quarterly statements, so it needs the Professional plan.`,
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam, limit: limitParam(5, 100) }),
    row: rowSchemaOf(STATEMENT_FIELDS[type]),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'symbol=AAPL',
    handler: ({ db, params }) => ttmStatementRows(db, type, params.symbol, params.limit),
  });
}

/** Valued at the latest close from the latest TTM: both move these figures. */
const TTM_VALUED: UpdateCadence = {
  frequency: 'end-of-day',
  when: 'After each session’s close (the latest close, not the live quote), and with each new quarterly report.',
};

/**
 * The row of a TTM endpoint from its period endpoint's row: `symbol`, then each figure under FMP's TTM
 * name (the figure + 'TTM', except those FMP keeps), described as the period endpoint describes it.
 */
function ttmRowSchema(periodPath: string, keep: ReadonlySet<string>): z.ZodObject<Record<string, z.ZodType>> {
  const source = fundamentalEndpoints.find((endpoint) => endpoint.path === periodPath);
  if (source === undefined) throw new Error(`no ${periodPath} endpoint`);
  const shape: Record<string, z.ZodType> = { symbol: z.string().describe('Ticker symbol') };
  for (const [name, field] of Object.entries(source.row.shape) as [string, z.ZodType][]) {
    if (['symbol', 'date', 'fiscalYear', 'period', 'reportedCurrency'].includes(name)) continue;
    shape[keep.has(name) ? name : `${name}TTM`] = z
      .number()
      .describe(`${field.description ?? name}, over the trailing twelve months`);
  }
  return z.object(shape);
}

const periodParams = z.object({ symbol: symbolParam, period: periodParam, limit: limitParam(5, 100) });

function growthEndpoint(type: StatementType): EndpointDefinition {
  const { path, name } = STATEMENT_NAMES[type];
  return defineEndpoint({
    path: `${path}-growth`,
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: `${name} growth`,
    description: `The growth of every line of \`${path}\` from the previous period (the prior fiscal year, or the prior quarter for quarterly rows) as a fraction: (current − previous) / |previous|, so growth out of a loss keeps its sign; 0 when the previous value is 0 and for the oldest stored period. Newest first. Quarterly rows need the Professional plan.`,
    tier: DATA_TIERS.sample,
    params: periodParams,
    row: rowSchemaOf(growthFields(type)),
    symbolParam: 'symbol',
    tierFor: quarterlyTier('quarterly growth'),
    csv: true,
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'symbol=AAPL&period=annual&limit=5',
    handler: ({ db, params }) => statementGrowthRows(db, type, params.symbol, params.period, params.limit),
  });
}

/** Statements over trailing twelve months and the growth of the statements. */
export const statementDerivedEndpoints: EndpointDefinition[] = [
  ttmStatementEndpoint('income'),
  ttmStatementEndpoint('balance-sheet'),
  ttmStatementEndpoint('cash-flow'),
  defineEndpoint({
    path: 'key-metrics-ttm',
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: 'Key metrics, TTM',
    description: `The key metrics of the latest trailing twelve months, valued today: the latest close × today’s shares outstanding. Averages and growth compare with the twelve months a year earlier. ${TTM} Every value is computed by the formulas of \`key-metrics\` (Formulas). Built from the quarterly statements, so it needs the Professional plan.`,
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam }),
    row: ttmRowSchema('key-metrics', new Set(['marketCap'])),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: TTM_VALUED,
    example: 'symbol=AAPL',
    handler: ({ db, params, symbols, now }) => keyMetricsTtmRows(db, symbols, params.symbol, now),
  }),
  defineEndpoint({
    path: 'ratios-ttm',
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: 'Financial ratios, TTM',
    description: `The financial ratios of the latest trailing twelve months, valued today: the latest close × today’s shares outstanding. EPS growth (for the PEG) compares with the twelve months a year earlier. ${TTM} Every value is computed by the formulas of \`ratios\` (Formulas). Built from the quarterly statements, so it needs the Professional plan.`,
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam }),
    row: ttmRowSchema('ratios', new Set()),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: TTM_VALUED,
    example: 'symbol=AAPL',
    handler: ({ db, params, symbols, now }) => ratiosTtmRows(db, symbols, params.symbol, now),
  }),
  growthEndpoint('income'),
  growthEndpoint('balance-sheet'),
  growthEndpoint('cash-flow'),
  defineEndpoint({
    path: 'financial-growth',
    dataset: 'fundamental-financial-statements',
    group: GROUP,
    summary: 'Financial growth',
    description:
      'The growth of the main figures from the previous period (revenue, profits, EPS, shares, cash flows, assets, debt) as fractions, and the 3-, 5- and 10-year growth of the per-share figures against the same fiscal period that many years earlier (null where the stored history is shorter). Growth is (current − previous) / |previous|, 0 when the previous value is 0. Newest first. Quarterly rows need the Professional plan.',
    tier: DATA_TIERS.sample,
    params: periodParams,
    row: rowSchemaOf(FINANCIAL_GROWTH_FIELDS),
    symbolParam: 'symbol',
    tierFor: quarterlyTier('quarterly growth'),
    csv: true,
    maxAge: 3600,
    cadence: FILING_CADENCE,
    example: 'symbol=AAPL&period=annual&limit=5',
    handler: ({ db, params }) => financialGrowthRows(db, params.symbol, params.period, params.limit),
  }),
];
