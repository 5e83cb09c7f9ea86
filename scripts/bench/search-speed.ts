import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config.ts';
import { fixed, formatTable, median } from './stats.ts';

/**
 * How fast the documentation's search answers in the browser: Pagefind's index (built with the
 * site) queried in the page, as the search dialog does, for a few queries a reader types. Each query
 * is timed from the call to the first results' titles and excerpts being ready, several times; the
 * index's code loads once beforehand (the dialog loads it when it opens). The first search also
 * fetches the index chunks it needs, so it is reported apart; the verdict is on the median against
 * the 100 ms target.
 */

/** What readers look for: endpoint names, concepts, errors. */
export const SEARCH_QUERIES = [
  'quote',
  'income statement',
  'rate limit',
  'api key',
  'csv',
  'historical prices',
  '402',
  'piotroski',
] as const;

/** The slowest a search may take, in milliseconds. */
export const SEARCH_TARGET_MS = 100;

export interface SearchSpeed {
  query: string;
  results: number;
  /** The first search of the query, which may fetch index chunks. */
  firstMs: number;
  medianMs: number;
}

/** Times every query `rounds` times on the documentation's landing page. */
export async function measureSearchSpeed(options: {
  siteUrl: string;
  chromePath: string;
  rounds?: number;
}): Promise<SearchSpeed[]> {
  const rounds = options.rounds ?? 5;
  const browser = await chromium.launch({
    executablePath: options.chromePath,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage();
    await page.goto(new URL('/developer/docs', options.siteUrl).href);
    const timings = await page.evaluate(
      async ({ queries, rounds: times }) => {
        interface Result {
          data: () => Promise<unknown>;
        }
        const moduleUrl = '/pagefind/pagefind.js';
        const pagefind = (await import(moduleUrl)) as {
          options: (o: object) => Promise<void>;
          init: () => Promise<void>;
          search: (q: string) => Promise<{ results: Result[] }>;
        };
        await pagefind.options({ excerptLength: 24, noWorker: true });
        await pagefind.init();
        const out: { query: string; results: number; ms: number[] }[] = [];
        for (const query of queries) {
          const ms: number[] = [];
          let results = 0;
          for (let round = 0; round < times; round += 1) {
            const started = performance.now();
            const found = await pagefind.search(query);
            await Promise.all(found.results.slice(0, 8).map((result) => result.data()));
            ms.push(performance.now() - started);
            results = found.results.length;
          }
          out.push({ query, results, ms });
        }
        return out;
      },
      { queries: [...SEARCH_QUERIES], rounds },
    );
    return timings.map(({ query, results, ms }) => ({
      query,
      results,
      firstMs: ms[0] ?? 0,
      medianMs: median(ms),
    }));
  } finally {
    await browser.close();
  }
}

/** The report's table: each query's first and median time, with the verdict. */
export function searchSpeedTable(speeds: readonly SearchSpeed[]): string {
  return formatTable([
    ['query', 'results', 'first ms', 'median ms', 'verdict'],
    ...speeds.map((speed) => [
      speed.query,
      String(speed.results),
      fixed(speed.firstMs, 1),
      fixed(speed.medianMs, 1),
      speed.medianMs <= SEARCH_TARGET_MS ? 'PASS' : 'MISS',
    ]),
  ]);
}
