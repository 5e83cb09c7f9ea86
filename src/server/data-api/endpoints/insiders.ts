import { z } from 'zod';
import { INSIDER_TRADE_FIELDS, SENATE_TRADE_FIELDS } from '../../services/market-data/alternative.ts';
import {
  BENEFICIAL_OWNERSHIP_FIELDS,
  beneficialOwnershipRows,
  congressLatestRows,
  congressNameRows,
  congressSymbolRows,
  HOUSE_TRADE_FIELDS,
  insiderSearchRows,
  insiderStatisticsRows,
  reportingNameRows,
  TRANSACTION_TYPES,
} from '../../services/market-data/insiders.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import {
  defineEndpoint,
  limitParam,
  pageParam,
  symbolParam,
  type EndpointDefinition,
  type UpdateCadence,
} from '../endpoint.ts';
import { cikParam } from './sec-filings.ts';
import { rowSchemaOf } from './statements.ts';

const nameParam = z
  .string({ error: 'is required' })
  .trim()
  .min(2, 'must be at least 2 characters')
  .max(100, 'must be at most 100 characters')
  .describe('Part of the name (any case)');

const FORM_4_CADENCE: UpdateCadence = {
  frequency: 'as-published',
  when: 'As Form 4 filings reach the SEC (insiders file within two business days of a trade), through the trading day.',
};

const SENATE_CADENCE: UpdateCadence = {
  frequency: 'as-published',
  when: 'As senators’ periodic transaction reports are disclosed (within 45 days of a trade).',
};

const HOUSE_CADENCE: UpdateCadence = {
  frequency: 'as-published',
  when: 'As House members’ periodic transaction reports are disclosed (within 45 days of a trade).',
};

const GROUP = 'Alternative data';

