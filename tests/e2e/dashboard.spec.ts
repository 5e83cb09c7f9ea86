import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import {
  AUTH_EMULATOR_URL,
  createAccount,
  DATA_API_URL,
  openPage,
  signInThroughApi,
  updateIdentity,
  type Account,
} from './fixtures.ts';

const DASHBOARD = '/developer/docs/dashboard';
const MASK = '•'.repeat(16);

/** The signed-in user's API key, as the session store holds it after sign-in. */
async function apiKeyOf(page: Page): Promise<string> {
  const key = await page.evaluate(() => window.appStores?.$user.get().apiKey ?? '');
  expect(key).not.toBe('');
  return key;
}

/** Signs in through the sign-in page, which leads to the dashboard. */
async function signInOnLoginPage(page: Page, account: Account): Promise<void> {
  await openPage(page, '/login');
  const form = page.getByRole('form', { name: 'Sign in to Tickerlake' });
  await form.getByLabel('Email or username').fill(account.email);
  await form.getByLabel('Password').fill(account.password);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${DASHBOARD}$`));
}

test.describe('developer dashboard', () => {
  test('a developer signs in, finds the key masked, reveals it and copies it', async ({
    page,
    context,
    request,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const account = await createAccount(request);
    await signInOnLoginPage(page, account);

    // A new account is welcomed, not welcomed back.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${account.username}`);
    const key = await apiKeyOf(page);
    await expect(page.getByText(`${MASK}${key.slice(-4)}`)).toBeVisible();
    await expect(page.getByText(key, { exact: true })).toHaveCount(0);

    await page.getByRole('button', { name: 'Reveal key' }).click();
    await expect(page.getByText(key, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Hide key' }).click();
    await expect(page.getByText(key, { exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Reveal key' })).toBeVisible();

    await page.getByRole('button', { name: 'Copy key' }).click();
    await expect(page.getByText('API key copied to the clipboard.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    const plan = page.getByRole('region', { name: 'Your plan' });
    await expect(plan.getByText('Free', { exact: true })).toBeVisible();
    await expect(plan.getByRole('link', { name: 'Upgrade your plan' })).toHaveAttribute(
      'href',
      '/developer/docs/pricing',
    );
  });

  test('a refused clipboard is explained instead of pretending the key was copied', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openPage(page, DASHBOARD);
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', {
        configurable: true,
        value: { writeText: () => Promise.reject(new DOMException('Denied', 'NotAllowedError')) },
      });
    });
    await page.getByRole('button', { name: 'Copy key' }).click();
    await expect(
      page.getByText(
        'Your browser did not let the page copy the key. Reveal it and copy it by hand instead.',
      ),
    ).toBeVisible();
  });

  test('an unverified developer resends the verification email, follows it from the local mailbox and sees the key activated', async ({
    page,
    context,
    request,
  }) => {
    const account = await createAccount(request);
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openPage(page, DASHBOARD);

    const verification = page.getByRole('region', { name: 'Email verification' });
    await expect(verification).toContainText(`Your API key is inactive until you verify ${account.email}.`);
    await expect(
      page.getByRole('region', { name: 'API key' }).getByText('Unverified', { exact: true }),
    ).toBeVisible();

    const resend = verification.getByRole('button', { name: 'Resend verification email' });
    await resend.click();
    await expect(verification.getByRole('status')).toHaveText(
      `We sent a verification email to ${account.email}. Follow the link in it, then choose “Check again”.`,
    );
    await expect(resend).toBeEnabled();

    // Locally no email is delivered: the dashboard points to the local mailbox instead.
    const mailboxLink = verification.getByRole('link', { name: 'open the local mailbox' });
    await expect(mailboxLink).toHaveAttribute('href', '/dev/mailbox');
    const mailbox = await context.newPage();
    await openPage(mailbox, '/dev/mailbox');
    await expect(mailbox.getByRole('heading', { name: 'Local mailbox' })).toBeVisible();
    await mailbox.getByLabel('Filter by address').fill(account.email);
    await expect(mailbox.getByRole('region', { name: 'Local mailbox' }).getByRole('status')).toHaveText(
      '1 message, newest first.',
    );
    const message = mailbox.getByRole('listitem').filter({ hasText: account.email });
    await expect(message.getByText('Email verification')).toBeVisible();

    const [actionPage] = await Promise.all([
      context.waitForEvent('page'),
      message.getByRole('link', { name: `Verify email address for ${account.email}` }).click(),
    ]);
    await expect(actionPage.getByRole('main').getByRole('status')).toHaveText(
      'Thank you: your email address is verified and your API key is active.',
    );

    // The page the link opened is signed in too; the dashboard's tab takes its news over by itself.
    await page.bringToFront();
    await expect(verification).toContainText(`${account.email} is verified. Your API key is active.`);
    await expect(page.getByRole('region', { name: 'API key' }).getByText('Active')).toBeVisible();
    await expect(verification.getByRole('button', { name: 'Resend verification email' })).toHaveCount(0);
  });

  test('a developer who verified the address elsewhere checks again and sees the key activated', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openPage(page, DASHBOARD);
    const verification = page.getByRole('region', { name: 'Email verification' });
    await expect(verification).toContainText(`Your API key is inactive until you verify ${account.email}.`);
    // Confirmed at the identity provider, as following the link on another device does.
    await updateIdentity(request, account.uid, { emailVerified: true });
    await verification.getByRole('button', { name: 'Check again' }).click();
    await expect(verification).toContainText(`${account.email} is verified. Your API key is active.`);
    await expect(verification.getByRole('status')).toHaveText(
      'Thank you: your email address is verified and your API key is active.',
    );
    await expect(page.getByRole('region', { name: 'API key' }).getByText('Active')).toBeVisible();
  });

  test('checking again before following the link says the address is not verified yet', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openPage(page, DASHBOARD);
    const verification = page.getByRole('region', { name: 'Email verification' });
    await verification.getByRole('button', { name: 'Check again' }).click();
    await expect(verification.getByRole('status')).toHaveText(
      'Your email address is not verified yet. Follow the link in the verification email, then check again.',
    );
  });

  test('a developer whose address is verified sees the key active, no verification chores, and where to start building', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request, { verified: true });
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openPage(page, DASHBOARD);
    const verification = page.getByRole('region', { name: 'Email verification' });
    await expect(verification).toContainText(`${account.email} is verified. Your API key is active.`);
    await expect(verification.getByRole('button')).toHaveCount(0);
    const keyCard = page.getByRole('region', { name: 'API key' });
    await expect(keyCard.getByText('Active', { exact: true })).toBeVisible();
    await expect(keyCard.getByText('Expiring', { exact: true })).toHaveCount(0);

    const start = page.getByRole('region', { name: 'Start building' });
    for (const [name, href] of [
      ['Quickstart: your first call', '/developer/docs/quickstart'],
      ['API documentation', '/developer/docs'],
      ['API viewer', '/playground'],
    ] as const)
      await expect(start.getByRole('link', { name })).toHaveAttribute('href', href);
  });

  test('a developer who replaced the key with a grace period is told on the overview when the old key stops working', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request, { verified: true });
    await openPage(page, '/');
    await signInThroughApi(page, account);
    const oldKey = await apiKeyOf(page);
    await page.evaluate(
      () =>
        window.appStores?.api('/api/portal/user/api-keys/roll', { method: 'POST', body: { grace: '24h' } }) ??
        Promise.reject(new Error('no stores')),
    );
    await openPage(page, DASHBOARD);
    const keyCard = page.getByRole('region', { name: 'API key' });
    await expect(keyCard.getByText('Expiring', { exact: true })).toBeVisible();
    await expect(keyCard).toContainText(
      new RegExp(`Your replaced key ending in ${oldKey.slice(-4)} keeps working until \\w{3} \\d+, \\d{4}`),
    );
    await expect(keyCard.getByText(`${MASK}${oldKey.slice(-4)}`)).toHaveCount(0);
  });

  test('a signed-out visitor opening the dashboard ends on the home page without seeing account data', async ({
    page,
  }) => {
    await page.goto(DASHBOARD);
    await expect(page).toHaveURL(/^http:\/\/[^/]+\/$/);
    await expect(page.getByRole('heading', { name: /^Welcome/ })).toHaveCount(0);
  });

  test('a signed-out visitor turned away from an account page is offered sign-in and taken back there', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await page.goto('/developer/docs/invoices?from=mail');
    await expect(page).toHaveURL(/^http:\/\/[^/]+\/$/);
    const dialog = page.getByRole('dialog', { name: 'Sign in to Tickerlake' });
    await expect(dialog.getByRole('alert').filter({ hasText: 'Sign in to open that page' })).toBeVisible();
    const form = dialog.getByRole('tabpanel', { name: 'Sign in' });
    await form.getByLabel('Email or username').fill(account.email);
    await form.getByLabel('Password').fill(account.password);
    await form.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/invoices\?from=mail$/);
    await expect(
      page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Invoices' }),
    ).toHaveAttribute('aria-current', 'page');

    // Signing out in another tab leaves the account page here at once.
    const other = await page.context().newPage();
    await openPage(other, '/');
    await other.evaluate(() => localStorage.removeItem('session'));
    await expect(page).toHaveURL(/^http:\/\/[^/]+\/$/);
  });

  test('the short addresses lead to the dashboard and the documentation', async ({ request }) => {
    const dashboard = await request.get('/dashboard?tab=keys', { maxRedirects: 0 });
    expect(dashboard.status()).toBe(301);
    expect(dashboard.headers().location).toBe(`${DASHBOARD}?tab=keys`);
    const documentation = await request.get('/documentation', { maxRedirects: 0 });
    expect(documentation.headers().location).toBe('/developer/docs');
  });
});

