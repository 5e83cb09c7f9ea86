import { expect, test, type APIResponse, type Page } from '@playwright/test';
import {
  answerQuestionnaire,
  AUTH_EMULATOR_URL,
  createAccount,
  openPage,
  signInThroughApi,
  uniqueEmail,
} from './fixtures.ts';

/** The end-to-end data API's port on this machine's names: where the pages may call it. */
const DATA_API_PORT = process.env.E2E_DATA_API_PORT ?? '4352';
/** The data API over HTTP (the API viewer) and over its websockets (the symbol pages' live price). */
const DATA_API_ORIGINS = [
  `http://localhost:${DATA_API_PORT}`,
  `http://127.0.0.1:${DATA_API_PORT}`,
  `ws://localhost:${DATA_API_PORT}`,
  `ws://127.0.0.1:${DATA_API_PORT}`,
];

const DASHBOARD = '/developer/docs/dashboard';

/** One page of each kind: prerendered, on demand (and again from the page cache), and both 404s. */
const PAGES = [
  '/',
  '/login',
  '/register',
  DASHBOARD,
  '/chart/AAPL',
  '/chart/AAPL',
  '/discounted-cash-flow-model/AAPL',
  '/historical-data/AAPL',
  '/no-such-page-here',
  '/financial-summary/NOSUCHSYMBOL',
];

/** A Content-Security-Policy as directive name → sources. */
function directives(policy: string | undefined): Map<string, string[]> {
  const parsed = new Map<string, string[]>();
  for (const part of (policy ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name !== undefined && name !== '') parsed.set(name, sources);
  }
  return parsed;
}

/** The headers every answer of the site carries over plain http, pages and API alike. */
function expectSiteHeaders(answer: APIResponse, what: string): void {
  const headers = answer.headers();
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  expect(headers['cross-origin-opener-policy'], what).toBe('same-origin-allow-popups');
  expect(headers['x-frame-options'], what).toBe('DENY');
  // HSTS only ever goes to https clients (tests/integration/site-headers.test.ts covers that side).
  expect(headers['strict-transport-security'], what).toBeUndefined();
  expect(directives(headers['content-security-policy']).get('frame-ancestors'), what).toEqual(["'none'"]);
}

/**
 * Collects every Content-Security-Policy violation the browser reports while the story runs, as
 * `securitypolicyviolation` events and as console messages, across full loads and client-side
 * navigations alike.
 */
