import { endpointFields } from '../data-api/endpoint-docs.ts';
import { ENDPOINTS } from '../data-api/endpoints/index.ts';
import { publishedApiUrl } from './markdown-plugins.ts';
import { referencePath } from './paths.ts';
import { stableCatalogue } from './playground.ts';
import { KEY_PLACEHOLDER } from '../../lib/docs/key-placeholder.ts';
import type { ExplorerCatalogue } from '../../lib/spreadsheet/explorer.ts';

/*
 * The Excel add-on page's view of the data API: which endpoints answer CSV (`csv: true` in their
 * definitions), each with the address a spreadsheet imports without the add-in, written with the
 * key placeholder the docs script replaces with a signed-in reader's key.
 */

/** One endpoint a spreadsheet can import as CSV. */
export interface CsvEndpoint {
  path: string;
  summary: string;
  group: string;
  /** The endpoint's reference page. */
  reference: string;
  /** Its example request as a CSV address, with the key placeholder. */
  url: string;
}

/** A CSV address of the data API for `path` and `query` (without the key). */
export function csvUrl(path: string, query: string, base: string = publishedApiUrl()): string {
  const params = query === '' ? '' : `${query}&`;
  return `${base}/stable/${path}?${params}datatype=csv&apikey=${KEY_PLACEHOLDER}`;
}

/** Every stable endpoint that offers `datatype=csv`, in the reference's order. */
export function csvEndpoints(base: string = publishedApiUrl()): CsvEndpoint[] {
  return ENDPOINTS.filter((endpoint) => endpoint.csv === true && endpoint.legacy !== true).map(
    (endpoint) => ({
      path: endpoint.path,
      summary: endpoint.summary,
      group: endpoint.group,
      reference: referencePath(endpoint),
      url: csvUrl(endpoint.path, endpoint.example, base),
    }),
  );
}

/** Parameters the explorer writes itself rather than asking for: the format and the fields. */
const EXPLORER_OWN_PARAMETERS = new Set(['datatype', 'fields']);

/**
 * The spreadsheet explorer's catalogue: the API viewer's stable endpoints (the same forms, tiers and
 * plans), each with the fields of its rows, for the fields picker and the preview.
 */
export function explorerCatalogue(apiUrl: string): ExplorerCatalogue {
  const definitions = ENDPOINTS.filter((endpoint) => endpoint.legacy !== true);
  const viewer = stableCatalogue(apiUrl, definitions);
  return {
    apiUrl,
    visitor: viewer.visitor,
    defaultEndpoint: 'historical-price-eod/full',
    endpoints: viewer.endpoints.map((endpoint, index) => ({
      ...endpoint,
      params: endpoint.params.filter((param) => !EXPLORER_OWN_PARAMETERS.has(param.name)),
      fields:
        definitions[index] === undefined ? [] : endpointFields(definitions[index]).map((field) => field.name),
    })),
  };
}
