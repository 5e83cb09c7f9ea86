import { PUBLIC_LIMITS, PUBLIC_PLAN } from '../data-api/access.ts';
import {
  endpointFields,
  endpointParameters,
  TIER_NAMES,
  type ParameterDoc,
} from '../data-api/endpoint-docs.ts';
import type { EndpointDefinition } from '../data-api/endpoint.ts';
import { ALL_ENDPOINTS, ENDPOINTS } from '../data-api/endpoints/index.ts';
import { LEGACY_PREFIX, legacyEndpoints, legacyUsageName, type LegacyRoute } from '../data-api/legacy.ts';
import type {
  ParamKind,
  PlaygroundCatalogue,
  PlaygroundEndpoint,
  PlaygroundParam,
} from '../../lib/playground.ts';
import { LEGACY_GUIDE_PAGE, legacyGuideAnchor } from '../data-api/legacy-guide.ts';
import { exampleQuery, plansFor, referencePath } from './reference.ts';

/*
 * The API viewer's catalogue (src/lib/playground.ts), built from the endpoint definitions when its
 * pages are built: the same parameters, tiers and plans as the reference pages and the OpenAPI
 * document, so the viewer never offers a parameter or a value the API would not take.
 */

/** The endpoint the viewer opens when its address names none. */
const DEFAULT_ENDPOINT = 'quote';

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const SYMBOL_LISTS = new Set(['symbols', 'tickers']);

function kindOf(parameter: ParameterDoc, endpoint: EndpointDefinition): ParamKind {
  const { schema, name } = parameter;
  if (Array.isArray(schema.enum)) return 'enum';
  if (SYMBOL_LISTS.has(name)) return 'symbols';
  if (name === 'symbol' || name === endpoint.symbolParam) return 'symbol';
  if (schema.pattern === DATE_PATTERN) return 'date';
  if (schema.type === 'integer') return 'integer';
  if (schema.type === 'number') return 'number';
  if (schema.type === 'boolean') return 'boolean';
  return 'text';
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function formParam(parameter: ParameterDoc, endpoint: EndpointDefinition, inPath: boolean): PlaygroundParam {
  const { schema } = parameter;
  const param: PlaygroundParam = {
    name: parameter.name,
    kind: kindOf(parameter, endpoint),
    required: parameter.required || inPath,
    description: parameter.description,
    options: Array.isArray(schema.enum) ? schema.enum.map(text) : [],
  };
  if (typeof schema.minimum === 'number') param.min = schema.minimum;
  if (typeof schema.maximum === 'number') param.max = schema.maximum;
  if (schema.default !== undefined) param.defaultValue = text(schema.default);
  if (inPath) param.inPath = true;
  return param;
}

/** Rows with a date and a closing price (or a price) are a series the chart view can draw. */
function isPriceSeries(endpoint: EndpointDefinition): boolean {
  const names = new Set(endpointFields(endpoint).map((field) => field.name));
  return names.has('date') && (names.has('close') || names.has('price'));
}

function cheapestPlan(tier: number): PlaygroundEndpoint['plan'] {
  const plan = plansFor(tier)[0];
  return plan === undefined ? null : { code: plan.code, name: plan.name };
}

function viewerEndpoint(
  endpoint: EndpointDefinition,
  shape: { id: string; path: string; pathParam?: string; example: Record<string, string>; reference: string },
): PlaygroundEndpoint {
  return {
    id: shape.id,
    path: shape.path,
    group: endpoint.group,
    summary: endpoint.summary,
    description: endpoint.description,
    tier: endpoint.tier,
    tierName: TIER_NAMES[endpoint.tier],
    plan: cheapestPlan(endpoint.tier),
    params: endpointParameters(endpoint).map((parameter) =>
      formParam(parameter, endpoint, parameter.name === shape.pathParam),
    ),
    example: shape.example,
    csv: endpoint.csv === true,
    chart: isPriceSeries(endpoint),
    free: endpoint.free === true,
    reference: shape.reference,
  };
}

/** Where the viewer's page sends a signed-out visitor's calls, and what they may do there. */
function visitorAllowance(): PlaygroundCatalogue['visitor'] {
  return {
    perMinute: PUBLIC_LIMITS.perMinute,
    perDay: PUBLIC_LIMITS.perDay,
    historyYears: PUBLIC_PLAN.historyYears,
  };
}

/** The stable API's viewer (`/playground`, `/playground/stable`): every `/stable` endpoint. */
export function stableCatalogue(
  apiUrl: string,
  endpoints: readonly EndpointDefinition[] = ALL_ENDPOINTS,
): PlaygroundCatalogue {
  return {
    variant: 'stable',
    apiUrl,
    defaultEndpoint: DEFAULT_ENDPOINT,
    visitor: visitorAllowance(),
    endpoints: endpoints.map((endpoint) =>
      viewerEndpoint(endpoint, {
        id: endpoint.path,
        path: `/stable/${endpoint.path}`,
        example: Object.fromEntries(exampleQuery(endpoint)),
        reference: referencePath(endpoint),
      }),
    ),
  };
}

/** A legacy route's example: the stable example's values under the legacy parameter names. */
function legacyExample(route: LegacyRoute, stable: EndpointDefinition | undefined): Record<string, string> {
  if (stable === undefined) return {};
  const example: Record<string, string> = { ...route.defaults };
  for (const [name, value] of exampleQuery(stable)) example[route.params?.[name] ?? name] = value;
  return example;
}

/**
 * The legacy API's viewer (`/playground/legacy`): every `/api/v3` endpoint, the symbol in the path
 * where the legacy style puts it. Only accounts with the legacy flag are answered.
 */
export function legacyCatalogue(
  apiUrl: string,
  endpoints: readonly EndpointDefinition[] = ENDPOINTS,
): PlaygroundCatalogue {
  const byPath = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint]));
  return {
    variant: 'legacy',
    apiUrl,
    defaultEndpoint: DEFAULT_ENDPOINT,
    visitor: visitorAllowance(),
    endpoints: legacyEndpoints(endpoints).map(({ route, endpoint }) => {
      // The usage name (`api/v3/quote`) without its prefix: the legacy path without the symbol.
      const id = legacyUsageName(route).slice(LEGACY_PREFIX.length - 1);
      return viewerEndpoint(endpoint, {
        id,
        path: `${LEGACY_PREFIX}${route.path}`,
        ...(route.path === id ? {} : { pathParam: 'symbol' }),
        example: legacyExample(route, byPath.get(route.stable)),
        reference: `${LEGACY_GUIDE_PAGE.path}#${legacyGuideAnchor(route)}`,
      });
    }),
  };
}
