import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { publishedApiUrl } from '../../src/server/docs/markdown-plugins.ts';
import { referencePage } from '../../src/server/docs/reference.ts';
import { createPlaygroundRoutes, MAX_SAMPLE_VALUE_LENGTH } from '../../src/server/routes/playground.ts';
import type { CodeSample } from '../../src/server/docs/code-samples.ts';
import { accountsAppOn } from './accounts-app.ts';
import { openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

// The API viewer's two site routes: its request as code, written by the reference pages' own
// generator, and symbol suggestions from the directory search-symbol reads.

let h: DataApiHarness;
let app: ReturnType<typeof accountsAppOn>;

beforeAll(async () => {
  h = await openDataApiHarness();
  app = accountsAppOn(
    () => h.db,
    [['/playground', createPlaygroundRoutes({ directory: () => h.api.directory.get() })]],
  );
});

afterAll(async () => {
  await h.close();
});

async function get(path: string): Promise<Response> {
  return Promise.resolve(app.request(path));
}

async function samplesOf(query: string): Promise<CodeSample[]> {
  const res = await get(`/playground/code-samples?${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { samples: CodeSample[] }).samples;
}

describe('the API viewer’s request as code', () => {
  it('is exactly what the reference page shows for the same request', async () => {
    const definition = ALL_ENDPOINTS.find((endpoint) => endpoint.path === 'income-statement');
    if (definition === undefined) throw new Error('no income-statement');
    const page = referencePage(definition, publishedApiUrl());
    const samples = await samplesOf(
      'variant=stable&endpoint=income-statement&symbol=AAPL&period=annual&limit=5',
    );
    expect(samples).toEqual(page.samples);
  });

  it('follows the form: parameters in the definition’s order, empty ones left out, the key last', async () => {
    const samples = await samplesOf('endpoint=income-statement&limit=4&period=quarter&symbol=MSFT&datatype=');
    const curl = samples.find((sample) => sample.language === 'curl');
    expect(curl?.code).toContain(
      `${publishedApiUrl()}/stable/income-statement?symbol=MSFT&period=quarter&limit=4&apikey=YOUR_API_KEY`,
    );
    expect(samples.map((sample) => sample.label)).toEqual([
      'curl',
      'JavaScript',
      'Python',
      'Go',
      'PHP',
      'Java',
      'C#',
      'Ruby',
    ]);
  });

  it('puts a legacy request’s symbol in its path', async () => {
    const samples = await samplesOf('variant=legacy&endpoint=quote&symbol=AAPL');
    expect(samples[0]?.code).toContain(`${publishedApiUrl()}/api/v3/quote/AAPL?apikey=YOUR_API_KEY`);
  });

  it('refuses an unknown endpoint, an unknown variant and an over-long value, saying which', async () => {
    const unknown = await get('/playground/code-samples?endpoint=no-such-endpoint');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'No stable endpoint is called "no-such-endpoint".' });
    const variant = await get('/playground/code-samples?variant=beta&endpoint=quote');
    expect(variant.status).toBe(400);
    expect(await variant.json()).toMatchObject({ error: 'variant must be stable or legacy' });
    const long = await get(
      `/playground/code-samples?endpoint=quote&symbol=${'A'.repeat(MAX_SAMPLE_VALUE_LENGTH + 1)}`,
    );
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({
      error: `symbol must be at most ${String(MAX_SAMPLE_VALUE_LENGTH)} characters`,
    });
  });
});

describe('the API viewer’s symbol suggestions', () => {
  it('offer the ticker typed first, then names, with their exchange', async () => {
    const res = await get('/playground/symbols?query=AAP');
    expect(res.status).toBe(200);
    const { symbols } = (await res.json()) as {
      symbols: { symbol: string; name: string; exchange: string }[];
    };
    expect(symbols[0]).toMatchObject({ symbol: 'AAPL', exchange: 'NASDAQ' });
    expect(symbols.length).toBeLessThanOrEqual(8);
  });

  it('offer nothing for nothing typed', async () => {
    const res = await get('/playground/symbols?query=');
    expect(await res.json()).toEqual({ symbols: [] });
  });
});
