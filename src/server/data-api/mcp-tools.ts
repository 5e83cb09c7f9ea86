import MiniSearch, { type Query, type SearchResult } from 'minisearch';
import { z } from 'zod';
import { UPDATE_FREQUENCIES, type EndpointDefinition } from './endpoint.ts';
import {
  endpointFields,
  endpointParameters,
  jsonSchema,
  TIER_NAMES,
  type FieldDoc,
  type JsonSchema,
  type ParameterDoc,
} from './endpoint-docs.ts';

/*
 * What the MCP server offers an AI assistant, worked out from the endpoint definitions alone: a few
 * direct tools for the questions asked most, and three discovery tools (search, describe, call) for
 * every other endpoint, so a client learns about the whole API without being sent every schema.
 * Nothing here speaks HTTP or MCP's wire format; mcp.ts does.
 */

/** Most rows a tool answer carries: more would fill a model's context without helping it answer. */
export const MCP_ROW_LIMIT = 50;

/** A direct tool: one endpoint offered under its own name, its parameters as the tool's input. */
export interface DirectTool {
  /** The tool's name (snake_case, as assistants show tool names). */
  name: string;
  /** The endpoint's path under /stable/. */
  path: string;
}

/** The direct tools, for the common questions; every other endpoint is reached through discovery. */
export const DIRECT_TOOLS: readonly DirectTool[] = [
  { name: 'get_quote', path: 'quote' },
  { name: 'get_company_profile', path: 'profile' },
  { name: 'get_income_statement', path: 'income-statement' },
  { name: 'get_balance_sheet_statement', path: 'balance-sheet-statement' },
  { name: 'get_cash_flow_statement', path: 'cash-flow-statement' },
  { name: 'get_price_history', path: 'historical-price-eod/full' },
  { name: 'search_symbol', path: 'search-symbol' },
  { name: 'get_stock_news', path: 'news/stock' },
];

/** A tool as tools/list describes it. */
export interface ToolDescription {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: { readOnlyHint: true; openWorldHint: false };
}

/** Parameters a tool never takes: answers are always JSON, which the tools size and render. */
const TRANSPORT_PARAMETERS = new Set(['datatype']);

/** `fields` as a tool describes it: a way to a smaller answer (CSV columns do not apply). */
const FIELDS_DESCRIPTION =
  'Comma-separated fields to keep in each row, in that order (default: all): fewer fields make a smaller answer.';

/** The parameters a tool may pass to an endpoint. */
function toolParameters(endpoint: EndpointDefinition): ParameterDoc[] {
  return endpointParameters(endpoint)
    .filter((parameter) => !TRANSPORT_PARAMETERS.has(parameter.name))
    .map((parameter) =>
      parameter.name === 'fields' ? { ...parameter, description: FIELDS_DESCRIPTION } : parameter,
    );
}

/** The input schema of a direct tool: the endpoint's parameters, each with its description. */
function directInputSchema(endpoint: EndpointDefinition): ToolDescription['inputSchema'] {
  const parameters = toolParameters(endpoint);
  const properties: Record<string, JsonSchema> = {};
  for (const parameter of parameters) {
    // `example` is the OpenAPI keyword; JSON Schema says `examples`.
    const schema = { ...parameter.schema };
    delete schema.example;
    properties[parameter.name] = {
      ...schema,
      description: parameter.description,
      ...(parameter.example === undefined ? {} : { examples: [parameter.example] }),
    };
  }
  const required = parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name);
  return { type: 'object', properties, ...(required.length === 0 ? {} : { required }) };
}

/** The input schemas of the discovery tools: checked here, and listed as JSON Schema. */
export const SEARCH_INPUT = z.object({
  query: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(200, 'must be at most 200 characters')
    .describe(
      'Words describing the data wanted, such as "dividends", "insider trades", "intraday 5 minute bars" or "analyst price target"',
    ),
  limit: z
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(25, 'must be at most 25')
    .default(10)
    .describe('Most endpoints to return (default 10, at most 25)'),
});

export const DESCRIBE_INPUT = z.object({
  path: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .describe('The endpoint path under /stable/, as search_endpoints returns it, e.g. "dividends"'),
});

