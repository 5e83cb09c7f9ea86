import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_AS_KEY_MESSAGE,
  BLOCKED_KEY_MESSAGE,
  INVALID_KEY_MESSAGE,
  MISSING_KEY_MESSAGE,
  REVOKED_KEY_MESSAGE,
  UNVERIFIED_KEY_MESSAGE,
} from '../../src/server/data-api/access.ts';
import {
  INTERNAL_ERROR_MESSAGE,
  UNAVAILABLE_MESSAGE,
  UNKNOWN_ENDPOINT_MESSAGE,
  UNKNOWN_LEGACY_ENDPOINT_MESSAGE,
} from '../../src/server/data-api/app.ts';
import type { EndpointDefinition } from '../../src/server/data-api/endpoint.ts';
import { ACCOUNT_ENDPOINTS } from '../../src/server/data-api/endpoints/account.ts';
import { ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import { countCall, limitMessage } from '../../src/server/data-api/limits.ts';
import { legacyEndpointMessage } from '../../src/server/data-api/legacy.ts';
import { openApiDocument } from '../../src/server/data-api/openapi.ts';
import { remarkEndpointLists, withEndpointLists } from '../../src/server/docs/endpoint-lists.ts';
import { DOCS_EXAMPLE_SITE_URL } from '../../src/server/docs/markdown-plugins.ts';
import { MemoryStore } from '../../src/server/middleware/rate-limit-store.ts';
import { TOKEN_ERROR_DESCRIPTIONS } from '../../src/server/routes/devauth.ts';
import { BLOCKED_ACCOUNT_MESSAGE } from '../../src/lib/messages.ts';

/*
 * The guides quote the API: its endpoints, its messages, its headers, each endpoint's tier, limits
 * and formats. Their lists of endpoints are written from the definitions when a page is rendered;
 * these tests read the pages as rendered and hold them to the definitions (through the OpenAPI
 * document where it says the same), so a change to the API that makes a page wrong fails here
 * instead of misleading readers.
 */

const DOCS_DIR = path.resolve('src/content/docs');
const pages = new Map(
  readdirSync(DOCS_DIR)
    .filter((name) => name.endsWith('.md'))
    .map((name) => [name.replace(/\.md$/, ''), readFileSync(path.join(DOCS_DIR, name), 'utf8')]),
);

function page(id: string): string {
  const text = pages.get(id);
  if (text === undefined) throw new Error(`no docs page ${id}`);
  return text;
}

const ALL_ENDPOINTS: readonly EndpointDefinition[] = [...ENDPOINTS, ...ACCOUNT_ENDPOINTS];
const byPath = new Map(ALL_ENDPOINTS.map((endpoint) => [endpoint.path, endpoint]));

/**
 * A written page as a reader gets it: its Markdown rendered with the site's own Markdown steps (the
 * generated lists written out), as HTML.
 */
async function rendered(id: string): Promise<string> {
  const file = await unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkEndpointLists)
    .use(remarkRehype)
    .use(rehypeStringify)
    .process(page(id));
  return String(file);
}

/** The part of a rendered page under a heading, up to the next heading of the same or a higher level. */
function underHeading(html: string, level: number, heading: string): string {
  const start = html.indexOf(`<h${String(level)}>${heading}</h${String(level)}>`);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const rest = html.slice(start + heading.length);
  const next = new RegExp(`<h[1-${String(level)}]>`).exec(rest);
  return next === null ? rest : rest.slice(0, next.index);
}

/** The endpoints a piece of rendered page links to their reference pages, in order. */
function linkedEndpoints(html: string): string[] {
  return [...html.matchAll(/<a href="\/developer\/docs\/stable\/([^"]+)"><code>([^<]+)<\/code><\/a>/g)].map(
    (match) => {
      expect(match[2], 'a link names the endpoint it leads to').toBe(match[1]);
      return match[1] ?? '';
    },
  );
}

/** The cells of a rendered table's body rows. */
function tableCells(html: string): string[][] {
  const body = /<tbody>([^]*?)<\/tbody>/.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr>([^]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<td>([^]*?)<\/td>/g)].map((cell) => cell[1] ?? ''),
  );
}

