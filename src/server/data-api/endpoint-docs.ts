import { z } from 'zod';
import { DATA_TIERS } from '../services/market-data/plan-access.ts';
import { UPDATE_FREQUENCIES, type EndpointDefinition } from './endpoint.ts';

/*
 * What the definitions say about an endpoint, in the shape documents need: its parameters, the
 * fields of its rows, the refusals it can answer with and its cadence. The OpenAPI document and the
 * documentation's reference pages are both built from these functions, so they never describe an
 * endpoint in two ways.
 */

export type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema (draft 2020-12, as OpenAPI 3.1 takes it), without `$schema`. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  delete converted.$schema;
  return converted;
}

function isRequired(field: z.ZodType): boolean {
  return !field.safeParse(undefined).success;
}

/** Names of the data tiers, as the docs and error messages speak of them. */
export const TIER_NAMES = ['Free sample', 'Fundamentals', 'Professional', 'Global', 'Commercial'] as const;

/** One query parameter of an endpoint. */
export interface ParameterDoc {
  name: string;
  required: boolean;
  description: string;
  /** Its JSON Schema (input side: what a client sends), without the description. */
  schema: JsonSchema;
  example?: unknown;
}

/** The `datatype` parameter of endpoints that also answer in CSV. */
const DATATYPE_PARAMETER: ParameterDoc = {
  name: 'datatype',
  required: false,
  description: 'json (default) or csv',
  schema: { type: 'string', enum: ['json', 'csv'] },
};

/** The `datatype` parameter of the bulk files, which are CSV unless JSON is asked for (as FMP serves them). */
const BULK_DATATYPE_PARAMETER: ParameterDoc = {
  name: 'datatype',
  required: false,
  description: 'csv (default) or json',
  schema: { type: 'string', enum: ['csv', 'json'] },
};

/** The `fields` parameter of the same endpoints: their rows are flat, so a reader may narrow them. */
const FIELDS_PARAMETER: ParameterDoc = {
  name: 'fields',
  required: false,
  description:
    'Comma-separated fields to keep in each row, in that order (default: all). In CSV they are the columns, so a spreadsheet imports only what it needs.',
  schema: { type: 'string' },
};

/** The query parameters a client may send (the key is not one: every endpoint takes it alike). */
export function endpointParameters(endpoint: EndpointDefinition): ParameterDoc[] {
  const parameters = Object.entries(endpoint.params.shape).map(([name, value]): ParameterDoc => {
    const field = value as z.ZodType;
    const schema = jsonSchema(field, 'input');
    const description = field.description ?? (schema.description as string | undefined) ?? '';
    delete schema.description;
    const example = field.meta()?.example;
    return {
      name,
      required: isRequired(field),
      description,
      schema,
      ...(example === undefined ? {} : { example }),
    };
  });
  if (endpoint.csv === true) {
    parameters.push(
      endpoint.bulk === undefined ? DATATYPE_PARAMETER : BULK_DATATYPE_PARAMETER,
      FIELDS_PARAMETER,
    );
  }
  return parameters;
}

/** One field of an answer's rows. */
export interface FieldDoc {
  name: string;
  /** The field's type as a reader says it: 'string', 'number or null', 'array of object'. */
  type: string;
  description: string;
}

/** The JSON Schema of one answer row (output side: what the API sends). */
export function rowSchema(endpoint: EndpointDefinition): JsonSchema {
  return jsonSchema(endpoint.row, 'output');
}

/** A JSON Schema's type in words: 'integer', 'string or null', 'array of number'. */
export function typeName(schema: JsonSchema): string {
  const type = schema.type;
  const names = (Array.isArray(type) ? type : type === undefined ? [] : [type]).map(String);
  if (names.length === 0 && Array.isArray(schema.enum)) names.push('string');
  const words = names.map((name) => {
    if (name !== 'array') return name;
    const items = schema.items;
    return typeof items === 'object' && items !== null ? `array of ${typeName(items as JsonSchema)}` : name;
  });
  return words.length === 0 ? 'any' : words.join(' or ');
}