export const CALL_INPUT = z.object({
  path: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .describe('The endpoint path under /stable/, as search_endpoints returns it, e.g. "dividends"'),
  parameters: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]), {
      error: 'must be an object of parameter names and values',
    })
    .default({})
    .describe(
      'The endpoint’s query parameters by name, as describe_endpoint lists them, e.g. {"symbol": "AAPL", "limit": 5}',
    ),
});

function discoveryInputSchema(schema: z.ZodType): ToolDescription['inputSchema'] {
  return { ...jsonSchema(schema, 'input'), type: 'object' };
}

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** The discovery tools' names. */
export const SEARCH_TOOL = 'search_endpoints';
export const DESCRIBE_TOOL = 'describe_endpoint';
export const CALL_TOOL = 'call_endpoint';

/** What every answer says about its size. */
const ROWS_NOTE = `Answers carry at most ${MCP_ROW_LIMIT} rows and say how many were left out.`;

/**
 * The tools offered: the direct tools whose endpoints are served (a definition removed later simply
 * drops its tool), then the three discovery tools.
 */
export function toolList(find: (path: string) => EndpointDefinition | undefined): ToolDescription[] {
  const direct = DIRECT_TOOLS.flatMap(({ name, path }): ToolDescription[] => {
    const endpoint = find(path);
    if (endpoint === undefined) return [];
    return [
      {
        name,
        title: endpoint.summary,
        description: `${endpoint.summary} (/stable/${path}, ${TIER_NAMES[endpoint.tier]} data). ${endpoint.description} ${ROWS_NOTE}`,
        inputSchema: directInputSchema(endpoint),
        annotations: READ_ONLY,
      },
    ];
  });
  return [
    ...direct,
    {
      name: SEARCH_TOOL,
      title: 'Search the endpoints',
      description:
        'Finds the data API’s endpoints matching a few words: each match with its path, summary, group, data tier and whether your plan includes it. Use it for anything the other tools do not cover (dividends, splits, key metrics, ratios, estimates, intraday bars, insider trades, economics, lists, market movers …), then describe_endpoint and call_endpoint.',
      inputSchema: discoveryInputSchema(SEARCH_INPUT),
      annotations: READ_ONLY,
    },
    {
      name: DESCRIBE_TOOL,
      title: 'Describe an endpoint',
      description:
        'Everything needed to call one endpoint: its parameters (required or not, with descriptions and examples), the fields of its rows, its data tier, how often its data is updated and an example query.',
      inputSchema: discoveryInputSchema(DESCRIBE_INPUT),
      annotations: READ_ONLY,
    },
    {
      name: CALL_TOOL,
      title: 'Call an endpoint',
      description: `Calls any endpoint by its path with its parameters and answers its rows, as GET /stable/<path> would. It counts against your plan’s limits like any API call. ${ROWS_NOTE}`,
      inputSchema: discoveryInputSchema(CALL_INPUT),
      annotations: READ_ONLY,
    },
  ];
}

/**
 * Why a tool does not call a workbook endpoint: its answer is a file, which a tool's text cannot
 * carry, so the assistant is sent to the same rows as JSON (or the user to the download).
 */
export function workbookToolMessage(endpoint: EndpointDefinition): string {
  const jsonPath = endpoint.workbook?.jsonPath ?? '';
  return `${endpoint.path} answers an Excel workbook, a file the tools cannot carry: call ${jsonPath} for the same rows as JSON, or download the workbook over HTTP at /stable/${endpoint.path}.`;
}

/** The path of the endpoint a direct tool calls, if `name` is one. */
export function directToolPath(name: string): string | undefined {
  return DIRECT_TOOLS.find((tool) => tool.name === name)?.path;
}

/** One argument as a query value: text and numbers as written, anything else as JSON. */
function written(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A tool's arguments as the query values the pipeline validates (arrays become comma lists). */
export function queryValues(argumentsGiven: Readonly<Record<string, unknown>>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(argumentsGiven)) {
    if (value === null || value === undefined || TRANSPORT_PARAMETERS.has(name) || name === 'apikey')
      continue;
    if (Array.isArray(value)) values[name] = value.map((item) => written(item)).join(',');
    else values[name] = written(value);
  }
  return values;
}

