import { expect, test } from '@playwright/test';
import { DATASETS, DATASETS_INDEX, datasetPath, isPending } from '../../src/lib/routes.ts';

const MAX_PAGES = 500;

function internalLinks(html: string, pageUrl: URL): string[] {
  const links: string[] = [];
  for (const match of html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)) {
    const raw = (match[1] ?? '').replaceAll('&amp;', '&');
    if (raw === '' || raw.startsWith('#') || /^(mailto|tel|javascript):/i.test(raw)) continue;
    const url = new URL(raw, pageUrl);
    if (url.origin !== pageUrl.origin) continue;
    links.push(url.pathname + url.search);
  }
  return links;
}

test('every internal link of the built site leads to a page, apart from routes listed as pending', async ({
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL ?? '');
  const queue: string[] = ['/'];
  const seen = new Set<string>(queue);
  const broken: string[] = [];
  const linkedFrom = new Map<string, string>();
  let crawled = 0;
  const reached = new Set<string>();

  while (queue.length > 0 && crawled < MAX_PAGES) {
    const path = queue.shift() ?? '/';
    crawled += 1;
    reached.add(path);
    const res = await request.get(path, { maxRedirects: 5 });
    if (res.status() !== 200) {
      broken.push(`${path} (HTTP ${res.status()}, linked from ${linkedFrom.get(path) ?? 'start'})`);
      continue;
    }
    if (!(res.headers()['content-type'] ?? '').includes('text/html')) continue;
    const html = await res.text();
    for (const link of internalLinks(html, new URL(path, origin))) {
      if (seen.has(link) || isPending(link)) continue;
      seen.add(link);
      linkedFrom.set(link, path);
      queue.push(link);
    }
  }

  expect(broken, 'broken internal links').toEqual([]);
  expect(crawled).toBeGreaterThan(0);
  // The dataset pages are rendered per request: the crawl must have read every one (and their links).
  const datasetPages = [DATASETS_INDEX, ...DATASETS.map((dataset) => datasetPath(dataset.id))];
  expect(datasetPages.filter((path) => !reached.has(path))).toEqual([]);
});
