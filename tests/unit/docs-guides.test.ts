import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
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
import { DOCS_EXAMPLE_SITE_URL } from '../../src/server/docs/markdown-plugins.ts';
import { MemoryStore } from '../../src/server/middleware/rate-limit-store.ts';
import { TOKEN_ERROR_DESCRIPTIONS } from '../../src/server/routes/devauth.ts';
import { BLOCKED_ACCOUNT_MESSAGE } from '../../src/lib/messages.ts';

/*
 * The guides quote the API: its endpoints, its messages, its headers, each endpoint's tier, limits
 * and formats. These tests hold the written pages to the definitions they describe, so a change to
 * the API that makes a page wrong fails here instead of misleading readers.
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

/** A page's text between a heading and the next heading of the same or a higher level. */
function section(id: string, heading: string): string {
  const text = page(id);
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`${id} has no heading "${heading}"`);
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const rest = text.slice(start + heading.length);
  const next = new RegExp(`\\n#{1,${String(level)}} `).exec(rest);
  return next === null ? rest : rest.slice(0, next.index);
}

const ALL_ENDPOINTS: readonly EndpointDefinition[] = [...ENDPOINTS, ...ACCOUNT_ENDPOINTS];
const byPath = new Map(ALL_ENDPOINTS.map((endpoint) => [endpoint.path, endpoint]));

/** Endpoint paths written in backticks (`quote`, `historical-chart/5min`) in a piece of text. */
function endpointsNamed(text: string): string[] {
  return [...text.matchAll(/`([a-z0-9/-]+)`/g)]
    .map((match) => match[1] ?? '')
    .filter((name) => byPath.has(name));
}

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

  it('list every endpoint on the plans page under the plan that opens it', () => {
    const tiers: [string, number][] = [
      ['### Free: the free sample', 0],
      ['### Starter', 1],
      ['### Professional', 2],
      ['### Power', 3],
    ];
    const listed = new Map<string, number>();
    for (const [heading, tier] of tiers) {
      for (const name of endpointsNamed(section('plans', heading))) {
        expect(byPath.get(name)?.tier, `${name} is listed under ${heading}`).toBe(tier);
        listed.set(name, tier);
      }
    }
    expect([...listed.keys()].sort()).toEqual(ALL_ENDPOINTS.map((endpoint) => endpoint.path).sort());
  });

  it('name exactly the endpoints that answer in JSON only on the CSV page', () => {
    const paragraph = /These answer in JSON only:[^]*?\n\n/.exec(page('csv'))?.[0] ?? '';
    const jsonOnly = ALL_ENDPOINTS.filter((endpoint) => endpoint.csv !== true).map(
      (endpoint) => endpoint.path,
    );
    expect(endpointsNamed(paragraph).sort()).toEqual(jsonOnly.sort());
  });

  it("give each endpoint's own default and ceiling for limit, and list the paged endpoints", () => {
    const limitTable = section('pagination', '## limit: how many rows');
    const rows = limitTable.split('\n').filter((line) => line.startsWith('| `'));
    const described = new Set<string>();
    for (const row of rows) {
      const [names = '', defaultCell = '', maxCell = ''] = row.split('|').slice(1, -1);
      for (const name of endpointsNamed(names)) {
        const limit = parameter(name, 'limit');
        expect(limit?.default, `default limit of ${name}`).toBe(Number(defaultCell.trim()));
        expect(limit?.maximum, `largest limit of ${name}`).toBe(Number(maxCell.trim()));
        described.add(name);
      }
    }
    const withLimit = ALL_ENDPOINTS.filter((endpoint) => parameter(endpoint.path, 'limit') !== undefined);
    expect([...described].sort()).toEqual(withLimit.map((endpoint) => endpoint.path).sort());

    const pageSentence = /They are (`[^.]*)\./.exec(
      section('pagination', '## page: walking through a long list'),
    );
    const withPage = ALL_ENDPOINTS.filter((endpoint) => parameter(endpoint.path, 'page') !== undefined);
    expect(endpointsNamed(pageSentence?.[1] ?? '').sort()).toEqual(
      withPage.map((endpoint) => endpoint.path).sort(),
    );
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