/** Insider trading beyond the latest feed, and the trades of both chambers of Congress: Power, as alternative data. */
export const insiderEndpoints: EndpointDefinition[] = [
  defineEndpoint({
    path: 'insider-trading/search',
    dataset: 'ownership-senate-insider',
    group: GROUP,
    summary: 'Search insider trades',
    description:
      'Form 4 trades narrowed by any of company symbol, company CIK, insider CIK and transaction type, newest filing first.',
    tier: DATA_TIERS.global,
    params: z.object({
      symbol: symbolParam.optional().describe('Ticker symbol of the company'),
      page: pageParam,
      limit: limitParam(100, 1000),
      reportingCik: cikParam.optional().describe('CIK of the insider'),
      companyCik: cikParam.optional().describe('CIK of the company'),
      transactionType: z
        .string()
        .trim()
        .regex(/^[A-Za-z]-[A-Za-z]+$/, 'must be a transaction type such as S-Sale or P-Purchase')
        .optional()
        .describe('SEC transaction code, e.g. S-Sale (see insider-trading-transaction-type)'),
    }),
    row: rowSchemaOf(INSIDER_TRADE_FIELDS),
    csv: true,
    maxAge: 900,
    cadence: FORM_4_CADENCE,
    example: 'symbol=AAPL&page=0&limit=100',
    handler: ({ db, params }) => insiderSearchRows(db, params),
  }),
  defineEndpoint({
    path: 'insider-trading/reporting-name',
    dataset: 'ownership-senate-insider',
    group: GROUP,
    summary: 'Insiders by name',
    description: 'Insiders whose name contains the text, with the CIK they report under, by name.',
    tier: DATA_TIERS.global,
    params: z.object({ name: nameParam.meta({ example: 'Trust' }) }),
    row: z.object({
      reportingCik: z.string().describe('CIK the insider reports under'),
      reportingName: z.string().describe('Name of the insider'),
    }),
    csv: true,
    maxAge: 3600,
    cadence: FORM_4_CADENCE,
    example: 'name=Trust',
    handler: ({ db, params }) => reportingNameRows(db, params.name),
  }),
  defineEndpoint({
    path: 'insider-trading-transaction-type',
    dataset: 'ownership-senate-insider',
    group: GROUP,
    summary: 'Insider transaction types',
    description:
      'The SEC’s Form 4 transaction codes the trades are typed with (P-Purchase, S-Sale, A-Award, …).',
    tier: DATA_TIERS.global,
    params: z.object({}),
    row: z.object({ transactionType: z.string().describe('Transaction code and its name, e.g. S-Sale') }),
    csv: true,
    maxAge: 86400,
    cadence: { frequency: 'yearly', when: 'When the SEC changes the Form 4 codes (rarely).' },
    example: '',
    handler: () => Promise.resolve(TRANSACTION_TYPES.map((transactionType) => ({ transactionType }))),
  }),
  defineEndpoint({
    path: 'insider-trading/statistics',
    dataset: 'ownership-senate-insider',
    group: GROUP,
    summary: 'Insider trading statistics',
    description:
      'A company’s insider activity per calendar quarter, newest first, computed from its Form 4 trades: acquisitions and dispositions (count, shares, average shares per trade), acquisitions per disposition, and the open-market purchases and sales among them.',
    tier: DATA_TIERS.global,
    params: z.object({ symbol: symbolParam }),
    row: z.object({
      symbol: z.string().describe('Ticker symbol'),
      cik: z.string().describe('CIK of the company'),
      year: z.number().describe('Calendar year of the transactions'),
      quarter: z.number().describe('Calendar quarter of the transactions (1–4)'),
      acquiredTransactions: z.number().describe('Trades acquiring shares'),
      disposedTransactions: z.number().describe('Trades disposing of shares'),
      acquiredDisposedRatio: z
        .number()
        .describe('Acquiring trades per disposing trade; 0 without dispositions'),
      totalAcquired: z.number().describe('Shares acquired'),
      totalDisposed: z.number().describe('Shares disposed of'),
      averageAcquired: z.number().describe('Shares acquired per acquiring trade'),
      averageDisposed: z.number().describe('Shares disposed of per disposing trade'),
      totalPurchases: z.number().describe('Open-market purchases (P-Purchase)'),
      totalSales: z.number().describe('Open-market sales (S-Sale)'),
    }),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: FORM_4_CADENCE,
    example: 'symbol=AAPL',
    handler: ({ db, params }) => insiderStatisticsRows(db, params.symbol),
  }),
  defineEndpoint({
    path: 'acquisition-of-beneficial-ownership',
    dataset: 'ownership-senate-insider',
    group: GROUP,
    summary: 'Beneficial ownership (Schedule 13D/G)',
    description:
      'Schedule 13D and 13G filings of owners of more than 5 percent of a company’s shares: who, how many shares, the percent of the class and the voting and dispositive power, newest first.',
    tier: DATA_TIERS.professional,
    params: z.object({ symbol: symbolParam, limit: limitParam(2000, 2000) }),
    row: rowSchemaOf(BENEFICIAL_OWNERSHIP_FIELDS),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 3600,
    cadence: {
      frequency: 'as-published',
      when: 'As schedules are filed: within 10 days of crossing 5 percent (13D), and each February for passive owners (13G).',
    },
    example: 'symbol=AAPL',
    handler: ({ db, params }) => beneficialOwnershipRows(db, params.symbol, params.limit),
  }),
  defineEndpoint({
    path: 'senate-trades',
    dataset: 'ownership-senate-insider',
    group: GROUP,
    summary: 'Senate trades by symbol',
    description: 'Senators’ disclosed trades in one symbol, newest disclosure first.',
    tier: DATA_TIERS.global,
    params: z.object({ symbol: symbolParam }),
    row: rowSchemaOf(SENATE_TRADE_FIELDS),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 900,
    cadence: SENATE_CADENCE,
    example: 'symbol=AAPL',
    handler: ({ db, params }) => congressSymbolRows(db, 'senate', params.symbol),
  }),
  defineEndpoint({
    path: 'senate-trades-by-name',
    dataset: 'ownership-senate-insider',
    group: GROUP,
    summary: 'Senate trades by senator',
    description:
      'Disclosed trades of senators whose first, last or full name contains the text, newest disclosure first.',
    tier: DATA_TIERS.global,
    params: z.object({ name: nameParam.meta({ example: 'Smith' }) }),
    row: rowSchemaOf(SENATE_TRADE_FIELDS),
    csv: true,
    maxAge: 900,
    cadence: SENATE_CADENCE,
    example: 'name=an',
    handler: ({ db, params }) => congressNameRows(db, 'senate', params.name),
  }),
  defineEndpoint({
    path: 'house-latest',
    dataset: 'ownership-senate-insider',
    group: GROUP,
    summary: 'Latest House trades',
    description:
      'Periodic transaction reports of members of the US House of Representatives, newest disclosure first.',
    tier: DATA_TIERS.global,
    params: z.object({ page: pageParam, limit: limitParam(100, 1000) }),
    row: rowSchemaOf(HOUSE_TRADE_FIELDS),
    csv: true,
    maxAge: 900,
    cadence: HOUSE_CADENCE,
    example: 'page=0&limit=100',
    handler: ({ db, params }) => congressLatestRows(db, 'house', params),
  }),
  defineEndpoint({
    path: 'house-trades',
    dataset: 'ownership-senate-insider',
    group: GROUP,
    summary: 'House trades by symbol',
    description: 'House members’ disclosed trades in one symbol, newest disclosure first.',
    tier: DATA_TIERS.global,
    params: z.object({ symbol: symbolParam }),
    row: rowSchemaOf(HOUSE_TRADE_FIELDS),
    symbolParam: 'symbol',
    csv: true,
    maxAge: 900,
    cadence: HOUSE_CADENCE,
    example: 'symbol=AAPL',
    handler: ({ db, params }) => congressSymbolRows(db, 'house', params.symbol),
  }),
  defineEndpoint({
    path: 'house-trades-by-name',
    dataset: 'ownership-senate-insider',
    group: GROUP,
    summary: 'House trades by member',
    description:
      'Disclosed trades of House members whose first, last or full name contains the text, newest disclosure first.',
    tier: DATA_TIERS.global,
    params: z.object({ name: nameParam.meta({ example: 'Smith' }) }),
    row: rowSchemaOf(HOUSE_TRADE_FIELDS),
    csv: true,
    maxAge: 900,
    cadence: HOUSE_CADENCE,
    example: 'name=an',
    handler: ({ db, params }) => congressNameRows(db, 'house', params.name),
  }),
];
