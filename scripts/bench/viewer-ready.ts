import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config.ts';
import { fixed, formatTable, median } from './stats.ts';

/**
 * How soon the API viewer and the formula explorer can be used after their page starts loading, in
 * Chromium on this machine: from the navigation's start to the island being hydrated (its Send
 * button or its form answers input), and to the first answer shown (the viewer's after pressing Send
 * at that moment; the explorer's preview, which it fetches by itself). Each page loads several
 * times in a fresh browser context (nothing cached); the verdict is on the median time to ready
 * against the 1-second target. Signed out, so requests use the visitor access, as a first visit does.
 */

/** The latest a viewer may become usable after its load starts, in milliseconds. */
export const VIEWER_READY_TARGET_MS = 1_000;

/** The visitor access's rate-limit window, waited out between the pages, plus a margin. */
const VISITOR_WINDOW_MS = 61_000;

/** The pages timed, with what marks the first answer on each. */
const VIEWER_PAGES = [
  {
    name: 'API viewer',
    path: '/playground?endpoint=historical-price-eod/light&symbol=AAPL',
    send: true,
  },
  {
    name: 'formula explorer',
    path: '/developer/docs/excel-add-on-explorer?endpoint=historical-price-eod/full&symbol=AAPL',
    send: false,
  },
] as const;

export interface ViewerReady {
  name: string;
  path: string;
  /** Navigation start to the island hydrated, per load. */
  readyMs: number[];
  /** Navigation start to the first answer shown, per load. */
  answerMs: number[];
  /** Loads whose answer did not come (a refusal or a failure shown instead, or nothing), in words. */
  failures: string[];
}

/** Loads each viewer page `rounds` times and times when it is usable and when it first answers. */
export async function measureViewerReady(options: {
  siteUrl: string;
  chromePath: string;
  rounds?: number;
}): Promise<ViewerReady[]> {
  const rounds = options.rounds ?? 5;
  const browser = await chromium.launch({
    executablePath: options.chromePath,
    args: CHROMIUM_ARGS,
  });
  try {
    const results: ViewerReady[] = [];
    for (const [index, target] of VIEWER_PAGES.entries()) {
      // Signed-out loads share the visitor access's per-minute budget (10 calls): a fresh minute for
      // each page, or the explorer's last loads would be refused for what the viewer's loads spent.
      if (index > 0) await new Promise((resolve) => setTimeout(resolve, VISITOR_WINDOW_MS));
      const result: ViewerReady = {
        name: target.name,
        path: target.path,
        readyMs: [],
        answerMs: [],
        failures: [],
      };
      for (let round = 0; round < rounds; round += 1) {
        const context = await browser.newContext();
        const page = await context.newPage();
        // Astro removes an island's `ssr` attribute once it has hydrated: the moment it answers input.
        await page.addInitScript(() => {
          const marks = { ready: 0, answer: 0 };
          Object.assign(window, { viewerMarks: marks });
          new MutationObserver(() => {
            if (marks.ready === 0 && document.querySelector('astro-island:not([ssr]) form') !== null) {
              marks.ready = performance.now();
            }
            const answered =
              document.querySelector('[aria-label="Preview of the rows"], .playground-answer') !== null;
            if (marks.answer === 0 && answered) marks.answer = performance.now();
            const refused = document.querySelector('.playground-refusal, .explorer-refusal');
            if (refused !== null) Object.assign(marks, { refusal: refused.textContent });
          }).observe(document, { subtree: true, childList: true, attributes: true });
        });
        await page.goto(new URL(target.path, options.siteUrl).href);
        await page.waitForFunction(
          () => (window as unknown as { viewerMarks: { ready: number } }).viewerMarks.ready > 0,
        );
        if (target.send) await page.getByRole('button', { name: 'Send request' }).click();
        const settled = await page
          .waitForFunction(
            () => {
              const marks = (window as unknown as { viewerMarks: { answer: number; refusal?: string } })
                .viewerMarks;
              return marks.answer > 0 || marks.refusal !== undefined;
            },
            undefined,
            { timeout: 30_000 },
          )
          .then(() => true)
          .catch(() => false);
        const marks = await page.evaluate(
          () =>
            (window as unknown as { viewerMarks: { ready: number; answer: number; refusal?: string } })
              .viewerMarks,
        );
        result.readyMs.push(marks.ready);
        if (marks.answer > 0) result.answerMs.push(marks.answer);
        else result.failures.push(settled ? `refused: ${marks.refusal ?? ''}` : 'no answer within 30 s');
        await context.close();
      }
      results.push(result);
    }
    return results;
  } finally {
    await browser.close();
  }
}

/** The report's heading. */
export function viewerReadyHeading(rounds: number): string {
  return `API viewer and formula explorer: usable after load, signed out, ${String(rounds)} cold loads each (target: ready within ${String(VIEWER_READY_TARGET_MS)} ms)`;
}

/** The report's table: each page's median and worst time to ready and to the first answer. */
export function viewerReadyTable(results: readonly ViewerReady[]): string {
  return formatTable([
    ['page', 'ready median ms', 'ready max ms', 'first answer median ms', 'failed loads', 'verdict'],
    ...results.map((result) => {
      const ready = median(result.readyMs);
      return [
        result.name,
        fixed(ready, 0),
        fixed(Math.max(...result.readyMs), 0),
        result.answerMs.length === 0 ? '-' : fixed(median(result.answerMs), 0),
        String(result.failures.length),
        ready <= VIEWER_READY_TARGET_MS && result.failures.length === 0 ? 'PASS' : 'MISS',
      ];
    }),
  ]);
}
