import { createHash } from 'node:crypto';
import type { Html, PhrasingContent, Root, RootContent, TableRow } from 'mdast';
import { SKIP, visit } from 'unist-util-visit';
import type { EndpointDefinition } from '../data-api/endpoint.ts';
import { endpointParameters } from '../data-api/endpoint-docs.ts';
import { ALL_ENDPOINTS } from '../data-api/endpoints/index.ts';
import { DIRECT_TOOLS } from '../data-api/mcp-tools.ts';
import { DATA_TIERS } from '../services/market-data/plan-access.ts';
import { referencePath } from './paths.ts';

/*
 * The written pages' lists of endpoints (per plan tier, the JSON-only ones, each one's limit, the paged
 * ones, the bulk files, the MCP tools), made from the endpoint definitions when the page is rendered,
 * so a guide never keeps a copy of what a definition says. A page marks where a list goes with an
 * HTML comment, `<!-- endpoints:tier=1 -->`: the page (through the remark plugin below) and its
 * Markdown twin (through withEndpointLists) both put the same list there, every endpoint linked to
 * its reference page. A marker inside a sentence must not open a line: CommonMark reads a line that
 * starts with `<!--` as a block of HTML, which would end the paragraph.
 */

/** A piece of a generated text: words, or a name in code (an endpoint's linked to its reference). */
export type Span = { text: string } | { code: string; href?: string };

/** A run of spans, as one sentence's part or one list item or table cell. */
export type Phrase = Span[];

/** What a marker stands for: a run of words within a sentence, a bulleted list or a table. */
export type EndpointList =
  | { kind: 'phrase'; phrase: Phrase }
  | { kind: 'list'; items: Phrase[] }
  | { kind: 'table'; header: string[]; rows: Phrase[][] };

type Endpoints = readonly EndpointDefinition[];

function endpointSpan(endpoint: EndpointDefinition): Span {
  return { code: endpoint.path, href: referencePath(endpoint) };
}

/** Spans joined as a reader writes a series: "a, b and c" (or with commas only). */
function series(spans: readonly Span[], last = ' and '): Phrase {
  return spans.flatMap((span, index): Span[] => {
    if (index === 0) return [span];
    return [{ text: index === spans.length - 1 ? last : ', ' }, span];
  });
}

/** Endpoints by group, groups in documentation order (the order of the definitions). */
function grouped(endpoints: Endpoints): Map<string, EndpointDefinition[]> {
  const groups = new Map<string, EndpointDefinition[]>();
  for (const endpoint of endpoints)
    groups.set(endpoint.group, [...(groups.get(endpoint.group) ?? []), endpoint]);
  return groups;
}

/** One bullet per endpoint group: the endpoints a data tier adds to the tiers below it. */
function tierList(tier: number, endpoints: Endpoints): EndpointList {
  const items = [...grouped(endpoints.filter((endpoint) => endpoint.tier === tier))].map(
    ([group, members]): Phrase => [{ text: `${group}: ` }, ...series(members.map(endpointSpan), ', ')],
  );
  return { kind: 'list', items };
}

function parameterSchema(endpoint: EndpointDefinition, name: string): Record<string, unknown> | undefined {
  return endpointParameters(endpoint).find((parameter) => parameter.name === name)?.schema;
}

/** A schema keyword's number as the table writes it. */
function bound(schema: Record<string, unknown>, keyword: 'default' | 'maximum'): string {
  const value = schema[keyword];
  return typeof value === 'number' ? String(value) : 'none';
}

/** Each endpoint that takes `limit`, by group and by its default and ceiling. */
function limitsTable(endpoints: Endpoints): EndpointList {
  const rows = new Map<string, { group: string; members: EndpointDefinition[]; low: string; high: string }>();
  for (const endpoint of endpoints) {
    const limit = parameterSchema(endpoint, 'limit');
    if (limit === undefined) continue;
    const low = bound(limit, 'default');
    const high = bound(limit, 'maximum');
    const key = `${endpoint.group}\n${low}\n${high}`;
    const row = rows.get(key) ?? { group: endpoint.group, members: [], low, high };
    row.members.push(endpoint);
    rows.set(key, row);
  }
  return {
    kind: 'table',
    header: ['Group', 'Endpoints', 'Default', 'At most'],
    rows: [...rows.values()].map(({ group, members, low, high }) => [
      [{ text: group }],
      series(members.map(endpointSpan), ', '),
      [{ text: low }],
      [{ text: high }],
    ]),
  };
}

