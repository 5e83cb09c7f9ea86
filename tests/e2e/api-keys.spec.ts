import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, DATA_API_URL, openPage, signInThroughApi, type Account } from './fixtures.ts';

const PAGE = '/developer/docs/api-keys';

/** One verified account per story that changes keys; signing up costs more than the stories. */
async function signedInOnKeysPage(page: Page, account: Account): Promise<void> {
  await openPage(page, '/');
  await signInThroughApi(page, account);
  await openPage(page, PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
}

/** The key a section shows, revealed. */
async function revealedKey(page: Page, name: string, region: string): Promise<string> {
  const section = page.getByRole('region', { name: region });
  await section
    .getByRole('button', { name: `Reveal key “${name}”` })
    .first()
    .click();
  const code = section.locator('code').filter({ hasText: /^tlk_/ }).first();
  await expect(code).toBeVisible();
  return (await code.textContent()) ?? '';
}

/** The account the accessibility checks look at (they change nothing). */
let shared: Account;

test.beforeAll(async ({ request }) => {
  shared = await createAccount(request, { verified: true });
});

test.describe('API keys', () => {
  test('a developer replaces their key with a one-hour grace: both keys answer until they choose "Expire now"', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request, { verified: true });
    await signedInOnKeysPage(page, account);
    const primary = page.getByRole('region', { name: 'Primary key' });
    await expect(primary.getByText('Never')).toBeVisible();
    const oldKey = await revealedKey(page, 'Default key', 'Primary key');
    const quote = (key: string) => request.get(`${DATA_API_URL}/stable/quote?symbol=AAPL&apikey=${key}`);
    expect((await quote(oldKey)).status()).toBe(200);

    await primary.getByRole('button', { name: 'Replace key…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace your primary key?' });
    await dialog.getByRole('radio', { name: 'Keep it working for 1 hour' }).check();
    await dialog.getByRole('button', { name: 'Replace key' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByText('Your key was replaced. The old key keeps working until the time shown.'),
    ).toBeVisible();

    const replaced = page.getByRole('region', { name: 'Replaced keys still working' });
    await expect(replaced).toContainText(`Key ending in ${oldKey.slice(-4)} stops working in 59 minutes`);
    const newKey = await revealedKey(page, 'Default key', 'Primary key');
    expect(newKey).toMatch(/^tlk_[A-Za-z0-9]{38}$/);
    expect(newKey).not.toBe(oldKey);
    expect((await quote(oldKey)).status()).toBe(200);
    expect((await quote(newKey)).status()).toBe(200);
    // The session follows: the account's key everywhere on the site is the new one.
    await expect.poll(() => page.evaluate(() => window.appStores?.$user.get().apiKey ?? '')).toBe(newKey);

    await replaced.getByRole('button', { name: 'Expire now' }).click();
    await page
      .getByRole('dialog', { name: 'Expire the old key now?' })
      .getByRole('button', { name: 'Expire now' })
      .click();
    await expect(replaced).toBeHidden();
    const refused = await quote(oldKey);
    expect(refused.status()).toBe(401);
    expect(((await refused.json()) as Record<string, string>)['Error Message']).toContain(
      'replaced or revoked',
    );
    expect((await quote(newKey)).status()).toBe(200);

    // The owner is told by email (the local mailbox), with the new key's last four characters only.
    await openPage(page, '/dev/mailbox');
    await page.getByLabel(/Filter/).fill(account.email);
    await expect(page.getByText('Your API key was replaced').first()).toBeVisible();
  });

  test('a second, named key answers with the same plan, its calls show in the request log under its name, and revoking it stops it', async ({
    page,
    context,
    request,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const account = await createAccount(request, { verified: true });
    await signedInOnKeysPage(page, account);
    const additional = page.getByRole('region', { name: 'Additional keys' });
    await expect(additional.getByText('0 of 1 used')).toBeVisible();
    await additional.getByLabel('Name of a new key').fill('CI runner');
    await additional.getByRole('button', { name: 'Add key' }).click();
    await expect(additional.getByRole('heading', { level: 3, name: 'CI runner' })).toBeVisible();
    await expect(additional.getByText('1 of 1 used')).toBeVisible();
    await expect(additional.getByLabel('Name of a new key')).toBeDisabled();
    await expect(additional.getByRole('link', { name: 'upgrade' })).toHaveAttribute(
      'href',
      '/developer/docs/pricing',
    );

    const named = await revealedKey(page, 'CI runner', 'Additional keys');
    const answer = await request.get(`${DATA_API_URL}/stable/profile?symbol=MSFT&apikey=${named}`);
    expect(answer.status()).toBe(200);

    // The call shows in the request log under the key's name, and opens as a curl command with that key.
    await openPage(page, '/developer/docs/request-log');
    await page.getByLabel('Key').selectOption({ label: `CI runner (…${named.slice(-4)})` });
    const requests = page.getByRole('region', { name: 'Requests' });
    await expect(async () => {
      await page.getByLabel('Time').selectOption('1h');
      await page.getByLabel('Time').selectOption('24h');
      await expect(requests.getByRole('row', { name: /profile/ })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    const row = requests.getByRole('row', { name: /profile/ });
    await expect(row).toContainText(`CI runner (…${named.slice(-4)})`);
    await expect(row).toContainText('200');
    await row.getByRole('button', { name: /profile/ }).click();
    const detail = page.getByRole('dialog', { name: 'profile · 200' });
    await expect(detail.getByLabel('The request with curl')).toContainText(
      '/stable/profile?symbol=MSFT&apikey=',
    );
    await expect(detail.getByLabel('The request with curl')).not.toContainText(named);
    await detail.getByRole('button', { name: 'Copy curl command' }).click();
    // The data API as this browser reaches it (the host the page was opened on), with the whole key.
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      new RegExp(
        `^curl "http://[^/]+:${new URL(DATA_API_URL).port}/stable/profile\\?symbol=MSFT&apikey=${named}"$`,
      ),
    );
    await detail.getByRole('button', { name: 'Close' }).click();
    await openPage(page, PAGE);

    await additional.getByRole('button', { name: 'Rename key “CI runner”' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename key' });
    await rename.getByLabel('Name').fill('Build server');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await expect(additional.getByRole('heading', { level: 3, name: 'Build server' })).toBeVisible();

    await additional.getByRole('button', { name: 'Revoke key “Build server”' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke “Build server”?' })
      .getByRole('button', { name: 'Revoke key' })
      .click();
    await expect(additional.getByText('No additional keys yet.')).toBeVisible();
    expect((await request.get(`${DATA_API_URL}/stable/profile?symbol=MSFT&apikey=${named}`)).status()).toBe(
      401,
    );
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const viewport of [
      { name: 'desktop', width: 1280, height: 900 },
      { name: 'phone', width: 390, height: 844 },
    ]) {
      test(`the API keys and request log pages have no accessibility violations (${theme}, ${viewport.name})`, async ({
        page,
      }) => {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await page.addInitScript((mode) => {
          localStorage.setItem('themeMode', mode);
        }, theme);
        await signedInOnKeysPage(page, shared);
        for (const [path, ready] of [
          [PAGE, page.getByRole('region', { name: 'Primary key' })],
          ['/developer/docs/request-log', page.getByLabel('Status')],
        ] as const) {
          await openPage(page, path);
          await expect(ready).toBeVisible();
          const results = await new AxeBuilder({ page }).analyze();
          expect(
            results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          ).toEqual([]);
          // The layout's navigation fits the phone without the page scrolling sideways.
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
            viewport.width,
          );
        }
      });
    }
  }
});
