import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startProfiler, type ProfileSummary } from './bench/cpu-profile.ts';
import { runLoadInChild, type LoadResult } from './bench/load-generator.ts';
import { measureStreamDelivery, streamReport } from './bench/stream.ts';
import { instancesFailures, instancesHeading, instancesTable, measureInstances } from './bench/instances.ts';
import { measureSearchSpeed, SEARCH_TARGET_MS, searchSpeedTable } from './bench/search-speed.ts';
import {
  adminUsersHeading,
  adminUsersPlanWarnings,
  adminUsersTable,
  benchPostgresUrl,
  measureAdminUsers,
} from './bench/admin-users.ts';
import {
  bulkDownloadHeading,
  bulkDownloadTable,
  bulkFilesHeading,
  bulkFilesTable,
  measureBulkDownload,
} from './bench/bulk-download.ts';
import { measureViewerSpeed, viewerSpeedHeading, viewerSpeedTable } from './bench/viewer-models.ts';
import { measureViewerReady, viewerReadyHeading, viewerReadyTable } from './bench/viewer-ready.ts';
import { fixed, formatTable, summarize, type LatencySummary } from './bench/stats.ts';
import { loadFailure, loadTable, machineBusyMs, machineBusyPercent, printProfile } from './bench/machine.ts';
import {
  DEFAULT_CHROME_PATH,
  measurePageSpeed,
  stopPageSpeedBrowsers,
  type PageSpeedReport,
} from './bench/page-speed.ts';
import { pageSpeedChecksTable, pageSpeedTable } from './bench/page-speed-report.ts';
import { firebaseWebApiKey, readConfig } from '../src/server/app/config.ts';
import { ensureBuild, launchProduction, type Launched } from './launch.ts';

/**
 * `npm run bench`: how many symbol pages the production site serves per second on this machine,
 * then how fast its pages load in a browser (Lighthouse, the page-speed section), then the data API
 * benchmark (`npm run bench:api`), then the admin console's users list over 100,000 accounts on PGlite
 * and, with a PostgreSQL address (BENCH_DATABASE_URL, DATABASE_URL or TEST_DATABASE_URL), on
 * PostgreSQL (scripts/bench/admin-users.ts). The built site runs
 * in this process as `npm start` runs it (identity emulator, site and data API, over a throwaway
 * database with the 'test' demo data), on ports of its own so a developer's running site is never
 * touched; each page is loaded from a separate process over keep-alive connections. A page is
 * rendered once and then answered from the page cache until its lifetime ends, so the figures are
 * those of popular pages; the 'miss ms' column is what one uncached render costs.
 * The page-speed section runs Lighthouse's mobile preset on every page of
 * scripts/bench/page-speed-targets.ts, --runs times each, and reports the medians.
 * Targets are measurements, not tests: a MISS is printed, only failed requests or runs fail the run.
 *
 * Flags: --duration and --warmup (seconds per target), --connections, --json, --profile (server
 * CPU profile per page), --pages-only (symbol page throughput only), --speed-only (page speed only), --viewers-only (the API viewer's and the explorer's sections only),
 * --users-only (the admin users list only; no site is built or started), --stream-only (the websocket streams only: 1,000 subscribers, p50/p99 delivery delay), --bulk-only (every part of
 * profile-bulk over 70,000 securities through the HTTP server, with the server's memory rise, then every
 * other bulk file once over the same securities; no site),
 * --instances-only (the data API's throughput with one and with two `serve:data-api` instances behind a
 * round-robin balancer, on PostgreSQL and Redis; no site),
 * --runs (Lighthouse runs per page); --listings, --search-rounds and --rate go to the API benchmark.
 */