/** A definition's sentence with its backticked names as code, endpoints linked to their reference. */
function phraseOf(text: string, endpoints: Endpoints): Phrase {
  const byPath = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint]));
  return text
    .split(/(`[^`]+`)/)
    .filter((part) => part !== '')
    .map((part): Span => {
      if (!part.startsWith('`')) return { text: part };
      const name = part.slice(1, -1);
      const endpoint = byPath.get(name);
      return endpoint === undefined ? { code: name } : endpointSpan(endpoint);
    });
}

/** The bulk files: each file, the parameters it takes and the per-symbol endpoint its rows repeat. */
function bulkTable(endpoints: Endpoints): EndpointList {
  const files = endpoints.filter((endpoint) => endpoint.bulk !== undefined);
  return {
    kind: 'table',
    header: ['File', 'Parameters', 'Each row is what this endpoint answers for the symbol'],
    rows: files.map((file) => {
      const names = Object.keys(file.params.shape).map((name): Span => ({ code: name }));
      return [
        [endpointSpan(file)],
        names.length === 0 ? [{ text: 'none' }] : series(names, ', '),
        phraseOf(file.bulk?.rows ?? file.summary, endpoints),
      ];
    }),
  };
}

/** The MCP server's direct tools and the endpoint each calls (a tool whose endpoint is gone is not offered). */
function mcpToolsTable(endpoints: Endpoints): EndpointList {
  const byPath = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint]));
  return {
    kind: 'table',
    header: ['Tool', 'Endpoint'],
    rows: DIRECT_TOOLS.flatMap(({ name, path }) => {
      const endpoint = byPath.get(path);
      if (endpoint === undefined) return [];
      return [[[{ code: name }], [{ code: `/stable/${path}`, href: referencePath(endpoint) }]]];
    }),
  };
}

/** Every list a page may ask for, by the name its marker gives after `endpoints:`. */
const LISTS: Readonly<Record<string, (endpoints: Endpoints) => EndpointList>> = {
  ...Object.fromEntries(
    Object.values(DATA_TIERS).map((tier) => [
      `tier=${String(tier)}`,
      (endpoints: Endpoints) => tierList(tier, endpoints),
    ]),
  ),
  'json-only': (endpoints) => ({
    kind: 'phrase',
    phrase: series(
      endpoints
        .filter((endpoint) => endpoint.csv !== true && endpoint.workbook === undefined)
        .map(endpointSpan),
    ),
  }),
  paged: (endpoints) => ({
    kind: 'phrase',
    phrase: series(
      endpoints.filter((endpoint) => parameterSchema(endpoint, 'page') !== undefined).map(endpointSpan),
    ),
  }),
  limits: limitsTable,
  'bulk-files': bulkTable,
  'mcp-tools': mcpToolsTable,
};

/** The names of the lists, as markers write them after `endpoints:`. */
export const ENDPOINT_LIST_NAMES: readonly string[] = Object.keys(LISTS);

/** The marker of a list, as a page writes it. */
export function endpointListMarker(name: string): string {
  return `<!-- endpoints:${name} -->`;
}

/** Any comment that means to be a marker, known or not (an unknown one fails the build). */
const MARKER = /<!--\s*endpoints:(\S*?)\s*-->/g;

/** The list a marker names; a name that is no list is refused, so a typo never renders as nothing. */
export function endpointList(name: string, endpoints: Endpoints = ALL_ENDPOINTS): EndpointList {
  const make = LISTS[name];
  if (make === undefined) {
    throw new Error(
      `Unknown endpoint list "${name}" in a docs page: the lists are ${ENDPOINT_LIST_NAMES.join(', ')}`,
    );
  }
  return make(endpoints);
}

/** Characters that would be read as Markdown syntax in a generated text. */
function escaped(text: string): string {
  return text.replace(/[\\`*[\]<|]/g, '\\$&');
}

function phraseMarkdown(phrase: Phrase): string {
  return phrase
    .map((span) => {
      if ('text' in span) return escaped(span.text);
      return span.href === undefined ? `\`${span.code}\`` : `[\`${span.code}\`](${span.href})`;
    })
    .join('');
}

