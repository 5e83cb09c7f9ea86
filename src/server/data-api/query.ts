/*
 * A call's query: from its text to validated parameters. Validation is a pure function of the
 * endpoint and the query, so the pipeline keeps each result by the query's text without the key.
 */
import type { z } from 'zod';
import type { EndpointDefinition } from './endpoint.ts';

/** A query string without its `apikey` parameter, so that every key shares one prepared entry. */
export function withoutKey(search: string): string {
  // The common shapes without building arrays: no key, or the key as the last parameter.
  const at = search.indexOf('apikey');
  if (at < 0) return search;
  const startsPair = at === 0 || search.charCodeAt(at - 1) === AMPERSAND;
  const endsName = at + 6 === search.length || search.charCodeAt(at + 6) === EQUALS;
  if (startsPair && endsName && !search.includes('&', at)) {
    const rest = search.slice(0, Math.max(0, at - 1));
    if (!rest.includes('apikey')) return rest;
  }
  return search
    .split('&')
    .filter((pair) => !pair.startsWith('apikey=') && pair !== 'apikey')
    .join('&');
}

const AMPERSAND = 0x26;
const EQUALS = 0x3d;

/** The values of a query string; the first of a repeated name counts, as HTTP frameworks read it. */
function queryValues(search: string): Record<string, string> {
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of new URLSearchParams(search)) {
    if (name !== '') values[name] ??= value;
  }
  return values;
}

/** `Invalid value for parameter "limit": must be at most 1000` — the first problem, naming its parameter. */
function parameterMessage(error: z.ZodError, given: Record<string, string>): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'Invalid parameters.';
  const name = issue.path[0];
  if (name === undefined) return `Invalid parameters: ${issue.message}`;
  if (given[String(name)] === undefined) {
    // Keep what a parameter's own message adds ("use one of GDP, …"), not zod's generic wording.
    const detail = issue.message.replace(/^is required[:;,.]?\s*/i, '').replace(/^Invalid input.*$/i, '');
    return `Missing required parameter "${String(name)}"${detail === '' ? '' : `: ${detail}`}.`;
  }
  return `Invalid value for parameter "${String(name)}": ${issue.message}.`;
}

function symbolsOf(endpoint: EndpointDefinition, params: Record<string, unknown>): string[] {
  if (endpoint.symbolParam === undefined) return [];
  const value = params[endpoint.symbolParam];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/** A call's validated parameters and what follows from them alone. */
export interface PreparedQuery {
  params: Record<string, unknown>;
  csv: boolean;
  /** The row fields asked for with `fields`, in that order; undefined for all of them. */
  columns: string[] | undefined;
  /** Endpoint, format and parameters: the answer cache key without the plan's part. */
  key: string;
  named: string[];
  raised: { tier: number; subject: string } | undefined;
  /** The answer cache key for the plans' history years it was last built for. */
  answerKey?: { years: number | null; key: string };
}

/**
 * The fields a `fields` parameter keeps, in the order written; undefined when it is absent or
 * empty (every field), or the message naming the first one the rows do not have.
 */
function columnsOf(endpoint: EndpointDefinition, written: string | undefined): string[] | undefined | string {
  if (written === undefined || written.trim() === '') return undefined;
  const known = Object.keys(endpoint.row.shape);
  const asked = [...new Set(written.split(',').map((name) => name.trim()))].filter((name) => name !== '');
  const unknown = asked.find((name) => !known.includes(name));
  if (unknown === undefined) return asked;
  return `Invalid value for parameter "fields": ${endpoint.path} has no field "${unknown}". Its fields are ${known.join(', ')}.`;
}

/** Validates a call's parameters: the prepared query, or the message naming the bad one. */
export function prepareQuery(endpoint: EndpointDefinition, search: string): PreparedQuery | string {
  const { datatype, ...raw } = queryValues(search);
  delete raw.apikey;
  // Endpoints that answer flat rows (the ones offering CSV) keep only the fields asked for; on
  // others `fields` is an unknown parameter, ignored like every other.
  let columns: string[] | undefined;
  if (endpoint.csv === true) {
    const chosen = columnsOf(endpoint, raw.fields);
    if (typeof chosen === 'string') return chosen;
    columns = chosen;
    delete raw.fields;
  }
  const parsed = endpoint.params.safeParse(raw);
  if (!parsed.success) return parameterMessage(parsed.error, raw);
  const params: Record<string, unknown> = parsed.data;
  // Bulk files are CSV unless JSON is asked for, as FMP serves them; a workbook is only a workbook.
  const fallback = endpoint.workbook !== undefined ? 'xlsx' : endpoint.bulk === undefined ? 'json' : 'csv';
  const format = datatype === undefined || datatype === '' ? fallback : datatype.toLowerCase();
  if (endpoint.workbook !== undefined) {
    if (format !== 'xlsx') {
      return `Invalid value for parameter "datatype": ${endpoint.path} answers an Excel workbook only; ${endpoint.workbook.jsonPath} answers the same as JSON.`;
    }
  } else if (format !== 'json' && !(format === 'csv' && endpoint.csv === true)) {
    return endpoint.csv === true
      ? 'Invalid value for parameter "datatype": must be json or csv.'
      : `Invalid value for parameter "datatype": ${endpoint.path} answers in JSON only.`;
  }
  return {
    params,
    csv: format === 'csv',
    columns,
    key: `${endpoint.path}|${format}|${columns?.join(',') ?? ''}|${JSON.stringify(params)}`,
    named: symbolsOf(endpoint, params),
    raised: endpoint.tierFor?.(params),
  };
}
