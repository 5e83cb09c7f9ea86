import { describe, expect, it } from 'vitest';
import {
  checkTargets,
  medianRun,
  pageSpeedChecksTable,
  pageSpeedTable,
  runFromReport,
  verdict,
  type LighthouseReport,
  type PageSpeedResult,
  type PageSpeedRun,
} from '../../scripts/bench/page-speed-report.ts';
import {
  CONTENT_PAGE_SCRIPT_BYTES,
  CONTENT_PAGE_TARGETS,
  PAGE_SPEED_TARGETS,
} from '../../scripts/bench/page-speed-targets.ts';
import { median } from '../../scripts/bench/stats.ts';

const URL_REQUESTED = 'http://127.0.0.1:4361/terms-of-service';

/** A Lighthouse result as its JSON reads, with the figures the report uses. */
function report(changes: Partial<LighthouseReport> = {}): LighthouseReport {
  return {
    finalDisplayedUrl: URL_REQUESTED,
    environment: { benchmarkIndex: 1_850 },
    categories: { performance: { score: 0.97 } },
    audits: {
      'first-contentful-paint': { numericValue: 912.4 },
      'largest-contentful-paint': { numericValue: 1_480.2 },
      'total-blocking-time': { numericValue: 35 },
      'cumulative-layout-shift': { numericValue: 0.00004 },
      'network-requests': {
        details: {
          type: 'table',
          items: [
            { url: URL_REQUESTED, resourceType: 'Document', transferSize: 9_000 },
            { url: 'http://127.0.0.1:4361/_astro/a.js', resourceType: 'Script', transferSize: 20_000 },
            { url: 'http://127.0.0.1:4361/_astro/b.js', resourceType: 'Script', transferSize: 1_500 },
            { url: 'http://127.0.0.1:4361/_astro/c.css', resourceType: 'Stylesheet', transferSize: 4_000 },
          ],
        },
      },
    },
    ...changes,
  };
}

function run(changes: Partial<PageSpeedRun> = {}): PageSpeedRun {
  return {
    score: 100,
    fcpMs: 900,
    lcpMs: 1_200,
    tbtMs: 10,
    cls: 0,
    scriptBytes: 30_000,
    benchmarkIndex: 1_800,
    otherCpuPercent: 5,
    ...changes,
  };
}

function result(changes: Partial<PageSpeedResult> = {}): PageSpeedResult {
  const figures = run();
  return {
    type: 'legal',
    path: '/terms-of-service',
    signedIn: false,
    targets: CONTENT_PAGE_TARGETS,
    runs: [figures],
    median: figures,
    checks: checkTargets(figures, CONTENT_PAGE_TARGETS),
    ...changes,
  };
}

/** A page that could not be measured: no runs, no medians, only the reason. */
function unmeasured(path: string, error: string): PageSpeedResult {
  return {
    type: 'sign-in',
    path,
    signedIn: false,
    targets: { performance: 98 },
    runs: [],
    checks: [],
    error,
  };
}

describe('median', () => {
  it('takes the middle of an odd count, whatever the order', () => {
    expect(median([1_900, 1_400, 1_600])).toBe(1_600);
  });

  it('takes the mean of the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('has no value without samples', () => {
    expect(median([])).toBeNaN();
  });
});

describe('runFromReport', () => {
  it('reads the score out of 100, the metrics and the bytes of the scripts alone', () => {
    expect(runFromReport(report(), URL_REQUESTED, 12)).toEqual({
      score: 97,
      fcpMs: 912.4,
      lcpMs: 1_480.2,
      tbtMs: 35,
      cls: 0.00004,
      scriptBytes: 21_500,
      benchmarkIndex: 1_850,
      otherCpuPercent: 12,
    });
  });

  it('refuses a run Lighthouse could not complete, with its reason', () => {
    const failed = report({
      runtimeError: { code: 'ERRORED_DOCUMENT_REQUEST', message: 'The page answered 500' },
    });
    expect(() => runFromReport(failed, URL_REQUESTED, 0)).toThrow(
      'Lighthouse failed: ERRORED_DOCUMENT_REQUEST: The page answered 500',
    );
  });

  it('refuses a signed-in page that sent the browser to the sign-in page', () => {
    const dashboard = 'http://127.0.0.1:4361/developer/docs/dashboard';
    const redirected = report({ finalDisplayedUrl: 'http://127.0.0.1:4361/login' });
    expect(() => runFromReport(redirected, dashboard, 0)).toThrow(
      'the page ended at /login instead of /developer/docs/dashboard',
    );
  });

  it('refuses a run without a performance score', () => {
    expect(() =>
      runFromReport(report({ categories: { performance: { score: null } } }), URL_REQUESTED, 0),
    ).toThrow('Lighthouse gave no performance score');
  });
});

describe('medianRun', () => {
  it('takes the median of each figure on its own, so one disturbed run moves none', () => {
    const runs = [
      run({ score: 100, lcpMs: 1_300, tbtMs: 0 }),
      run({ score: 74, lcpMs: 3_900, tbtMs: 900 }),
      run({ score: 99, lcpMs: 1_350, tbtMs: 20 }),
    ];
    expect(medianRun(runs)).toMatchObject({ score: 99, lcpMs: 1_350, tbtMs: 20 });
  });

  it('has nothing to report without runs', () => {
    expect(medianRun([])).toBeUndefined();
  });
});