const PAGES = [
  '/financial-summary/AAPL',
  '/chart/AAPL',
  '/cryptocurrency/BTCUSD',
  '/income-statement/MSFT',
] as const;
/** Symbol pages per second each page must reach. */
const PAGE_RPS_TARGET = 1_000;
/** Uncached renders timed per page (each with a query string of its own, so none is a cache hit). */
const MISS_ROUNDS = 10;
/** Other processes' CPU (percent of one core) above which a page's figures are flagged as unreliable. */
const OTHER_CPU_WARNING_PERCENT = 20;
/** Share of the machine busy before a section above which its figures are flagged as understated. */
const BUSY_BEFORE_WARNING_PERCENT = 15;
/** Flags of this script that the API benchmark does not take. */
const OWN_FLAGS = new Set([
  'pages-only',
  'speed-only',
  'viewers-only',
  'users-only',
  'stream-only',
  'bulk-only',
  'instances-only',
  'runs',
]);

interface Options {
  durationMs: number;
  warmupMs: number;
  connections: number;
  json: boolean;
  profile: boolean;
  pagesOnly: boolean;
  speedOnly: boolean;
  /** Only the API viewer's and the formula explorer's sections (readiness in Chromium, models). */
  viewersOnly: boolean;
  /** Only the admin users list over 100,000 accounts (no site). */
  usersOnly: boolean;
  streamOnly: boolean;
  /** Only the bulk download section (no site). */
  bulkOnly: boolean;
  /** Only the data API with one and two instances behind a balancer (no site). */
  instancesOnly: boolean;
  /** Lighthouse runs per page in the page-speed section. */
  runs: number;
  /** The flags handed to the data API benchmark, as given. */
  apiArgs: string[];
}

interface PageResult {
  path: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  ok: number;
  otherStatuses: Record<string, number>;
  errors: number;
  errorSamples: string[];
  meanBodyBytes: number;
  /** Sequential uncached renders of the page, timed from this process. */
  miss: LatencySummary;
  /** CPU of the process serving the site while loaded, in percent of one core. */
  serverCpuPercent: number;
  serverCpuMicrosPerRequest: number;
  generatorCpuPercent: number;
  otherCpuPercent: number;
  profile?: ProfileSummary;
}

function parseOptions(argv: string[]): Options {
  const { values, tokens } = parseArgs({
    args: argv,
    tokens: true,
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      json: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      'pages-only': { type: 'boolean', default: false },
      'speed-only': { type: 'boolean', default: false },
      'viewers-only': { type: 'boolean', default: false },
      'users-only': { type: 'boolean', default: false },
      'stream-only': { type: 'boolean', default: false },
      'bulk-only': { type: 'boolean', default: false },
      'instances-only': { type: 'boolean', default: false },
      runs: { type: 'string', default: '3' },
      listings: { type: 'string' },
      'search-rounds': { type: 'string' },
      rate: { type: 'string' },
    },
  });
  const number = (name: string, value: string, min: number): number => {
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isFinite(parsed) || parsed < min) {
      throw new Error(`--${name} must be a number of ${min} or more`);
    }
    return parsed;
  };
  const apiArgs: string[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option' || OWN_FLAGS.has(token.name)) continue;
    apiArgs.push(token.value === undefined ? `--${token.name}` : `--${token.name}=${token.value}`);
  }
  const sections = [
    values['pages-only'],
    values['speed-only'],
    values['viewers-only'],
    values['users-only'],
    values['stream-only'],
    values['bulk-only'],
    values['instances-only'],
  ];
  if (sections.filter(Boolean).length > 1) {
    throw new Error(
      '--pages-only, --speed-only, --viewers-only, --users-only, --stream-only, --bulk-only and --instances-only each run a single section: give one of them',
    );
  }
  const runs = number('runs', values.runs, 1);
  if (!Number.isInteger(runs)) throw new Error('--runs must be a whole number of 1 or more');
  return {
    durationMs: number('duration', values.duration, Number.MIN_VALUE) * 1000,
    warmupMs: number('warmup', values.warmup, 0) * 1000,
    connections: Math.round(number('connections', values.connections, 1)),
    json: values.json,
    profile: values.profile,
    pagesOnly: values['pages-only'],
    speedOnly: values['speed-only'],
    viewersOnly: values['viewers-only'],
    usersOnly: values['users-only'],
    streamOnly: values['stream-only'],
    bulkOnly: values['bulk-only'],
    instancesOnly: values['instances-only'],
    runs,
    apiArgs,
  };
}

