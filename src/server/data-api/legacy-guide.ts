/*
 * The migration guide of the legacy endpoints (/developer/docs/legacy-endpoints and the legacy docs),
 * written out from the legacy table and the stable definitions, so the pages can never list an
 * endpoint, parameter or field the data API does not serve.
 */
import type { EndpointDefinition } from './endpoint.ts';
import { ENDPOINTS } from './endpoints/index.ts';
import { LEGACY_ROUTES, type LegacyRoute } from './legacy.ts';

/** A request as the docs show it: the path and, when there is one, an example with its query. */
export interface GuideRequest {
  /** `/api/v3/quote/{symbol}` or `/stable/quote`. */
  path: string;
  /** `/api/v3/quote/AAPL` or `/stable/quote?symbol=AAPL` (without a key). */
  example: string;
}

/** One legacy endpoint and how to move to its stable equivalent. */
export interface LegacyGuideEntry {
  /** Anchor of the entry on the guide page. */
  id: string;
  /** What the endpoint answers (the stable endpoint's summary). */
  summary: string;
  legacy: GuideRequest;
  stable: GuideRequest;
  /** The stable endpoint for a comma list of symbols, when it is another one. */
  batch: GuideRequest | undefined;
  /** What changes in the request, one sentence each (inline `code` in backticks). */
  request: string[];
  /** What changes in the answer, one sentence each (inline `code` in backticks). */
  answer: string[];
}

/** The legacy endpoints of one section of the stable reference. */
export interface LegacyGuideGroup {
  id: string;
  title: string;
  entries: LegacyGuideEntry[];
}

const SYMBOL_SEGMENT = '{symbol}';

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function query(params: URLSearchParams): string {
  const text = decodeURIComponent(params.toString());
  return text === '' ? '' : `?${text}`;
}

/** The stable example of an endpoint, and the same request in the legacy style of `route`. */
function examples(route: LegacyRoute, stable: EndpointDefinition): { legacy: string; stable: string } {
  const stableParams = new URLSearchParams(stable.example);
  const legacyParams = new URLSearchParams();
  let path = route.path;
  for (const [name, value] of stableParams) {
    if (name === 'symbol' && path.endsWith(SYMBOL_SEGMENT)) {
      path = `${path.slice(0, -SYMBOL_SEGMENT.length)}${value}`;
    } else {
      legacyParams.append(route.params?.[name] ?? name, value);
    }
  }
  return {
    legacy: `/api/v3/${path}${query(legacyParams)}`,
    stable: `/stable/${stable.path}${query(stableParams)}`,
  };
}

function requestNotes(route: LegacyRoute, batch: EndpointDefinition | undefined): string[] {
  const notes: string[] = [];
  if (route.path.endsWith(SYMBOL_SEGMENT)) {
    notes.push('The symbol moves from the path to the `symbol` parameter.');
  }
  if (batch !== undefined) {
    notes.push(
      `A comma list of symbols in the path is \`/stable/${batch.path}\` with the list in \`symbols\`.`,
    );
  }
  for (const [stableName, legacyName] of Object.entries(route.params ?? {})) {
    notes.push(`\`${legacyName}\` becomes \`${stableName}\`.`);
  }
  for (const [name, value] of Object.entries(route.defaults ?? {})) {
    notes.push(`\`${name}\` is required; the legacy style assumed \`${name}=${value}\`.`);
  }
  if (route.historical === 'prices') {
    notes.push(
      '`serietype=line` has no stable counterpart: `/stable/historical-price-eod/light` answers the date, price and volume of each day.',
      '`timeseries=N` has no stable counterpart: rows come newest first, so keep the first N, or set `from`.',
    );
  }
  if (notes.length === 0) notes.push('Same parameters.');
  return notes;
}

