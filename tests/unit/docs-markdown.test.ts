import { describe, expect, it } from 'vitest';
import { unified } from 'unified';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import rehypeStringify from 'rehype-stringify';
import {
  DOCS_EXAMPLE_API_URL,
  DOCS_EXAMPLE_SITE_URL,
  publishedApiUrl,
  publishedSiteUrl,
  rehypeScrollTables,
  remarkPublishedApiUrl,
  remarkPublishedSiteUrl,
  withPublishedApiUrl,
  withPublishedSiteUrl,
} from '../../src/server/docs/markdown-plugins.ts';
import { negotiateMarkdown, wantsMarkdown } from '../../src/server/app/markdown-twins.ts';
import { ALL_ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import {
  ENDPOINT_LIST_NAMES,
  endpointListMarker,
  endpointListsFingerprint,
  remarkEndpointLists,
  withEndpointLists,
} from '../../src/server/docs/endpoint-lists.ts';
import { FIRST_CALL_MARKER, firstCallSamples, withFirstCall } from '../../src/server/docs/first-call.ts';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

async function html(markdown: string, url: string, siteUrl = DOCS_EXAMPLE_SITE_URL): Promise<string> {
  const file = await unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkPublishedApiUrl, url)
    .use(remarkPublishedSiteUrl, siteUrl)
    .use(remarkRehype)
    .use(rehypeScrollTables)
    .use(rehypeStringify)
    .process(markdown);
  return String(file);
}

describe('the documentation examples', () => {
  it('point at the data API the deployment publishes, in text, code and links', async () => {
    const url = 'https://data.example.org';
    const out = await html(
      `Call [the API](${DOCS_EXAMPLE_API_URL}/stable/quote) at \`${DOCS_EXAMPLE_API_URL}\`:\n\n\`\`\`sh\ncurl "${DOCS_EXAMPLE_API_URL}/stable/quote?symbol=AAPL"\n\`\`\`\n`,
      url,
    );
    expect(out).not.toContain(DOCS_EXAMPLE_API_URL);
    expect(out).toContain(`href="${url}/stable/quote"`);
    expect(out).toContain(`curl "${url}/stable/quote?symbol=AAPL"`);
  });

  it('keep the local address when none is published, and drop a trailing slash', () => {
    expect(publishedApiUrl({})).toBe(DOCS_EXAMPLE_API_URL);
    expect(publishedApiUrl({ PUBLIC_DATA_API_URL: 'https://api.example.org/' })).toBe(
      'https://api.example.org',
    );
    expect(withPublishedApiUrl(`${DOCS_EXAMPLE_API_URL}/stable`, 'https://x.test')).toBe(
      'https://x.test/stable',
    );
  });

  it('that call the site itself (connecting tools) point at the site the deployment publishes', async () => {
    const site = 'https://www.example.org';
    const out = await html(
      `Open [the page](${DOCS_EXAMPLE_SITE_URL}/devauth):\n\n\`\`\`sh\ncurl -X POST ${DOCS_EXAMPLE_SITE_URL}/api/devauth/code\ncurl "${DOCS_EXAMPLE_API_URL}/stable/quote"\n\`\`\`\n`,
      'https://data.example.org',
      site,
    );
    expect(out).not.toContain(DOCS_EXAMPLE_SITE_URL);
    expect(out).toContain(`href="${site}/devauth"`);
    expect(out).toContain(`curl -X POST ${site}/api/devauth/code`);
    expect(out).toContain('curl "https://data.example.org/stable/quote"');
    expect(publishedSiteUrl({})).toBe(DOCS_EXAMPLE_SITE_URL);
    expect(publishedSiteUrl({ PUBLIC_SITE_URL: 'https://www.example.org/' })).toBe(site);
    expect(withPublishedSiteUrl(`${DOCS_EXAMPLE_SITE_URL}/devauth`, site)).toBe(`${site}/devauth`);
  });

  it('put every table in a labelled region that scrolls on its own', async () => {
    const out = await html('| Status | Meaning |\n| --- | --- |\n| 401 | No key |\n', DOCS_EXAMPLE_API_URL);
    expect(out).toMatch(
      /^<div class="table-scroll" tabindex="0" role="region" aria-label="Table: Status, Meaning"><table>/,
    );
  });

  it('name two tables with the same header by the heading each follows, so every region is told apart', async () => {
    const table = '| Field | Formula |\n| --- | --- |\n| a | b |\n';
    const out = await html(`## Ratios\n\n${table}\n## Key metrics\n\n${table}`, DOCS_EXAMPLE_API_URL);
    expect(out).toContain('aria-label="Table: Field, Formula (Ratios)"');
    expect(out).toContain('aria-label="Table: Field, Formula (Key metrics)"');
  });
});

