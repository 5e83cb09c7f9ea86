import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { csvEndpoints, explorerCatalogue } from '../../src/server/docs/excel-add-on.ts';
import { KEY_PLACEHOLDER } from '../../src/lib/docs/key-placeholder.ts';
import { createDataClient } from '../../src/lib/spreadsheet/data-client.ts';
import { addInFormula, csvAddress, importDataFormula } from '../../src/lib/spreadsheet/explorer.ts';
import { spreadsheetFunction, SPREADSHEET_NAMESPACE } from '../../src/lib/spreadsheet/functions.ts';
import { memoryKeyStore } from '../../src/lib/spreadsheet/key-store.ts';
import { openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

/*
 * The Excel add-on page's "without the add-in" addresses (IMPORTDATA, Power Query) and the formula
 * explorer's formulas against the real data API: each answers CSV whose header is the endpoint's
 * fields (or the fields chosen), with a key in place of the placeholder the page shows.
 */

let h: DataApiHarness;
let key: string;

beforeAll(async () => {
  h = await openDataApiHarness();
  // Every CSV endpoint at once: the plan that covers all of them.
  key = await h.keyFor('commercialEnterprise');
});

afterAll(async () => {
  await h.close();
});

const BASE = 'http://data-api.test';

describe('the CSV addresses of the Excel add-on page', () => {
  const listed = csvEndpoints(BASE);

  it('lists exactly the endpoints whose definitions offer CSV', () => {
    expect(listed.map((endpoint) => endpoint.path)).toEqual(
      ENDPOINTS.filter((endpoint) => endpoint.csv === true).map((endpoint) => endpoint.path),
    );
    expect(listed.length).toBeGreaterThan(10);
    for (const endpoint of listed) {
      expect(endpoint.url).toContain('datatype=csv');
      expect(endpoint.url.endsWith(`apikey=${KEY_PLACEHOLDER}`)).toBe(true);
    }
  });

  it('answers each address with CSV whose header row is the endpoint’s fields', async () => {
    for (const endpoint of listed) {
      const url = new URL(endpoint.url.replace(KEY_PLACEHOLDER, key));
      const res = await h.api.app.request(`${url.pathname}${url.search}`);
      const text = await res.text();
      expect(res.status, `${endpoint.path}: ${text.slice(0, 200)}`).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const definition = ENDPOINTS.find((candidate) => candidate.path === endpoint.path);
      const header = text.split('\r\n')[0];
      expect(header, endpoint.path).toBe(Object.keys(definition?.row.shape ?? {}).join(','));
    }
  });
});

/** The string arguments of a formula as Excel reads them (quotes doubled inside). */
function formulaArguments(formula: string): string[] {
  return [...formula.matchAll(/"((?:[^"]|"")*)"/g)].map((match) => (match[1] ?? '').replaceAll('""', '"'));
}

describe('the formula explorer’s formulas', () => {
  const catalogue = explorerCatalogue(BASE);
  const history = catalogue.endpoints.find((endpoint) => endpoint.id === 'historical-price-eod/full');
  if (history === undefined) throw new Error('no history endpoint in the explorer');
  const request = {
    endpoint: history,
    values: { symbol: 'AAPL', from: '2025-03-03', to: '2025-03-14' },
    fields: ['date', 'close', 'volume'],
  };

  it('IMPORTDATA reads CSV with exactly the chosen fields as columns', async () => {
    const formula = importDataFormula(csvAddress(BASE, request, key) ?? '');
    const [address = ''] = formulaArguments(formula);
    const url = new URL(address);
    const res = await h.api.app.request(`${url.pathname}${url.search}`);
    const lines = (await res.text()).trim().split('\r\n');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(lines[0]).toBe('date,close,volume');
    // Two trading weeks.
    expect(lines).toHaveLength(11);
    expect(lines[1]).toMatch(/^2025-03-14,\d+(\.\d+)?,\d+$/);
  });

  it('the add-in formula answers the same rows and columns through the add-in’s DATA function', async () => {
    const formula = addInFormula(request);
    expect(formula.startsWith(`=${SPREADSHEET_NAMESPACE}.DATA(`)).toBe(true);
    const data = spreadsheetFunction('DATA');
    const client = createDataClient({
      baseUrl: BASE,
      keys: memoryKeyStore({ apiKey: key, email: 'a@example.com', plan: 'commercialEnterprise' }),
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : input);
        return Promise.resolve(h.api.app.request(`${url.pathname}${url.search}`, init));
      },
    });
    const table = (await data?.run(client, formulaArguments(formula))) as unknown[][];
    expect(table[0]).toEqual(['date', 'close', 'volume']);
    expect(table).toHaveLength(11);
    expect(table[1]?.[0]).toBe('2025-03-14');
  });
});
