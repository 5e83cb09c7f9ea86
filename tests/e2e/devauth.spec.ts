import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createAccount, openPage, signInThroughApi } from './fixtures.ts';

interface IssuedCodes {
  device_code: string;
  user_code: string;
  verification_uri_complete: string;
}

/** What a command-line tool does first: ask the accounts API for a code pair. */
async function toolAsksForCode(request: APIRequestContext, clientName: string): Promise<IssuedCodes> {
  const answer = await request.post('/api/devauth/code', { data: { client_name: clientName } });
  expect(answer.ok()).toBe(true);
  return (await answer.json()) as IssuedCodes;
}

/** One poll of the tool, as it does every five seconds. */
async function toolPolls(
  request: APIRequestContext,
  deviceCode: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const answer = await request.post('/api/devauth/token', { data: { device_code: deviceCode } });
  return { status: answer.status(), json: (await answer.json()) as Record<string, unknown> };
}

/** The page path of the link the tool printed, on this site. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Axe's findings on the page as it is now, one line each. */
async function accessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

function codeField(page: Page): ReturnType<Page['getByLabel']> {
  return page.getByLabel('Code shown by your tool');
}

test.describe('connecting a developer tool', () => {
  test('a signed-in developer approves the code of a command-line tool, which then receives the API key', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    const issued = await toolAsksForCode(request, 'Tickerlake CLI');
    expect((await toolPolls(request, issued.device_code)).json).toMatchObject({
      error: 'authorization_pending',
    });

    await openPage(page, pathOf(issued.verification_uri_complete));
    await signInThroughApi(page, account);
    await expect(codeField(page)).toHaveValue(issued.user_code);
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(
      page.getByRole('heading', { name: 'Tickerlake CLI wants access to your API key' }),
    ).toBeFocused();
    await expect(page.getByText(issued.user_code, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Approve' }).click();

    await expect(page.getByRole('heading', { name: 'Tool connected' })).toBeVisible();
    await expect(page.getByText('You can return to Tickerlake CLI.')).toBeVisible();

    const delivered = await toolPolls(request, issued.device_code);
    expect(delivered.status).toBe(200);
    const apiKey = await page.evaluate(() => window.appStores?.$user.get().apiKey);
    expect(delivered.json).toEqual({ api_key: apiKey, email: account.email, plan: 'free' });
    expect(String(delivered.json.api_key)).toMatch(/^tlk_[A-Za-z0-9]{38}$/);

    const again = await toolPolls(request, issued.device_code);
    expect(again.json).toMatchObject({ error: 'expired_token' });
  });

  test('a developer who denies the request leaves the tool without the key', async ({ page, request }) => {
    const account = await createAccount(request);
    const issued = await toolAsksForCode(request, 'Sheets add-on');

    await openPage(page, '/devauth');
    await signInThroughApi(page, account);
    await codeField(page).fill(issued.user_code.toLowerCase().replace('-', ' '));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Deny' }).click();

    await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible();
    expect((await toolPolls(request, issued.device_code)).json).toMatchObject({ error: 'access_denied' });
  });

  test('a mistyped or unknown code is explained and can be corrected', async ({ page, request }) => {
    const account = await createAccount(request);
    await openPage(page, '/devauth');
    await signInThroughApi(page, account);
    const form = page.getByRole('form', { name: 'Enter your code' });

    await codeField(page).fill('BCD');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(form.getByRole('status')).toHaveText(
      'Enter the 8-letter code your tool shows, like BCDF-GHJK.',
    );

    await codeField(page).fill('BCDF-GHJK');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(form.getByRole('status')).toHaveText('This code is not valid or has expired.');
    await expect(codeField(page)).toBeFocused();
  });

  test('a signed-out visitor reads what the page is for, signs in through the pop-up and carries on', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await openPage(page, '/devauth?code=bcdf-ghjk');
    await expect(
      page.getByRole('heading', { name: 'Connect a tool to your account', level: 1 }),
    ).toBeVisible();
    await expect(page.getByText(/spreadsheet add-ons can use your Tickerlake API key/)).toBeVisible();
    await expect(codeField(page)).toHaveCount(0);

    await page.getByRole('button', { name: 'Sign in to continue' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in to Tickerlake' });
    await expect(dialog).toBeVisible();
    const signInForm = dialog.getByRole('form', { name: 'Sign in' });
    await signInForm.getByLabel('Email or username').fill(account.email);
    await signInForm.getByLabel('Password', { exact: true }).fill(account.password);
    await signInForm.getByRole('button', { name: 'Sign In', exact: true }).click();

    await expect(dialog).toBeHidden();
    await expect(codeField(page)).toHaveValue('BCDF-GHJK');
    await expect(page).toHaveURL(/\/devauth\?code=bcdf-ghjk$/);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`every step of the page is accessible (${theme} theme)`, async ({ page, request }) => {
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      const account = await createAccount(request);
      const issued = await toolAsksForCode(request, 'Tickerlake CLI');
      await openPage(page, pathOf(issued.verification_uri_complete));
      await expect(page.getByRole('button', { name: 'Sign in to continue' })).toBeVisible();
      expect(await accessibilityViolations(page), 'signed out').toEqual([]);

      await signInThroughApi(page, account);
      await expect(codeField(page)).toBeVisible();
      expect(await accessibilityViolations(page), 'entering the code').toEqual([]);

      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('button', { name: 'Approve' })).toBeVisible();
      expect(await accessibilityViolations(page), 'confirming').toEqual([]);

      await page.getByRole('button', { name: 'Approve' }).click();
      await expect(page.getByRole('heading', { name: 'Tool connected' })).toBeVisible();
      expect(await accessibilityViolations(page), 'done').toEqual([]);
    });
  }
});