/** An endpoint found by search_endpoints. */
export interface EndpointMatch {
  path: string;
  summary: string;
  group: string;
  /** The data tier that opens it, as the plans page names it. */
  tier: string;
  /** Whether the caller's plan may call it. */
  includedInYourPlan: boolean;
  /** The parameters it cannot be called without. */
  requiredParameters: string[];
}

interface IndexedEndpoint {
  id: string;
  path: string;
  summary: string;
  group: string;
  description: string;
  parameters: string;
  fields: string;
}

/** Splits `historical-price-eod/full` and `priceAvg50` into their words. */
function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

/** Endings dropped so that a word's forms meet: history / historical, trade / trades / trading. */
const WORD_ENDINGS = ['ical', 'ies', 'ing', 'es', 'al', 's', 'e', 'y'] as const;

/**
 * A word's stem: its endings dropped while at least four letters remain, the longest ending that
 * leaves enough first (rates → rate, not rat).
 */
export function stem(word: string): string {
  let current = word;
  for (;;) {
    const ending = WORD_ENDINGS.find((end) => current.endsWith(end) && current.length - end.length >= 4);
    if (ending === undefined) return current;
    current = current.slice(0, -ending.length);
  }
}

/** Words of a question that say nothing about which data is wanted. */
const STOP_WORDS = new Set(
  (
    'a an the of for by to in on at and or with about from my me i get show give what which is are ' +
    'was how do does can please want need data info information api endpoint endpoints'
  )
    .split(' ')
    .map(stem),
);

/**
 * Words that narrow a question without being what it asks for ("stock news", "company profile",
 * "dividend history"): they rank the endpoints that have them higher but are not required.
 */
const OPTIONAL_WORDS = new Set(
  ['stock', 'company', 'share', 'history', 'current', 'now', 'today', 'live', 'valuation'].map(stem),
);

/**
 * The words people ask with next to the words the API is described in. Each phrase found in a
 * question (the first entries first, so "price history" wins over "stock price") also finds the
 * endpoints described with any of its alternatives; `only`: the phrase finds just those (a "stock
 * price" is a quote, not the stock price change).
 */
const SYNONYMS: readonly (readonly [phrase: string, alternatives: readonly string[], only?: 'only'])[] = [
  ['price history', ['historical price', 'daily price', 'eod']],
  ['historical price', ['daily price', 'eod']],
  ['historical stock price', ['daily price', 'eod']],
  ['past price', ['historical price', 'daily price', 'eod']],
  ['end of day', ['eod', 'daily']],
  ['closing price', ['daily price', 'eod']],
  ['ohlc', ['daily price', 'open high low close']],
  ['intraday price', ['intraday bars'], 'only'],
  ['minute bars', ['intraday bars']],
  ['financial statement', ['income statement', 'balance sheet statement', 'cash flow statement']],
  ['fundamentals', ['income statement', 'balance sheet statement', 'cash flow statement', 'key metrics']],
  ['profit and loss', ['income statement']],
  ['p&l', ['income statement']],
  ['earnings statement', ['income statement']],
  ['assets and liabilities', ['balance sheet']],
  ['free cash flow', ['cash flow statement']],
  ['stock price change', ['price change']],
  ['current price', ['quote'], 'only'],
  ['latest price', ['quote'], 'only'],
  ['live price', ['quote'], 'only'],
  ['real time', ['quote'], 'only'],
  ['realtime', ['quote'], 'only'],
  ['stock price', ['quote'], 'only'],
  ['share price', ['quote'], 'only'],
  ['last price', ['quote'], 'only'],
  ['market cap', ['market capitalization']],
  ['p/e ratio', ['financial ratios', 'pe ratio'], 'only'],
  ['p/e', ['ratios', 'pe'], 'only'],
  ['price to earnings', ['ratios', 'pe']],
  ['valuation ratio', ['ratios']],
  ['dcf', ['discounted cash flow']],
  ['intrinsic value', ['discounted cash flow']],
  ['fair value', ['discounted cash flow']],
  ['earnings surprise', ['earnings reported expected']],
  ['eps estimate', ['analyst estimates']],
  ['forecast', ['analyst estimates']],
  ['upgrade', ['grades']],
  ['downgrade', ['grades']],
  ['analyst rating', ['grades', 'ratings']],
  ['recommendation', ['grades']],
  ['congress', ['senate', 'house']],
  ['congressional', ['senate', 'house']],
  ['politician', ['senate', 'house']],
  ['interest rate', ['treasury rates']],
  ['yield', ['treasury']],
  ['bond', ['treasury']],
  ['exchange rate', ['forex quote', 'quote'], 'only'],
  ['currency', ['forex']],
  ['fx', ['forex']],
  ['bitcoin', ['crypto']],
  ['gold', ['commodity']],
  ['oil', ['commodity']],
  ['ticker lookup', ['search symbol']],
  ['look up', ['search']],
  ['lookup', ['search']],
  ['find', ['search']],
  ['ticker', ['symbol']],
  ['headline', ['news']],
  ['top gainer', ['biggest gainers']],
  ['top loser', ['biggest losers']],
  ['winner', ['gainers']],
  ['most active', ['most actives']],
  ['premarket', ['aftermarket']],
  ['pre market', ['aftermarket']],
  ['after hours', ['aftermarket']],
  ['extended hours', ['aftermarket']],
  ['index member', ['constituent']],
  ['index component', ['constituent']],
  ['s&p 500', ['sp500']],
  ['s&p', ['sp500']],
  ['institutional holder', ['institutional ownership', '13f']],
  ['hedge fund', ['institutional ownership', '13f']],
  ['gdp', ['economic indicators']],
  ['inflation', ['economic indicators']],
  ['unemployment', ['economic indicators']],
  ['trading hours', ['market hours']],
];

