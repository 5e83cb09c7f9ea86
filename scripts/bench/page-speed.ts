import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import lighthouse, { type Flags } from 'lighthouse';
import { machineBusyMs, processTreeCpuMs } from './machine.ts';
import {
  checkTargets,
  medianRun,
  runFromReport,
  type PageSpeedResult,
  type PageSpeedRun,
} from './page-speed-report.ts';
import { PAGE_SPEED_TARGETS, type PageSpeedPage, type PageSpeedPageType } from './page-speed-targets.ts';

/**
 * The page-speed section of `npm run bench`: Lighthouse's mobile preset (simulated throttling, its
 * defaults) on each page of the target list, a few runs each, in one Chromium of its own. Pages that
 * need an account are measured last, in the same browser, after a fresh verified account has signed
 * in through the site's sign-in page, with Lighthouse told to keep the browser's storage (the
 * session) while the HTTP cache is still emptied before each run, so every run is a first visit.
 *
 * Nothing leaves the machine: Chromium runs with its background services off and every host name
 * but localhost unresolvable, and Lighthouse's Node API sends no error reports (only its command
 * line can) and checks for no updates.
 */

export const DEFAULT_CHROME_PATH = '/usr/bin/chromium';

/** Where the browser lands after signing in, and proof that the session works. */
const SIGN_IN_LANDING = '/developer/docs/dashboard';

/** Chromium as Lighthouse expects it, quiet: no first-run UI, no background traffic, no GPU. */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--metrics-recording-only',
  '--mute-audio',
  '--password-store=basic',
  '--use-mock-keychain',
  // Only loopback: any other host name fails at once instead of waiting for a network there is not.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost',
];

export interface PageSpeedOptions {
  siteUrl: string;
  /** The Auth emulator the site uses (`host:port`), where the signed-in pages' account is created. */
  authEmulatorHost: string | undefined;
  firebaseProjectId: string;
  firebaseWebApiKey: string;
  /** Lighthouse runs per page; the report shows their medians. */
  runs: number;
  chromePath: string;
  log: (line: string) => void;
  targets?: readonly PageSpeedPageType[];
}

/** What the section measured, with the tools' versions the figures depend on. */
export interface PageSpeedReport {
  lighthouseVersion: string;
  /** Chromium's product string (e.g. Chrome/140.0.7339.80). */
  browserVersion: string;
  pages: PageSpeedResult[];
}

/** How to stop each browser a page-speed run has open. */
const running = new Set<() => Promise<void>>();

/**
 * Stops the browsers of a page-speed run still under way and removes their profiles: for a
 * benchmark interrupted by Ctrl-C or SIGTERM, which exits without waiting for the run.
 */
export async function stopPageSpeedBrowsers(): Promise<void> {
  await Promise.all([...running].map((stop) => stop()));
}

interface Chromium {
  port: number;
  pid: number;
  version: string;
  stop(): Promise<void>;
}

