import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_KEY_MESSAGE, UNVERIFIED_KEY_MESSAGE } from '../../src/server/data-api/access.ts';
import { MCP_MISSING_KEY_MESSAGE } from '../../src/server/data-api/mcp.ts';
import { MCP_ROW_LIMIT } from '../../src/server/data-api/mcp-tools.ts';
import { freeLimits, openDataApiHarness, stableAnswer, type DataApiHarness } from './data-api-harness.ts';

/*
 * The MCP server as an assistant meets it: the SDK's own client over streamable HTTP against the
 * data API listening on a port, so the handshake, the tool list and every call cross a real socket.
 */

let h: DataApiHarness;
let server: ServerType;
let mcpUrl: URL;
let commercialKey: string;

beforeAll(async () => {
  h = await openDataApiHarness();
  commercialKey = await h.keyFor('commercialEnterprise');
  server = serve({ fetch: h.api.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  mcpUrl = new URL(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}/mcp`);
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await h.close();
});

/** A connected client sending `key` as a Bearer token (or in the address when `inQuery`). */
async function connect(key: string, inQuery = false): Promise<Client> {
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  const url = new URL(mcpUrl);
  if (inQuery) url.searchParams.set('apikey', key);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: inQuery ? {} : { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

interface ToolAnswer {
  isError: boolean;
  text: string;
  structured: Record<string, unknown>;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  return {
    isError: result.isError === true,
    text: content.map((part) => part.text ?? '').join('\n'),
    structured: (result.structuredContent ?? {}) as Record<string, unknown>,
  };
}

describe('the MCP server', () => {
  it('offers a few tools: the common questions directly, every other endpoint through discovery', async () => {
    const client = await connect(commercialKey);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual([
      'get_quote',
      'get_company_profile',
      'get_income_statement',
      'get_balance_sheet_statement',
      'get_cash_flow_statement',
      'get_price_history',
      'search_symbol',
      'get_stock_news',
      'search_endpoints',
      'describe_endpoint',
      'call_endpoint',
    ]);
    const quote = tools.find((tool) => tool.name === 'get_quote');
    expect(quote?.inputSchema.required).toEqual(['symbol']);
    expect(quote?.inputSchema.properties?.symbol).toMatchObject({
      type: 'string',
      description: 'Ticker symbol',
    });
    expect(quote?.description).toContain('/stable/quote');
    // JSON only: the answer is sized and rendered for the model, so CSV is not offered.
    const history = tools.find((tool) => tool.name === 'get_price_history');
    expect(Object.keys(history?.inputSchema.properties ?? {})).toEqual(['symbol', 'from', 'to', 'fields']);
    await client.close();
  });

  it('finds endpoints by the words of a question, saying which the plan includes', async () => {
    const client = await connect(await h.keyFor('free'));
    const dividends = await callTool(client, 'search_endpoints', { query: 'dividend payments' });
    const found = dividends.structured.endpoints as {
      path: string;
      tier: string;
      includedInYourPlan: boolean;
    }[];
    expect(found[0]).toMatchObject({ path: 'dividends', requiredParameters: ['symbol'] });
    // A user's words meet the API's: "price history" finds the daily (eod) prices first, "trades"
    // the insider trading.
    const history = await callTool(client, 'search_endpoints', { query: 'stock price history', limit: 3 });
    expect((history.structured.endpoints as { path: string }[])[0]?.path).toMatch(
      /^historical-price-eod\/(full|light)$/,
    );
    const insiders = await callTool(client, 'search_endpoints', { query: 'insider trades', limit: 3 });
    expect(
      (insiders.structured.endpoints as { path: string }[]).map((endpoint) => endpoint.path),
    ).toContainEqual(expect.stringMatching(/^insider-trading\//));
    const intraday = await callTool(client, 'search_endpoints', { query: 'intraday 5min bars', limit: 3 });
    const bars = intraday.structured.endpoints as {
      path: string;
      tier: string;
      includedInYourPlan: boolean;
    }[];
    expect(bars.length).toBeLessThanOrEqual(3);
    expect(bars[0]).toEqual(
      expect.objectContaining({
        path: 'historical-chart/5min',
        tier: 'Professional',
        includedInYourPlan: false,
      }),
    );
    expect(intraday.text).toContain('historical-chart/5min: Intraday chart, 5min bars');
    await client.close();
  });

  it('describes an endpoint: its parameters, the fields of its rows, its tier and an example', async () => {
    const client = await connect(commercialKey);
    const answer = await callTool(client, 'describe_endpoint', { path: '/stable/dividends' });
    expect(answer.isError).toBe(false);
    const parameters = answer.structured.parameters as {
      name: string;
      required: boolean;
      description: string;
    }[];
    expect(parameters.map(({ name, required }) => [name, required])).toEqual([
      ['symbol', true],
      ['limit', false],
      ['fields', false],
    ]);
    expect(parameters[0]?.description).toBe('Ticker symbol');
    const fields = answer.structured.fields as { name: string; description: string }[];
    expect(fields.find((field) => field.name === 'adjDividend')?.description).toBe(
      'Dividend per share adjusted for later splits',
    );
    expect(answer.structured).toMatchObject({
      path: 'dividends',
      url: '/stable/dividends',
      includedInYourPlan: true,
    });
    expect(answer.structured.exampleParameters).toEqual({ symbol: 'AAPL' });
    const unknown = await callTool(client, 'describe_endpoint', { path: 'dividend' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^Unknown endpoint "dividend"\. Did you mean dividends/);
    await client.close();
  });

  it('calls any endpoint by its path and answers the rows the HTTP API answers', async () => {
    const client = await connect(commercialKey, true);
    const answer = await callTool(client, 'call_endpoint', {
      path: 'dividends',
      parameters: { symbol: 'aapl', limit: 3 },
    });
    const http = await stableAnswer(h, 'dividends', { symbol: 'AAPL', limit: '3' }, commercialKey);
    expect(http.rows).toHaveLength(3);
    expect(answer.isError).toBe(false);
    expect(answer.structured).toEqual({ endpoint: 'dividends', totalRows: 3, rows: http.rows });
    expect(answer.text).toBe(`/stable/dividends: 3 rows.\n${JSON.stringify(http.rows)}`);
    await client.close();
  });

  it('answers the same price with its quote tool as /stable/quote', async () => {
    const client = await connect(commercialKey);
    const answer = await callTool(client, 'get_quote', { symbol: 'MSFT' });
    const http = await stableAnswer(h, 'quote', { symbol: 'MSFT' }, commercialKey);
    const [row] = answer.structured.rows as { symbol: string; price: number }[];
    expect(row?.symbol).toBe('MSFT');
    expect(row?.price).toBe(http.rows[0]?.price);
    expect(row?.price).toBeGreaterThan(0);
    await client.close();
  });

  it(`keeps a long answer to ${MCP_ROW_LIMIT} rows, saying how many were left out and how to narrow it`, async () => {
    const client = await connect(commercialKey);
    const answer = await callTool(client, 'get_price_history', { symbol: 'AAPL' });
    const http = await stableAnswer(h, 'historical-price-eod/full', { symbol: 'AAPL' }, commercialKey);
    expect(http.rows.length).toBeGreaterThan(MCP_ROW_LIMIT);
    expect(answer.structured.rows).toEqual(http.rows.slice(0, MCP_ROW_LIMIT));
    expect(answer.structured.totalRows).toBe(http.rows.length);
    expect(answer.structured.omittedRows).toBe(http.rows.length - MCP_ROW_LIMIT);
    expect(answer.text).toContain(
      `Showing the first ${MCP_ROW_LIMIT} of ${http.rows.length} rows; ${http.rows.length - MCP_ROW_LIMIT} left out. To see others, narrow the dates with from and to`,
    );
    await client.close();
  });

  it("refuses an endpoint beyond the plan as a tool error naming the plan that opens it, in the API's words", async () => {
    const freeKey = await h.keyFor('free');
    const client = await connect(freeKey);
    const answer = await callTool(client, 'call_endpoint', {
      path: 'grades',
      parameters: { symbol: 'AAPL' },
    });
    const http = await stableAnswer(h, 'grades', { symbol: 'AAPL' }, freeKey);
    expect(http.status).toBe(402);
    expect(answer.isError).toBe(true);
    expect(answer.text).toBe(`The API refused the call (HTTP 402): ${http.error}`);
    expect(answer.text).toContain('Your Free plan does not cover the grades endpoint.');
    expect(answer.text).toContain('It is included in the Professional plan and above');
    expect(answer.structured.status).toBe(402);
    await client.close();
  });

  it('neither offers nor calls the Excel workbook: the tool error points to the same report as JSON, and nothing is spent', async () => {
    const key = await h.keyFor('free');
    const client = await connect(key);
    const search = await callTool(client, 'search_endpoints', { query: 'financial report excel workbook' });
    const paths = (search.structured.endpoints as { path: string }[]).map((endpoint) => endpoint.path);
    expect(paths).toContain('financial-reports-json');
    expect(paths).not.toContain('financial-reports-xlsx');
    const message =
      'financial-reports-xlsx answers an Excel workbook, a file the tools cannot carry: call financial-reports-json for the same rows as JSON, or download the workbook over HTTP at /stable/financial-reports-xlsx.';
    const described = await callTool(client, 'describe_endpoint', { path: 'financial-reports-xlsx' });
    expect(described).toMatchObject({ isError: true, text: message });
    const called = await callTool(client, 'call_endpoint', {
      path: '/stable/financial-reports-xlsx',
      parameters: { symbol: 'AAPL', year: 2025 },
    });
    expect(called).toMatchObject({ isError: true, text: message });
    const json = await callTool(client, 'call_endpoint', {
      path: 'financial-reports-json',
      parameters: { symbol: 'AAPL', year: 2025 },
    });
    expect(json.isError).toBe(false);
    await client.close();
    await h.api.meter.flush();
    const usage = await stableAnswer(h, 'api-usage', {}, key);
    expect(usage.rows.map(({ endpoint, calls }) => ({ endpoint, calls }))).toEqual([
      { endpoint: 'financial-reports-json', calls: 1 },
    ]);
  });

  it('refuses a missing or invalid parameter with the message naming it', async () => {
    const client = await connect(commercialKey);
    const missing = await callTool(client, 'get_quote', {});
    expect(missing).toMatchObject({
      isError: true,
      text: 'The API refused the call (HTTP 400): Missing required parameter "symbol".',
    });
    const tooMany = await callTool(client, 'get_income_statement', { symbol: 'AAPL', limit: 100000 });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.text).toContain('Invalid value for parameter "limit"');
    const unknownTool = await callTool(client, 'get_everything', {});
    expect(unknownTool).toMatchObject({
      isError: true,
      text: 'Unknown tool "get_everything". The tools are listed by tools/list.',
    });
    const badArgument = await callTool(client, 'search_endpoints', { query: '' });
    expect(badArgument).toMatchObject({
      isError: true,
      text: 'Invalid value for argument "query" of search_endpoints: is required.',
    });
    await client.close();
  });

  it("spends the plan's per-minute budget like HTTP calls and answers 429 as a tool error", async () => {
    const { perMinute } = await freeLimits(h.db);
    const client = await connect(await h.keyFor('free'));
    for (let call = 0; call < perMinute; call += 1) {
      expect((await callTool(client, 'get_quote', { symbol: 'AAPL' })).isError).toBe(false);
    }
    const limited = await callTool(client, 'get_quote', { symbol: 'AAPL' });
    expect(limited.isError).toBe(true);
    expect(limited.structured.status).toBe(429);
    expect(limited.text).toContain('(HTTP 429)');
    await client.close();
  });

  it("shows each tool call in the account's usage under the endpoint's path; listing and searching are free", async () => {
    const key = await h.keyFor('commercialEnterprise');
    const client = await connect(key);
    await client.listTools();
    await callTool(client, 'search_endpoints', { query: 'quote' });
    await callTool(client, 'describe_endpoint', { path: 'quote' });
    await callTool(client, 'get_quote', { symbol: 'NVDA' });
    await callTool(client, 'call_endpoint', { path: 'quote', parameters: { symbol: 'AAPL' } });
    await callTool(client, 'get_company_profile', { symbol: 'NVDA' });
    await client.close();
    await h.api.meter.flush();
    const usage = await stableAnswer(h, 'api-usage', {}, key);
    expect(usage.rows.map(({ endpoint, calls }) => ({ endpoint, calls }))).toEqual([
      { endpoint: 'profile', calls: 1 },
      { endpoint: 'quote', calls: 2 },
    ]);
  });

  it('refuses a connection without a key, or with an invalid one, before any tool is offered', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    };
    const post = (headers: Record<string, string>): Promise<Response> =>
      fetch(mcpUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(initialize),
      });
    const noKey = await post({});
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: MCP_MISSING_KEY_MESSAGE },
      id: null,
    });
    const invalid = await post({ Authorization: 'Bearer not-a-key' });
    expect(invalid.status).toBe(401);
    expect(((await invalid.json()) as { error: { message: string } }).error.message).toBe(
      INVALID_KEY_MESSAGE,
    );
    const unverified = await post({ Authorization: `Bearer ${await h.keyFor('free', { verified: false })}` });
    expect(unverified.status).toBe(403);
    expect(((await unverified.json()) as { error: { message: string } }).error.message).toBe(
      UNVERIFIED_KEY_MESSAGE,
    );
    await expect(connect('')).rejects.toThrow(/Missing API key/);
    const withKey = await post({ Authorization: `Bearer ${commercialKey}` });
    expect(withKey.status).toBe(200);
  });

  it('answers a single POST without a handshake, as the guide shows it with curl', async () => {
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${commercialKey}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_quote', arguments: { symbol: 'AAPL' } },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as {
      id: number;
      result: { structuredContent: { rows: { symbol: string }[] } };
    };
    expect(body.id).toBe(1);
    expect(body.result.structuredContent.rows[0]?.symbol).toBe('AAPL');
  });

  it('answers 405 to GET and DELETE: it is stateless, so there is no stream or session', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(mcpUrl, { method, headers: { Authorization: `Bearer ${commercialKey}` } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    }
  });
});