test.describe('local mailbox', () => {
  test('explains what it stands in for and offers a refresh', async ({ page }) => {
    await openPage(page, '/dev/mailbox');
    await expect(page.getByText(/stands in for your inbox/)).toBeVisible();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
  });

  test('says so when no message matches the filter', async ({ page, request }) => {
    // One message at least, so the mailbox is not simply empty.
    const account = await createAccount(request);
    const reset = await request.post(
      `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=demo-api-key`,
      { data: { requestType: 'PASSWORD_RESET', email: account.email } },
    );
    expect(reset.ok()).toBe(true);
    await openPage(page, '/dev/mailbox');
    await page.getByLabel('Filter by address').fill('nobody-at-all@example.invalid');
    await expect(page.getByRole('region', { name: 'Local mailbox' }).getByRole('status')).toHaveText(
      'No messages to addresses containing “nobody-at-all@example.invalid”.',
    );
  });

  test('against a real Firebase project it shows the server’s explanation instead of messages', async ({
    page,
  }) => {
    const text = 'The local mailbox exists only when the site runs against the Auth emulator.';
    await page.route('**/api/dev/mailbox', (route) => route.fulfill({ status: 404, json: { error: text } }));
    await openPage(page, '/dev/mailbox');
    await expect(page.getByRole('region', { name: 'Local mailbox' }).getByRole('status')).toHaveText(text);
    await expect(page.getByLabel('Filter by address')).toHaveCount(0);
    await expect(page.getByRole('listitem').filter({ hasText: 'Email verification' })).toHaveCount(0);
  });
});