describe('Markdown twins', () => {
  it('are asked for with Accept: text/markdown, which browsers never send', () => {
    expect(wantsMarkdown('text/markdown')).toBe(true);
    expect(wantsMarkdown('text/markdown;q=0.9, text/plain')).toBe(true);
    expect(wantsMarkdown('text/html,application/xhtml+xml,*/*;q=0.8')).toBe(false);
    expect(wantsMarkdown(undefined)).toBe(false);
  });

  it('answer a page that has one, and mark its answers as varying by Accept', () => {
    const twins = new Set(['/developer/docs/quickstart.md']);
    const headers = new Map<string, string>();
    const res = {
      setHeader: (name: string, value: string) => headers.set(name, value),
    } as unknown as ServerResponse;
    const req = {
      method: 'GET',
      url: '/developer/docs/quickstart/?x=1',
      headers: { accept: 'text/markdown' },
    };
    negotiateMarkdown(twins, req as unknown as IncomingMessage, res);
    expect(req.url).toBe('/developer/docs/quickstart.md?x=1');
    expect(headers.get('Vary')).toBe('Accept');

    const page = { method: 'GET', url: '/developer/docs/quickstart', headers: { accept: 'text/html' } };
    negotiateMarkdown(twins, page as unknown as IncomingMessage, res);
    expect(page.url).toBe('/developer/docs/quickstart');

    const other = { method: 'GET', url: '/terms-of-service', headers: { accept: 'text/markdown' } };
    negotiateMarkdown(twins, other as unknown as IncomingMessage, res);
    expect(other.url).toBe('/terms-of-service');
  });
});

describe('search results', () => {
  interface FakeNode {
    kind: 'mark' | 'text';
    textContent: string;
  }
  const fakeDocument = {
    createElement: (): FakeNode => ({ kind: 'mark', textContent: '' }),
    createTextNode: (text: string): FakeNode => ({ kind: 'text', textContent: text }),
  } as unknown as Document;

  it('show the words found marked and everything else as text, never as markup', async () => {
    const { excerptNodes } = await import('../../src/lib/docs/search.ts');
    const nodes = excerptNodes(
      'the <mark>income</mark> statement &lt;script&gt; of <b>AAPL</b>',
      fakeDocument,
    ) as unknown as FakeNode[];
    expect(nodes.map((node) => [node.kind, node.textContent])).toEqual([
      ['text', 'the '],
      ['mark', 'income'],
      ['text', ' statement <script> of AAPL'],
    ]);
  });
});