/** Path words of an endpoint's variants: a question that does not name them means the plain endpoint. */
const VARIANT_WORDS = new Set(
  ['bulk', 'ttm', 'growth', 'reported', 'latest', 'batch', 'custom', 'levered', 'short', 'cik', 'all'].map(
    stem,
  ),
);

/** How much a variant's score is kept for each variant word the question does not name. */
const VARIANT_FACTOR = 0.5;

/** Words in the index, and in questions, as the index keeps them: stemmed, stop words dropped. */
function terms(text: string): string[] {
  return words(text)
    .map(stem)
    .filter((term) => !STOP_WORDS.has(term));
}

/** What one phrase of a question may be found by: the phrase itself or any of its alternatives. */
interface Concept {
  alternatives: string[];
  optional: boolean;
}

const SYNONYM_TERMS = SYNONYMS.map(([phrase, alternatives, only]) => ({
  phrase: terms(phrase),
  alternatives: only === undefined ? [phrase, ...alternatives] : [...alternatives],
}));

/** A question as concepts: its synonym phrases (in the table's order), then each word left. */
function concepts(query: string): Concept[] {
  const left: (string | undefined)[] = terms(query);
  const found: Concept[] = [];
  for (const { phrase, alternatives } of SYNONYM_TERMS) {
    for (let start = 0; start + phrase.length <= left.length; start += 1) {
      if (phrase.every((term, offset) => left[start + offset] === term)) {
        found.push({ alternatives, optional: false });
        left.fill(undefined, start, start + phrase.length);
      }
    }
  }
  for (const term of left) {
    if (term !== undefined) found.push({ alternatives: [term], optional: OPTIONAL_WORDS.has(term) });
  }
  return found;
}

/** A concept as a MiniSearch query: any alternative, each with all its words. */
function conceptQuery(concept: Concept): Query {
  return {
    combineWith: 'OR',
    queries: concept.alternatives.map((alternative) => ({ combineWith: 'AND', queries: [alternative] })),
  };
}

/**
 * Finds endpoints by the words of a question. Paths and summaries weigh most; groups, descriptions,
 * parameters and field names also count, with word forms, prefixes and small typos forgiven, and the
 * words people ask with (price history, financial statements, market cap, congress …) meeting the
 * words the API uses (eod, income/balance sheet/cash flow statement, market capitalization, senate
 * and house). Every word must match when some endpoint has them all (words no endpoint has, such as
 * a ticker, are left out; "stock", "company" and "history" only rank); otherwise the endpoints
 * matching most words come first. Variants (bulk, TTM, growth, as reported, latest, batch …) come
 * after their plain endpoint unless the question names them.
 */
