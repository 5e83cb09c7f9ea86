import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'hono';
import type { z } from 'zod';
import {
  describeForLog,
  INTERNAL_ERROR_MESSAGE,
  isDatabaseUnavailable,
  UNAVAILABLE_MESSAGE,
} from '../app/errors.ts';
import { ipKey } from '../middleware/rate-limit.ts';
import type { DataCaller } from './access.ts';
import type { EndpointDefinition } from './endpoint.ts';
import {
  CALL_INPUT,
  CALL_TOOL,
  describeEndpoint,
  DESCRIBE_INPUT,
  DESCRIBE_TOOL,
  directToolPath,
  EndpointSearch,
  queryValues,
  SEARCH_INPUT,
  SEARCH_TOOL,
  sizedAnswer,
  toolList,
  workbookToolMessage,
  type ToolDescription,
} from './mcp-tools.ts';
import type { DataCredential, DataPipeline } from './pipeline.ts';

/*
 * The data API as a Model Context Protocol server at /mcp (streamable HTTP, stateless: every POST
 * is answered on its own, with a server built for it, so any instance behind a load balancer can
 * answer any request). An assistant calls the data API's endpoints as tools; each call goes
 * through the same pipeline as an HTTP call (key, limits, plan, metering under the endpoint's path).
 */

/** The path the MCP server answers at, on the data API's host. */
export const MCP_PATH = '/mcp';

/** The server's name and version as the MCP handshake reports them. */
const SERVER_INFO = { name: 'market-data', title: 'Market data API', version: '2026.11' };

/** What the handshake tells the assistant about using the tools. */
const INSTRUCTIONS =
  'Financial market data (FMP-compatible). Use the get_* tools and search_symbol for quotes, company profiles, financial statements, daily price history and news. For anything else, search_endpoints with a few words, then describe_endpoint for its parameters, then call_endpoint. Each tool call that reaches an endpoint counts against the plan’s limits like an API call; answers carry at most 50 rows.';

export const MCP_MISSING_KEY_MESSAGE =
  'Missing API key. Send it in an Authorization: Bearer <key> header, or add ?apikey=<key> to the MCP server’s address; get a free key by signing up.';

/** Open CORS without credentials, for browser-based MCP clients. */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Mcp-Session-Id',
};

/** The preflight answer: MCP clients POST with these headers. */
export const MCP_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers':
    'authorization, apikey, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
  'Access-Control-Max-Age': '86400',
};

/** The key a request carries: a Bearer token, else `apikey` in the query or a header. */
function keyOf(c: Context): string | undefined {
  const authorization = c.req.header('authorization');
  const bearer = authorization === undefined ? undefined : /^Bearer\s+(.+)$/i.exec(authorization.trim())?.[1];
  return bearer ?? c.req.query('apikey') ?? c.req.header('apikey');
}

/** A JSON-RPC error answered over HTTP (no request id: it refuses the request as a whole). */
function jsonRpcError(status: 401 | 403 | 405, code: number, message: string): Response {
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    'Cache-Control': 'no-store',
    'Content-Type': 'application/json; charset=utf-8',
  };
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer realm="market-data"';
  if (status === 405) headers.Allow = 'POST, OPTIONS';
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers,
  });
}

/** A tool error: the assistant reads the message and may correct its call. */
function toolError(message: string, details: Record<string, unknown> = {}): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: message }],
    structuredContent: { error: message, ...details },
  };
}

/** The first problem of a discovery tool's arguments, naming the argument. */
function argumentMessage(tool: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const name = issue?.path[0];
  if (issue === undefined || name === undefined) return `Invalid arguments for ${tool}.`;
  return `Invalid value for argument "${String(name)}" of ${tool}: ${issue.message}.`;
}

/** Everything the tools need for one request: the pipeline, the caller, its credential. */
interface ToolContext {
  pipeline: DataPipeline;
  search: EndpointSearch;
  caller: DataCaller;
  credential: DataCredential;
}

