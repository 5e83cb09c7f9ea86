import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { adminUserHref } from '../../src/lib/admin.ts';
import {
  createAccount,
  DATA_API_URL,
  openPage,
  setRole,
  signInThroughApi,
  type Account,
} from './fixtures.ts';

// The admin console as its staff use it: one administrator and one analyst for the whole file, and
// a fresh account for each story about a user.

let admin: Account;
let analyst: Account;

test.beforeAll(async ({ request }) => {
  [admin, analyst] = await Promise.all([
    createAccount(request, { verified: true }),
    createAccount(request, { verified: true }),
  ]);
  await setRole(admin.email, 'admin');
  await setRole(analyst.email, 'analyst');
});

/** Signs the browser in as `account` and opens a console page once the session is confirmed. */
async function openConsole(page: Page, account: Account, path: string): Promise<void> {
  await openPage(page, '/');
  await signInThroughApi(page, account);
  await openPage(page, path);
}

/** The account's primary API key, as its owner's sign-in answers it. */
async function apiKeyOf(request: APIRequestContext, account: Account): Promise<string> {
  const answer = await request.post('/api/app/auth/signin', {
    data: { login: account.email, password: account.password },
  });
  expect(answer.ok()).toBe(true);
  const { apiKey } = (await answer.json()) as { apiKey: string };
  return apiKey;
}

/** The per-minute limit a data API client is told of (RateLimit-Policy). */
async function minuteLimit(request: APIRequestContext, key: string): Promise<string> {
  const answer = await request.get(
    `${DATA_API_URL}/stable/quote?symbol=AAPL&apikey=${encodeURIComponent(key)}`,
  );
  expect(answer.status()).toBe(200);
  return /"minute";q=(\d+)/.exec(answer.headers()['ratelimit-policy'] ?? '')?.[1] ?? '';
}

test.describe('the admin console', () => {
  test('an admin finds a user by their address and blocks them with a reason; their next sign-in says the account is blocked', async ({
    page,
    browser,
    request,
  }) => {
    test.slow();
    const user = await createAccount(request, { verified: true });
    await openConsole(page, admin, '/developer/docs/admin/users');

    await page.getByLabel('Search users').fill(user.email.toUpperCase());
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/[?&]q=/);
    const rows = page.getByRole('region', { name: 'Users' }).getByRole('row');
    await expect(rows).toHaveCount(2);
    await rows.getByRole('link', { name: user.email }).click();

    await expect(page.getByRole('heading', { level: 1, name: user.email })).toBeVisible();
    await page.getByRole('button', { name: 'Block…' }).click();
    const dialog = page.getByRole('dialog', { name: `Block ${user.email}?` });
    await expect(dialog).toContainText('They are signed out everywhere at once');
    await dialog.getByRole('button', { name: 'Block user' }).click();
    await expect(dialog.getByText('Give a reason: it is kept in the audit trail.')).toBeVisible();
    await dialog.getByLabel('Reason').fill('Card testing from this account');
    await dialog.getByRole('button', { name: 'Block user' }).click();

    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: `${user.email} is blocked.` })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Unblock…' })).toBeVisible();
    const trail = page.getByRole('region', { name: 'Audit trail of this account' });
    await expect(trail.getByRole('row').filter({ hasText: 'Blocked' })).toContainText(
      'Card testing from this account',
    );

    const context = await browser.newContext();
    const visitor = await context.newPage();
    await openPage(visitor, '/login');
    const form = visitor.getByRole('form', { name: 'Sign in to Tickerlake' });
    await form.getByLabel('Email or username').fill(user.email);
    await form.getByLabel('Password').fill(user.password);
    await form.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(
      visitor
        .getByRole('alert')
        .filter({ hasText: 'Your account has been blocked. Please contact support.' }),
    ).not.toHaveCount(0);
    await context.close();
  });

  test('an admin moves a user to another plan and the user’s next data API call has the new plan’s limits', async ({
    page,
    request,
  }) => {
    test.slow();
    const user = await createAccount(request, { verified: true });
    const key = await apiKeyOf(request, user);
    expect(await minuteLimit(request, key)).toBe('30');

    await openConsole(page, admin, adminUserHref(user.userid));
    const plan = page.getByRole('region', { name: 'Plan and subscription' });
    await expect(plan).toContainText('Free');
    await plan.getByRole('button', { name: 'Change plan…' }).click();
    const dialog = page.getByRole('dialog', { name: `Change the plan of ${user.email}?` });
    await dialog.getByLabel('New plan').selectOption({ label: 'Professional' });
    await dialog.getByLabel('Reason').fill('Goodwill after the outage of May 3');
    await dialog.getByRole('button', { name: 'Change plan' }).click();

    await expect(dialog).toBeHidden();
    await expect(
      page.getByRole('status').filter({ hasText: `${user.email} is now on Professional.` }),
    ).toBeVisible();
    await expect(plan).toContainText('Professional');
    expect(await minuteLimit(request, key)).toBe('120');
  });

  test('an analyst reads the console but is offered no action', async ({ page, request }) => {
    const user = await createAccount(request, { verified: true });
    await openConsole(page, analyst, '/developer/docs/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(page.getByText('Active keys')).toBeVisible();

    await openPage(page, adminUserHref(user.userid));
    await expect(page.getByRole('heading', { level: 1, name: user.email })).toBeVisible();
    await expect(page.getByRole('region', { name: 'API keys', exact: true })).toContainText('Default key');
    await expect(page.getByRole('button', { name: /…$/ })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'View as this user' })).toHaveCount(0);
  });

  test('an error a page does not catch reaches the error log once, with its page and without the key it named', async ({
    page,
    browser,
  }) => {
    const visitor = await browser.newPage();
    await openPage(visitor, '/developer/docs/quickstart');
    const marker = `The chart could not be drawn (${String(Date.now())})`;
    const key = `tlk_${'Q'.repeat(38)}`;
    const sent: string[] = [];
    visitor.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/log') sent.push(request.postData() ?? '');
    });
    const stored = visitor.waitForResponse((answer) => new URL(answer.url()).pathname === '/api/log');
    // Thrown twice from a timer, as a failing script throws: nothing catches it.
    await visitor.evaluate((message) => {
      for (const delay of [0, 50]) {
        setTimeout(() => {
          throw new Error(message);
        }, delay);
      }
    }, `${marker} with ${key}`);
    expect((await stored).status()).toBe(201);
    await visitor.waitForTimeout(300);
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toContain(key);
    await visitor.close();

    await openConsole(page, admin, '/developer/docs/admin/errors');
    const report = page.getByRole('listitem').filter({ hasText: marker });
    await expect(report).toHaveCount(1);
    await report.getByText(marker).first().click();
    await expect(report.getByRole('term').filter({ hasText: /^Page$/ })).toBeVisible();
    await expect(
      report.getByRole('definition').filter({ hasText: /^\/developer\/docs\/quickstart$/ }),
    ).toBeVisible();
    await expect(report.getByText('browser: uncaught error').first()).toBeVisible();
    await expect(report.getByLabel('Stack trace')).toContainText(`${marker} with [redacted]`);
  });

  test('an ordinary user who opens the console lands on the home page', async ({ page, request }) => {
    const user = await createAccount(request, { verified: true });
    await openPage(page, '/');
    await signInThroughApi(page, user);
    await page.goto('/developer/docs/admin/users');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('search', { name: 'Find users' })).toHaveCount(0);
  });
});

