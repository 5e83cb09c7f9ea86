import {
  encodeQueryValue,
  queryPairs,
  type ParamValues,
  type PlaygroundEndpoint,
  type VisitorAllowance,
} from '../playground.ts';
import { cellOf, SPREADSHEET_NAMESPACE, type CellValue } from './functions.ts';

/**
 * The spreadsheet explorer's model (/developer/docs/excel-add-on-explorer): an endpoint, its
 * parameters and the fields to keep, written as the three things a spreadsheet takes — the add-in's
 * DATA formula, a Google Sheets IMPORTDATA formula and the CSV address Excel's Power Query reads —
 * and the first rows they will bring. The endpoints come from the definitions, as the API viewer's do.
 */

/** One endpoint as the explorer offers it: the viewer's form, plus the fields its rows have. */
export interface ExplorerEndpoint extends PlaygroundEndpoint {
  /** Every field of a row, in the definition's order. */
  fields: string[];
}

/** Everything the explorer page needs, built from the endpoint definitions when it is built. */
export interface ExplorerCatalogue {
  /** The data API's published base address. */
  apiUrl: string;
  endpoints: ExplorerEndpoint[];
  visitor: VisitorAllowance;
  defaultEndpoint: string;
}

/** What the reader has chosen: the endpoint, its parameters, and the fields (null keeps them all). */
export interface ExplorerRequest {
  endpoint: ExplorerEndpoint;
  values: ParamValues;
  fields: readonly string[] | null;
}

/** How many rows the preview shows. */
export const PREVIEW_ROWS = 10;

/** Text as an Excel or Sheets string literal: in double quotes, each quote doubled. */
export function formulaString(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** The chosen fields in the endpoint's order; every field while the choice is null. */
export function columnsOf(request: Pick<ExplorerRequest, 'endpoint' | 'fields'>): string[] {
  if (request.fields === null) return [...request.endpoint.fields];
  const chosen = new Set(request.fields);
  return request.endpoint.fields.filter((field) => chosen.has(field));
}

/** The parameters as the DATA function and the addresses write them: `symbol=AAPL&period=annual`. */
export function parameterText(request: Pick<ExplorerRequest, 'endpoint' | 'values'>): string {
  return queryPairs(request.endpoint, request.values)
    .map(([name, value]) => `${name}=${encodeQueryValue(value)}`)
    .join('&');
}

/**
 * The add-in's formula for the request: `=NS.DATA("income-statement", "symbol=AAPL", "date,revenue")`,
 * trailing arguments left out when empty. It holds no key: the add-in sends the connected account's.
 */
export function addInFormula(request: ExplorerRequest): string {
  const args = [request.endpoint.id, parameterText(request), columnsOf(request).join(',')];
  if (request.fields === null) args.pop();
  while (args.length > 1 && args.at(-1) === '') args.pop();
  return `=${SPREADSHEET_NAMESPACE}.DATA(${args.map(formulaString).join(', ')})`;
}

/**
 * The request's CSV address with the key written as `keyText` (the whole key to copy, a masked one
 * to show, or the placeholder): the chosen fields as `fields`, then `datatype=csv`. Undefined for an
 * endpoint that answers JSON only.
 */
export function csvAddress(apiUrl: string, request: ExplorerRequest, keyText: string): string | undefined {
  if (!request.endpoint.csv) return undefined;
  const pairs = [parameterText(request)];
  if (request.fields !== null) pairs.push(`fields=${columnsOf(request).join(',')}`);
  pairs.push('datatype=csv', `apikey=${keyText}`);
  return `${apiUrl}${request.endpoint.path}?${pairs.filter((pair) => pair !== '').join('&')}`;
}

/** Google Sheets' formula for a CSV address. */
export function importDataFormula(address: string): string {
  return `=IMPORTDATA(${formulaString(address)})`;
}

/** The preview: the header row of the columns, then the first rows as cells, and how many there are. */
export interface PreviewTable {
  columns: string[];
  rows: CellValue[][];
  total: number;
}

/** The first {@link PREVIEW_ROWS} rows of an answer as the spreadsheet will show them. */
export function previewTable(
  answer: readonly Record<string, unknown>[],
  columns: readonly string[],
): PreviewTable {
  return {
    columns: [...columns],
    rows: answer.slice(0, PREVIEW_ROWS).map((row) => columns.map((column) => cellOf(row[column]))),
    total: answer.length,
  };
}
