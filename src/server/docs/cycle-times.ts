import { UPDATE_FREQUENCIES, type EndpointDefinition, type UpdateFrequency } from '../data-api/endpoint.ts';
import { ALL_ENDPOINTS } from '../data-api/endpoints/index.ts';
import { LEGACY_ROUTES, type LegacyRoute } from '../data-api/legacy.ts';
import { DOCS_BASE, referencePath } from './paths.ts';

/*
 * The cycle times pages: how often each endpoint's data is refreshed and when, by endpoint group,
 * from the `cadence` of the endpoint definitions (the same field the reference pages and the OpenAPI
 * document's x-update-cadence show).
 */

/** The stable API's cycle times page. */
export const CYCLE_TIMES_PATH = `${DOCS_BASE}/cycle-times-stable`;
/** The legacy API's. */
export const LEGACY_CYCLE_TIMES_PATH = `${DOCS_BASE}/cycle-times`;

/** What the stable cycle times page says it is. */
export const CYCLE_TIMES_INTRO =
  'How often each endpoint’s data is refreshed and when, by group, and how long an answer may be reused: ask again after that, not before.';

/** One endpoint's row. */
export interface CycleTimeRow {
  path: string;
  summary: string;
  /** Its reference page. */
  href: string;
  frequency: UpdateFrequency;
  label: string;
  when: string;
  /** Seconds an answer may be reused. */
  maxAge: number;
}

/** The rows of one endpoint group, in documentation order. */
export interface CycleTimeGroup {
  name: string;
  /** For the page's headings and the on-page contents. */
  slug: string;
  rows: CycleTimeRow[];
  /** The group's frequencies, each once, in the order of UPDATE_FREQUENCIES. */
  labels: string[];
}

/** A heading's anchor from its text: 'Earnings, dividends and splits' → 'earnings-dividends-and-splits'. */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Every endpoint's cadence, by group in documentation order. */
export function cycleTimes(endpoints: readonly EndpointDefinition[] = ALL_ENDPOINTS): CycleTimeGroup[] {
  const groups = new Map<string, CycleTimeRow[]>();
  for (const endpoint of endpoints) {
    const rows = groups.get(endpoint.group) ?? [];
    rows.push({
      path: endpoint.path,
      summary: endpoint.summary,
      href: referencePath(endpoint),
      frequency: endpoint.cadence.frequency,
      label: UPDATE_FREQUENCIES[endpoint.cadence.frequency],
      when: endpoint.cadence.when,
      maxAge: endpoint.maxAge,
    });
    groups.set(endpoint.group, rows);
  }
  const order = Object.keys(UPDATE_FREQUENCIES);
  return [...groups].map(([name, rows]) => ({
    name,
    slug: headingSlug(name),
    rows,
    labels: [...new Set(rows.map((row) => row.frequency))]
      .toSorted((a, b) => order.indexOf(a) - order.indexOf(b))
      .map((frequency) => UPDATE_FREQUENCIES[frequency]),
  }));
}

/** One legacy path's row: the cadence of the stable endpoint that answers it. */
export interface LegacyCycleTimeRow {
  /** `/api/v3/quote/{symbol}` */
  path: string;
  /** The stable endpoint answering it, and its reference page. */
  stablePath: string;
  href: string;
  summary: string;
  label: string;
  when: string;
  maxAge: number;
}

export interface LegacyCycleTimeGroup {
  name: string;
  slug: string;
  rows: LegacyCycleTimeRow[];
}

/**
 * Every legacy path (the data API's legacy table) with the cadence of the stable endpoint that
 * answers it, grouped as the stable reference is, in the table's order. A legacy path answers from
 * the same data as its stable endpoint, so it is refreshed at the same moment.
 */
export function legacyCycleTimes(
  routes: readonly LegacyRoute[] = LEGACY_ROUTES,
  endpoints: readonly EndpointDefinition[] = ALL_ENDPOINTS,
): LegacyCycleTimeGroup[] {
  const byPath = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint]));
  const groups = new Map<string, LegacyCycleTimeRow[]>();
  for (const route of routes) {
    const stable = byPath.get(route.stable);
    if (stable === undefined) continue;
    const rows = groups.get(stable.group) ?? [];
    rows.push({
      path: `/api/v3/${route.path}`,
      stablePath: stable.path,
      href: referencePath(stable),
      summary: stable.summary,
      label: UPDATE_FREQUENCIES[stable.cadence.frequency],
      when: stable.cadence.when,
      maxAge: stable.maxAge,
    });
    groups.set(stable.group, rows);
  }
  return [...groups].map(([name, rows]) => ({ name, slug: headingSlug(name), rows }));
}

/** How long answers may be reused, briefly: '15 s', '5 min', '1 h', '1 day', 'not reused'. */
export function reuseText(maxAge: number): string {
  if (maxAge <= 0) return 'not reused';
  if (maxAge % 86_400 === 0) return `${String(maxAge / 86_400)} day${maxAge === 86_400 ? '' : 's'}`;
  if (maxAge % 3600 === 0) return `${String(maxAge / 3600)} h`;
  if (maxAge % 60 === 0) return `${String(maxAge / 60)} min`;
  return `${String(maxAge)} s`;
}

/** The stable cycle times as Markdown (the page's twin). */
export function cycleTimesMarkdown(groups: readonly CycleTimeGroup[], intro: string): string {
  const lines = ['# Cycle times', '', `> ${intro}`, ''];
  for (const group of groups) {
    lines.push(
      `## ${group.name}`,
      '',
      '| Endpoint | Refreshed | When | Answers reused for |',
      '| --- | --- | --- | --- |',
    );
    for (const row of group.rows) {
      lines.push(
        `| [\`/stable/${row.path}\`](${row.href}.md) ${row.summary} | ${row.label} | ${row.when.replaceAll('|', '\\|')} | ${reuseText(row.maxAge)} |`,
      );
    }
    lines.push('');
  }
  return `${lines.join('\n').trim()}\n`;
}