test.describe('the admin console’s accessibility', () => {
  test('every console page has no accessibility violations and no sideways scrolling, on a desktop in light mode and a phone in dark mode', async ({
    page,
    request,
  }) => {
    test.slow();
    const user = await createAccount(request, { verified: true });
    // Something on every page: a browser error, an enquiry and a help request.
    await request.post('/api/log', {
      data: {
        type: 'TypeError',
        stackTrace: 'TypeError: chart is undefined\n    at draw (chart.js:10:5)',
        server: 'site',
        cron: '',
        fargate: '',
        discordChannel: '',
      },
    });
    await request.post('/api/portal/enterprise/enquiry', {
      data: {
        name: 'Grace Hopper',
        email: 'grace@example.com',
        company: 'Compilers Inc',
        companySize: '51-200',
        message: 'We would like to redistribute end-of-day prices in our product.',
        consent: true,
      },
    });
    await request.post('/api/portal/help/request', {
      data: {
        name: 'Alan Turing',
        email: 'alan@example.com',
        topic: 'limits',
        message: 'My calls are refused with 429 although I made few today.',
      },
    });
    const pages: { path: string; ready: string }[] = [
      { path: '/developer/docs/admin', ready: 'Sign-ups per day' },
      { path: `/developer/docs/admin/users?q=${encodeURIComponent(user.email)}`, ready: user.email },
      { path: adminUserHref(user.userid), ready: 'Usage, last 30 days' },
      { path: '/developer/docs/admin/errors', ready: 'TypeError: chart is undefined' },
      { path: '/developer/docs/admin/messages', ready: 'Grace Hopper, Compilers Inc' },
      { path: '/developer/docs/admin/audit', ready: 'Legacy access changed' },
    ];
    await openConsole(page, admin, '/developer/docs/admin');
    // And an entry in the audit trail, made as the console makes it.
    await page.evaluate(
      (id) =>
        window.appStores?.api(`/api/admin/users/${id}/legacy`, {
          method: 'POST',
          body: { legacy: true, reason: 'Still calls the legacy endpoints' },
        }),
      user.userid,
    );
    for (const [viewport, theme] of [
      [{ width: 1280, height: 900 }, 'light'],
      [{ width: 390, height: 844 }, 'dark'],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.evaluate((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      for (const { path, ready } of pages) {
        await openPage(page, path);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        await expect(page.getByText(ready).first()).toBeVisible();
        const results = await new AxeBuilder({ page }).analyze();
        expect(
          results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          `${path} (${String(viewport.width)} px, ${theme})`,
        ).toEqual([]);
        const sideways = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(sideways, `${path} scrolls sideways at ${String(viewport.width)} px`).toBeLessThanOrEqual(0);
      }
    }

    await openPage(page, adminUserHref(user.userid));
    await page.getByRole('button', { name: 'Change role…' }).click();
    await expect(page.getByRole('dialog', { name: `Change the role of ${user.email}?` })).toBeVisible();
    const dialog = await new AxeBuilder({ page }).include('dialog').analyze();
    expect(dialog.violations.map((v) => v.id)).toEqual([]);
  });
});