/** Calls an endpoint through the pipeline, as an HTTP call would, and sizes its answer. */
async function callEndpoint(
  context: ToolContext,
  endpoint: EndpointDefinition,
  argumentsGiven: Readonly<Record<string, unknown>>,
): Promise<CallToolResult> {
  const outcome = await context.pipeline.call(endpoint, queryValues(argumentsGiven), context.credential);
  if (!outcome.ok) {
    return toolError(`The API refused the call (HTTP ${outcome.status}): ${outcome.message}`, {
      status: outcome.status,
      endpoint: endpoint.path,
    });
  }
  const { structured, text } = sizedAnswer(endpoint, outcome.body);
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** An endpoint named by a discovery tool, or the tool error saying how to find one. */
function namedEndpoint(context: ToolContext, path: string): EndpointDefinition | string {
  // `/stable/dividends?symbol=AAPL` names the endpoint `dividends`, as it would on HTTP.
  const cleaned = path
    .replace(/^\/*(stable\/)?/, '')
    .replace(/\?.*$/, '')
    .replace(/\/+$/, '');
  const endpoint = context.pipeline.find(cleaned);
  // A workbook is a file: no tool describes or calls it (it is not offered by the search either).
  if (endpoint?.workbook !== undefined) return workbookToolMessage(endpoint);
  if (endpoint !== undefined && endpoint.legacy !== true) return endpoint;
  const near = context.search.search(path, 3, context.caller.plan.dataTier).map((match) => match.path);
  return `Unknown endpoint "${path}".${near.length === 0 ? '' : ` Did you mean ${near.join(', ')}?`} Find endpoints with ${SEARCH_TOOL}.`;
}

/** search_endpoints: the endpoints matching the words, one line each for the model. */
function searchTool(context: ToolContext, argumentsGiven: unknown): CallToolResult {
  const parsed = SEARCH_INPUT.safeParse(argumentsGiven);
  if (!parsed.success) return toolError(argumentMessage(SEARCH_TOOL, parsed.error));
  const { query, limit } = parsed.data;
  const matches = context.search.search(query, limit, context.caller.plan.dataTier);
  const lines = matches.map(
    (match) =>
      `${match.path}: ${match.summary} (${match.group}; ${match.tier} data${match.includedInYourPlan ? '' : ', not in your plan'}; required: ${match.requiredParameters.join(', ') || 'none'})`,
  );
  const text =
    lines.length === 0
      ? `No endpoint matches "${query}". Try other words (a kind of data such as "dividends" or "ratios").`
      : lines.join('\n');
  return { content: [{ type: 'text', text }], structuredContent: { endpoints: matches } };
}

/** describe_endpoint: what one endpoint takes and answers. */
function describeTool(context: ToolContext, argumentsGiven: unknown): CallToolResult {
  const parsed = DESCRIBE_INPUT.safeParse(argumentsGiven);
  if (!parsed.success) return toolError(argumentMessage(DESCRIBE_TOOL, parsed.error));
  const endpoint = namedEndpoint(context, parsed.data.path);
  if (typeof endpoint === 'string') return toolError(endpoint);
  const description = describeEndpoint(endpoint, context.caller.plan.dataTier);
  return {
    content: [{ type: 'text', text: JSON.stringify(description) }],
    structuredContent: { ...description },
  };
}

/** call_endpoint: any endpoint by its path. */
async function callEndpointTool(context: ToolContext, argumentsGiven: unknown): Promise<CallToolResult> {
  const parsed = CALL_INPUT.safeParse(argumentsGiven);
  if (!parsed.success) return toolError(argumentMessage(CALL_TOOL, parsed.error));
  const endpoint = namedEndpoint(context, parsed.data.path);
  if (typeof endpoint === 'string') return toolError(endpoint);
  return callEndpoint(context, endpoint, parsed.data.parameters);
}

/** The discovery tools by name. */
const DISCOVERY_TOOLS: Readonly<
  Record<string, (context: ToolContext, argumentsGiven: unknown) => CallToolResult | Promise<CallToolResult>>
> = {
  [SEARCH_TOOL]: searchTool,
  [DESCRIBE_TOOL]: describeTool,
  [CALL_TOOL]: callEndpointTool,
};

/**
 * Answers one tools/call. A failure on our side (the database unreachable) is logged without secrets
 * and answered as a tool error in the services' usual words, so no internal message reaches the assistant.
 */
async function callTool(
  context: ToolContext,
  name: string,
  argumentsGiven: Readonly<Record<string, unknown>>,
): Promise<CallToolResult> {
  try {
    const direct = directToolPath(name);
    const endpoint = direct === undefined ? undefined : context.pipeline.find(direct);
    if (endpoint !== undefined) return await callEndpoint(context, endpoint, argumentsGiven);
    const discovery = Object.hasOwn(DISCOVERY_TOOLS, name) ? DISCOVERY_TOOLS[name] : undefined;
    if (discovery !== undefined) return await discovery(context, argumentsGiven);
    return toolError(`Unknown tool "${name}". The tools are listed by tools/list.`);
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      console.warn(`[data-api] MCP ${name} failed: ${describeForLog(error)}`);
      return toolError(UNAVAILABLE_MESSAGE);
    }
    console.error(`[data-api] MCP ${name} failed: ${describeForLog(error)}`);
    return toolError(INTERNAL_ERROR_MESSAGE);
  }
}

/** An MCP server for one request: the tools list and the tool calls of one caller. */
function serverFor(context: ToolContext, tools: readonly ToolDescription[]): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  // The tools are generated from the endpoint definitions with their own JSON Schemas, so the
  // protocol's tool requests are answered here rather than through zod-typed registrations.
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools] }));
  server.server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(context, request.params.name, request.params.arguments ?? {}),
  );
  return server;
}