describe('checkTargets', () => {
  it('passes a content page that meets every target exactly', () => {
    const figures = run({
      score: 100,
      lcpMs: 1_600,
      tbtMs: 50,
      cls: 0,
      scriptBytes: CONTENT_PAGE_SCRIPT_BYTES,
    });
    const checks = checkTargets(figures, CONTENT_PAGE_TARGETS);
    expect(checks.map((check) => [check.metric, check.pass])).toEqual([
      ['performance', true],
      ['LCP', true],
      ['TBT', true],
      ['CLS', true],
      ['JS', true],
    ]);
  });

  it('misses each figure just over its target, and says what was measured against what', () => {
    const figures = run({
      score: 99,
      lcpMs: 1_601,
      tbtMs: 51,
      cls: 0.001,
      scriptBytes: CONTENT_PAGE_SCRIPT_BYTES + 1,
    });
    expect(checkTargets(figures, CONTENT_PAGE_TARGETS)).toEqual([
      { metric: 'performance', measured: '99', target: '100', pass: false },
      { metric: 'LCP', measured: '1.60 s', target: '<= 1.6 s', pass: false },
      { metric: 'TBT', measured: '51 ms', target: '<= 50 ms', pass: false },
      { metric: 'CLS', measured: '0.001', target: '0', pass: false },
      { metric: 'JS', measured: '60.0 KB', target: '<= 60.0 KB', pass: false },
    ]);
  });

  it('counts a layout shift too small for Lighthouse to show as no shift', () => {
    const [, , , cls] = checkTargets(run({ cls: 0.0004 }), CONTENT_PAGE_TARGETS);
    expect(cls).toMatchObject({ metric: 'CLS', measured: '0.000', pass: true });
  });

  it('judges only the score where a page type has no other target', () => {
    expect(checkTargets(run({ score: 95, tbtMs: 900 }), { performance: 95 })).toEqual([
      { metric: 'performance', measured: '95', target: '>= 95', pass: true },
    ]);
  });
});

describe('the report', () => {
  it('names the figures that missed in the page verdict', () => {
    const figures = run({ score: 93, tbtMs: 273 });
    const missed = result({ median: figures, checks: checkTargets(figures, CONTENT_PAGE_TARGETS) });
    expect(verdict(missed)).toBe('MISS (performance, TBT)');
    expect(verdict(result())).toBe('PASS');
    expect(verdict(unmeasured('/login', 'the page answered 500'))).toBe('FAILED');
  });

  it('prints one row per page with its medians, marking signed-in pages', () => {
    const dashboard = result({
      type: 'dashboard',
      path: '/developer/docs/dashboard',
      signedIn: true,
      targets: { performance: 95 },
      checks: checkTargets(run(), { performance: 95 }),
    });
    const lines = pageSpeedTable([result(), dashboard]).split('\n');
    expect(lines[0]).toMatch(
      /^page\s+type\s+score\s+FCP s\s+LCP s\s+TBT ms\s+CLS\s+JS KB\s+other CPU\s+verdict$/,
    );
    expect(lines[2]?.split(/\s{2,}/)).toEqual([
      '/terms-of-service',
      'legal',
      '100',
      '0.90',
      '1.20',
      '10',
      '0.000',
      '29.3',
      '5 %',
      'PASS',
    ]);
    expect(lines[3]).toMatch(/^\/developer\/docs\/dashboard \(signed in\)\s+dashboard/);
  });

  it('lists every target of every page, and a page that could not be measured as failed', () => {
    const broken = unmeasured('/login', 'the page answered 500');
    const lines = pageSpeedChecksTable([result(), broken]).split('\n');
    expect(lines.slice(2).map((line) => line.split(/\s{2,}/))).toEqual([
      ['/terms-of-service performance', '100', '100', 'PASS'],
      ['/terms-of-service LCP', '1.20 s', '<= 1.6 s', 'PASS'],
      ['/terms-of-service TBT', '10 ms', '<= 50 ms', 'PASS'],
      ['/terms-of-service CLS', '0.000', '0', 'PASS'],
      ['/terms-of-service JS', '29.3 KB', '<= 60.0 KB', 'PASS'],
      ['/login (not measured)', '-', '-', 'FAILED'],
    ]);
  });
});

describe('the page list', () => {
  it('measures each page once, as one of the named page types', () => {
    const paths = PAGE_SPEED_TARGETS.flatMap((type) => type.pages.map((page) => page.path));
    expect(new Set(paths).size).toBe(paths.length);
    expect(PAGE_SPEED_TARGETS.every((type) => type.type !== '' && type.pages.length > 0)).toBe(true);
  });

  it('holds content pages to all five targets and the dashboard to a score, signed in', () => {
    const byPath = new Map(
      PAGE_SPEED_TARGETS.flatMap((type) => type.pages.map((page) => [page.path, { type, page }])),
    );
    for (const path of ['/', '/terms-of-service']) {
      expect(byPath.get(path)?.type.targets).toEqual({
        performance: 100,
        lcpMs: 1_600,
        tbtMs: 50,
        cls: 0,
        scriptBytes: 60 * 1024,
      });
    }
    expect(byPath.get('/chart/AAPL')?.type.targets).toEqual({ performance: 95 });
    expect(byPath.get('/financial-summary/AAPL')?.type.targets).toEqual({ performance: 98 });
    expect(byPath.get('/login')?.type.targets).toEqual({ performance: 98 });
    expect(byPath.get('/developer/docs/dashboard')).toMatchObject({
      type: { targets: { performance: 95 } },
      page: { signedIn: true },
    });
  });
});
