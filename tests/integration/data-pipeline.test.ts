import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_KEY_MESSAGE } from '../../src/server/data-api/access.ts';
import { USAGE_NEEDS_KEY_MESSAGE } from '../../src/server/data-api/endpoints/account.ts';
import type {
  DataAnswer,
  DataCredential,
  DataOutcome,
  DataRefusal,
} from '../../src/server/data-api/pipeline.ts';
import { z } from 'zod';
import { defineEndpoint, type EndpointDefinition } from '../../src/server/data-api/endpoint.ts';
import { ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { accessTokenKey, signPublicToken } from '../../src/server/auth/tokens.ts';
import { freeLimits, HARNESS_SECRET, openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

let h: DataApiHarness;

beforeAll(async () => {
  h = await openDataApiHarness();
});

afterAll(async () => {
  await h.close();
});

function credential(key: string | undefined): DataCredential {
  return { key, client: () => 'test:client' };
}

function endpoint(path: string): EndpointDefinition {
  const found = h.api.pipeline.find(path);
  if (found === undefined) throw new Error(`no endpoint ${path}`);
  return found;
}

async function answer(outcome: DataOutcome | Promise<DataOutcome>): Promise<DataAnswer> {
  const settled = await outcome;
  if (!settled.ok) throw new Error(`refused: ${settled.message}`);
  return settled;
}

async function refusal(outcome: DataOutcome | Promise<DataOutcome>): Promise<DataRefusal> {
  const settled = await outcome;
  if (settled.ok) throw new Error('answered');
  return settled;
}

describe('the data pipeline without HTTP', () => {
  it('answers a call with the rows, the tag and the budgets counted, and repeats it without a promise', async () => {
    const key = await h.keyFor('free');
    const quote = endpoint('quote');
    const first = await answer(h.api.pipeline.call(quote, { symbol: 'AAPL' }, credential(key)));
    const rows = JSON.parse(first.body) as { symbol: string }[];
    expect(rows.map((row) => row.symbol)).toEqual(['AAPL']);
    expect(first.csv).toBe(false);
    expect(first.unchanged).toBe(false);
    expect(first.bytes).toBe(Buffer.byteLength(first.body));
    expect(first.source).toBe('demo');
    const { perMinute, perDay } = await freeLimits(h.db);
    expect(first.limits?.['RateLimit-Policy']).toBe(
      `"minute";q=${perMinute};w=60, "day";q=${perDay};w=86400`,
    );

    // The same call again, as a query string: the fast path answers synchronously.
    const again = h.api.pipeline.call(quote, 'symbol=AAPL', credential(key), first.etag);
    expect(again).not.toBeInstanceOf(Promise);
    const repeated = await answer(again);
    expect(repeated.etag).toBe(first.etag);
    expect(repeated.unchanged).toBe(true);
    expect(repeated.bytes).toBe(0);
  });

  it('answers CSV when the parameters ask for it', async () => {
    const key = await h.keyFor('free');
    const csv = await answer(
      h.api.pipeline.call(endpoint('stock-list'), { datatype: 'csv' }, credential(key)),
    );
    expect(csv.csv).toBe(true);
    expect(csv.body.split('\r\n')[0]).toBe('symbol,companyName');
  });

  it('refuses with a typed reason, status and FMP error body', async () => {
    const missing = await refusal(
      h.api.pipeline.call(endpoint('quote'), { symbol: 'AAPL' }, credential(undefined)),
    );
    expect(missing).toMatchObject({
      ok: false,
      reason: 'credential',
      status: 401,
      message: MISSING_KEY_MESSAGE,
    });
    expect(JSON.parse(missing.body)).toEqual({ 'Error Message': MISSING_KEY_MESSAGE });
    expect(missing.limits).toBeUndefined();

    const key = await h.keyFor('free');
    const invalid = await refusal(h.api.pipeline.call(endpoint('quote'), {}, credential(key)));
    expect(invalid).toMatchObject({ reason: 'parameters', status: 400 });
    expect(invalid.message).toBe('Missing required parameter "symbol".');

    const plan = await refusal(
      h.api.pipeline.call(endpoint('historical-chart/5min'), { symbol: 'AAPL' }, credential(key)),
    );
    expect(plan).toMatchObject({ reason: 'plan', status: 402 });
    expect(plan.message).toMatch(/^Your Free plan does not cover the historical-chart\/5min endpoint\./);
    expect(plan.limits?.RateLimit).toBeDefined();
  });

  it('answers refusals a handler raises with classes from another copy of the modules, as the site’s bundle does', async () => {
    // The production process loads the server's modules twice (the site's bundle and the servers'
    // sources); a site endpoint's refusal comes from the other copy than the pipeline's.
    const copyOf = (path: string): Promise<unknown> => import(/* @vite-ignore */ `${path}?copy`);
    const copy = (await copyOf(
      '../../src/server/services/market-data/plan-access.ts',
    )) as typeof import('../../src/server/services/market-data/plan-access.ts');
    const endpointCopy = (await copyOf(
      '../../src/server/data-api/endpoint.ts',
    )) as typeof import('../../src/server/data-api/endpoint.ts');
    const refusing = (error: Error): EndpointDefinition =>
      defineEndpoint({
        path: `test/refusing-${error.name}`,
        dataset: 'market-data-real-time',
        group: 'Test',
        summary: 'Refuses',
        description: 'Refuses every call.',
        tier: 0,
        params: z.object({}),
        row: z.object({}),
        maxAge: 0,
        cadence: { frequency: 'daily', when: 'Never: it refuses every call.' },
        example: '',
        handler: () => Promise.reject(error),
      });
    const key = await h.keyFor('free');
    const plan = await refusal(
      h.api.pipeline.call(refusing(new copy.PlanRequiredError(2, 'the test data')), {}, credential(key)),
    );
    expect(plan).toMatchObject({ status: 402, reason: 'plan' });
    expect(plan.message).toContain('does not cover the test data');
    const invalid = await refusal(
      h.api.pipeline.call(refusing(new copy.InvalidParametersError('Bad pair.')), {}, credential(key)),
    );
    expect(invalid).toMatchObject({ status: 400, message: 'Bad pair.' });
    const notFound = await refusal(
      h.api.pipeline.call(
        refusing(new endpointCopy.DataApiError(404, 'No such thing.')),
        {},
        credential(key),
      ),
    );
    expect(notFound).toMatchObject({ status: 404, message: 'No such thing.' });
  });

  it('serves the usage report as a free endpoint that knows its caller', async () => {
    const usage = endpoint('api-usage');
    expect(usage.free).toBe(true);
    expect(usage.callerAware).toBe(true);
    const key = await h.keyFor('free');
    const report = await answer(h.api.pipeline.call(usage, {}, credential(key)));
    expect(JSON.parse(report.body)).toEqual([]);
    // Free: no budget counted, so no RateLimit headers either.
    expect(report.limits).toBeUndefined();

    const token = await signPublicToken(accessTokenKey(HARNESS_SECRET), { now: new Date(h.clock.now) });
    const visitor = await refusal(h.api.pipeline.call(usage, {}, credential(token)));
    expect(visitor).toMatchObject({ reason: 'credential', status: 401, message: USAGE_NEEDS_KEY_MESSAGE });
  });
});

/** The data API's CSV as it was written before the shared writer, plus the formula neutralisation. */
function formerCsv(rows: readonly Record<string, unknown>[], columns: readonly string[]): string {
  const field = (value: unknown): string => {
    if (value === null || value === undefined) return '';
    let text =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value);
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = [columns.map(field).join(',')];
  for (const row of rows) lines.push(columns.map((column) => field(row[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

describe('CSV answers', () => {
  // Bulk files stream their CSV over HTTP only; tests/integration/bulk-endpoints.test.ts checks them.
  it.each(
    ENDPOINTS.filter((definition) => definition.csv === true && definition.bulk === undefined).map(
      (definition) => [definition.path],
    ),
  )('%s writes the same CSV as before, text cells that would run as formulas aside', async (path) => {
    const key = await h.keyFor('commercialEnterprise');
    const definition = endpoint(path);
    const query = Object.fromEntries(new URLSearchParams(definition.example));
    const json = await answer(h.api.pipeline.call(definition, query, credential(key)));
    const csv = await answer(h.api.pipeline.call(definition, { ...query, datatype: 'csv' }, credential(key)));
    const rows = JSON.parse(json.body) as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    expect(csv.body).toBe(formerCsv(rows, Object.keys(definition.row.shape)));
  });
});
