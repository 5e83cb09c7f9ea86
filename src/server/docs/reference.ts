import {
  endpointErrors,
  endpointFields,
  endpointParameters,
  limitsSymbols,
  TIER_NAMES,
  type ErrorDoc,
  type FieldDoc,
  type JsonSchema,
} from '../data-api/endpoint-docs.ts';
import {
  UPDATE_FREQUENCIES,
  XLSX_CONTENT_TYPE,
  type EndpointDefinition,
  type UpdateFrequency,
} from '../data-api/endpoint.ts';
import { ALL_ENDPOINTS } from '../data-api/endpoints/index.ts';
import { KEY_PLACEHOLDER } from '../../lib/docs/key-placeholder.ts';
import referenceData from '../../content/reference/examples.json' with { type: 'json' };
import { codeSamples, highlightCode, type CodeSample } from './code-samples.ts';
import type { PlanFacts, ReferenceData, StoredExample, StoredWorkbook } from './examples.ts';
import { markdownPath, REFERENCE_BASE, referencePath } from './paths.ts';

export { REFERENCE_BASE, referencePath };

/*
 * The API reference: one page per endpoint, as a view model built at build time from the endpoint's
 * definition (through the same derivations as the OpenAPI document), the plan catalogue and the
 * endpoint's stored example answer (src/content/reference/examples.json, `npm run docs:examples`).
 * The page (src/components/docs/EndpointReference.astro) and its Markdown twin render this alone.
 */

/** The API viewer, which opens an endpoint with its parameters filled in. */
export const PLAYGROUND_PATH = '/playground';

/** The stored examples and plan catalogue. */
export const REFERENCE_DATA: ReferenceData = referenceData;

/** One query parameter as the reference table shows it. */
export interface ReferenceParameter {
  name: string;
  type: string;
  required: boolean;
  /** The value used when the parameter is left out, as text; undefined when there is none. */
  defaultValue: string | undefined;
  /** The values accepted: an enumeration, or a range of numbers; empty when any value of the type is. */
  allowed: string[];
  description: string;
}

/** Which plans open the endpoint. */
export interface ReferenceAccess {
  tier: number;
  tierName: string;
  /** The cheapest plan that opens it. */
  cheapest: PlanFacts | undefined;
  /** Every other active plan that includes it, by data tier, then cheapest first. */
  alsoIn: PlanFacts[];
  /** Whether the plan also decides which symbols may be asked for. */
  symbols: boolean;
  /** Parameter values that need a higher plan than the endpoint itself, with the plan that opens them. */
  raised: { subject: string; tierName: string; cheapest: PlanFacts | undefined }[];
  /**
   * For endpoints limited by the plan's years of daily history: the cheapest plan of each step
   * (1 year, 10 years, all of it), cheapest first; empty otherwise.
   */
  history: { plan: PlanFacts; years: number | null }[];
}

/** The example answer as the page shows it. */
export interface ReferenceExample {
  /** The JSON shown: the first rows, two-space indented ('' for a workbook). */
  json: string;
  /** The same, coloured with highlight.js classes. */
  html: string;
  rowCount: number;
  shownRows: number;
  textCut: boolean;
  /** The day the demo data ends. */
  asOf: string;
  source: string;
  /** A workbook endpoint's example: the sheets read back from the file, shown instead of JSON. */
  workbook: StoredWorkbook | undefined;
}

export interface ReferencePage {
  endpoint: EndpointDefinition;
  path: string;
  /** The page's own path and its Markdown twin's. */
  pagePath: string;
  markdownPath: string;
  title: string;
  description: string;
  group: string;
  /** `GET http://localhost:4322/stable/quote` */
  url: string;
  parameters: ReferenceParameter[];
  access: ReferenceAccess;
  /** Calls counted against the limits per request: 1, 0 for a free endpoint, a bulk file's weight. */
  cost: number;
  /** The cheapest plan's limits, for the cost sentence. */
  baseLimits: PlanFacts | undefined;
  /** Seconds an answer may be reused (Cache-Control max-age). */
  maxAge: number;
  csv: boolean;
  /** The fields of the answer's rows; none for a workbook, whose sheets the example shows. */
  fields: FieldDoc[];
  /** The example request's URL with the key placeholder. */
  exampleUrl: string;
  example: ReferenceExample;
  samples: CodeSample[];
  errors: ErrorDoc[];
  cadence: { frequency: UpdateFrequency; label: string; when: string };
  /** The API viewer with this endpoint and the example's parameters. */
  tryIt: string;
}

/** A query part as written in the docs' links and samples: encoded, with commas and slashes kept. */
function queryPart(value: string): string {
  return encodeURIComponent(value).replaceAll('%2C', ',').replaceAll('%2F', '/');
}

