import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODE_LANGUAGES } from '../../src/lib/docs/code-languages.ts';
import { endpointErrors, endpointParameters } from '../../src/server/data-api/endpoint-docs.ts';
import { ALL_ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import type { EndpointDefinition } from '../../src/server/data-api/endpoint.ts';
import { codeSamples, type SampleRequest } from '../../src/server/docs/code-samples.ts';
import { endpointGroups } from '../../src/server/docs/home.ts';
import {
  accessText,
  historyText,
  raisedTexts,
  referenceMarkdown,
  referencePage,
  referencePages,
  REFERENCE_DATA,
  storedExample,
} from '../../src/server/docs/reference.ts';

const API = 'https://data.example.org';

function endpoint(path: string): EndpointDefinition {
  const found = ALL_ENDPOINTS.find((candidate) => candidate.path === path);
  if (found === undefined) throw new Error(`no endpoint ${path}`);
  return found;
}

describe('the API reference', () => {
  it('has a page and a Markdown twin for every endpoint definition, each with its example answer', () => {
    const pages = referencePages(API);
    expect(pages.map((page) => page.path)).toEqual(ALL_ENDPOINTS.map((definition) => definition.path));
    for (const page of pages) {
      expect(page.pagePath).toBe(`/developer/docs/stable/${page.path}`);
      expect(page.markdownPath).toBe(`/developer/docs/stable/${page.path}.md`);
      expect(page.url).toBe(`${API}/stable/${page.path}`);
      expect(page.samples.map((sample) => sample.language)).toEqual(CODE_LANGUAGES.map(({ id }) => id));
      const markdown = referenceMarkdown(page);
      expect(markdown).toMatch(new RegExp(`^# ${page.title.replace(/[()]/g, '\\$&')}\n\n> `));
      expect(markdown).toContain(`\`GET ${API}/stable/${page.path}\``);
      // A workbook's page shows its sheets (see below) instead of the fields and a JSON example.
      if (page.endpoint.workbook !== undefined) continue;
      expect(page.fields.map((field) => field.name)).toEqual(Object.keys(page.endpoint.row.shape));
      expect(page.example.shownRows, page.path).toBeGreaterThan(0);
      expect(markdown).toContain(page.example.json);
    }
  });

  it('presents a workbook endpoint as an Excel file, with each sheet’s first rows and no JSON example', () => {
    const page = referencePage(endpoint('financial-reports-xlsx'), API);
    expect(page.fields).toEqual([]);
    expect(page.example.json).toBe('');
    expect(page.example.workbook?.fileName).toBe('AAPL-2025-FY.xlsx');
    expect(page.example.workbook?.sheets.map((sheet) => sheet.name)).toEqual([
      'Cover Page',
      'Income Statement',
      'Balance Sheet',
      'Cash Flow Statement',
    ]);
    const markdown = referenceMarkdown(page);
    expect(markdown).toContain(
      'An Excel workbook (Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet), sent as an attachment',
    );
    expect(markdown).toContain('For the same report as JSON, call financial-reports-json.');
    expect(markdown).toContain('### Income Statement (');
    expect(markdown).toContain('| Line item | FY 2025 (USD) |');
    expect(markdown).toMatch(/\| Revenue \| [\d,]+ \|/);
    expect(markdown).not.toContain('```json');
    expect(markdown).not.toContain('| Field | Type | Description |');
    expect(endpointErrors(endpoint('financial-reports-xlsx')).map((error) => error.status)).toEqual([
      400, 401, 402, 403, 404, 429, 503,
    ]);
  });

  it('lists every endpoint, by group, in the sidebar’s and the landing page’s catalogue', () => {
    const linked = endpointGroups().flatMap((group) => group.endpoints.map((item) => item.href));
    expect(linked).toEqual(ALL_ENDPOINTS.map((definition) => `/developer/docs/stable/${definition.path}`));
  });

  it('documents the parameters as the OpenAPI document does: type, required, default and allowed values', () => {
    const page = referencePage(endpoint('income-statement'), API);
    expect(page.parameters.map((parameter) => parameter.name)).toEqual(
      endpointParameters(endpoint('income-statement')).map((parameter) => parameter.name),
    );
    expect(page.parameters.find((parameter) => parameter.name === 'symbol')).toMatchObject({
      type: 'string',
      required: true,
      defaultValue: undefined,
    });
    expect(page.parameters.find((parameter) => parameter.name === 'period')).toMatchObject({
      required: false,
      defaultValue: 'annual',
      allowed: ['annual', 'quarter', 'FY', 'Q1', 'Q2', 'Q3', 'Q4'],
    });
    expect(page.parameters.find((parameter) => parameter.name === 'limit')).toMatchObject({
      type: 'integer',
      defaultValue: '5',
      allowed: ['1 to 100'],
    });
    expect(page.parameters.slice(-2)).toMatchObject([
      { name: 'datatype', allowed: ['json', 'csv'] },
      { name: 'fields', required: false },
    ]);
  });

  it('names the cheapest plan that opens an endpoint, and the plan that opens parameter values above it', () => {
    const executives = referencePage(endpoint('key-executives'), API).access;
    expect(accessText(executives)).toBe(
      'Fundamentals data: opened by the Starter plan ($19 a month) and included in Professional, Professional (annual), Power, Power (annual), Commercial Build and Commercial Enterprise.',
    );
    // Annual statements are read on every plan (for the symbols it reads); quarterly rows are not.
    const statements = referencePage(endpoint('income-statement'), API).access;
    expect(accessText(statements)).toBe('Every plan, the Free plan included.');
    expect(raisedTexts(statements)).toContain(
      'Quarterly statements (Professional data) need the Professional plan ($39 a month) or above.',
    );
    expect(accessText(referencePage(endpoint('stock-list'), API).access)).toBe(
      'Every plan, the Free plan included.',
    );
    const intraday = referencePage(endpoint('historical-chart/5min'), API).access;
    expect(accessText(intraday)).toMatch(
      /^Professional data: opened by the Professional plan \(\$39 a month\)/,
    );
  });

  it('says how far back each plan reads for endpoints limited by years of history, and only for them', () => {
    expect(historyText(referencePage(endpoint('historical-price-eod/full'), API).access)).toBe(
      'Daily history reaches back as far as your plan reads: the last 5 years on Free, the last 10 years on Starter and all of it on Professional and above. A start date further back is refused with 402.',
    );
    expect(historyText(referencePage(endpoint('quote'), API).access)).toBeUndefined();
  });

  it('costs one call per request, and nothing for a free endpoint', () => {
    expect(referencePage(endpoint('quote'), API).cost).toBe(1);
    expect(referencePage(endpoint('api-usage'), API).cost).toBe(0);
  });

  it('lists only the refusals an endpoint can answer with', () => {
    const statuses = (path: string): number[] => endpointErrors(endpoint(path)).map((error) => error.status);
    expect(statuses('stock-list')).toEqual([400, 401, 403, 429, 503]);
    expect(statuses('quote')).toEqual([400, 401, 402, 403, 429, 503]);
    expect(statuses('api-usage')).toEqual([400, 401, 403, 503]);
    expect(endpointErrors(endpoint('quote'))[0]?.description).toContain('JSON only');
  });

  it('opens the API viewer on the endpoint with the example’s parameters', () => {
    expect(referencePage(endpoint('historical-chart/5min'), API).tryIt).toBe(
      '/playground?endpoint=historical-chart/5min&symbol=AAPL',
    );
    expect(referencePage(endpoint('batch-quote'), API).tryIt).toBe(
      '/playground?endpoint=batch-quote&symbols=AAPL,MSFT',
    );
    expect(referencePage(endpoint('stock-list'), API).tryIt).toBe('/playground?endpoint=stock-list');
  });

  it('shows the first rows of a long example answer and says how many there are', () => {
    const page = referencePage(endpoint('historical-price-eod/full'), API);
    expect(page.example.shownRows).toBe(3);
    expect(page.example.rowCount).toBeGreaterThan(3);
    expect(JSON.parse(page.example.json)).toEqual(storedExample(endpoint('historical-price-eod/full')).rows);
  });

  it('refuses to build a page whose stored example answers another query than the definition asks', () => {
    const changed = { ...endpoint('quote'), example: 'symbol=MSFT' };
    expect(() => referencePage(changed, API)).toThrow(/npm run docs:examples/);
    expect(() => storedExample(endpoint('quote'), { ...REFERENCE_DATA, examples: {} })).toThrow(
      'No stored example answer for quote: run npm run docs:examples',
    );
  });
});

describe('the code samples', () => {
  const request: SampleRequest = {
    url: `${API}/stable/batch-quote`,
    query: [
      ['symbols', 'AAPL,MSFT'],
      ['index', '^GSPC'],
    ],
  };

  it('write the same request in every documentation language, with the key placeholder', () => {
    const samples = codeSamples(request);
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
    for (const sample of samples) {
      expect(sample.code, sample.label).toContain(
        `${API}/stable/batch-quote?symbols=AAPL,MSFT&index=%5EGSPC&apikey=YOUR_API_KEY`,
      );
    }
    expect(samples[0]?.code).toMatch(/^curl /);
    expect(samples.find((sample) => sample.language === 'python')?.code).toContain('import requests');
  });

  it('are coloured with highlight.js classes only, the text escaped and the placeholder whole', () => {
    for (const sample of codeSamples(request)) {
      expect(sample.html).toContain('class="hljs-');
      expect(sample.html).not.toContain('style=');
      expect(sample.html).toContain('YOUR_API_KEY');
      expect(sample.html).not.toMatch(/&(?!#x26;|amp;|lt;|gt;|quot;|#x27;|#x3C;)/);
    }
  });

  it('have a style for every language, so the chosen one shows before the page’s scripts run', () => {
    const css = readFileSync(path.resolve('src/styles/code-samples.css'), 'utf8');
    for (const { id } of CODE_LANGUAGES) {
      expect(css).toContain(`html[data-code-lang='${id}'] .code-panel[data-lang='${id}']`);
      expect(css).toContain(`html[data-code-lang='${id}'] .code-tab[data-lang='${id}']`);
    }
  });
});
