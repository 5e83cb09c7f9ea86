import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/lib/routes.ts';
import { KEY_PLACEHOLDER } from '../../src/lib/docs/key-placeholder.ts';
import { DATASET_INFO } from '../../src/server/datasets/catalog.ts';
import {
  loadDatasetPage,
  sampleCell,
  sampleEndpoint,
  type DatasetPageView,
} from '../../src/server/datasets/pages.ts';
import { sampleQuery, SAMPLE_ROWS } from '../../src/server/datasets/sample.ts';
import {
  loadSymbolDirectory,
  type SymbolDirectory,
} from '../../src/server/services/market-data/directory.ts';
import { openDataApiHarness, stableAnswer, type DataApiHarness } from './data-api-harness.ts';

// Each dataset page counts its coverage in the seeded database and shows the first rows its sample
// endpoint answers: the same rows a call to the data API with a key on the widest plan gets.

const API = 'https://data.example.org';

let h: DataApiHarness;
let directory: SymbolDirectory;
let key: string;
const pages = new Map<string, DatasetPageView>();

beforeAll(async () => {
  h = await openDataApiHarness();
  directory = await loadSymbolDirectory(h.db);
  key = await h.keyFor('commercialEnterprise');
  for (const dataset of DATASETS) {
    const view = await loadDatasetPage(
      { db: h.db, directory, now: new Date(h.clock.now), apiUrl: API },
      dataset.id,
    );
    if (view === undefined) throw new Error(`no page for ${dataset.id}`);
    pages.set(dataset.id, view);
  }
});

afterAll(async () => {
  await h.close();
});

function page(id: string): DatasetPageView {
  const view = pages.get(id);
  if (view === undefined) throw new Error(`no page for ${id}`);
  return view;
}

function fact(view: DatasetPageView, label: string): string | undefined {
  return view.facts.find((candidate) => candidate.label === label)?.value;
}

async function scalar(query: ReturnType<typeof sql>): Promise<string> {
  const result: unknown = await h.db.execute(query);
  const rows: Record<string, unknown>[] = Array.isArray(result)
    ? (result as Record<string, unknown>[])
    : ((result as { rows?: Record<string, unknown>[] }).rows ?? []);
  const value = Object.values(rows[0] ?? {})[0];
  return typeof value === 'string' ? value : JSON.stringify(value);
}

describe('every dataset page', () => {
  it('counts what the seeded database covers of it', () => {
    for (const dataset of DATASETS) {
      const view = page(dataset.id);
      const covered = view.facts[0];
      expect(covered?.label, dataset.id).toMatch(/ covered$/);
      expect(Number(covered?.value.replaceAll(',', '')), dataset.id).toBeGreaterThan(0);
      expect(view.cadences.length, dataset.id).toBeGreaterThan(0);
    }
  });

  it('shows a live sample of rows, labelled as demo data', () => {
    for (const dataset of DATASETS) {
      const view = page(dataset.id);
      expect(view.demo, dataset.id).toBe(true);
      expect(view.sample.rows.length, dataset.id).toBeGreaterThan(0);
      expect(view.sample.rows.length, dataset.id).toBeLessThanOrEqual(SAMPLE_ROWS);
      expect(view.sample.total, dataset.id).toBeGreaterThanOrEqual(view.sample.rows.length);
    }
  });

  it('shows the same rows the data API answers the sample request with', async () => {
    for (const info of DATASET_INFO) {
      const endpoint = sampleEndpoint(info);
      const query = Object.fromEntries(new URLSearchParams(sampleQuery(info.sample, endpoint)));
      const api = await stableAnswer(h, endpoint.path, query, key);
      expect(api.status, info.id).toBe(200);
      const expected = api.rows
        .slice(0, SAMPLE_ROWS)
        .map((row) => info.sample.columns.map((column) => sampleCell(column, row[column])));
      expect(page(info.id).sample.rows, info.id).toEqual(expected);
    }
  });

  it('writes the sample request with the key placeholder and links the reference and the API viewer', () => {
    for (const dataset of DATASETS) {
      const view = page(dataset.id);
      const curl = view.codeSamples.find((sample) => sample.language === 'curl');
      expect(curl?.code, dataset.id).toContain(`${API}/stable/${view.sample.path}`);
      expect(curl?.code, dataset.id).toContain(`apikey=${KEY_PLACEHOLDER}`);
      expect(view.sample.referenceHref, dataset.id).toBe(`/developer/docs/stable/${view.sample.path}`);
      expect(view.sample.tryItHref, dataset.id).toMatch(/^\/playground\?endpoint=/);
    }
  });
});

describe('the coverage figures', () => {
  it('give the historic prices’ first and last trading day and symbol count from the daily bars', async () => {
    const view = page('market-data-historic');
    const first = await scalar(sql`select min(date)::text from daily_prices`);
    const last = await scalar(sql`select max(date)::text from daily_prices`);
    const symbols = await scalar(sql`select count(distinct symbol)::text from daily_prices`);
    expect(view.facts.find((f) => f.label === 'First date')?.datetime).toBe(first);
    expect(view.facts.find((f) => f.label === 'Last date')?.datetime).toBe(last);
    expect(fact(view, 'Securities covered')).toBe(Number(symbols).toLocaleString('en-US'));
    expect(fact(view, 'History')).toMatch(/years|months/);
  });

  it('give the real-time quotes their latest session rather than a history', () => {
    const view = page('market-data-real-time');
    expect(view.facts.map((f) => f.label)).toEqual(['Securities covered', 'Latest session']);
    expect(view.facts[1]?.datetime).toBe('2026-11-20');
  });

  it('count filed statements, transcripts and 13F positions as records', async () => {
    const statements = await scalar(sql`select count(*)::text from financial_statements`);
    expect(fact(page('fundamental-financial-statements'), 'Statements filed')).toBe(
      Number(statements).toLocaleString('en-US'),
    );
    expect(fact(page('earnings-call-transcripts'), 'Transcripts')).toBeDefined();
    expect(fact(page('form-13f'), 'Positions')).toBeDefined();
    expect(fact(page('esg'), 'History')).toMatch(/fiscal years?$/);
  });
});

describe('a dataset page’s answer', () => {
  it('is nothing for an id the Datasets menu does not name', async () => {
    const view = await loadDatasetPage(
      { db: h.db, directory, now: new Date(h.clock.now), apiUrl: API },
      'bonds',
    );
    expect(view).toBeUndefined();
  });
});
