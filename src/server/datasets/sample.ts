import type { EndpointDefinition } from '../data-api/endpoint.ts';
import { prepareQuery } from '../data-api/query.ts';
import type { Db } from '../db/client.ts';
import type { DataSource } from '../db/schema.ts';
import type { SymbolDirectory } from '../services/market-data/directory.ts';
import { DATA_TIERS, type PlanAccess } from '../services/market-data/plan-access.ts';
import type { DatasetSample } from './catalog.ts';

/*
 * A dataset page's live sample: the request the catalog names, validated as the data API validates
 * it (`prepareQuery`) and answered by the endpoint's own handler over the site's database and
 * directory, exactly as the pipeline would answer it, without a key or a metered call. The page is
 * public and shows only a few rows of a documented request, as the reference's examples do.
 */

/** Rows a sample shows. */
export const SAMPLE_ROWS = 5;

/** The pages answer as the widest plan would, so no sample is cut short by a plan's history. */
const SAMPLE_PLAN: PlanAccess = {
  code: 'site',
  name: 'Site',
  dataTier: DATA_TIERS.commercial,
  historyYears: null,
};

/** A sample answered: its first rows and how many the whole answer has. */
export interface SampleAnswer {
  rows: Record<string, unknown>[];
  total: number;
  source: DataSource;
}

/** The query a sample asks: its own, else the endpoint's documented example. */
export function sampleQuery(sample: DatasetSample, endpoint: EndpointDefinition): string {
  return sample.query ?? endpoint.example;
}

/** The sample's parameters as the endpoint validates them; throws when the catalog asks badly (a bug). */
export function sampleParams(sample: DatasetSample, endpoint: EndpointDefinition): Record<string, unknown> {
  const prepared = prepareQuery(endpoint, sampleQuery(sample, endpoint));
  if (typeof prepared === 'string') throw new Error(`The ${endpoint.path} sample is refused: ${prepared}`);
  return prepared.params;
}

/** Answers a dataset's sample request over the database, as its endpoint's handler answers it. */
export async function answerSample(
  context: { db: Db; directory: SymbolDirectory; now: Date },
  sample: DatasetSample,
  endpoint: EndpointDefinition,
): Promise<SampleAnswer> {
  const rows = await endpoint.handler({
    db: context.db,
    params: sampleParams(sample, endpoint),
    plan: SAMPLE_PLAN,
    symbols: context.directory,
    now: context.now,
    caller: undefined,
  });
  return { rows: rows.slice(0, SAMPLE_ROWS), total: rows.length, source: context.directory.source };
}