describe('the quickstart’s first call', () => {
  it('is marked once in the quickstart’s Markdown, where the page puts the code tabs and "Run it"', () => {
    const markdown = readFileSync('src/content/docs/quickstart.md', 'utf8');
    expect(markdown.split(FIRST_CALL_MARKER)).toHaveLength(2);
  });

  it('is written by the sample generator in the twin: curl, JavaScript and Python, with the key placeholder', () => {
    const twin = withFirstCall(`Ask for a quote.\n\n${FIRST_CALL_MARKER}\n\n## Next`);
    expect(twin).not.toContain(FIRST_CALL_MARKER);
    expect(twin).toContain(
      "curl:\n\n```sh\ncurl --request GET \\\n  --url 'http://localhost:4322/stable/quote?symbol=AAPL&apikey=YOUR_API_KEY'\n```",
    );
    expect([...twin.matchAll(/^```(\w+)$/gm)].map((match) => match[1])).toEqual(['sh', 'js', 'python']);
    expect(twin.endsWith('## Next')).toBe(true);
    expect(withFirstCall('No marker here.')).toBe('No marker here.');
  });

  it('is the same request on the page, in every documentation language', () => {
    const samples = firstCallSamples('http://127.0.0.1:4672');
    expect(samples.map((sample) => sample.label)).toEqual([
      'curl',
      'JavaScript',
      'Python',
      'Go',
      'PHP',
      'Java',
      'C#',
      'Ruby',
    ]);
    for (const sample of samples)
      expect(sample.code).toContain('http://127.0.0.1:4672/stable/quote?symbol=AAPL&apikey=YOUR_API_KEY');
  });
});

describe('the lists of endpoints in the written pages', () => {
  const quote = ALL_ENDPOINTS.find((endpoint) => endpoint.path === 'quote');
  const profile = ALL_ENDPOINTS.find((endpoint) => endpoint.path === 'profile');
  if (quote === undefined || profile === undefined) throw new Error('quote and profile are defined');

  async function page(markdown: string, endpoints = ALL_ENDPOINTS): Promise<string> {
    const file = await unified()
      .use(remarkParse)
      .use(remarkGfm)
      .use(remarkEndpointLists, { endpoints })
      .use(remarkRehype)
      .use(rehypeStringify)
      .process(markdown);
    return String(file);
  }

  it('follow the definitions: an endpoint moved to another tier moves to that plan’s list', async () => {
    const before = [quote, profile];
    const after = [{ ...quote, tier: 1 as const }, profile];
    const markdown = `### Free\n\n${endpointListMarker('tier=0')}\n\n### Starter\n\n${endpointListMarker('tier=1')}\n`;
    expect(await page(markdown, before)).toBe(
      '<h3>Free</h3>\n<ul>\n<li>Quotes: <a href="/developer/docs/stable/quote"><code>quote</code></a></li>\n<li>Company: <a href="/developer/docs/stable/profile"><code>profile</code></a></li>\n</ul>\n<h3>Starter</h3>',
    );
    expect(await page(markdown, after)).toContain(
      '<h3>Starter</h3>\n<ul>\n<li>Quotes: <a href="/developer/docs/stable/quote"><code>quote</code></a></li>\n</ul>',
    );
    expect(endpointListsFingerprint(after)).not.toBe(endpointListsFingerprint(before));
  });

  it('read the same in a sentence of the page and of its Markdown twin', async () => {
    const markdown = `These answer in JSON only: ${endpointListMarker('json-only')}. Others answer CSV too.`;
    expect(await page(markdown, [quote, profile])).toBe(
      '<p>These answer in JSON only: <a href="/developer/docs/stable/quote"><code>quote</code></a> and <a href="/developer/docs/stable/profile"><code>profile</code></a>. Others answer CSV too.</p>',
    );
    expect(withEndpointLists(markdown, [quote, profile])).toBe(
      'These answer in JSON only: [`quote`](/developer/docs/stable/quote) and [`profile`](/developer/docs/stable/profile). Others answer CSV too.',
    );
  });

  it('are tables a page renders as its own, framed to scroll sideways', async () => {
    const html = await page(endpointListMarker('mcp-tools'));
    expect(html).toContain('<th>Tool</th>\n<th>Endpoint</th>');
    expect(html).toContain(
      '<td><code>get_quote</code></td>\n<td><a href="/developer/docs/stable/quote"><code>/stable/quote</code></a></td>',
    );
    expect(withEndpointLists(endpointListMarker('mcp-tools'))).toMatch(
      /^\| Tool \| Endpoint \|\n\| --- \| --- \|\n\| `get_quote` \| \[`\/stable\/quote`\]\(\/developer\/docs\/stable\/quote\) \|\n/,
    );
  });

  it('refuse a marker that names no list, or a list or table inside a sentence, instead of showing nothing', async () => {
    await expect(page('<!-- endpoints:teir=1 -->')).rejects.toThrow(/Unknown endpoint list "teir=1"/);
    expect(() => withEndpointLists('<!-- endpoints:teir=1 -->')).toThrow(/Unknown endpoint list/);
    await expect(page(`They are ${endpointListMarker('limits')}.`)).rejects.toThrow(
      /"limits" is a table: put its marker on a line of its own/,
    );
    expect(ENDPOINT_LIST_NAMES).toEqual(
      expect.arrayContaining(['tier=0', 'tier=3', 'json-only', 'paged', 'limits', 'bulk-files', 'mcp-tools']),
    );
  });

  it('leave other comments and pages without markers as they are', async () => {
    expect(withEndpointLists('Text <!-- first-call --> here')).toBe('Text <!-- first-call --> here');
    expect(await page('A <!-- note --> b')).toBe('<p>A  b</p>');
  });
});