/** The fields of the rows an endpoint answers, in the answer's order. */
export function endpointFields(endpoint: EndpointDefinition): FieldDoc[] {
  const properties = (rowSchema(endpoint).properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    type: typeName(schema),
    description: typeof schema.description === 'string' ? schema.description : '',
  }));
}

/** A refusal an endpoint can answer with. */
export interface ErrorDoc {
  status: 400 | 401 | 402 | 403 | 404 | 429 | 503;
  description: string;
}

function listed(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;
}

/**
 * Whether the plan decides which symbols the endpoint answers for. Symbols reach at most the Global
 * tier (other exchanges, crypto, forex), so a plan that may call a Global endpoint at all reads
 * every symbol it names.
 */
export function limitsSymbols(endpoint: EndpointDefinition): boolean {
  return endpoint.symbolParam !== undefined && endpoint.tier < DATA_TIERS.global;
}

/**
 * The refusals an endpoint can answer with, worked out from its definition: 402 only when a plan can
 * fall short (the endpoint's own tier, the symbols it names, a parameter that raises the tier, or the
 * plan's years of history), 429 only when calls are counted. Every call can be refused for its key
 * (401, 403) or an invalid parameter (400; `datatype` is checked everywhere), and while the service is
 * down (503). A documented path is a 404 only for a workbook with nothing to write (JSON answers []).
 */
export function endpointErrors(endpoint: EndpointDefinition): ErrorDoc[] {
  const names = endpointParameters(endpoint).map((parameter) => parameter.name);
  const jsonOnly =
    endpoint.workbook !== undefined
      ? '; it answers an Excel workbook only, so datatype is refused'
      : endpoint.csv === true
        ? ''
        : '; it answers in JSON only, so datatype=csv is refused';
  const errors: ErrorDoc[] = [
    {
      status: 400,
      description:
        names.length === 0
          ? `A parameter is invalid${jsonOnly}; the message names it.`
          : `A parameter is missing or invalid (${listed(names)})${jsonOnly}; the message names it.`,
    },
    {
      status: 401,
      description:
        endpoint.callerAware === true
          ? 'The API key is missing, unknown or replaced, or the call carries no key of its own (a visitor token).'
          : 'The API key is missing, unknown or replaced.',
    },
  ];
  const planLimits: string[] = [];
  if (endpoint.tier > 0) planLimits.push(`the endpoint (${TIER_NAMES[endpoint.tier]} data)`);
  if (limitsSymbols(endpoint)) planLimits.push('a symbol beyond its coverage');
  if (endpoint.tierFor !== undefined) planLimits.push('the parameters asked for (such as quarterly periods)');
  if (endpoint.history === true) planLimits.push('a start date before the years of history the plan reads');
  if (planLimits.length > 0) {
    errors.push({
      status: 402,
      description: `Your plan does not cover ${listed(planLimits)}; the message names the cheapest plan that does and links to the pricing page.`,
    });
  }
  errors.push({
    status: 403,
    description: 'The account is blocked, or its email address is not verified yet.',
  });
  if (endpoint.workbook !== undefined) {
    errors.push({
      status: 404,
      description: `Nothing matches the parameters, so there is no workbook to send (${endpoint.workbook.jsonPath} answers [] instead); the message says where to look.`,
    });
  }
  if (endpoint.free !== true) {
    errors.push({
      status: 429,
      description: 'A per-minute or per-day limit is reached; Retry-After says when to try again.',
    });
  }
  errors.push({
    status: 503,
    description: 'The service is temporarily unavailable; Retry-After says when to try again.',
  });
  return errors;
}

/** The cadence as the OpenAPI document's `x-update-cadence` extension carries it. */
export function cadenceExtension(endpoint: EndpointDefinition): {
  frequency: string;
  label: string;
  when: string;
} {
  const { frequency, when } = endpoint.cadence;
  return { frequency, label: UPDATE_FREQUENCIES[frequency], when };
}
