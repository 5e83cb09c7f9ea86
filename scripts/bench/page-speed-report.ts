import { fixed, formatTable, median } from './stats.ts';
import type { PageSpeedTargets } from './page-speed-targets.ts';

/**
 * The figures of the page-speed section of `npm run bench`: what one Lighthouse run yields, the
 * median over a page's runs, and how they compare with the page type's targets. Kept apart from
 * the browser driving so the arithmetic and the tables are tested on their own.
 */

/**
 * The parts of a Lighthouse result this report reads. Lighthouse's own result type fits it; the
 * details of an audit are read defensively since their shape varies by audit.
 */
export interface LighthouseReport {
  runtimeError?: { code: string; message: string };
  finalDisplayedUrl: string;
  environment: { benchmarkIndex: number };
  categories: Record<string, { score: number | null } | undefined>;
  audits: Record<string, { numericValue?: number; details?: unknown } | undefined>;
}

/** One Lighthouse run of a page. */
export interface PageSpeedRun {
  /** Performance score, 0–100. */
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Transfer size of the page's script resources (compressed bytes and headers). */
  scriptBytes: number;
  /** Lighthouse's measure of this machine's CPU during the run (lower is slower). */
  benchmarkIndex: number;
  /** CPU other processes used during the run, in percent of one core. */
  otherCpuPercent: number;
}

/** The median of each figure over a page's runs. */
export type PageSpeedFigures = PageSpeedRun;

/** One figure against its target. */
export interface TargetCheck {
  metric: 'performance' | 'LCP' | 'TBT' | 'CLS' | 'JS';
  measured: string;
  target: string;
  pass: boolean;
}

/** A page's measurement: its runs, their medians and the checks, or what broke it. */
export interface PageSpeedResult {
  type: string;
  path: string;
  signedIn: boolean;
  targets: PageSpeedTargets;
  runs: PageSpeedRun[];
  /** Undefined when the page could not be measured. */
  median?: PageSpeedFigures;
  checks: TargetCheck[];
  /** Why the page could not be measured: a broken run, not a missed target. */
  error?: string;
}

const KB = 1024;

function numericValue(report: LighthouseReport, audit: string): number {
  const value = report.audits[audit]?.numericValue;
  if (value === undefined || !Number.isFinite(value)) {
    throw new Error(`Lighthouse reported no ${audit} figure`);
  }
  return value;
}

/** Sum of the transfer sizes of the script requests in Lighthouse's network-requests audit. */
function scriptTransferBytes(report: LighthouseReport): number {
  const details = report.audits['network-requests']?.details;
  const items =
    typeof details === 'object' && details !== null && 'items' in details && Array.isArray(details.items)
      ? (details.items as unknown[])
      : undefined;
  if (items === undefined) throw new Error('Lighthouse reported no network requests');
  let bytes = 0;
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const { resourceType, transferSize } = item as { resourceType?: unknown; transferSize?: unknown };
    if (resourceType === 'Script' && typeof transferSize === 'number') bytes += transferSize;
  }
  return bytes;
}

/**
 * The figures of one Lighthouse run of `requestedUrl`. Throws when the run measured something else
 * than the page: Lighthouse's own failure (an error status, a page that never painted) or a page
 * that ended elsewhere (a signed-in page that sent the browser to the sign-in page).
 */
export function runFromReport(
  report: LighthouseReport,
  requestedUrl: string,
  otherCpuPercent: number,
): PageSpeedRun {
  if (report.runtimeError !== undefined) {
    throw new Error(`Lighthouse failed: ${report.runtimeError.code}: ${report.runtimeError.message}`);
  }
  const requested = new URL(requestedUrl);
  const ended = new URL(report.finalDisplayedUrl);
  if (ended.origin !== requested.origin || ended.pathname !== requested.pathname) {
    throw new Error(`the page ended at ${ended.pathname} instead of ${requested.pathname}`);
  }
  const score = report.categories.performance?.score;
  if (score === undefined || score === null) throw new Error('Lighthouse gave no performance score');
  return {
    score: Math.round(score * 100),
    fcpMs: numericValue(report, 'first-contentful-paint'),
    lcpMs: numericValue(report, 'largest-contentful-paint'),
    tbtMs: numericValue(report, 'total-blocking-time'),
    cls: numericValue(report, 'cumulative-layout-shift'),
    scriptBytes: scriptTransferBytes(report),
    benchmarkIndex: report.environment.benchmarkIndex,
    otherCpuPercent,
  };
}