const sortedPaths = (endpoints: readonly EndpointDefinition[]): string[] =>
  endpoints.map((endpoint) => endpoint.path).sort();

interface ParameterSchema {
  default?: number;
  maximum?: number;
}

const operations = (
  openApiDocument(ALL_ENDPOINTS, { version: 'test' }) as {
    paths: Record<string, { get: { parameters?: { name: string; schema: ParameterSchema }[] } }>;
  }
).paths;

function parameter(endpoint: string, name: string): ParameterSchema | undefined {
  return operations[`/stable/${endpoint}`]?.get.parameters?.find((candidate) => candidate.name === name)
    ?.schema;
}

describe('the guides', () => {
  it('only name endpoints that the API serves', () => {
    const unknown: string[] = [];
    for (const [id, text] of pages) {
      for (const match of text.matchAll(/(Unknown endpoint )?\/stable\/([a-z0-9][a-z0-9/.-]*[a-z0-9])/g)) {
        const name = match[2] ?? '';
        // The 404 example names a path that does not exist on purpose.
        if (match[1] !== undefined || name === 'openapi.json') continue;
        if (!byPath.has(name)) unknown.push(`${id}: /stable/${name}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('list every endpoint on the plans page under the plan that opens it, linked to its reference', async () => {
    const html = await rendered('plans');
    const tiers: [string, number][] = [
      ['Free: the free sample', 0],
      ['Starter', 1],
      ['Professional', 2],
      ['Power', 3],
    ];
    const listed: string[] = [];
    for (const [heading, tier] of tiers) {
      const names = linkedEndpoints(underHeading(html, 3, heading));
      expect(
        names.filter((name) => byPath.get(name)?.tier !== tier),
        `endpoints under ${heading} that another plan opens`,
      ).toEqual([]);
      listed.push(...names);
    }
    expect(listed.sort()).toEqual(sortedPaths(ALL_ENDPOINTS));
  });

  it('give each plan the same endpoints in its Markdown twin as on its page', async () => {
    const twin = withEndpointLists(page('plans'));
    const html = await rendered('plans');
    for (const heading of ['Free: the free sample', 'Starter', 'Professional', 'Power']) {
      const start = twin.indexOf(`### ${heading}\n`);
      const end = twin.indexOf('\n### ', start + 1);
      const linked = [...twin.slice(start, end).matchAll(/\[`([^`]+)`\]\(\/developer\/docs\/stable\/\1\)/g)];
      expect(
        linked.map((match) => match[1]),
        heading,
      ).toEqual(linkedEndpoints(underHeading(html, 3, heading)));
    }
    expect(twin).not.toContain('<!--');
  });

  it('name exactly the endpoints that answer in JSON only on the CSV page, and the workbooks apart', async () => {
    const html = await rendered('csv');
    const paragraph = /<p>These answer in JSON only:[^]*?<\/p>/.exec(html)?.[0] ?? '';
    expect(paragraph).toContain('Asking them for CSV is');
    const jsonOnly = ALL_ENDPOINTS.filter(
      (endpoint) => endpoint.csv !== true && endpoint.workbook === undefined,
    );
    expect(linkedEndpoints(paragraph).sort()).toEqual(sortedPaths(jsonOnly));
    expect(paragraph).toMatch(/<\/a> and <a href=[^]*<\/a>\. Asking them/);
    const named = [...page('csv').matchAll(/`([a-z0-9/-]+)` answers neither/g)].map((match) => match[1]);
    expect(named).toEqual(
      ALL_ENDPOINTS.filter((endpoint) => endpoint.workbook !== undefined).map((endpoint) => endpoint.path),
    );
  });

  it("give each endpoint's own default and ceiling for limit, and list the paged endpoints", async () => {
    const html = await rendered('pagination');
    const described: string[] = [];
    for (const [group = '', names = '', defaultCell = '', maxCell = ''] of tableCells(
      underHeading(html, 2, 'limit: how many rows'),
    )) {
      for (const name of linkedEndpoints(names)) {
        const limit = parameter(name, 'limit');
        expect(byPath.get(name)?.group, `group of ${name}`).toBe(group);
        expect(limit?.default, `default limit of ${name}`).toBe(Number(defaultCell));
        expect(limit?.maximum, `largest limit of ${name}`).toBe(Number(maxCell));
        described.push(name);
      }
    }
    const withLimit = ALL_ENDPOINTS.filter((endpoint) => parameter(endpoint.path, 'limit') !== undefined);
    expect(described.sort()).toEqual(sortedPaths(withLimit));

    const pageSentence = /They are (<a [^]*?<\/a>)\. /.exec(
      underHeading(html, 2, 'page: walking through a long list'),
    );
    const withPage = ALL_ENDPOINTS.filter((endpoint) => parameter(endpoint.path, 'page') !== undefined);
    expect(linkedEndpoints(pageSentence?.[1] ?? '').sort()).toEqual(sortedPaths(withPage));
  });

  it('list every bulk file with its parameters and the endpoint whose rows it repeats', async () => {
    const rows = tableCells(underHeading(await rendered('bulk-downloads'), 2, 'The files'));
    const files = ALL_ENDPOINTS.filter((endpoint) => endpoint.bulk !== undefined);
    expect(rows.map(([file = '']) => linkedEndpoints(file).join())).toEqual(files.map((file) => file.path));
    for (const [file = '', parameters = '', repeats = ''] of rows) {
      const endpoint = byPath.get(linkedEndpoints(file)[0] ?? '');
      const names = Object.keys(endpoint?.params.shape ?? {});
      expect(parameters).toBe(
        names.length === 0 ? 'none' : names.map((name) => `<code>${name}</code>`).join(', '),
      );
      expect(linkedEndpoints(repeats).length, `${file} names the endpoint it repeats`).toBeGreaterThan(0);
    }
  });

  it('quote the messages the API sends for a refused key, an unknown path, a legacy path and its own failures', () => {
    for (const message of [
      MISSING_KEY_MESSAGE,
      INVALID_KEY_MESSAGE,
      REVOKED_KEY_MESSAGE,
      ACCESS_TOKEN_AS_KEY_MESSAGE,
      UNVERIFIED_KEY_MESSAGE,
      BLOCKED_KEY_MESSAGE,
    ]) {
      expect(page('authentication'), message).toContain(message);
    }
    expect(page('errors')).toContain(UNKNOWN_ENDPOINT_MESSAGE('/stable/quotes'));
    expect(page('errors')).toContain(UNKNOWN_LEGACY_ENDPOINT_MESSAGE('/api/v3/nosuch/AAPL'));
    // The site's address in the page becomes the deployment's, as the API's own message names it.
    expect(page('errors')).toContain(legacyEndpointMessage(DOCS_EXAMPLE_SITE_URL));
    expect(page('errors')).toContain(UNAVAILABLE_MESSAGE);
    expect(page('errors')).toContain(INTERNAL_ERROR_MESSAGE);
  });

  it('quote the answers a polling tool gets while connecting', () => {
    for (const description of Object.values(TOKEN_ERROR_DESCRIPTIONS)) {
      expect(page('connecting-tools'), description).toContain(description);
    }
    expect(page('connecting-tools').replace(/\s+/g, ' ')).toContain(BLOCKED_ACCOUNT_MESSAGE);
  });

  it('show the RateLimit headers and the 429 message in the form the API writes them', async () => {
    const store = new MemoryStore({ now: () => 0 });
    // The Free plan's limits, as the plans guide's table gives them (held to the catalogue elsewhere).
    const limits = { perMinute: 30, perDay: 250 };
    const first = await countCall(store, 'key:docs', limits);
    const text = page('rate-limits');
    expect(text).toContain(`RateLimit-Policy: ${first.headers['RateLimit-Policy'] ?? ''}\n`);
    expect(text).toContain(`RateLimit: ${first.headers.RateLimit ?? ''}\n`);
    expect(text).toContain(
      limitMessage({ policy: 'minute', limit: limits.perMinute, retryAfterSeconds: 28 }, 'Free'),
    );
    expect(text).toContain(
      limitMessage({ policy: 'day', limit: limits.perDay, retryAfterSeconds: 83_150 }, 'Free'),
    );
  });
});
