import { z } from 'zod';
import type { ConstituentIndex } from '../../db/schema.ts';
import { indexChanges, indexMembers } from '../../services/market-data/constituents.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { defineEndpoint, type EndpointDefinition, type UpdateCadence } from '../endpoint.ts';

const memberRow = z.object({
  symbol: z.string().describe('Ticker symbol'),
  name: z.string().describe('Company name'),
  sector: z.string().describe('Sector'),
  subSector: z.string().describe('Industry within the sector'),
  headQuarter: z.string().describe('City of the head office with its state (US) or country'),
  dateFirstAdded: z.string().describe('Date the company joined the index (YYYY-MM-DD)'),
  cik: z.string().describe('SEC Central Index Key; empty when the company has none'),
  founded: z.string().describe('Year the company was founded'),
});

const changeRow = z.object({
  dateAdded: z.string().describe('Date of the change, written out: June 24, 2024'),
  addedSecurity: z.string().describe('Name of the company added'),
  removedTicker: z.string().describe('Ticker of the company removed'),
  removedSecurity: z.string().describe('Name of the company removed'),
  date: z.string().describe('Date of the change (YYYY-MM-DD)'),
  symbol: z.string().describe('Ticker of the company added'),
  reason: z.string().describe('Why the change was made'),
});

const MEMBERSHIP_CADENCE: UpdateCadence = {
  frequency: 'daily',
  when: 'Once a day, when an index provider’s announced change takes effect.',
};

interface IndexInfo {
  code: ConstituentIndex;
  name: string;
  rule: string;
}

const INDEXES: readonly IndexInfo[] = [
  {
    code: 'sp500',
    name: 'S&P 500',
    rule: 'the largest US companies listed on the NYSE and NASDAQ by market capitalisation',
  },
  { code: 'nasdaq', name: 'Nasdaq 100', rule: 'the largest companies listed on NASDAQ' },
  {
    code: 'dowjones',
    name: 'Dow Jones Industrial Average',
    rule: 'thirty of the S&P 500’s largest companies',
  },
];

function membersEndpoint(info: IndexInfo): EndpointDefinition {
  return defineEndpoint({
    path: `${info.code}-constituent`,
    dataset: 'indexes',
    group: 'Indexes',
    summary: `${info.name} constituents`,
    description: `Today’s members of the ${info.name} (${info.rule}), in symbol order, with their sector, industry, head office and the date each joined.`,
    tier: DATA_TIERS.fundamentals,
    params: z.object({}),
    row: memberRow,
    maxAge: 3600,
    cadence: MEMBERSHIP_CADENCE,
    example: '',
    csv: true,
    handler: ({ db, symbols }) => indexMembers(db, symbols, info.code),
  });
}

function changesEndpoint(info: IndexInfo): EndpointDefinition {
  return defineEndpoint({
    path: `historical-${info.code}-constituent`,
    dataset: 'indexes',
    group: 'Indexes',
    summary: `${info.name} changes`,
    description: `Each change of the ${info.name}’s members, newest first: the company added, the company it replaced and why.`,
    tier: DATA_TIERS.fundamentals,
    params: z.object({}),
    row: changeRow,
    maxAge: 3600,
    cadence: MEMBERSHIP_CADENCE,
    example: '',
    csv: true,
    handler: ({ db, symbols }) => indexChanges(db, symbols, info.code),
  });
}

/** The members of the three main US indexes and the history of their changes. */
export const indexEndpoints: EndpointDefinition[] = [
  ...INDEXES.map(membersEndpoint),
  ...INDEXES.map(changesEndpoint),
];