async function recordViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeBinding('reportPolicyViolation', (_source, text: string) => {
    violations.push(text);
  });
  await page.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const reporter = window as unknown as { reportPolicyViolation: (text: string) => Promise<void> };
        void reporter.reportPolicyViolation(
          `${location.pathname}: ${event.effectiveDirective} refused ${event.blockedURI || 'inline code'} (${event.sample})`,
        );
      },
      true,
    );
  });
  page.on('console', (message) => {
    if (/content.security.policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test.describe('security headers', () => {
  test('every kind of page comes with the whole policy, the same one for all', async ({ request }) => {
    const policies = new Set<string>();
    for (const path of PAGES) {
      const answer = await request.get(path);
      expect(answer.headers()['content-type'], path).toMatch(/^text\/html/);
      expectSiteHeaders(answer, path);
      const policy = answer.headers()['content-security-policy'] ?? '';
      policies.add(policy);
      const parsed = directives(policy);
      expect(parsed.get('default-src'), path).toEqual(["'self'"]);
      expect(parsed.get('object-src'), path).toEqual(["'none'"]);
      expect(parsed.get('base-uri'), path).toEqual(["'none'"]);
      expect(parsed.get('form-action'), path).toEqual(["'self'"]);
      // Exactly the site, the Auth emulator the running server names and the data API (the API viewer
      // calls it, the symbol pages stream from it), never a wildcard.
      expect(parsed.get('connect-src'), path).toEqual(["'self'", AUTH_EMULATOR_URL, ...DATA_API_ORIGINS]);
      for (const name of ['script-src', 'style-src']) {
        const sources = parsed.get(name) ?? [];
        expect(sources[0], `${path} ${name}`).toBe("'self'");
        // WebAssembly for the documentation's search, and nothing else besides hashes.
        const hashes = sources.slice(1).filter((source) => source !== "'wasm-unsafe-eval'");
        expect(sources.length - 1 - hashes.length, `${path} ${name}`).toBe(name === 'script-src' ? 1 : 0);
        expect(hashes.length, `${path} ${name}`).toBeGreaterThan(0);
        for (const source of hashes) expect(source, `${path} ${name}`).toMatch(/^'sha256-/);
      }
    }
    // The client router keeps the first page's policy while it shows the next ones.
    expect(policies.size).toBe(1);
  });

  test('accounts API answers carry the same headers, errors included', async ({ request }) => {
    const answers: [string, APIResponse][] = [
      ['GET /api/livez', await request.get('/api/livez')],
      ['GET /api/client-config', await request.get('/api/client-config')],
      ['GET /api/no-such-call', await request.get('/api/no-such-call')],
      [
        'POST /api/app/auth/signin without a body',
        await request.post('/api/app/auth/signin', { headers: { 'Content-Type': 'application/json' } }),
      ],
    ];
    for (const [what, answer] of answers) {
      expectSiteHeaders(answer, what);
      expect(directives(answer.headers()['content-security-policy']).get('default-src'), what).toEqual([
        "'none'",
      ]);
    }
  });
});

test.describe('pages under the content security policy', () => {
  test('a visitor reads the home page, signs in with Google on /login and meets a 404, and nothing is refused', async ({
    page,
  }) => {
    const violations = await recordViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await openPage(page, '/');
    // The inline theme script ran before the islands.
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    // A reload revalidates the kept page (answered 304), which must not change the policy it runs under.
    const reloaded = page.waitForResponse((response) => new URL(response.url()).pathname === '/');
    await page.reload();
    expect(await (await reloaded).request().headerValue('if-none-match')).toBeTruthy();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await page.waitForFunction(
      () => document.querySelectorAll('astro-island[ssr]:not([client="demand"])').length === 0,
    );

    // The client router brings /login; the Google sign-in talks to the Auth emulator from the page.
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    const google = page.getByRole('form', { name: 'Sign in with Google' });
    await google.getByLabel('Google account email').fill(uniqueEmail('csp-google'));
    await google.getByRole('button', { name: 'Continue with Google' }).click();
    // A new Google account answers the sign-up questionnaire first, in place on /login.
    await answerQuestionnaire(page.getByRole('main'));
    await expect(page).toHaveURL(new RegExp(`${DASHBOARD}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Welcome, csp-google-/);

    const missing = await page.goto('/no-such-page-here');
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(violations).toEqual([]);
  });

  test('a visitor signs up on /register and answers the questionnaire, and nothing is refused', async ({
    page,
  }) => {
    const violations = await recordViolations(page);
    await openPage(page, '/register');
    const form = page.getByRole('form', { name: 'Sign up for a free API key' });
    await form.getByLabel('Email', { exact: true }).fill(uniqueEmail('csp-signup'));
    await form.getByLabel('Password', { exact: true }).fill('correct-horse-42');
    await form.getByRole('button', { name: 'Sign up', exact: true }).click();
    const main = page.getByRole('main');
    await expect(main.getByRole('group', { name: /Primary purpose for using the API/ })).toBeVisible();
    await main.getByRole('button', { name: 'Investment Analysis', exact: true }).click();
    await expect(main.getByRole('button', { name: 'Step 2 of 5' })).toHaveAttribute('aria-current', 'step');
    expect(violations).toEqual([]);
  });

  test('a signed-in developer sees the dashboard with usage bars, and nothing is refused', async ({
    page,
    request,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const violations = await recordViolations(page);
    const account = await createAccount(request, { verified: true });
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openPage(page, DASHBOARD);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${account.username}`);

    // A call to the data API makes the usage panel draw its bars (sized by React style props).
    const key = await page.evaluate(() => window.appStores?.$user.get().apiKey ?? '');
    const dataApi = new URL(baseURL ?? '');
    dataApi.port = process.env.E2E_DATA_API_PORT ?? '4352';
    expect(
      (await request.get(new URL(`/stable/quote?symbol=AAPL&apikey=${key}`, dataApi).href)).status(),
    ).toBe(200);
    const usage = page.getByRole('region', { name: 'API usage' });
    await expect(async () => {
      await usage.getByRole('button', { name: 'Refresh' }).click();
      await expect(usage.getByText('1 of 250 calls today')).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000, intervals: [1_000] });
    expect(violations).toEqual([]);
  });

  test('a visitor draws the price chart, recomputes the DCF and pages the history through the tabs, and nothing is refused', async ({
    page,
  }) => {
    const violations = await recordViolations(page);
    await openPage(page, '/chart/AAPL');
    await expect(page.locator('canvas').first()).toBeVisible();
    // The chart library's attribution logo is styled by the <style> it adds at run time.
    const logo = page.getByRole('link', { name: 'Charting by TradingView' });
    await expect(logo).toHaveCSS('position', 'absolute');
    const year = page.getByRole('group', { name: 'Range' }).getByRole('button', { name: '1Y', exact: true });
    await year.click();
    await expect(year).toHaveAttribute('aria-pressed', 'true');

    // The tab bar changes pages through the client router.
    await page.getByRole('navigation', { name: 'AAPL sections' }).getByRole('link', { name: 'DCF' }).click();
    await expect(page).toHaveURL(/\/discounted-cash-flow-model\/AAPL$/);
    const form = page.getByRole('form', { name: 'Assumptions' });
    const result = page.getByLabel('Equity value per share', { exact: true });
    await expect(result).toHaveText(/\d/);
    const initial = (await result.textContent()) ?? '';
    const growth = form.getByLabel('Growth rate (%)', { exact: true });
    await growth.fill(String(Number(await growth.inputValue()) + 5));
    await growth.press('Tab');
    await expect(result).not.toHaveText(initial);

    await openPage(page, '/historical-data/AAPL');
    await expect(page.getByRole('table').first().locator('tbody tr').first()).toBeVisible();
    expect(violations).toEqual([]);
  });
});