/** The key an MCP request carries, for the pipeline. */
class McpCredential implements DataCredential {
  readonly key: string | undefined;
  private readonly context: Context;

  constructor(context: Context, key: string | undefined) {
    this.context = context;
    this.key = key;
  }

  client(): string {
    return ipKey(this.context);
  }
}

/**
 * The /mcp handler over a pipeline: a request without a usable key is refused with 401 (403 for a
 * blocked or unverified account) before any MCP message is read; otherwise a stateless server and
 * transport answer the request in JSON. Only POST carries messages: with no sessions there is no
 * stream to open (GET) or end (DELETE), so those are answered 405, as the transport specifies.
 */
export function mcpHandler(pipeline: DataPipeline): (c: Context) => Promise<Response> {
  const current = pipeline.endpoints.filter((endpoint) => endpoint.legacy !== true);
  const endpoints = current.filter((endpoint) => endpoint.workbook === undefined);
  const search = new EndpointSearch(
    endpoints,
    current.filter((endpoint) => endpoint.workbook !== undefined),
  );
  let tools: ToolDescription[] | undefined;

  return async (c) => {
    if (c.req.method !== 'POST') {
      return jsonRpcError(
        405,
        -32000,
        'Method not allowed: this MCP server is stateless; send messages with POST.',
      );
    }
    const key = keyOf(c);
    if (key === undefined || key.trim() === '') return jsonRpcError(401, -32001, MCP_MISSING_KEY_MESSAGE);
    const caller = await pipeline.keys.check(key);
    if ('status' in caller) return jsonRpcError(caller.status, -32001, caller.message);
    tools ??= toolList((path) => pipeline.find(path));
    const server = serverFor({ pipeline, search, caller, credential: new McpCredential(c, key) }, tools);
    // No session id generator: the transport is stateless.
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(c.req.raw);
      for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
      return response;
    } finally {
      await server.close();
    }
  };
}