for (const theme of ['light', 'dark'] as const) {
  test(`the dashboard and the local mailbox have no accessibility violations (${theme}, desktop and phone)`, async ({
    page,
    request,
  }) => {
    // Three full axe runs over the dashboard's islands and the mailbox.
    test.slow();
    await page.addInitScript((mode) => {
      localStorage.setItem('themeMode', mode);
    }, theme);
    const account = await createAccount(request);
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openPage(page, DASHBOARD);
    const verification = page.getByRole('region', { name: 'Email verification' });
    await verification.getByRole('button', { name: 'Check again' }).click();
    await expect(verification.getByRole('status')).not.toBeEmpty();
    for (const path of [DASHBOARD, '/dev/mailbox']) {
      if (path !== DASHBOARD) await openPage(page, path);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      for (const width of path === DASHBOARD ? [1280, 390] : [1280]) {
        // Desktop, then a phone, where the dashboard's navigation sits above the page.
        await page.setViewportSize({ width, height: 900 });
        const results = await new AxeBuilder({ page }).analyze();
        expect(
          results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          `${path} at ${width} px`,
        ).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
}

test.describe('API usage on the dashboard', () => {
  test('a developer’s calls to the data API show up as today’s usage against the daily limit and per endpoint', async ({
    page,
    request,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const account = await createAccount(request, { verified: true });
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openPage(page, DASHBOARD);

    const usage = page.getByRole('region', { name: 'API usage' });
    await expect(usage.getByRole('heading', { name: 'No calls yet' })).toBeVisible();
    await expect(usage.getByText('0 of 250 calls today')).toBeVisible();
    await expect(usage.getByText('apikey=YOUR_API_KEY')).toBeVisible();

    const key = await apiKeyOf(page);
    const dataApi = new URL(baseURL ?? '');
    dataApi.port = process.env.E2E_DATA_API_PORT ?? '4352';
    for (let call = 0; call < 2; call += 1) {
      const answer = await request.get(new URL(`/stable/quote?symbol=AAPL&apikey=${key}`, dataApi).href);
      expect(answer.status(), await answer.text()).toBe(200);
    }

    // Calls are written in batches every few seconds: refresh until they are counted.
    await expect(async () => {
      await usage.getByRole('button', { name: 'Refresh' }).click();
      await expect(usage.getByText('2 of 250 calls today')).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000, intervals: [1_000] });
    await expect(usage.getByRole('meter', { name: 'Calls today against the daily limit' })).toHaveAttribute(
      'aria-valuenow',
      '2',
    );
    await expect(usage.getByText('Up to 30 calls per minute.')).toBeVisible();
    const endpoints = usage.getByRole('region', { name: 'By endpoint' });
    await expect(endpoints.getByRole('row', { name: /^quote 2 / })).toBeVisible();
    await expect(usage.getByRole('heading', { name: 'No calls yet' })).toHaveCount(0);

    await usage.getByText('Calls per day as a table').click();
    await expect(
      usage.getByRole('table', { name: 'Calls per day, oldest first' }).getByRole('row'),
    ).toHaveCount(31);
    const results = await new AxeBuilder({ page }).include('.usage').analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  });

  test('a developer asks to be alerted at 10% of the daily calls, crosses it, and gets the banner and one email', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const account = await createAccount(request, { verified: true });
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openPage(page, DASHBOARD);

    const alerts = page.getByRole('region', { name: 'Usage alerts' });
    await alerts.getByRole('checkbox', { name: '10% (25 calls)' }).check();
    await alerts.getByRole('button', { name: 'Save alerts' }).click();
    await expect(alerts.getByRole('status')).toHaveText('Saved: you are emailed at 10% of your daily calls.');

    const key = await apiKeyOf(page);
    for (let call = 0; call < 25; call += 1) {
      const answer = await request.get(`${DATA_API_URL}/stable/quote?symbol=MSFT&apikey=${key}`);
      expect(answer.status()).toBe(200);
    }
    // The meter writes every few seconds and the alert follows its write.
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('complementary', { name: 'Usage alert' })).toContainText(
        'You have used 25 of your 250 calls today (10% alert).',
        { timeout: 1_000 },
      );
    }).toPass({ timeout: 20_000, intervals: [1_000] });

    await openPage(page, '/dev/mailbox');
    await page.getByLabel('Filter by address').fill(account.email);
    await expect(page.getByText("You have used 10% of today's API calls")).toHaveCount(1);
  });
});
