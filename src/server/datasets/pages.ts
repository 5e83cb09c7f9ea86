import { formatDay, formatNumber, FULL_DIGITS_LIMIT, MISSING_VALUE } from '../../lib/format.ts';
import { datasetPath, type DatasetId } from '../../lib/routes.ts';
import { pageData, type PageAnswer } from '../app/errors.ts';
import { TIER_NAMES } from '../data-api/endpoint-docs.ts';
import { UPDATE_FREQUENCIES, type EndpointDefinition, type UpdateFrequency } from '../data-api/endpoint.ts';
import { ALL_ENDPOINTS } from '../data-api/endpoints/index.ts';
import { getDatabase, type Db } from '../db/client.ts';
import { codeSamples, type CodeSample } from '../docs/code-samples.ts';
import { playgroundHref, plansFor, referencePath } from '../docs/reference.ts';
import type { SymbolDirectory } from '../services/market-data/directory.ts';
import { siteDirectory } from '../symbol-pages/resolver.ts';
import {
  DATASET_CATEGORIES,
  DATASET_INFO,
  datasetInfo,
  type DatasetCategory,
  type DatasetInfo,
} from './catalog.ts';
import { cachedCoverage, type DatasetCoverage } from './coverage.ts';
import { answerSample, sampleQuery, SAMPLE_ROWS } from './sample.ts';

/*
 * The view models of the datasets pages: the index (`/datasets`, built with the site) and one
 * dataset's page (`/datasets/<id>`, rendered per request): its texts from the catalog, its endpoints
 * from their definitions, its coverage counted in the database and a live sample answered by one of
 * its endpoints.
 */

/** Browsers and shared caches may reuse a dataset page for a minute, as the market pages. */
export const DATASET_PAGE_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';

/** The endpoints of a dataset, in documentation order: every definition naming it. */
export function datasetEndpoints(id: DatasetId): EndpointDefinition[] {
  return ALL_ENDPOINTS.filter((endpoint) => endpoint.dataset === id);
}

/** The endpoint at `path` under /stable/ of a dataset; throws for a sample the catalog misnames. */
export function sampleEndpoint(info: DatasetInfo): EndpointDefinition {
  const endpoint = datasetEndpoints(info.id).find((candidate) => candidate.path === info.sample.path);
  if (endpoint === undefined) throw new Error(`${info.sample.path} is no endpoint of the ${info.id} dataset`);
  return endpoint;
}

/** 'Starter and above', 'Every plan': who may call an endpoint of this tier. */
export function planText(tier: number): string {
  const [cheapest] = plansFor(tier);
  if (cheapest === undefined) return 'On request';
  if (cheapest.priceCents === 0) return 'Every plan';
  return `${cheapest.name} and above`;
}

/** One endpoint of a dataset as its page lists it. */
export interface DatasetEndpointView {
  path: string;
  summary: string;
  /** Its reference page. */
  href: string;
  tierName: string;
  plan: string;
}

/** One figure of the coverage panel. */
export interface DatasetFact {
  label: string;
  value: string;
  /** A machine-readable date for `<time>`, when the value is one. */
  datetime?: string;
}

/** One update cadence among a dataset's endpoints. */
export interface DatasetCadence {
  frequency: UpdateFrequency;
  label: string;
  endpoints: number;
  /** When the first of those endpoints is refreshed, in a sentence. */
  when: string;
}

export interface SampleCell {
  text: string;
  numeric: boolean;
}

/** The live sample: the request, its first rows in the chosen fields, and where to try it. */
export interface DatasetSampleView {
  path: string;
  summary: string;
  /** The request as the code samples write it, without the key: `/stable/quote?symbol=AAPL`. */
  request: string;
  referenceHref: string;
  tryItHref: string;
  columns: { name: string; numeric: boolean }[];
  rows: SampleCell[][];
  /** Rows in the whole answer. */
  total: number;
}

