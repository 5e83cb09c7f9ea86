import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, openPage, signInThroughApi, type Account } from './fixtures.ts';

const QUICKSTART = '/developer/docs/quickstart';

/** The verified developer the signed-in story follows (signing up costs more than the story). */
let developer: Account;

test.beforeAll(async ({ request }) => {
  developer = await createAccount(request, { verified: true });
});

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('the quickstart', () => {
  test('a signed-in developer opens the quickstart, sees their own key in the curl sample, presses Run it and sees AAPL’s quote', async ({
    page,
  }) => {
    await openPage(page, '/');
    await signInThroughApi(page, developer);
    await openPage(page, QUICKSTART);
    const key = await page.evaluate(() => window.appStores?.$user.get().apiKey ?? '');
    expect(key).toMatch(/^tlk_/);

    const curl = page.getByRole('tabpanel', { name: 'curl' });
    await expect(curl).toContainText(`/stable/quote?symbol=AAPL&apikey=${key}`);
    await expect(page.getByText('These samples show YOUR_API_KEY')).toBeHidden();
    await page.getByRole('tab', { name: 'Python' }).click();
    await expect(page.getByRole('tabpanel', { name: 'Python' })).toContainText(`apikey=${key}`);

    const run = page.getByRole('region', { name: 'Run this request' });
    // The call goes to the data API itself, with the developer's own key.
    const sent = page.waitForRequest((req) => req.url().includes(`/stable/quote?symbol=AAPL&apikey=${key}`));
    await run.getByRole('button', { name: 'Run it' }).click();
    await sent;
    await expect(run).toContainText(`with your API key (ending in ${key.slice(-4)})`);
    await expect(run.getByText(/^200\b/)).toBeVisible();
    await expect(run.getByText(/^\d+ ms$/)).toBeVisible();
    await expect(run.getByText('Demo data', { exact: true })).toBeVisible();
    const answer = run.getByRole('tree', { name: 'Answer as JSON' });
    await expect(answer.getByRole('treeitem', { name: 'symbol: "AAPL"' })).toBeVisible();
    await expect(answer.getByRole('treeitem', { name: 'name: "Apple Inc."' })).toBeVisible();
    await expect(answer.getByRole('treeitem', { name: /^price: \d/ })).toBeVisible();
    await expect(run.getByRole('alert')).toHaveCount(0);
  });

  test('a signed-out visitor runs the first call with the visitor access and reads the answer', async ({
    page,
  }) => {
    await openPage(page, QUICKSTART);
    await expect(page.getByRole('tabpanel', { name: 'curl' })).toContainText('apikey=YOUR_API_KEY');
    await expect(page.getByText('These samples show YOUR_API_KEY')).toBeVisible();
    const run = page.getByRole('region', { name: 'Run this request' });
    await run.getByRole('button', { name: 'Run it' }).click();
    await expect(run.getByText(/^200\b/)).toBeVisible();
    await expect(run).toContainText('with the site’s visitor access');
    await expect(
      run.getByRole('tree', { name: 'Answer as JSON' }).getByRole('treeitem', { name: 'symbol: "AAPL"' }),
    ).toBeVisible();
    await expect(run.getByRole('link', { name: 'data sources and demo data' })).toHaveAttribute(
      'href',
      '/developer/docs/data-sources',
    );
    expect(await axeViolations(page)).toEqual([]);
    // And on a phone, with the answer shown.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test('a visitor who loses the connection is told so and runs it again once back online', async ({
    page,
    context,
  }) => {
    await openPage(page, QUICKSTART);
    const run = page.getByRole('region', { name: 'Run this request' });
    await run.getByRole('button', { name: 'Run it' }).click();
    await expect(run.getByText(/^200\b/)).toBeVisible();
    await context.setOffline(true);
    await run.getByRole('button', { name: 'Run it' }).click();
    const alert = run.getByRole('alert');
    await expect(alert).toContainText('The data API could not be reached');
    await expect(alert).toContainText('Run it again once your connection is back');
    await context.setOffline(false);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(run.getByText(/^200\b/)).toBeVisible();
    await expect(run.getByRole('alert')).toHaveCount(0);
  });

  test('a developer who has not verified the address is told why the key is refused and where to resend the email (dark)', async ({
    page,
    request,
  }) => {
    await page.addInitScript(() => {
      localStorage.setItem('themeMode', 'dark');
    });
    const unverified = await createAccount(request);
    await openPage(page, '/');
    await signInThroughApi(page, unverified);
    await openPage(page, QUICKSTART);
    const run = page.getByRole('region', { name: 'Run this request' });
    await run.getByRole('button', { name: 'Run it' }).click();
    await expect(run.getByText(/^403\b/)).toBeVisible();
    const alert = run.getByRole('alert');
    await expect(alert).toContainText('Please verify your email address to use this API key');
    await expect(alert).toContainText(
      'Your email address is not verified yet, so your key does not answer calls',
    );
    expect(await axeViolations(page)).toEqual([]);
    await alert.getByRole('link', { name: 'Resend the email from your dashboard' }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/dashboard$/);
    await expect(
      page
        .getByRole('region', { name: 'Email verification' })
        .getByRole('button', { name: 'Resend verification email' }),
    ).toBeVisible();
  });
});
