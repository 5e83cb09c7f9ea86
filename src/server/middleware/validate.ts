import type { Context, Env, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { apiError, type ApiIssue } from '../app/errors.ts';
import { readJsonBody } from './body.ts';

type PathSegment = PropertyKey;

/** A dotted path a developer can read: `campaign.utm_source`, `items[0].name`. */
export function formatPath(path: readonly PathSegment[]): string {
  return path.reduce<string>((text, segment) => {
    if (typeof segment === 'number') return `${text}[${segment}]`;
    const name = String(segment);
    return text === '' ? name : `${text}.${name}`;
  }, '');
}

function valueAt(input: unknown, path: readonly PathSegment[]): unknown {
  let current = input;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/**
 * zod issues as the API reports them: one issue per unknown field, and "Required" instead of
 * "expected string, received undefined" for a missing field.
 */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  unknownLabel = 'Unknown field',
): ApiIssue[] {
  return issues.flatMap((issue): ApiIssue[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: unknownLabel }));
    }
    const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
    return [{ path: formatPath(issue.path), message: missing ? 'Required' : issue.message }];
  });
}

/** The headline error: the first problem, naming the field it concerns. */
export function issueHeadline(issue: ApiIssue, unknownLabel = 'Unknown field'): string {
  if (issue.message === unknownLabel) return `${unknownLabel}: ${issue.path}`;
  return issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`;
}

/**
 * Objects are made strict unless the schema says otherwise (`z.looseObject`, `.catchall()`), so a
 * misspelt field is an error instead of being silently dropped.
 */
function strictByDefault(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject && schema.def.catchall === undefined) return schema.strict();
  return schema;
}

async function validateValue(
  c: Context,
  schema: z.ZodType,
  input: unknown,
  unknownLabel: string,
): Promise<{ ok: true; data: unknown } | { ok: false; response: Response }> {
  const result = await schema.safeParseAsync(input);
  if (result.success) return { ok: true, data: result.data };
  const issues = describeIssues(result.error.issues, input, unknownLabel);
  const [first = { path: '', message: 'Invalid input' }] = issues;
  const response = apiError(c, 400, issueHeadline(first, unknownLabel), { field: first.path, issues });
  return { ok: false, response };
}

/** What jsonBody adds to a route: the parsed body, typed, through `c.req.valid('json')`. */
export interface JsonInput<S extends z.ZodType> {
  in: { json: z.input<S> };
  out: { json: z.output<S> };
}

/** What queryParams adds to a route: the parsed query, typed, through `c.req.valid('query')`. */
export interface QueryInput<S extends z.ZodType> {
  in: { query: z.input<S> };
  out: { query: z.output<S> };
}

/**
 * Parses and validates the JSON body before the handler runs: 415 for another content type, 400
 * for malformed JSON, 400 naming the first problem (and listing all of them) for invalid data. The
 * handler reads the parsed value with `c.req.valid('json')`, typed from the schema.
 */
export function jsonBody<S extends z.ZodType, E extends Env = Env, P extends string = string>(
  schema: S,
): MiddlewareHandler<E, P, JsonInput<S>> {
  const strict = strictByDefault(schema);
  return async (c, next) => {
    const body = await readJsonBody(c);
    if (!body.ok) return body.response;
    const result = await validateValue(c, strict, body.value, 'Unknown field');
    if (!result.ok) return result.response;
    c.req.addValidatedData('json', result.data as object);
    return next();
  };
}

/** The query string as an object: a repeated parameter becomes an array, as a schema can then refuse it. */
function queryObject(c: Context): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(c.req.queries()).map(([name, values]) => [
      name,
      values.length === 1 ? (values[0] ?? '') : values,
    ]),
  );
}

/**
 * Validates the query string like jsonBody validates bodies (values arrive as strings: use
 * `z.coerce` for numbers); the handler reads it with `c.req.valid('query')`.
 */
export function queryParams<S extends z.ZodType, E extends Env = Env, P extends string = string>(
  schema: S,
): MiddlewareHandler<E, P, QueryInput<S>> {
  const strict = strictByDefault(schema);
  return async (c, next) => {
    const input = queryObject(c);
    const result = await validateValue(c, strict, input, 'Unknown parameter');
    if (!result.ok) return result.response;
    c.req.addValidatedData('query', result.data as object);
    return next();
  };
}