export interface DatasetPageView {
  id: DatasetId;
  label: string;
  category: DatasetCategory;
  summary: string;
  about: string;
  facts: DatasetFact[];
  cadences: DatasetCadence[];
  endpoints: DatasetEndpointView[];
  sample: DatasetSampleView;
  codeSamples: CodeSample[];
  /** Whether the figures come from the generated demo data set. */
  demo: boolean;
}

/** What a dataset page is made from (tests build their own). */
export interface DatasetPageContext {
  db: Db;
  directory: SymbolDirectory;
  now: Date;
  /** The data API's published address, for the code samples. */
  apiUrl: string;
}

function endpointView(endpoint: EndpointDefinition): DatasetEndpointView {
  return {
    path: endpoint.path,
    summary: endpoint.summary,
    href: referencePath(endpoint),
    tierName: TIER_NAMES[endpoint.tier],
    plan: planText(endpoint.tier),
  };
}

/** The cadences of a dataset's endpoints, the most common first. */
export function datasetCadences(endpoints: readonly EndpointDefinition[]): DatasetCadence[] {
  const byFrequency = new Map<UpdateFrequency, DatasetCadence>();
  for (const endpoint of endpoints) {
    const { frequency, when } = endpoint.cadence;
    const known = byFrequency.get(frequency);
    if (known === undefined) {
      byFrequency.set(frequency, { frequency, label: UPDATE_FREQUENCIES[frequency], endpoints: 1, when });
    } else known.endpoints += 1;
  }
  return [...byFrequency.values()].toSorted((a, b) => b.endpoints - a.endpoints);
}

const capitalized = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** A date or a fiscal year of the coverage, as the page writes it. */
function whenText(value: string): string {
  return /^\d{4}$/.test(value) ? `Fiscal ${value}` : formatDay(value);
}