/** Starts Chromium with a throwaway profile and its DevTools endpoint on a free loopback port. */
async function launchChromium(chromePath: string): Promise<Chromium> {
  if (!existsSync(chromePath)) {
    throw new Error(
      `Chromium was not found at ${chromePath}: install it (apt-get install -y chromium) or set CHROME_PATH`,
    );
  }
  const profile = mkdtempSync(path.join(tmpdir(), 'bench-chromium-'));
  const child: ChildProcess = spawn(
    chromePath,
    [...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // Last resort if the process exits without stopping it: the browser must not outlive the benchmark.
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      process.off('exit', killOnExit);
      running.delete(stop);
      rmSync(profile, { recursive: true, force: true });
    })();
    return stopped;
  };
  running.add(stop);
  let output = '';
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`Chromium did not open its DevTools port within 30 s:\n${output.slice(-2_000)}`));
      }, 30_000);
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        // Chromium keeps talking on stderr; only the start is kept for an error message.
        if (output.length < 20_000) output += chunk;
        const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(output);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`Chromium could not start: ${error.message}`));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(
          new Error(`Chromium stopped at start (${signal ?? `exit ${code}`}):\n${output.slice(-2_000)}`),
        );
      });
    });
    if (child.pid === undefined) throw new Error('Chromium started without a process id');
    const about = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
      Browser?: unknown;
    };
    return {
      port,
      pid: child.pid,
      version: typeof about.Browser === 'string' ? about.Browser : 'unknown',
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface Account {
  email: string;
  password: string;
  username: string;
}

async function expectOk(response: Response, what: string): Promise<unknown> {
  const body = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${body.slice(0, 300)}`);
  return JSON.parse(body) as unknown;
}

/**
 * A real account as a sign-up makes it: the identity in the Auth emulator (its address marked
 * verified, so the dashboard shows an active key), then the account through the accounts API.
 */
async function createVerifiedAccount(options: PageSpeedOptions): Promise<Account> {
  if (options.authEmulatorHost === undefined) {
    throw new Error('signed-in pages need the Auth emulator, and the site runs without one');
  }
  const emulator = `http://${options.authEmulatorHost}/identitytoolkit.googleapis.com/v1`;
  const email = `bench-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.com`;
  const password = `Bench-${randomBytes(12).toString('base64url')}-7`;
  const created = (await expectOk(
    await fetch(`${emulator}/accounts:signUp?key=${encodeURIComponent(options.firebaseWebApiKey)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    }),
    'the Auth emulator (sign-up)',
  )) as { localId?: unknown };
  if (typeof created.localId !== 'string') throw new Error('the Auth emulator returned no account id');
  await expectOk(
    await fetch(`${emulator}/projects/${options.firebaseProjectId}/accounts:update`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer owner' },
      body: JSON.stringify({ localId: created.localId, emailVerified: true }),
    }),
    'the Auth emulator (verification)',
  );
  const registered = (await expectOk(
    await fetch(`${options.siteUrl}/api/portal/user/register-user`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ email, password }),
    }),
    'the accounts API (registration)',
  )) as { username?: unknown };
  if (typeof registered.username !== 'string') throw new Error('the registration returned no username');
  return { email, password, username: registered.username };
}

/** Runs `work` with a Playwright connection to the benchmark's Chromium, closed again before Lighthouse runs. */
async function withBrowser<T>(port: number, work: (context: BrowserContext) => Promise<T>): Promise<T> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (context === undefined) throw new Error('Chromium has no default browser context');
    return await work(context);
  } finally {
    // Disconnects only: the browser, its profile and the session stay for Lighthouse.
    await browser.close();
  }
}

/** Signs in through the site's sign-in page, as a visitor does, and waits for the dashboard to greet them. */
async function signInThroughSite(port: number, siteUrl: string, account: Account): Promise<void> {
  await withBrowser(port, async (context) => {
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    try {
      await page.goto(`${siteUrl}/login`);
      await page.waitForFunction(
        () => document.querySelectorAll('astro-island[ssr]:not([client="demand"])').length === 0,
      );
      const form = page.getByRole('form', { name: 'Sign in to Tickerlake' });
      await form.getByLabel('Email or username').fill(account.email);
      await form.getByLabel('Password').fill(account.password);
      await form.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL((url) => url.pathname === SIGN_IN_LANDING);
      await page.getByRole('heading', { level: 1, name: `Welcome, ${account.username}` }).waitFor();
    } finally {
      await page.close();
    }
  });
}

/** Empties the browser's HTTP cache (as Lighthouse's own reset does) while cookies and local storage stay. */
async function clearHttpCache(port: number): Promise<void> {
  await withBrowser(port, async (context) => {
    const page = await context.newPage();
    try {
      const session = await context.newCDPSession(page);
      await session.send('Network.clearBrowserCache');
      await session.detach();
    } finally {
      await page.close();
    }
  });
}

/** The page must answer 200 before it is measured: a score of an error page would measure nothing. */
async function expectPage(url: string): Promise<void> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${new URL(url).pathname} answered ${response.status}`);
}

/** One Lighthouse run, with the CPU that neither this process (site and Lighthouse) nor the browser used. */
async function lighthouseRun(
  browser: Chromium,
  url: string,
  signedIn: boolean,
  seen: { lighthouseVersion: string },
): Promise<PageSpeedRun> {
  const flags: Flags = {
    port: browser.port,
    hostname: '127.0.0.1',
    logLevel: 'error',
    onlyCategories: ['performance'],
    // Keeps the signed-in session; the HTTP cache was emptied before the run instead.
    disableStorageReset: signedIn,
  };
  const machineStart = machineBusyMs();
  const selfStart = process.cpuUsage();
  const browserStart = processTreeCpuMs(browser.pid);
  const wallStart = performance.now();
  const result = await lighthouse(url, flags);
  const wallMs = performance.now() - wallStart;
  const self = process.cpuUsage(selfStart);
  const browserMs = processTreeCpuMs(browser.pid) - browserStart;
  const otherMs = machineBusyMs() - machineStart - (self.user + self.system) / 1000 - browserMs;
  if (result === undefined) throw new Error('Lighthouse returned no result');
  seen.lighthouseVersion = result.lhr.lighthouseVersion;
  return runFromReport(result.lhr, url, Math.max(0, (otherMs / wallMs) * 100));
}

async function measurePage(
  browser: Chromium,
  options: PageSpeedOptions,
  type: PageSpeedPageType,
  page: PageSpeedPage,
  seen: { lighthouseVersion: string },
): Promise<PageSpeedResult> {
  const signedIn = page.signedIn ?? false;
  const url = `${options.siteUrl}${page.path}`;
  const result: PageSpeedResult = {
    type: type.type,
    path: page.path,
    signedIn,
    targets: type.targets,
    runs: [],
    checks: [],
  };
  try {
    if (!signedIn) await expectPage(url);
    for (let run = 1; run <= options.runs; run++) {
      options.log(`page speed ${page.path}${signedIn ? ' (signed in)' : ''}, run ${run} of ${options.runs}`);
      if (signedIn) await clearHttpCache(browser.port);
      result.runs.push(await lighthouseRun(browser, url, signedIn, seen));
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    return result;
  }
  const median = medianRun(result.runs);
  if (median !== undefined) {
    result.median = median;
    result.checks = checkTargets(median, type.targets);
  }
  return result;
}

/**
 * Measures every page of the target list (PAGE_SPEED_TARGETS unless given), in list order in the
 * result. A page that cannot be measured carries its error; a failure of the browser or the sign-in
 * throws.
 */
export async function measurePageSpeed(options: PageSpeedOptions): Promise<PageSpeedReport> {
  const entries = (options.targets ?? PAGE_SPEED_TARGETS).flatMap((type) =>
    type.pages.map((page) => ({ type, page })),
  );
  const results = new Map<(typeof entries)[number], PageSpeedResult>();
  const browser = await launchChromium(options.chromePath);
  const seen = { lighthouseVersion: 'unknown' };
  try {
    // Visitors' pages first: once the browser signs in, every page would be seen signed in.
    for (const entry of entries.filter(({ page }) => page.signedIn !== true)) {
      results.set(entry, await measurePage(browser, options, entry.type, entry.page, seen));
    }
    const signedInEntries = entries.filter(({ page }) => page.signedIn === true);
    if (signedInEntries.length > 0) {
      options.log('page speed: creating a verified account and signing in through /login');
      const account = await createVerifiedAccount(options);
      await signInThroughSite(browser.port, options.siteUrl, account);
      for (const entry of signedInEntries) {
        results.set(entry, await measurePage(browser, options, entry.type, entry.page, seen));
      }
    }
  } finally {
    await browser.stop();
  }
  return {
    lighthouseVersion: seen.lighthouseVersion,
    browserVersion: browser.version,
    pages: entries.flatMap((entry) => results.get(entry) ?? []),
  };
}