/** The example query's parameters, in order. */
export function exampleQuery(endpoint: Pick<EndpointDefinition, 'example'>): [string, string][] {
  return [...new URLSearchParams(endpoint.example)];
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function allowedValues(schema: JsonSchema): string[] {
  if (Array.isArray(schema.enum)) return schema.enum.map(valueText);
  const { minimum, maximum } = schema;
  if (typeof minimum === 'number' && typeof maximum === 'number')
    return [`${String(minimum)} to ${String(maximum)}`];
  if (typeof minimum === 'number') return [`${String(minimum)} or more`];
  return [];
}

function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return 'string';
  return typeof schema.type === 'string' ? schema.type : 'string';
}

/** The parameters of the reference table, from the same derivation as the OpenAPI document. */
export function referenceParameters(endpoint: EndpointDefinition): ReferenceParameter[] {
  return endpointParameters(endpoint).map((parameter) => ({
    name: parameter.name,
    type: typeOf(parameter.schema),
    required: parameter.required,
    defaultValue: parameter.schema.default === undefined ? undefined : valueText(parameter.schema.default),
    allowed: allowedValues(parameter.schema),
    description: parameter.description,
  }));
}

/** The active plans whose data tier reaches `tier`, cheapest first. */
export function plansFor(tier: number, plans: readonly PlanFacts[] = REFERENCE_DATA.plans): PlanFacts[] {
  return plans.filter((plan) => plan.dataTier >= tier);
}

/**
 * Parameter values that raise the tier (quarterly periods, intraday ranges), found by asking the
 * definition's own `tierFor` about each allowed value of each enumerated parameter.
 */
export function raisedTiers(endpoint: EndpointDefinition): { tier: number; subject: string }[] {
  if (endpoint.tierFor === undefined) return [];
  const base: Record<string, string> = Object.fromEntries(exampleQuery(endpoint));
  const found = new Map<string, { tier: number; subject: string }>();
  for (const parameter of endpointParameters(endpoint)) {
    if (!Array.isArray(parameter.schema.enum) || parameter.name === 'datatype') continue;
    for (const value of parameter.schema.enum) {
      const parsed = endpoint.params.safeParse({ ...base, [parameter.name]: valueText(value) });
      if (!parsed.success) continue;
      const raised = endpoint.tierFor(parsed.data);
      if (raised !== undefined && raised.tier > endpoint.tier) found.set(raised.subject, raised);
    }
  }
  return [...found.values()];
}

/** The cheapest plan of each number of history years, cheapest first. */
function historySteps(plans: readonly PlanFacts[]): { plan: PlanFacts; years: number | null }[] {
  const steps = new Map<number | null, PlanFacts>();
  for (const plan of plans) if (!steps.has(plan.historyYears)) steps.set(plan.historyYears, plan);
  return [...steps].map(([years, plan]) => ({ plan, years }));
}

/** Who may call the endpoint, from its tier and the plan catalogue. */
export function referenceAccess(
  endpoint: EndpointDefinition,
  plans: readonly PlanFacts[] = REFERENCE_DATA.plans,
): ReferenceAccess {
  const [cheapest, ...others] = plansFor(endpoint.tier, plans);
  // The others by what they open, then by price: a plan's annual billing next to its monthly one.
  const alsoIn = others.toSorted((a, b) => a.dataTier - b.dataTier || a.priceCents - b.priceCents);
  return {
    tier: endpoint.tier,
    tierName: TIER_NAMES[endpoint.tier],
    cheapest,
    alsoIn,
    symbols: limitsSymbols(endpoint),
    raised: raisedTiers(endpoint).map(({ tier, subject }) => ({
      subject,
      tierName: TIER_NAMES.at(tier) ?? String(tier),
      cheapest: plansFor(tier, plans)[0],
    })),
    history: endpoint.history === true ? historySteps(plansFor(endpoint.tier, plans)) : [],
  };
}

/** `$39 a month`, `$9,990 a year`, `free`. */
export function priceText(plan: Pick<PlanFacts, 'priceCents' | 'billingInterval' | 'currency'>): string {
  if (plan.priceCents === 0) return 'free';
  const amount = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: plan.currency.toUpperCase(),
    maximumFractionDigits: plan.priceCents % 100 === 0 ? 0 : 2,
  }).format(plan.priceCents / 100);
  return `${amount} a ${plan.billingInterval}`;
}

