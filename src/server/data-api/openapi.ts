import { XLSX_CONTENT_TYPE, type EndpointDefinition } from './endpoint.ts';
import {
  cadenceExtension,
  endpointErrors,
  endpointParameters,
  rowSchema,
  TIER_NAMES,
  type JsonSchema,
} from './endpoint-docs.ts';

function operation(endpoint: EndpointDefinition): Record<string, unknown> {
  const parameters = endpointParameters(endpoint).map(({ name, required, description, schema, example }) => ({
    name,
    in: 'query',
    required,
    description,
    schema,
    ...(example === undefined ? {} : { example }),
  }));
  const responses: Record<string, unknown> = {
    '200': endpoint.workbook === undefined ? rowsResponse(endpoint) : workbookResponse(endpoint),
  };
  if (endpoint.bulk !== undefined) Object.assign(responses, bulkResponses(endpoint));
  for (const { status, description } of endpointErrors(endpoint)) {
    responses[String(status)] = {
      description,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    operationId: endpoint.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_match, next: string | undefined) =>
      next === undefined ? '' : next.toUpperCase(),
    ),
    tags: [endpoint.group],
    summary: endpoint.summary,
    description: endpoint.description,
    parameters,
    responses,
    'x-data-tier': endpoint.tier,
    'x-data-tier-name': TIER_NAMES[endpoint.tier],
    'x-example-query': endpoint.example,
    'x-max-age': endpoint.maxAge,
    'x-update-cadence': cadenceExtension(endpoint),
    ...(endpoint.bulk === undefined ? {} : { 'x-call-weight': endpoint.bulk.weight }),
  };
}

/** The headers every answer carries. */
const ANSWER_HEADERS = {
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
  'X-Data-Source': { $ref: '#/components/headers/DataSource' },
  ETag: { schema: { type: 'string' } },
};

/** A 200 of rows: JSON, and CSV where offered (first for a bulk file, its default). */
function rowsResponse(endpoint: EndpointDefinition): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  if (endpoint.bulk !== undefined) content['text/csv'] = { schema: { type: 'string' } };
  content['application/json'] = { schema: { type: 'array', items: rowSchema(endpoint) } };
  if (endpoint.csv === true) content['text/csv'] = { schema: { type: 'string' } };
  return {
    description: 'The rows, as a JSON array (empty when nothing matches, e.g. an unknown symbol).',
    headers: ANSWER_HEADERS,
    content,
  };
}

/** A 200 of a workbook endpoint: the .xlsx file's bytes as an attachment, no JSON. */
function workbookResponse(endpoint: EndpointDefinition): Record<string, unknown> {
  return {
    description: `An Excel workbook (.xlsx) sent as an attachment, its file name in Content-Disposition. ${endpoint.workbook?.description ?? ''} The same rows as JSON: ${endpoint.workbook?.jsonPath ?? ''}.`,
    headers: {
      ...ANSWER_HEADERS,
      'Content-Disposition': {
        schema: { type: 'string', examples: ['attachment; filename="AAPL-2025-FY.xlsx"'] },
      },
    },
    content: { [XLSX_CONTENT_TYPE]: { schema: { type: 'string', format: 'binary' } } },
  };
}

/** What a bulk file answers beyond its rows: a resumed tail (206) and a range beyond the end (416). */
function bulkResponses(endpoint: EndpointDefinition): Record<string, unknown> {
  return {
    '206': {
      description: `The file from the byte a \`Range: bytes=N-\` asks for, while it is the file the \`If-Range\` ETag names (or none is given). ${endpoint.bulk?.resume ?? ''}`,
      headers: {
        'Content-Range': { schema: { type: 'string', examples: ['bytes 1000-4999/5000'] } },
        ETag: { schema: { type: 'string' } },
      },
      content: {
        'text/csv': { schema: { type: 'string' } },
        'application/json': { schema: { type: 'string' } },
      },
    },
    '416': {
      description: 'The range starts beyond the end of the file; Content-Range gives its length.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
  };
}

export interface OpenApiOptions {
  /** Public base URL of the data API, e.g. https://api.example.com (default: relative). */
  serverUrl?: string | undefined;
  version: string;
}

/**
 * The OpenAPI 3.1 document of /stable/*, built from the same definitions the app routes, so the
 * docs and the API viewer can never describe an endpoint differently from how it answers.
 */
export function openApiDocument(
  endpoints: readonly EndpointDefinition[],
  options: OpenApiOptions,
): JsonSchema {
  const paths: Record<string, unknown> = {};
  for (const endpoint of endpoints) paths[`/stable/${endpoint.path}`] = { get: operation(endpoint) };
  const tags = [...new Set(endpoints.map((endpoint) => endpoint.group))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Market data API',
      version: options.version,
      description:
        'Financial market data, compatible with the FMP "stable" API: change the base URL and keep your client. Every answer is a JSON array (the bulk files are CSV unless JSON is asked for; financial-reports-xlsx is an Excel workbook); errors are {"Error Message": "…"} with a meaningful status. Answers labelled X-Data-Source: demo come from the demo data generator, not from markets. AI assistants can call the same endpoints as tools through the MCP server at /mcp (streamable HTTP, the key as a Bearer token).',
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    security: [{ apikeyQuery: [] }, { apikeyHeader: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        apikeyQuery: { type: 'apiKey', in: 'query', name: 'apikey' },
        apikeyHeader: { type: 'apiKey', in: 'header', name: 'apikey' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['Error Message'],
          properties: { 'Error Message': { type: 'string', description: 'What went wrong, for a person.' } },
        },
      },
      headers: {
        RateLimit: {
          description:
            'Calls left and seconds until the window frees a call, per policy (IETF httpapi draft).',
          schema: { type: 'string', examples: ['"minute";r=29;t=60, "day";r=249;t=86400'] },
        },
        RateLimitPolicy: {
          description: 'The plan limits: calls (q) per window of w seconds.',
          schema: { type: 'string', examples: ['"minute";q=30;w=60, "day";q=250;w=86400'] },
        },
        DataSource: {
          description:
            'demo when the answer comes from generated demo data, imported when from a loaded data set.',
          schema: { type: 'string', enum: ['demo', 'imported'] },
        },
      },
    },
  };
}
