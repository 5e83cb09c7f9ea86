import { expect, test, type Page } from '@playwright/test';
import { createAccount, DATA_API_URL, fillCard, openPage, signInThroughApi } from './fixtures.ts';

/** The key the API keys page reveals for the signed-in account. */
async function primaryKey(page: Page): Promise<string> {
  await openPage(page, '/developer/docs/api-keys');
  const section = page.getByRole('region', { name: 'Primary key' });
  await section.getByRole('button', { name: 'Reveal key “Default key”' }).first().click();
  const code = section.locator('code').filter({ hasText: /^tlk_/ }).first();
  await expect(code).toBeVisible();
  return (await code.textContent()) ?? '';
}

test.describe('a filing from the data API', () => {
  // The story pays a Professional checkout first: filings are sold with that plan.
  test.describe.configure({ timeout: 90_000 });

  test('a subscriber follows a 10-K link from the API to the filing’s page and on to the company', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request, { verified: true });
    await openPage(page, '/');
    await signInThroughApi(page, account);
    const { url } = await page.evaluate(
      () =>
        window.appStores?.api<{ url: string }>('/api/portal/billing/checkout', {
          method: 'POST',
          body: { planCode: 'monthlyT2' },
        }) ?? Promise.reject(new Error('no stores')),
    );
    await openPage(page, url);
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: /^Pay / }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/dashboard$/, { timeout: 15_000 });

    const key = await primaryKey(page);
    const answer = await request.get(
      `${DATA_API_URL}/stable/sec-filings-search/form-type?formType=10-K&apikey=${key}&limit=1000`,
    );
    expect(answer.status()).toBe(200);
    const filings = (await answer.json()) as {
      symbol: string;
      formType: string;
      filingDate: string;
      link: string;
    }[];
    const filing = filings.find((f) => f.symbol === 'AAPL');
    expect(filing).toBeDefined();

    await openPage(page, new URL(filing?.link ?? '').pathname);
    await expect(page.getByText('Form 10-K · Annual report')).toBeVisible();
    await expect(page.getByRole('note')).toContainText('Demo data');
    await expect(page.getByText(filing?.filingDate.slice(0, 10) ?? '').first()).toBeVisible();
    const income = page.getByRole('table', { name: /^Income statement/ });
    await expect(income.getByRole('row', { name: /^Revenue/ })).toBeVisible();

    await page.getByRole('heading', { level: 1 }).getByRole('link', { name: 'Apple Inc.' }).click();
    await expect(page).toHaveURL(/\/financial-summary\/AAPL$/);
  });

  test('an address that names no filing answers 404 with the site’s page', async ({ page }) => {
    const response = await page.goto('/filings/0000000000-00-000000');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
});
