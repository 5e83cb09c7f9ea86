import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDirectory } from '../../src/server/services/market-data/importer.ts';
import { openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

// What a deployment does with real data: save the API's own answers as files, load them into an empty
// database, and serve them again. Here the files come from the demo data, so the answers must match.
const EXPORTS: { file: string; endpoint: string; query: Record<string, string> }[] = [
  { file: 'profile/AAPL.json', endpoint: 'profile', query: { symbol: 'AAPL' } },
  { file: 'profile/MSFT.json', endpoint: 'profile', query: { symbol: 'MSFT' } },
  { file: 'splits/AAPL.json', endpoint: 'splits', query: { symbol: 'AAPL', limit: '100' } },
  { file: 'dividends/AAPL.json', endpoint: 'dividends', query: { symbol: 'AAPL', limit: '1000' } },
  { file: 'dividends/MSFT.json', endpoint: 'dividends', query: { symbol: 'MSFT', limit: '1000' } },
  {
    file: 'historical-price-eod/full/AAPL.json',
    endpoint: 'historical-price-eod/full',
    query: { symbol: 'AAPL', from: '2000-01-01' },
  },
  {
    file: 'historical-price-eod/full/MSFT.json',
    endpoint: 'historical-price-eod/full',
    query: { symbol: 'MSFT', from: '2000-01-01' },
  },
  {
    file: 'income-statement/AAPL-annual.json',
    endpoint: 'income-statement',
    query: { symbol: 'AAPL', limit: '100' },
  },
  {
    file: 'balance-sheet-statement/AAPL-annual.json',
    endpoint: 'balance-sheet-statement',
    query: { symbol: 'AAPL', limit: '100' },
  },
  {
    file: 'cash-flow-statement/AAPL-annual.json',
    endpoint: 'cash-flow-statement',
    query: { symbol: 'AAPL', limit: '100' },
  },
  { file: 'key-executives/AAPL.json', endpoint: 'key-executives', query: { symbol: 'AAPL' } },
];

/** Answers compared after the import: the exported ones, and what is computed from them. */
const COMPARED: { endpoint: string; query: Record<string, string> }[] = [
  ...EXPORTS.map(({ endpoint, query }) => ({ endpoint, query })),
  { endpoint: 'quote', query: { symbol: 'AAPL' } },
  { endpoint: 'historical-price-eod/light', query: { symbol: 'AAPL', from: '2000-01-01' } },
  { endpoint: 'ratios', query: { symbol: 'AAPL', limit: '100' } },
];

let source: DataApiHarness;
let target: DataApiHarness;
let directory: string;

beforeAll(async () => {
  source = await openDataApiHarness();
  target = await openDataApiHarness({ seed: false });
  directory = mkdtempSync(path.join(tmpdir(), 'import-round-trip-'));
});

afterAll(async () => {
  await source.close();
  await target.close();
  rmSync(directory, { recursive: true, force: true });
});

async function answer(h: DataApiHarness, key: string, endpoint: string, query: Record<string, string>) {
  const res = await h.request(`/stable/${endpoint}`, { ...query, apikey: key });
  expect(res.status, `${endpoint} ${await res.clone().text()}`).toBe(200);
  return { rows: (await res.json()) as unknown[], source: res.headers.get('X-Data-Source') };
}

describe('data saved from the API and imported into an empty database', () => {
  it('is served again exactly as it was, labelled as imported data', async () => {
    const sourceKey = await source.keyFor('commercialEnterprise');
    for (const { file, endpoint, query } of EXPORTS) {
      const { rows } = await answer(source, sourceKey, endpoint, query);
      expect(rows.length, file).toBeGreaterThan(0);
      const destination = path.join(directory, file);
      mkdirSync(path.dirname(destination), { recursive: true });
      writeFileSync(destination, JSON.stringify(rows));
    }

    const report = await importDirectory(target.db, directory);
    expect(report.errors).toEqual([]);
    expect(report.ok).toBe(true);
    target.api.directory.invalidate();

    const targetKey = await target.keyFor('commercialEnterprise');
    for (const { endpoint, query } of COMPARED) {
      const before = await answer(source, sourceKey, endpoint, query);
      const after = await answer(target, targetKey, endpoint, query);
      expect(after.rows, endpoint).toEqual(before.rows);
      expect(after.source).toBe('imported');
      expect(before.source).toBe('demo');
    }
  });

  it('changes nothing when the same files are imported again', async () => {
    const key = await target.keyFor('commercialEnterprise');
    const before = await answer(target, key, 'historical-price-eod/full', {
      symbol: 'AAPL',
      from: '2000-01-01',
    });
    const report = await importDirectory(target.db, directory);
    expect(report.ok).toBe(true);
    target.clock.advance(60_000);
    const after = await answer(target, key, 'historical-price-eod/full', {
      symbol: 'AAPL',
      from: '2000-01-01',
    });
    expect(after.rows).toEqual(before.rows);
  });
});