function namesList(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/** Which plans open the endpoint, in a sentence. */
export function accessText(access: ReferenceAccess): string {
  const { cheapest, alsoIn } = access;
  if (cheapest === undefined)
    return `${access.tierName} data: no plan offers it at the moment; contact us for access.`;
  if (cheapest.priceCents === 0) return `Every plan, the ${cheapest.name} plan included.`;
  const others = alsoIn.map((plan) => plan.name);
  return `${access.tierName} data: opened by the ${cheapest.name} plan (${priceText(cheapest)})${others.length === 0 ? '' : ` and included in ${namesList(others)}`}.`;
}

/** What else the plan decides (symbols, parameter values), one sentence each. */
export function raisedTexts(access: ReferenceAccess): string[] {
  const symbols = access.symbols
    ? [
        'Your plan also decides which symbols you may ask for: a symbol beyond it is refused with 402 naming the plan that covers it.',
      ]
    : [];
  return [
    ...symbols,
    ...access.raised.map(({ subject, tierName, cheapest }) => {
      const who =
        cheapest === undefined
          ? 'a plan we offer on request'
          : `the ${cheapest.name} plan (${priceText(cheapest)}) or above`;
      return `${subject.charAt(0).toUpperCase()}${subject.slice(1)} (${tierName} data) need ${who}.`;
    }),
  ];
}

/** How far back each plan reads daily history, for endpoints limited by it; undefined otherwise. */
export function historyText(access: ReferenceAccess): string | undefined {
  if (access.history.length === 0) return undefined;
  const steps = access.history.map(({ plan, years }, index) => {
    const span =
      years === null ? 'all of it' : years === 1 ? 'the last year' : `the last ${String(years)} years`;
    const last = index === access.history.length - 1;
    return `${span} on ${plan.name}${last && access.history.length > 1 ? ' and above' : ''}`;
  });
  return `Daily history reaches back as far as your plan reads: ${namesList(steps)}. A start date further back is refused with 402.`;
}

/** What a call costs against the limits. */
export function costText(page: Pick<ReferencePage, 'cost' | 'baseLimits'>): string {
  if (page.cost === 0)
    return 'Free of charge: calls are not counted against your per-minute and per-day limits.';
  const base = page.baseLimits;
  const limits =
    base?.callsPerMinute != null && base.callsPerDay != null
      ? ` (the ${base.name} plan allows ${base.callsPerMinute.toLocaleString('en-US')} a minute and ${base.callsPerDay.toLocaleString('en-US')} a day)`
      : '';
  return `Each call counts as ${callsText(page.cost)} against your plan’s per-minute and per-day limits${limits}; refused calls are not counted.`;
}

/**
 * What a bulk file's answer is, for its reference page: the format, the stream and how to resume it
 * (see the Bulk downloads guide).
 */
export function bulkAnswerText(endpoint: EndpointDefinition): string {
  return `A file streamed as an attachment: CSV with a header line of the fields (a JSON array of rows with datatype=json), gzip-compressed when the client sends Accept-Encoding: gzip. ${endpoint.bulk?.resume ?? ''} Each row has these fields, in this order:`;
}

/** What a workbook endpoint answers, for its reference page: a file, not rows, and where the rows are. */
export function workbookAnswerText(endpoint: EndpointDefinition): string {
  const workbook = endpoint.workbook;
  if (workbook === undefined) return '';
  return `An Excel workbook (Content-Type: ${XLSX_CONTENT_TYPE}), sent as an attachment whose Content-Disposition names the file, never as JSON rows; refusals are JSON, as everywhere. ${workbook.description} For the same report as JSON, call ${workbook.jsonPath}.`;
}

/** A workbook cell as the reference shows it: numbers with thousands separators, as the workbook formats them. */
export function cellText(value: string | number): string {
  return typeof value === 'number' ? value.toLocaleString('en-US', { maximumFractionDigits: 2 }) : value;
}

/** What the workbook example shows of the file. */
export function workbookExampleText(example: ReferenceExample): string {
  const sheets = example.workbook?.sheets.length ?? 0;
  return `The workbook a real answer to the example request sends, from the demo data set (data up to ${example.asOf}, X-Data-Source: ${example.source}), read back with a spreadsheet reader: ${example.workbook?.fileName ?? ''}, ${String(sheets)} sheets. Each sheet's header row and its first rows:`;
}

/** A sheet's heading in the example: its name and how many rows it holds. */
export function sheetHeading(sheet: StoredWorkbook['sheets'][number]): string {
  return `${sheet.name} (${String(sheet.rowCount)} rows under the header)`;
}

/** '1 call', '50 calls': what one request costs, in words. */
export function callsText(cost: number): string {
  return `${String(cost)} call${cost === 1 ? '' : 's'}`;
}

/** How long an answer may be reused. */
export function cacheText(maxAge: number): string {
  if (maxAge <= 0) return 'Answers are not reused (Cache-Control: no-cache).';
  const span =
    maxAge % 3600 === 0
      ? `${String(maxAge / 3600)} hour${maxAge === 3600 ? '' : 's'}`
      : maxAge % 60 === 0
        ? `${String(maxAge / 60)} minute${maxAge === 60 ? '' : 's'}`
        : `${String(maxAge)} seconds`;
  return `Answers may be reused for ${span} (Cache-Control: private, max-age=${String(maxAge)}); each carries an ETag, and asking again with If-None-Match answers 304 when nothing changed.`;
}

/** What the example answer shows of the whole answer. */
export function exampleText(example: ReferenceExample): string {
  const part =
    example.rowCount > example.shownRows
      ? `The first ${String(example.shownRows)} of the ${example.rowCount.toLocaleString('en-US')} rows of a real answer`
      : example.rowCount === 1
        ? 'A real answer (its one row)'
        : `A real answer (all ${String(example.rowCount)} rows)`;
  const cut = example.textCut ? ' Long texts are cut short here, marked with “…”.' : '';
  return `${part} to the example request, from the demo data set (data up to ${example.asOf}, X-Data-Source: ${example.source}).${cut}`;
}

/** The stored example of an endpoint; throws when there is none, so a build cannot ship a page without one. */
export function storedExample(
  endpoint: EndpointDefinition,
  data: ReferenceData = REFERENCE_DATA,
): StoredExample {
  const example = data.examples[endpoint.path];
  if (example === undefined) {
    throw new Error(`No stored example answer for ${endpoint.path}: run npm run docs:examples`);
  }
  if (example.query !== endpoint.example) {
    throw new Error(
      `The stored example answer of ${endpoint.path} is for "${example.query}", the definition asks "${endpoint.example}": run npm run docs:examples`,
    );
  }
  return example;
}

/** The API viewer opened on an endpoint with these parameters filled in (`/playground?endpoint=quote&symbol=AAPL`). */
export function playgroundHref(path: string, query: readonly (readonly [string, string])[]): string {
  const pairs = [['endpoint', path], ...query];
  return `${PLAYGROUND_PATH}?${pairs.map(([name = '', value = '']) => `${queryPart(name)}=${queryPart(value)}`).join('&')}`;
}

/** The API viewer opened on this endpoint with the example's parameters. */
export function tryItHref(endpoint: EndpointDefinition): string {
  return playgroundHref(endpoint.path, exampleQuery(endpoint));
}

/** The reference page of one endpoint. `apiUrl` is the data API's published address. */
export function referencePage(
  endpoint: EndpointDefinition,
  apiUrl: string,
  data: ReferenceData = REFERENCE_DATA,
): ReferencePage {
  const base = `${apiUrl}/stable/${endpoint.path}`;
  const query = exampleQuery(endpoint);
  const exampleUrl = `${base}?${[...query, ['apikey', KEY_PLACEHOLDER]].map(([name = '', value = '']) => `${queryPart(name)}=${queryPart(value)}`).join('&')}`;
  const stored = storedExample(endpoint, data);
  const pagePath = referencePath(endpoint);
  const workbook = stored.workbook;
  const json = workbook === undefined ? JSON.stringify(stored.rows, null, 2) : '';
  return {
    endpoint,
    path: endpoint.path,
    pagePath,
    markdownPath: markdownPath(pagePath),
    title: endpoint.summary,
    description: endpoint.description,
    group: endpoint.group,
    url: base,
    parameters: referenceParameters(endpoint),
    access: referenceAccess(endpoint, data.plans),
    cost: endpoint.free === true ? 0 : (endpoint.bulk?.weight ?? 1),
    baseLimits: data.plans[0],
    maxAge: endpoint.maxAge,
    csv: endpoint.csv === true,
    fields: workbook === undefined ? endpointFields(endpoint) : [],
    exampleUrl,
    example: {
      json,
      html: workbook === undefined ? highlightCode(json, 'json') : '',
      rowCount: stored.rowCount,
      shownRows: stored.rows.length,
      textCut: stored.textCut,
      asOf: data.asOf,
      source: stored.source,
      workbook,
    },
    samples: codeSamples({ url: base, query }),
    errors: endpointErrors(endpoint),
    cadence: {
      frequency: endpoint.cadence.frequency,
      label: UPDATE_FREQUENCIES[endpoint.cadence.frequency],
      when: endpoint.cadence.when,
    },
    tryIt: tryItHref(endpoint),
  };
}

/** Every endpoint's reference page, in documentation order. */
export function referencePages(
  apiUrl: string,
  endpoints: readonly EndpointDefinition[] = ALL_ENDPOINTS,
): ReferencePage[] {
  return endpoints.map((endpoint) => referencePage(endpoint, apiUrl));
}

/** A table cell's text in Markdown: pipes escaped, on one line. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** The languages the Markdown twin shows the request in (the page shows every language). */
const MARKDOWN_SAMPLES = ['curl', 'javascript', 'python'] as const;

/** The Answer and Example answer sections of an endpoint answering rows (JSON, CSV, a bulk file). */
function rowsMarkdown(page: ReferencePage): string[] {
  return [
    page.endpoint.bulk === undefined
      ? `A JSON array of rows${page.csv ? ' (or CSV with `datatype=csv`, one column per field)' : ''}; an empty array when nothing matches. Each row has these fields, in this order:`
      : bulkAnswerText(page.endpoint),
    '',
    '| Field | Type | Description |',
    '| --- | --- | --- |',
    ...page.fields.map((field) => `| \`${field.name}\` | ${field.type} | ${cell(field.description)} |`),
    '',
    '## Example answer',
    '',
    exampleText(page.example),
    '',
    '```json',
    page.example.json,
    '```',
    '',
  ];
}

/** The same sections of a workbook endpoint: what the file holds, then each sheet's first rows. */
function workbookMarkdown(page: ReferencePage, workbook: StoredWorkbook): string[] {
  const row = (cells: readonly (string | number)[]): string =>
    `| ${cells.map((value) => cell(cellText(value))).join(' | ')} |`;
  return [
    workbookAnswerText(page.endpoint),
    '',
    '## Example answer',
    '',
    workbookExampleText(page.example),
    '',
    ...workbook.sheets.flatMap((sheet) => [
      `### ${sheetHeading(sheet)}`,
      '',
      row(sheet.header),
      `|${' --- |'.repeat(sheet.header.length)}`,
      ...sheet.rows.map((cells) => row(cells)),
      '',
    ]),
  ];
}

/** An endpoint's reference page as Markdown: the same view model, for AI tools and `.md` readers. */
export function referenceMarkdown(page: ReferencePage): string {
  const lines = [
    `# ${page.title}`,
    '',
    `> ${page.description}`,
    '',
    `\`GET ${page.url}\` · ${page.access.tierName} data · ${page.cost === 0 ? 'free of charge' : `${callsText(page.cost)} per request`} · updated: ${page.cadence.label.toLowerCase()}`,
    '',
    `[Try it in the API viewer](${page.tryIt})`,
    '',
    '## Request',
    '',
    'Every parameter goes in the query string; pass your key as `apikey` (or in an `apikey` header).',
    '',
  ];
  for (const language of MARKDOWN_SAMPLES) {
    const sample = page.samples.find((candidate) => candidate.language === language);
    if (sample === undefined) continue;
    lines.push(`\`\`\`${language === 'curl' ? 'sh' : language}`, sample.code, '```', '');
  }
  lines.push('## Parameters', '');
  if (page.parameters.length === 0) lines.push('None besides your key.', '');
  else {
    lines.push(
      '| Name | Type | Required | Default | Allowed values | Description |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const parameter of page.parameters) {
      const allowed = parameter.allowed.map((value) => `\`${value}\``).join(', ');
      lines.push(
        `| \`${parameter.name}\` | ${parameter.type} | ${parameter.required ? 'yes' : 'no'} | ${parameter.defaultValue === undefined ? '' : `\`${parameter.defaultValue}\``} | ${cell(allowed)} | ${cell(parameter.description)} |`,
      );
    }
    lines.push('');
  }
  const history = historyText(page.access);
  lines.push(
    '## Plans and limits',
    '',
    `- ${accessText(page.access)}`,
    ...raisedTexts(page.access).map((text) => `- ${text}`),
    ...(history === undefined ? [] : [`- ${history}`]),
    `- ${costText(page)}`,
    `- ${cacheText(page.maxAge)}`,
    '',
    '## Update cadence',
    '',
    `**${page.cadence.label}.** ${page.cadence.when}`,
    '',
    '## Answer',
    '',
    ...(page.example.workbook === undefined
      ? rowsMarkdown(page)
      : workbookMarkdown(page, page.example.workbook)),
    '## Errors',
    '',
    'A refusal answers `{"Error Message": "…"}` with one of these statuses, never inside a 200:',
    '',
    '| Status | When |',
    '| --- | --- |',
    ...page.errors.map((error) => `| ${String(error.status)} | ${cell(error.description)} |`),
  );
  return `${lines.join('\n').trim()}\n`;
}