/** A list as Markdown, for the Markdown twins. */
export function endpointListMarkdown(list: EndpointList): string {
  switch (list.kind) {
    case 'phrase':
      return phraseMarkdown(list.phrase);
    case 'list':
      return list.items.map((item) => `- ${phraseMarkdown(item)}`).join('\n');
    case 'table': {
      const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
      return [
        line(list.header.map(escaped)),
        line(list.header.map(() => '---')),
        ...list.rows.map((row) => line(row.map(phraseMarkdown))),
      ].join('\n');
    }
  }
}

/** A page's Markdown with every marker replaced by its list (for the twins, `/llms-full.txt`). */
export function withEndpointLists(markdown: string, endpoints: Endpoints = ALL_ENDPOINTS): string {
  // A function, so a `$` in a list is never read as a replacement pattern.
  return markdown.replace(MARKER, (_marker, name: string) =>
    endpointListMarkdown(endpointList(name, endpoints)),
  );
}

function phraseNodes(phrase: Phrase): PhrasingContent[] {
  return phrase.map((span): PhrasingContent => {
    if ('text' in span) return { type: 'text', value: span.text };
    const code: PhrasingContent = { type: 'inlineCode', value: span.code };
    return span.href === undefined ? code : { type: 'link', url: span.href, children: [code] };
  });
}

function tableRow(cells: readonly Phrase[]): TableRow {
  return {
    type: 'tableRow',
    children: cells.map((cell) => ({ type: 'tableCell', children: phraseNodes(cell) })),
  };
}

/** A list or table as the Markdown syntax tree has it. */
function blockNode(list: Exclude<EndpointList, { kind: 'phrase' }>): RootContent {
  if (list.kind === 'list') {
    return {
      type: 'list',
      ordered: false,
      spread: false,
      children: list.items.map((item) => ({
        type: 'listItem',
        spread: false,
        children: [{ type: 'paragraph', children: phraseNodes(item) }],
      })),
    };
  }
  return {
    type: 'table',
    align: list.header.map(() => null),
    children: [tableRow(list.header.map((text) => [{ text }])), ...list.rows.map(tableRow)],
  };
}

/** The nodes whose children are blocks: a marker there stands on a line of its own. */
const BLOCK_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

/** The whole of an HTML node when it is a marker: its list's name. */
function markerName(node: Html): string | undefined {
  return /^<!--\s*endpoints:(\S*?)\s*-->$/.exec(node.value.trim())?.[1];
}

/**
 * Remark: each marker of a written page replaced by its list, so the page, its search index entry
 * and its Markdown twin all carry the full list. `fingerprint` is not read: Astro keeps rendered pages
 * until their file or the site's configuration changes, and the fingerprint of the lists in the
 * configuration (endpointListsFingerprint) makes a changed definition count as a changed configuration.
 */
export function remarkEndpointLists(
  options: { endpoints?: Endpoints; fingerprint?: string } = {},
): (tree: Root) => void {
  const endpoints = options.endpoints ?? ALL_ENDPOINTS;
  return (tree) => {
    visit(tree, 'html', (node: Html, index, parent) => {
      const name = markerName(node);
      if (name === undefined || index === undefined || parent === undefined) return;
      const list = endpointList(name, endpoints);
      if (!BLOCK_PARENTS.has(parent.type)) {
        if (list.kind !== 'phrase')
          throw new Error(
            `The endpoint list "${name}" is a ${list.kind}: put its marker on a line of its own`,
          );
        const nodes = phraseNodes(list.phrase);
        (parent.children as PhrasingContent[]).splice(index, 1, ...nodes);
        return [SKIP, index + nodes.length];
      }
      if (list.kind === 'list' && list.items.length === 0) {
        // A tier that adds no endpoints (the commercial one) shows no empty list.
        parent.children.splice(index, 1);
        return [SKIP, index];
      }
      const block =
        list.kind === 'phrase'
          ? ({ type: 'paragraph', children: phraseNodes(list.phrase) } satisfies RootContent)
          : blockNode(list);
      (parent.children as RootContent[]).splice(index, 1, block);
      return [SKIP, index + 1];
    });
  };
}

/**
 * A digest of every list as the definitions make it today, for the Markdown configuration: when a
 * definition changes a list, the configuration changes, and Astro renders the pages again instead
 * of serving the ones it stored.
 */
export function endpointListsFingerprint(endpoints: Endpoints = ALL_ENDPOINTS): string {
  const lists = ENDPOINT_LIST_NAMES.map((name) => endpointListMarkdown(endpointList(name, endpoints)));
  return createHash('sha256').update(lists.join('\n\n')).digest('hex');
}
