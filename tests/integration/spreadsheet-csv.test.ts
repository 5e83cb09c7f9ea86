import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { csvEndpoints } from '../../src/server/docs/excel-add-on.ts';
import { KEY_PLACEHOLDER } from '../../src/lib/docs/key-placeholder.ts';
import { openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

/*
 * The Excel add-on page's "without the add-in" addresses (IMPORTDATA, Power Query) against the real
 * data API: each answers CSV whose header is the endpoint's fields, with a key in place of the
 * placeholder the page shows.
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