/** The median of every figure over the runs; undefined without runs. */
export function medianRun(runs: readonly PageSpeedRun[]): PageSpeedFigures | undefined {
  if (runs.length === 0) return undefined;
  const of = (figure: keyof PageSpeedRun): number => median(runs.map((run) => run[figure]));
  return {
    score: of('score'),
    fcpMs: of('fcpMs'),
    lcpMs: of('lcpMs'),
    tbtMs: of('tbtMs'),
    cls: of('cls'),
    scriptBytes: of('scriptBytes'),
    benchmarkIndex: of('benchmarkIndex'),
    otherCpuPercent: of('otherCpuPercent'),
  };
}

/** CLS as Lighthouse shows it (three decimals), so a shift too small to show does not miss a target of 0. */
function shownCls(cls: number): number {
  return Math.round(cls * 1000) / 1000;
}

/** Bytes as the report shows them: KB of 1,024 bytes, one decimal. */
export function kilobytes(bytes: number): string {
  return fixed(bytes / KB, 1);
}

/** Each figure that has a target, compared with it; the score always has one. */
export function checkTargets(figures: PageSpeedFigures, targets: PageSpeedTargets): TargetCheck[] {
  const checks: TargetCheck[] = [
    {
      metric: 'performance',
      measured: fixed(figures.score, 0),
      target: targets.performance >= 100 ? '100' : `>= ${targets.performance}`,
      pass: figures.score >= targets.performance,
    },
  ];
  if (targets.lcpMs !== undefined) {
    checks.push({
      metric: 'LCP',
      measured: `${fixed(figures.lcpMs / 1000, 2)} s`,
      target: `<= ${fixed(targets.lcpMs / 1000, 1)} s`,
      pass: figures.lcpMs <= targets.lcpMs,
    });
  }
  if (targets.tbtMs !== undefined) {
    checks.push({
      metric: 'TBT',
      measured: `${fixed(figures.tbtMs, 0)} ms`,
      target: `<= ${fixed(targets.tbtMs, 0)} ms`,
      pass: figures.tbtMs <= targets.tbtMs,
    });
  }
  if (targets.cls !== undefined) {
    checks.push({
      metric: 'CLS',
      measured: fixed(figures.cls, 3),
      target: targets.cls === 0 ? '0' : `<= ${fixed(targets.cls, 3)}`,
      pass: shownCls(figures.cls) <= targets.cls,
    });
  }
  if (targets.scriptBytes !== undefined) {
    checks.push({
      metric: 'JS',
      measured: `${kilobytes(figures.scriptBytes)} KB`,
      target: `<= ${kilobytes(targets.scriptBytes)} KB`,
      pass: figures.scriptBytes <= targets.scriptBytes,
    });
  }
  return checks;
}

/** A page's verdict: PASS, MISS with the figures that missed, or FAILED when it was not measured. */
export function verdict(result: PageSpeedResult): string {
  if (result.error !== undefined || result.median === undefined) return 'FAILED';
  const missed = result.checks.filter((check) => !check.pass).map((check) => check.metric);
  return missed.length === 0 ? 'PASS' : `MISS (${missed.join(', ')})`;
}

function pageLabel(result: PageSpeedResult): string {
  return result.signedIn ? `${result.path} (signed in)` : result.path;
}

/** The figures table: one row per page, medians of its runs, and its verdict. */
export function pageSpeedTable(results: readonly PageSpeedResult[]): string {
  return formatTable([
    ['page', 'type', 'score', 'FCP s', 'LCP s', 'TBT ms', 'CLS', 'JS KB', 'other CPU', 'verdict'],
    ...results.map((result) => {
      const figures = result.median;
      if (figures === undefined) {
        return [pageLabel(result), result.type, '-', '-', '-', '-', '-', '-', '-', verdict(result)];
      }
      return [
        pageLabel(result),
        result.type,
        fixed(figures.score, 0),
        fixed(figures.fcpMs / 1000, 2),
        fixed(figures.lcpMs / 1000, 2),
        fixed(figures.tbtMs, 0),
        fixed(figures.cls, 3),
        kilobytes(figures.scriptBytes),
        `${fixed(figures.otherCpuPercent, 0)} %`,
        verdict(result),
      ];
    }),
  ]);
}

/** The targets table: one row per page and target, as the throughput checks are printed. */
export function pageSpeedChecksTable(results: readonly PageSpeedResult[]): string {
  return formatTable([
    ['check', 'measured', 'target', 'verdict'],
    ...results.flatMap((result) =>
      result.error !== undefined
        ? [[`${result.path} (not measured)`, '-', '-', 'FAILED']]
        : result.checks.map((check) => [
            `${result.path} ${check.metric}`,
            check.measured,
            check.target,
            check.pass ? 'PASS' : 'MISS',
          ]),
    ),
  ]);
}
