import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createAccount, fillCard, openPage, signInThroughApi } from './fixtures.ts';

const DASHBOARD = '/developer/docs/dashboard';

/** A new verified account, signed in, that paid for `planCode` with 4242 and landed on the dashboard. */
async function subscribe(page: Page, request: APIRequestContext, planCode: string): Promise<void> {
  const account = await createAccount(request, { verified: true });
  await openPage(page, '/');
  await signInThroughApi(page, account);
  const { url } = await page.evaluate(
    (code) =>
      window.appStores?.api<{ url: string }>('/api/portal/billing/checkout', {
        method: 'POST',
        body: { planCode: code },
      }) ?? Promise.reject(new Error('no stores')),
    planCode,
  );
  await openPage(page, url);
  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(new RegExp(`${DASHBOARD}$`), { timeout: 15_000 });
}

test.describe('the symbol pages’ live price', () => {
  test('a signed-out visitor sees the rendered price and the page opens no stream', async ({ page }) => {
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await openPage(page, '/financial-summary/AAPL');
    const header = page.locator('.symbol-header');
    await expect(page.getByText(/^As of .+ UTC$/)).toBeVisible();
    await expect(header.getByText('Live · demo')).toHaveCount(0);
    expect(sockets.filter((url) => url.includes('/websockets/'))).toEqual([]);
  });

  test('a Professional subscriber on a stock page follows the US stocks stream, labelled live', async ({
    page,
    request,
  }) => {
    // The checkout comes first.
    test.setTimeout(60_000);
    await subscribe(page, request, 'monthlyT2');
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await openPage(page, '/financial-summary/AAPL');

    // US stocks only move in the New York session, so the story checks the connection, not a move.
    await expect(page.getByText('Live · demo')).toBeVisible({ timeout: 15_000 });
    expect(sockets).toEqual([expect.stringMatching(/^ws:\/\/[^/]+\/websockets\/stocks$/)]);
    await expect(page.getByText(/^As of .+ UTC$/)).toHaveCount(0);
    const price = page.locator('.symbol-header .last data');
    await expect(price).toHaveAttribute('value', /^\d+(\.\d+)?$/);

    const results = await new AxeBuilder({ page }).include('.symbol-header').analyze();
    expect(results.violations).toEqual([]);
  });

  test('a Power subscriber on a crypto page sees the price move with the crypto stream, which trades round the clock', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    await subscribe(page, request, 'monthlyT3');
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await openPage(page, '/cryptocurrency/BTCUSD');

    await expect(page.getByText('Live · demo')).toBeVisible({ timeout: 15_000 });
    expect(sockets).toEqual([expect.stringMatching(/\/websockets\/crypto$/)]);
    const price = page.locator('.symbol-header .last data');
    const first = await price.getAttribute('value');
    // The demo market steps once a second; a few steps are enough for the last trade to change.
    await expect(price).not.toHaveAttribute('value', first ?? '', { timeout: 15_000 });
  });
});