/** Whole years between two ISO dates or fiscal years, in words: 'about 20 years', 'under a year'. */
export function yearsText(first: string, last: string): string {
  if (/^\d{4}$/.test(first) && /^\d{4}$/.test(last)) {
    const years = Number(last) - Number(first) + 1;
    return `${String(years)} fiscal year${years === 1 ? '' : 's'}`;
  }
  const days = (Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000;
  const years = days / 365.25;
  if (years < 1) return `${String(Math.max(1, Math.round(days / 30.44)))} months`;
  const rounded = Math.round(years * 10) / 10;
  return `${rounded.toLocaleString('en-US')} years`;
}

/** The coverage panel's figures, from what the database holds. */
export function coverageFacts(coverage: DatasetCoverage): DatasetFact[] {
  const facts: DatasetFact[] = [
    {
      label: `${capitalized(coverage.coveredUnit)} covered`,
      value: coverage.covered.toLocaleString('en-US'),
    },
  ];
  if (coverage.first !== null && coverage.last !== null && coverage.history) {
    facts.push(
      { label: 'History', value: yearsText(coverage.first, coverage.last) },
      { label: 'First date', value: whenText(coverage.first), datetime: coverage.first },
      { label: 'Last date', value: whenText(coverage.last), datetime: coverage.last },
    );
  } else if (coverage.last !== null) {
    facts.push({ label: 'Latest session', value: whenText(coverage.last), datetime: coverage.last });
  }
  if (coverage.records !== null) {
    facts.push({ label: capitalized(coverage.recordsUnit), value: coverage.records.toLocaleString('en-US') });
  }
  return facts;
}

/** Fields whose numbers are years or periods, written as they are (2026, not 2,026). */
const PLAIN_NUMBER = /year|quarter|period/i;
/** Longest text shown in a cell. */
const CELL_TEXT_LENGTH = 60;

/** A value of the answer as a table cell. */
export function sampleCell(field: string, value: unknown): SampleCell {
  if (typeof value === 'number') {
    return {
      // Small figures keep four decimals (a currency pair's 0.6530), abbreviated ones two (165.09M).
      text: PLAIN_NUMBER.test(field)
        ? String(value)
        : formatNumber(value, { maximumFractionDigits: Math.abs(value) > FULL_DIGITS_LIMIT ? 2 : 4 }),
      numeric: true,
    };
  }
  if (value === null || value === undefined || value === '') return { text: MISSING_VALUE, numeric: false };
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return {
    text: text.length > CELL_TEXT_LENGTH ? `${text.slice(0, CELL_TEXT_LENGTH - 1)}…` : text,
    numeric: false,
  };
}

/** A dataset's page, or undefined for an id that names no dataset. */
export async function loadDatasetPage(
  context: DatasetPageContext,
  id: string,
): Promise<DatasetPageView | undefined> {
  const info = datasetInfo(id);
  if (info === undefined) return undefined;
  const endpoints = datasetEndpoints(info.id);
  const endpoint = sampleEndpoint(info);
  const [coverage, answer] = await Promise.all([
    cachedCoverage(context.db, info.id, info.coverage),
    answerSample(context, info.sample, endpoint),
  ]);
  const query = [...new URLSearchParams(sampleQuery(info.sample, endpoint))];
  const search = query.length === 0 ? '' : `?${new URLSearchParams(query).toString().replaceAll('%2C', ',')}`;
  const numeric = new Set(
    info.sample.columns.filter((name) => answer.rows.some((row) => typeof row[name] === 'number')),
  );
  return {
    id: info.id,
    label: info.label,
    category: info.category,
    summary: info.summary,
    about: info.about,
    facts: coverageFacts(coverage),
    cadences: datasetCadences(endpoints),
    endpoints: endpoints.map(endpointView),
    sample: {
      path: endpoint.path,
      summary: endpoint.summary,
      request: `/stable/${endpoint.path}${search}`,
      referenceHref: referencePath(endpoint),
      tryItHref: playgroundHref(endpoint.path, query),
      columns: info.sample.columns.map((name) => ({ name, numeric: numeric.has(name) })),
      rows: answer.rows.map((row) => info.sample.columns.map((name) => sampleCell(name, row[name]))),
      total: answer.total,
    },
    codeSamples: codeSamples({ url: `${context.apiUrl}/stable/${endpoint.path}`, query }),
    demo: answer.source === 'demo',
  };
}

/**
 * A dataset page's answer: its view model from the site's database and directory, publicly
 * cacheable (the page cache keeps it); undefined and a retryable 503 while the database is away.
 */
export async function datasetPageAnswer(
  page: PageAnswer & { url: URL },
  id: string,
  apiUrl: string,
): Promise<DatasetPageView | undefined> {
  const view = await pageData(page, async () => {
    const directory = await siteDirectory().get();
    const { db } = await getDatabase();
    return loadDatasetPage({ db, directory, now: new Date(), apiUrl }, id);
  });
  if (view !== undefined) page.response.headers.set('Cache-Control', DATASET_PAGE_CACHE_CONTROL);
  return view;
}

/** One dataset on the index. */
export interface DatasetIndexItem {
  id: DatasetId;
  label: string;
  href: string;
  summary: string;
  endpoints: number;
  /** Who may read its first endpoints: 'Every plan', 'Starter and above'. */
  plan: string;
  /** Lower-case words the index's search box matches: name, summary, endpoints' paths and summaries. */
  keywords: string;
}

export interface DatasetIndexSection {
  category: DatasetCategory;
  datasets: DatasetIndexItem[];
}

/** The index: every dataset under its category, in the categories' order. */
export function datasetIndex(): DatasetIndexSection[] {
  return DATASET_CATEGORIES.map((category) => ({
    category,
    datasets: DATASET_INFO.filter((info) => info.category === category).map((info) => {
      const endpoints = datasetEndpoints(info.id);
      const lowest = Math.min(...endpoints.map((endpoint) => endpoint.tier));
      return {
        id: info.id,
        label: info.label,
        href: datasetPath(info.id),
        summary: info.summary,
        endpoints: endpoints.length,
        plan: planText(lowest),
        keywords: [
          info.label,
          info.summary,
          ...endpoints.flatMap((endpoint) => [endpoint.path, endpoint.summary]),
        ]
          .join(' ')
          .toLowerCase(),
      };
    }),
  }));
}

export { SAMPLE_ROWS };