export class EndpointSearch {
  private readonly index: MiniSearch<IndexedEndpoint>;
  private readonly byPath: Map<string, EndpointDefinition>;

  /**
   * `endpoints` are those the tools offer; `files` are endpoints whose answer is a file (a workbook):
   * not offered, their words find their JSON form instead, so asking for "the financial report as an
   * Excel workbook" finds financial-reports-json.
   */
  constructor(endpoints: readonly EndpointDefinition[], files: readonly EndpointDefinition[] = []) {
    this.byPath = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint]));
    const fileWords = new Map<string, string>();
    for (const file of files) {
      const jsonPath = file.workbook?.jsonPath;
      if (jsonPath === undefined) continue;
      const known = fileWords.get(jsonPath);
      const text = `${file.path} ${file.summary} excel workbook`;
      fileWords.set(jsonPath, known === undefined ? text : `${known} ${text}`);
    }
    this.index = new MiniSearch<IndexedEndpoint>({
      fields: ['path', 'summary', 'group', 'description', 'parameters', 'fields'],
      tokenize: words,
      processTerm: (term) => {
        const stemmed = stem(term);
        return STOP_WORDS.has(stemmed) ? null : stemmed;
      },
      searchOptions: {
        boost: { path: 4, summary: 4, group: 1.5, description: 1, parameters: 0.3, fields: 0.3 },
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      },
    });
    this.index.addAll(
      endpoints.map((endpoint) => ({
        id: endpoint.path,
        path: endpoint.path,
        summary: endpoint.summary,
        group: endpoint.group,
        description: `${endpoint.description} ${fileWords.get(endpoint.path) ?? ''}`,
        parameters: endpointParameters(endpoint)
          .map((parameter) => `${parameter.name} ${parameter.description}`)
          .join(' '),
        fields: Object.keys(endpoint.row.shape).join(' '),
      })),
    );
  }

  /** The endpoints' scores for a question, best first. */
  private ranked(query: string): { id: string; score: number }[] {
    const asked = concepts(query).filter((concept) =>
      // A word no endpoint has (a ticker, a typo beyond repair) would match nothing.
      concept.alternatives.some((alternative) => this.index.search(alternative).length > 0),
    );
    const named = new Set(asked.flatMap((concept) => concept.alternatives.flatMap((text) => terms(text))));
    const boostDocument = (id: unknown): number => {
      const variants = terms(String(id)).filter((term) => VARIANT_WORDS.has(term) && !named.has(term));
      return VARIANT_FACTOR ** new Set(variants).size;
    };
    const required = asked.filter((concept) => !concept.optional);
    const optional = asked.filter((concept) => concept.optional);
    const search = (parts: Concept[], combineWith: 'AND' | 'OR'): SearchResult[] =>
      parts.length === 0
        ? []
        : this.index.search({ combineWith, queries: parts.map(conceptQuery) }, { boostDocument });
    let hits = search(required, 'AND');
    if (hits.length === 0) hits = search(asked, 'AND');
    if (hits.length === 0) hits = search(asked, 'OR');
    const bonus = new Map(search(optional, 'OR').map((hit) => [String(hit.id), hit.score]));
    return hits
      .map((hit) => ({ id: String(hit.id), score: hit.score + (bonus.get(String(hit.id)) ?? 0) }))
      .sort((a, b) => b.score - a.score);
  }

  /** The best matches of `query`, best first, at most `limit`. */
  search(query: string, limit: number, dataTier: number): EndpointMatch[] {
    return this.ranked(query)
      .slice(0, limit)
      .flatMap((hit): EndpointMatch[] => {
        const endpoint = this.byPath.get(hit.id);
        if (endpoint === undefined) return [];
        return [
          {
            path: endpoint.path,
            summary: endpoint.summary,
            group: endpoint.group,
            tier: TIER_NAMES[endpoint.tier],
            includedInYourPlan: dataTier >= endpoint.tier,
            requiredParameters: endpointParameters(endpoint)
              .filter((parameter) => parameter.required)
              .map((parameter) => parameter.name),
          },
        ];
      });
  }
}