function answerNotes(route: LegacyRoute): string[] {
  const notes: string[] = [];
  if (route.historical !== undefined) {
    notes.push(
      'An array of rows, each with its `symbol`, instead of `{symbol, historical: [...]}`; an unknown symbol answers `[]` instead of `{}`.',
    );
  }
  for (const [stableName, legacyName] of Object.entries(route.fields ?? {})) {
    notes.push(`The field \`${legacyName}\` becomes \`${stableName}\`.`);
  }
  if (notes.length === 0) notes.push('Same rows and fields.');
  return notes;
}

/** The anchor of a legacy route's entry on the guide page (`quote`, `historical-chart-5min`). */
export function legacyGuideAnchor(route: LegacyRoute): string {
  return slug(route.path.replace(SYMBOL_SEGMENT, ''));
}

/**
 * Every legacy endpoint with its stable equivalent, grouped as the stable reference is, in the
 * order of the legacy table. Routes whose stable endpoint is not served are left out.
 */
export function legacyGuide(endpoints: readonly EndpointDefinition[] = ENDPOINTS): LegacyGuideGroup[] {
  const byPath = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint]));
  const groups = new Map<string, LegacyGuideGroup>();
  for (const route of LEGACY_ROUTES) {
    const stable = byPath.get(route.stable);
    if (stable === undefined) continue;
    const batch = route.batch === undefined ? undefined : byPath.get(route.batch);
    const example = examples(route, stable);
    const entry: LegacyGuideEntry = {
      id: legacyGuideAnchor(route),
      summary: stable.summary,
      legacy: { path: `/api/v3/${route.path}`, example: example.legacy },
      stable: { path: `/stable/${stable.path}`, example: example.stable },
      batch:
        batch === undefined
          ? undefined
          : {
              path: `/stable/${batch.path}`,
              example: `/stable/${batch.path}${query(new URLSearchParams(batch.example))}`,
            },
      request: requestNotes(route, batch),
      answer: answerNotes(route),
    };
    let group = groups.get(stable.group);
    if (group === undefined) {
      group = { id: slug(stable.group), title: stable.group, entries: [] };
      groups.set(stable.group, group);
    }
    group.entries.push(entry);
  }
  return [...groups.values()];
}

/** Where the migration guide lives, and what it is, for its page, its Markdown twin and the index. */
export const LEGACY_GUIDE_PAGE = {
  path: '/developer/docs/legacy-endpoints',
  title: 'Legacy endpoints',
  description:
    'Every legacy endpoint (/api/v3, the symbol in the path) with the stable endpoint that answers the same data, and what changes in the request and in the answer.',
} as const;

/**
 * The migration guide as Markdown (the page's twin, for AI tools rewriting legacy calls): per
 * section, each legacy endpoint with its stable equivalent and what changes.
 */
export function legacyGuideMarkdown(groups: readonly LegacyGuideGroup[], apiUrl: string): string {
  const lines = [
    `# ${LEGACY_GUIDE_PAGE.title}`,
    '',
    `> ${LEGACY_GUIDE_PAGE.description}`,
    '',
    `Legacy endpoints live under \`${apiUrl}/api/v3\` and answer only accounts with legacy access (any other key gets 403 "Legacy Endpoint"); the stable API lives under \`${apiUrl}/stable\` and serves the same data with the same key, plan and limits.`,
    '',
  ];
  for (const group of groups) {
    lines.push(`## ${group.title}`, '');
    for (const entry of group.entries) {
      lines.push(`### \`${entry.legacy.path}\` (${entry.summary})`, '');
      lines.push(`- Legacy: \`${entry.legacy.example}\``);
      lines.push(`- Stable: \`${entry.stable.example}\``);
      if (entry.batch !== undefined) lines.push(`- Several symbols: \`${entry.batch.example}\``);
      for (const note of entry.request) lines.push(`- Request: ${note}`);
      for (const note of entry.answer) lines.push(`- Answer: ${note}`);
      lines.push('');
    }
  }
  return `${lines.join('\n').trim()}\n`;
}
