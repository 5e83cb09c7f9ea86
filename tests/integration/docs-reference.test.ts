import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_CONTENT_TYPE } from '../../src/server/data-api/endpoint.ts';
import { ALL_ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { codeSample } from '../../src/server/docs/code-samples.ts';
import {
  generateReferenceData,
  REFERENCE_DATA_FILE,
  serializeReferenceData,
} from '../../src/server/docs/examples.ts';
import { exampleQuery } from '../../src/server/docs/reference.ts';
import { openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

describe('the reference pages’ stored example answers', () => {
  it('are what the endpoints answer now over the demo data (else: npm run docs:examples)', async () => {
    const stored = readFileSync(path.resolve(REFERENCE_DATA_FILE), 'utf8');
    const fresh = serializeReferenceData(await generateReferenceData());
    // Compared as text, so the committed file is exactly what the script writes.
    expect(fresh, 'The stored examples are out of date: run npm run docs:examples').toBe(stored);
  }, 120_000);
});

describe('the generated code samples', () => {
  let h: DataApiHarness;
  let key: string;

  beforeAll(async () => {
    h = await openDataApiHarness();
    key = await h.keyFor('commercialEnterprise');
  });

  afterAll(async () => {
    await h.close();
  });

  /** The URL a curl sample requests, with the reader's key in place of the placeholder. */
  function curlUrl(sample: string, withKey: string): URL {
    const url = /--url '([^']+)'/.exec(sample)?.[1];
    if (url === undefined) throw new Error(`no URL in ${sample}`);
    return new URL(url.replace('YOUR_API_KEY', withKey));
  }

  it.each(ALL_ENDPOINTS.map((endpoint) => [endpoint.path, endpoint] as const))(
    'a reader running the curl sample of %s with their key gets 200',
    async (_path, endpoint) => {
      const sample = codeSample(
        { url: `http://localhost:4322/stable/${endpoint.path}`, query: exampleQuery(endpoint) },
        'curl',
      );
      const url = curlUrl(sample.code, key);
      const res = await h.api.app.request(`${url.pathname}${url.search}`);
      expect(res.status, await res.clone().text()).toBe(200);
      if (endpoint.workbook !== undefined) {
        // A workbook endpoint answers the .xlsx file itself (a zip: it starts with "PK").
        expect(res.headers.get('content-type')).toBe(XLSX_CONTENT_TYPE);
        expect(
          Buffer.from(await res.arrayBuffer())
            .subarray(0, 2)
            .toString(),
        ).toBe('PK');
      } else if (endpoint.bulk === undefined) expect(Array.isArray(await res.json())).toBe(true);
      // A bulk file answers CSV by default, its header the definition's fields.
      else expect((await res.text()).split('\r\n')[0]).toBe(Object.keys(endpoint.row.shape).join(','));
    },
  );

  it('without a key of their own, the placeholder is refused with 401', async () => {
    const endpoint = ALL_ENDPOINTS.find((candidate) => candidate.path === 'quote');
    if (endpoint === undefined) throw new Error('no quote endpoint');
    const sample = codeSample(
      { url: 'http://localhost:4322/stable/quote', query: exampleQuery(endpoint) },
      'curl',
    );
    const url = curlUrl(sample.code, 'YOUR_API_KEY');
    expect((await h.api.app.request(`${url.pathname}${url.search}`)).status).toBe(401);
  });
});