/** One request, checked: a benchmark of error pages would measure nothing. */
async function expectPage(siteUrl: string, target: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${siteUrl}${target}`, { redirect: 'manual' });
  const body = await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200)
    throw new Error(`${target} answered ${response.status}: ${body.slice(0, 200)}`);
  const symbol = target.split('/').pop()?.split('?')[0] ?? '';
  if (!body.includes(symbol)) throw new Error(`${target} answered a page without ${symbol}`);
  return elapsed;
}

/** Runs `npm run bench:api` with the flags it accepts; resolves with its exit code. */
function runApiBenchmark(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'bench-api.ts'), ...args], {
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      resolve(code ?? (signal === null ? 1 : 128));
    });
  });
}

async function benchPages(options: Options, site: Launched): Promise<PageResult[]> {
  const log = (line: string): void => console.error(`[bench] ${line}`);
  const port = Number(new URL(site.siteUrl).port);
  const results: PageResult[] = [];
  for (const target of PAGES) {
    // Uncached renders first (each query string is a page of its own), then the page itself.
    const misses: number[] = [];
    for (let round = 0; round < MISS_ROUNDS; round++) {
      misses.push(await expectPage(site.siteUrl, `${target}?bench-miss=${round}`));
    }
    await expectPage(site.siteUrl, target);
    log(`symbol page ${target}`);
    const profiler = options.profile ? await startProfiler() : undefined;
    const cpuStart = process.cpuUsage();
    const machineStart = machineBusyMs();
    const wallStart = performance.now();
    const load: LoadResult = await runLoadInChild({
      port,
      path: target,
      connections: options.connections,
      warmupMs: options.warmupMs,
      durationMs: options.durationMs,
    });
    const wallMs = performance.now() - wallStart;
    const cpu = process.cpuUsage(cpuStart);
    const serverMs = (cpu.user + cpu.system) / 1000;
    const otherMs = machineBusyMs() - machineStart - serverMs - load.generatorCpuMs;
    const profile = profiler === undefined ? undefined : await profiler.stop();
    results.push({
      ...(profile === undefined ? {} : { profile }),
      path: target,
      requestsPerSecond: load.requestsPerSecond,
      p50Ms: load.latency.p50,
      p99Ms: load.latency.p99,
      maxMs: load.latency.max,
      ok: load.ok,
      otherStatuses: load.otherStatuses,
      errors: load.errors,
      errorSamples: load.errorSamples,
      meanBodyBytes: load.meanBodyBytes,
      miss: summarize(misses),
      serverCpuPercent: (serverMs / wallMs) * 100,
      serverCpuMicrosPerRequest: load.totalAnswers === 0 ? Number.NaN : (serverMs * 1000) / load.totalAnswers,
      generatorCpuPercent: load.generatorCpuPercent,
      otherCpuPercent: Math.max(0, (otherMs / wallMs) * 100),
    });
  }
  return results;
}

/** Measures how busy the machine is before a section and warns when other work shares the cores. */
async function busyBeforeSection(section: string): Promise<number> {
  const busy = await machineBusyPercent();
  if (busy > BUSY_BEFORE_WARNING_PERCENT) {
    console.error(
      `\n!!! The machine was ${fixed(busy, 0)} % busy before the ${section}: other work shares the cores, so its figures understate the site.\n`,
    );
  }
  return busy;
}

function report(options: Options, pages: PageResult[], busyBefore: number): void {
  console.log(
    `\nSymbol page benchmark: ${availableParallelism()} cores, Node ${process.version}, production build, ${options.connections} keep-alive connections, ${options.durationMs / 1000} s per page after ${options.warmupMs / 1000} s warm-up (test demo data)\n`,
  );
  console.log(
    loadTable(
      'page',
      ['body bytes', 'miss ms'],
      pages.map((page) => ({
        label: page.path,
        figures: page,
        extra: [fixed(page.meanBodyBytes, 0), fixed(page.miss.p50, 1)],
      })),
    ),
  );
  console.log(
    `\n'miss ms': median of ${MISS_ROUNDS} sequential uncached renders (a query string of their own each), timed from the benchmark process.\n`,
  );
  console.log(
    formatTable([
      ['check', 'measured', 'target', 'verdict'],
      ...pages.map((page) => [
        `${page.path} req/s`,
        fixed(page.requestsPerSecond, 0),
        `>= ${PAGE_RPS_TARGET}`,
        page.requestsPerSecond >= PAGE_RPS_TARGET ? 'PASS' : 'MISS',
      ]),
    ]),
  );
  for (const page of pages) if (page.profile !== undefined) printProfile(page.path, page.profile);
  if (options.json) {
    console.log(
      JSON.stringify(
        {
          machine: { cores: availableParallelism(), node: process.version, busyBeforePercent: busyBefore },
          settings: {
            connections: options.connections,
            warmupSeconds: options.warmupMs / 1000,
            durationSeconds: options.durationMs / 1000,
          },
          pages,
          target: PAGE_RPS_TARGET,
        },
        null,
        2,
      ),
    );
  }
  for (const page of pages.filter((result) => result.otherCpuPercent > OTHER_CPU_WARNING_PERCENT)) {
    console.error(
      `!!! Other processes used ${fixed(page.otherCpuPercent, 0)} % of a core during ${page.path}: its figures understate the site; rerun on an idle machine.`,
    );
  }
}

function reportSpeed(options: Options, speed: PageSpeedReport, busyBefore: number): void {
  console.log(
    `\nPage speed: Lighthouse ${speed.lighthouseVersion}, mobile preset (simulated throttling), median of ${options.runs} ${options.runs === 1 ? 'run' : 'runs'} per page, ${speed.browserVersion}, ${availableParallelism()} cores, production build (test demo data)\n`,
  );
  console.log(pageSpeedTable(speed.pages));
  console.log(
    "\n'score': Lighthouse performance (0-100); 'JS KB': transfer size of the page's scripts (compressed, with headers; KB of 1,024 bytes); 'other CPU': other processes during a run, percent of one core.\n",
  );
  console.log(pageSpeedChecksTable(speed.pages));
  if (options.json) {
    console.log(
      JSON.stringify(
        {
          machine: { cores: availableParallelism(), node: process.version, busyBeforePercent: busyBefore },
          settings: { runs: options.runs, preset: 'mobile', throttling: 'simulated' },
          lighthouseVersion: speed.lighthouseVersion,
          browserVersion: speed.browserVersion,
          pages: speed.pages,
        },
        null,
        2,
      ),
    );
  }
  // How busy the machine was before the runs is said when it is measured (busyBeforeSection).
  for (const page of speed.pages) {
    const other = page.median?.otherCpuPercent ?? 0;
    if (other > OTHER_CPU_WARNING_PERCENT) {
      console.error(
        `!!! Other processes used ${fixed(other, 0)} % of a core during the Lighthouse runs of ${page.path}: its figures understate the site; rerun on an idle machine.`,
      );
    }
  }
}

/** The admin users list section: 100,000 accounts on PGlite and, given an address, on PostgreSQL. */
async function benchAdminUsers(options: Options, postgresUrl: string | undefined): Promise<void> {
  const started = performance.now();
  const busyBefore = await busyBeforeSection('admin users list');
  const results = await measureAdminUsers({ postgresUrl });
  console.log(`\n${adminUsersHeading(results)}\n`);
  console.log(adminUsersTable(results));
  console.log(
    "\n'median ms', 'p95 ms': the service's call (query, driver, rows to answers) timed in-process; 'db ms': the database's own execution time (EXPLAIN ANALYZE, once); 'index': the indexes its plan used.",
  );
  if (postgresUrl === undefined) {
    console.log('PostgreSQL not measured: set BENCH_DATABASE_URL, DATABASE_URL or TEST_DATABASE_URL.');
  }
  for (const warning of adminUsersPlanWarnings(results)) console.error(`\n!!! ${warning}`);
  if (options.json) {
    const machine = { cores: availableParallelism(), node: process.version, busyBeforePercent: busyBefore };
    console.log(JSON.stringify({ machine, results }, null, 2));
  }
  console.log(`\nThe admin users list took ${fixed((performance.now() - started) / 1000, 1)} s.`);
}

/** The websocket streams section: 1,000 subscribers on one process, p50 and p99 delivery delay. */
async function benchStream(): Promise<void> {
  const started = performance.now();
  await busyBeforeSection('websocket streams');
  console.log(`\n${streamReport(await measureStreamDelivery())}`);
  console.log(`\nThe websocket streams took ${fixed((performance.now() - started) / 1000, 1)} s.`);
}

/** The bulk download section: every part of profile-bulk through the HTTP server and the memory it takes, then the other files. */
async function benchBulkDownload(options: Options): Promise<void> {
  const started = performance.now();
  const busyBefore = await busyBeforeSection('bulk downloads');
  const result = await measureBulkDownload();
  console.log(`\n${bulkDownloadHeading(result)}\n`);
  console.log(bulkDownloadTable(result));
  console.log(
    "\n'RSS rise MB': the peak resident memory of this process (server and the client, which drops every byte it reads) during the downloads, over its resident memory after a warm-up part.",
  );
  console.log(`\n${bulkFilesHeading(result)}\n`);
  console.log(bulkFilesTable(result));
  console.log(
    "\n'RSS rise MB': the peak resident memory during that file's download over the memory before it.",
  );
  if (options.json) {
    const machine = { cores: availableParallelism(), node: process.version, busyBeforePercent: busyBefore };
    console.log(JSON.stringify({ machine, bulkDownload: result }, null, 2));
  }
  console.log(`\nBulk downloads took ${fixed((performance.now() - started) / 1000, 1)} s.`);
}

/**
 * The instances section: the data API's throughput with one and with two instances behind a balancer, on
 * PostgreSQL and Redis; answers the failed requests, if any.
 */
async function benchInstances(options: Options, postgresUrl: string | undefined): Promise<string[]> {
  const started = performance.now();
  await busyBeforeSection('data API instances');
  const result = await measureInstances({
    postgresUrl,
    connections: options.connections,
    durationMs: options.durationMs,
    warmupMs: options.warmupMs,
  });
  console.log(`\n${instancesHeading(result)}\n`);
  if (result.skipped !== undefined) console.log(`Skipped: ${result.skipped}.`);
  else console.log(instancesTable(result));
  if (options.json) console.log(JSON.stringify({ instances: result }, null, 2));
  console.log(`\nData API instances took ${fixed((performance.now() - started) / 1000, 1)} s.`);
  return instancesFailures(result);
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  // Read before the site's settings below take DATABASE_URL away from this process.
  const postgresUrl = benchPostgresUrl();
  if (options.usersOnly) {
    await benchAdminUsers(options, postgresUrl);
    return 0;
  }
  if (options.streamOnly) {
    await benchStream();
    return 0;
  }
  if (options.bulkOnly) {
    await benchBulkDownload(options);
    return 0;
  }
  if (options.instancesOnly) {
    const failed = await benchInstances(options, postgresUrl);
    for (const failure of failed) console.error(`!!! ${failure}`);
    return failed.length > 0 ? 1 : 0;
  }
  // The production build on ports of its own, over a throwaway database with the small demo set.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-data-'));
  process.env.HOST = '127.0.0.1';
  process.env.PORT = process.env.BENCH_SITE_PORT ?? '4361';
  process.env.DATA_API_PORT = process.env.BENCH_DATA_API_PORT ?? '4362';
  process.env.FIREBASE_AUTH_EMULATOR_PORT = process.env.BENCH_AUTH_EMULATOR_PORT ?? '9761';
  process.env.DATA_DIR = dataDir;
  process.env.SEED_SCALE = 'test';
  delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  delete process.env.DATABASE_URL;

  let site: Launched | undefined;
  let stopping: Promise<void> | undefined;
  const stopSite = (): Promise<void> => {
    stopping ??= (async () => {
      try {
        await site?.stop();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    })();
    return stopping;
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    console.error(`\n${signal}: stopping…`);
    void Promise.allSettled([stopPageSpeedBrowsers(), stopSite()]).finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let pages: PageResult[] = [];
  let viewerFailures: string[] = [];
  let speed: PageSpeedReport | undefined;
  try {
    ensureBuild();
    site = await launchProduction({ quietEmulator: true });
    if (!options.speedOnly && !options.viewersOnly) {
      const started = performance.now();
      const busyBefore = await busyBeforeSection('symbol page run');
      pages = await benchPages(options, site);
      report(options, pages, busyBefore);
      console.log(`\nSymbol pages took ${fixed((performance.now() - started) / 1000, 1)} s.`);
    }
    if (!options.pagesOnly && !options.viewersOnly) {
      const started = performance.now();
      const busyBefore = await busyBeforeSection('page-speed runs');
      const config = readConfig();
      speed = await measurePageSpeed({
        siteUrl: site.siteUrl,
        authEmulatorHost: site.authEmulatorHost,
        firebaseProjectId: config.firebaseProjectId,
        firebaseWebApiKey: firebaseWebApiKey() ?? 'demo-api-key',
        runs: options.runs,
        chromePath: process.env.CHROME_PATH ?? DEFAULT_CHROME_PATH,
        log: (line) => console.error(`[bench] ${line}`),
      });
      reportSpeed(options, speed, busyBefore);
      console.log(`\nPage speed took ${fixed((performance.now() - started) / 1000, 1)} s.`);
      const searches = await measureSearchSpeed({
        siteUrl: site.siteUrl,
        chromePath: process.env.CHROME_PATH ?? DEFAULT_CHROME_PATH,
      });
      console.log(
        `\nDocumentation search: Pagefind in Chromium, each query 5 times (target: at most ${String(SEARCH_TARGET_MS)} ms)\n`,
      );
      console.log(searchSpeedTable(searches));
    }
    if (!options.pagesOnly) {
      const readyRounds = 5;
      const ready = await measureViewerReady({
        siteUrl: site.siteUrl,
        chromePath: process.env.CHROME_PATH ?? DEFAULT_CHROME_PATH,
        rounds: readyRounds,
      });
      console.log(`\n${viewerReadyHeading(readyRounds)}\n`);
      console.log(viewerReadyTable(ready));
      viewerFailures = ready.flatMap((result) =>
        result.failures.map((failure) => `${result.name}: ${failure}`),
      );
      const viewers = measureViewerSpeed();
      console.log(`\n${viewerSpeedHeading(viewers)}\n`);
      console.log(viewerSpeedTable(viewers));
    }
  } finally {
    await stopSite();
  }
  const failures = [
    ...viewerFailures,
    ...pages.map((page) => loadFailure(page.path, page)),
    ...(speed?.pages ?? []).map((page) =>
      page.error === undefined ? undefined : `${page.path}: page speed not measured: ${page.error}`,
    ),
  ].filter((failure) => failure !== undefined);

  let apiExit = 0;
  if (!options.pagesOnly && !options.speedOnly && !options.viewersOnly) {
    console.log('\nData API benchmark (npm run bench:api):\n');
    apiExit = await runApiBenchmark(options.apiArgs);
    await benchAdminUsers(options, postgresUrl);
    await benchStream();
    await benchBulkDownload(options);
    failures.push(...(await benchInstances(options, postgresUrl)));
  }
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);

  if (failures.length > 0) {
    console.error(
      '\n!!! BENCHMARK INVALID: requests or runs failed, the figures above do not measure the site !!!',
    );
    for (const failure of failures) console.error(`!!! ${failure}`);
    return 1;
  }
  return apiExit;
}

if (import.meta.main) {
  try {
    process.exitCode = await main();
  } catch (error) {
    console.error('\n!!! BENCHMARK FAILED !!!');
    console.error(error);
    process.exitCode = 1;
  }
}