/** What describe_endpoint answers. */
export interface EndpointDescription {
  path: string;
  url: string;
  group: string;
  summary: string;
  description: string;
  tier: string;
  includedInYourPlan: boolean;
  updated: { frequency: string; when: string };
  /** Seconds an answer stays fresh; asking again sooner returns the same rows. */
  maxAgeSeconds: number;
  parameters: (Omit<ParameterDoc, 'schema'> & { type: string; schema: JsonSchema })[];
  fields: FieldDoc[];
  exampleParameters: Record<string, string>;
}

/** An endpoint as describe_endpoint tells it: everything a client needs to call it and read its rows. */
export function describeEndpoint(endpoint: EndpointDefinition, dataTier: number): EndpointDescription {
  return {
    path: endpoint.path,
    url: `/stable/${endpoint.path}`,
    group: endpoint.group,
    summary: endpoint.summary,
    description: endpoint.description,
    tier: TIER_NAMES[endpoint.tier],
    includedInYourPlan: dataTier >= endpoint.tier,
    updated: { frequency: UPDATE_FREQUENCIES[endpoint.cadence.frequency], when: endpoint.cadence.when },
    maxAgeSeconds: endpoint.maxAge,
    parameters: toolParameters(endpoint).map((parameter) => ({
      name: parameter.name,
      required: parameter.required,
      description: parameter.description,
      type: typeof parameter.schema.type === 'string' ? parameter.schema.type : 'string',
      schema: parameter.schema,
      ...(parameter.example === undefined ? {} : { example: parameter.example }),
    })),
    fields: endpointFields(endpoint),
    exampleParameters: Object.fromEntries(new URLSearchParams(endpoint.example)),
  };
}

/** A tool's answer: structured content for programs, and the same as text for the model. */
export interface SizedAnswer {
  structured: Record<string, unknown>;
  text: string;
}

/** How a client gets at the rows left out: the endpoint's own ways of narrowing or paging. */
function narrowingHint(endpoint: EndpointDefinition): string {
  const names = new Set(Object.keys(endpoint.params.shape));
  const ways: string[] = [];
  if (names.has('from') || names.has('to')) ways.push('narrow the dates with from and to (YYYY-MM-DD)');
  if (names.has('limit')) ways.push('ask for fewer rows with limit');
  if (names.has('page')) ways.push('ask for the next page with page');
  if (endpoint.csv === true) ways.push('keep only the fields needed with fields (comma-separated)');
  if (ways.length === 0) return 'Only the first rows are shown.';
  return `To see others, ${ways.join(', or ')}.`;
}

/**
 * An endpoint's answer sized for a model: at most {@link MCP_ROW_LIMIT} rows, saying how many were
 * left out and how to reach them; an answer that is not a list of rows is passed on whole.
 */
export function sizedAnswer(endpoint: EndpointDefinition, body: string): SizedAnswer {
  const answer: unknown = JSON.parse(body);
  const label = `/stable/${endpoint.path}`;
  if (!Array.isArray(answer)) {
    return { structured: { endpoint: endpoint.path, answer }, text: `${label} answered:\n${body}` };
  }
  const rows = answer.slice(0, MCP_ROW_LIMIT) as unknown[];
  const omitted = answer.length - rows.length;
  const structured: Record<string, unknown> = { endpoint: endpoint.path, totalRows: answer.length };
  let heading: string;
  if (omitted > 0) {
    const hint = narrowingHint(endpoint);
    structured.omittedRows = omitted;
    structured.note = `Showing the first ${rows.length} of ${answer.length} rows; ${omitted} left out. ${hint}`;
    heading = `${label}: ${structured.note as string}`;
  } else {
    heading =
      answer.length === 0
        ? `${label}: no rows (an unknown symbol or a range without data answers none).`
        : `${label}: ${answer.length} ${answer.length === 1 ? 'row' : 'rows'}.`;
  }
  structured.rows = rows;
  return { structured, text: `${heading}\n${JSON.stringify(rows)}` };
}
