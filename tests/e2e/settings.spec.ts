import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import {
  AUTH_EMULATOR_URL,
  AUTH_PROJECT_ID,
  createAccount,
  DATA_API_URL,
  openPage,
  signInThroughApi,
  type Account,
} from './fixtures.ts';

const PAGE = '/developer/docs/settings';

async function signedInOnSettings(page: Page, account: Account): Promise<void> {
  await openPage(page, '/');
  await signInThroughApi(page, account);
  await openPage(page, PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Profile' })).toBeVisible();
}

/** The account the read-only stories share (the accessibility checks change nothing). */
let shared: Account;

test.beforeAll(async ({ request }) => {
  shared = await createAccount(request, { verified: true });
});

test.describe('Settings', () => {
  test('changing the username changes the avatar letter at once, and the name signs in afterwards', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request, { verified: true });
    await signedInOnSettings(page, account);
    const avatar = page.getByRole('banner').getByRole('button', { name: /^Account menu/ });
    await expect(avatar).toHaveText(account.username.charAt(0).toUpperCase());

    const profile = page.getByRole('region', { name: 'Profile' });
    const renamed = `zed${Date.now().toString(36)}`;
    await profile.getByLabel('Username').fill('no spaces please');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await expect(profile.getByRole('alert')).toContainText('letters, digits, dots, dashes or underscores');
    await expect(profile.getByLabel('Username')).toHaveAttribute('aria-invalid', 'true');

    await profile.getByLabel('Username').fill(renamed);
    await profile.getByLabel('First name').fill('Zoe');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await expect(profile.getByRole('status')).toHaveText('Your profile was saved.');
    await expect(avatar).toHaveText('Z');

    // The new name is the account's everywhere: it signs in.
    const signIn = await request.post('/api/app/auth/signin', {
      data: { login: renamed, password: account.password },
    });
    expect(signIn.status()).toBe(200);
    // And it survives a reload.
    await page.reload();
    await expect(page.getByRole('region', { name: 'Profile' }).getByLabel('Username')).toHaveValue(renamed);
    await expect(avatar).toHaveText('Z');
  });

  test('a user signs out their other session, and it is refused from then on', async ({ page, browser }) => {
    const account = await createAccount(page.request, { verified: true });
    const elsewhere = await browser.newContext();
    const other = await elsewhere.newPage();
    await openPage(other, '/');
    await signInThroughApi(other, account);

    await signedInOnSettings(page, account);
    const sessions = page.getByRole('region', { name: 'Where you are signed in' });
    await expect(sessions.getByRole('listitem')).toHaveCount(2);
    await expect(sessions.getByText('This browser')).toBeVisible();
    await sessions.getByRole('button', { name: 'Sign out other sessions' }).click();
    await expect(sessions.getByRole('status')).toHaveText('1 other sign-in was ended.');
    await expect(sessions.getByRole('listitem')).toHaveCount(1);

    // The other browser's refresh is refused: it is signed out when it next checks.
    const refreshed = await other.evaluate(async () => {
      const res = await fetch('/api/portal/auth/refresh-token', { credentials: 'include' });
      return res.status;
    });
    expect(refreshed).not.toBe(200);
    await elsewhere.close();
  });

  test('a user moves their account to a new address by the link sent there', async ({ page, request }) => {
    const account = await createAccount(request, { verified: true });
    await signedInOnSettings(page, account);
    const section = page.getByRole('region', { name: 'Email address' });
    const next = `moved-${Date.now().toString(36)}@example.com`;
    await section.getByLabel('New email address').fill(next);
    await section.getByLabel('Current password').fill('not-my-password');
    await section.getByRole('button', { name: 'Send confirmation link' }).click();
    await expect(section.getByRole('alert')).toHaveText('Your current password is not correct.');

    await section.getByLabel('Current password').fill(account.password);
    await section.getByRole('button', { name: 'Send confirmation link' }).click();
    await expect(section.getByRole('status')).toContainText(`We sent a link to ${next}.`);
    await expect(section).toContainText(account.email);

    const codes = await request.get(`${AUTH_EMULATOR_URL}/emulator/v1/projects/${AUTH_PROJECT_ID}/oobCodes`);
    const { oobCodes } = (await codes.json()) as {
      oobCodes: { newEmail?: string; requestType: string; oobCode: string }[];
    };
    const link = oobCodes.find(
      (code) => code.requestType === 'VERIFY_AND_CHANGE_EMAIL' && code.newEmail === next,
    );
    expect(link).toBeDefined();
    await openPage(
      page,
      `/auth/action?mode=verifyAndChangeEmail&oobCode=${encodeURIComponent(link?.oobCode ?? '')}`,
    );
    await expect(page.getByRole('heading', { level: 1, name: 'Email address changed' })).toBeVisible();
    await expect(page.getByText(`Your account now uses ${next}.`)).toBeVisible();

    await openPage(page, PAGE);
    await expect(page.getByRole('region', { name: 'Email address' })).toContainText(next);
  });

  test('a user links their Google account, signs in with it, and unlinks it again', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request, { verified: true });
    await signedInOnSettings(page, account);
    const google = page.getByRole('region', { name: 'Sign in with Google' });
    await google.getByRole('button', { name: 'Link Google account' }).click();
    // The local Auth emulator has no Google window: the page asks which Google address to link.
    await google.getByLabel('Google account to link').fill(account.email);
    await google.getByRole('button', { name: 'Link', exact: true }).click();
    await expect(google.getByRole('status')).toHaveText('You can now sign in with Google as well.');
    await expect(google).toContainText('Google is linked');

    // A Google sign-in as that address (the emulator's Google id is the address in hex, as the
    // site's emulator sign-in makes it) now reaches this account's identity.
    const claims = {
      sub: Buffer.from(account.email.toLowerCase()).toString('hex'),
      email: account.email,
      email_verified: true,
    };
    const signedIn = await request.post(
      `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=demo-api-key`,
      {
        data: {
          postBody: `id_token=${encodeURIComponent(JSON.stringify(claims))}&providerId=google.com`,
          requestUri: 'http://localhost',
          returnSecureToken: true,
        },
      },
    );
    expect(((await signedIn.json()) as { localId: string }).localId).toBe(account.uid);

    await google.getByRole('button', { name: 'Unlink Google' }).click();
    await expect(google.getByRole('status')).toHaveText('Google no longer signs in to your account.');
    await expect(google.getByRole('button', { name: 'Link Google account' })).toBeVisible();
  });

  test('a user deletes their account: the key stops at once and they are signed out', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request, { verified: true });
    await signedInOnSettings(page, account);
    const key = await page.evaluate(() => window.appStores?.$user.get().apiKey ?? '');
    const quote = () => request.get(`${DATA_API_URL}/stable/quote?symbol=AAPL&apikey=${key}`);
    expect((await quote()).status()).toBe(200);

    const data = page.getByRole('region', { name: 'Your data' });
    const download = page.waitForEvent('download');
    await data.getByRole('button', { name: 'Download my data' }).click();
    expect((await download).suggestedFilename()).toMatch(
      new RegExp(`^account-${account.username}-.+\\.json$`),
    );

    await data.getByRole('button', { name: 'Delete account…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel(/Type your username/).fill('not-my-name');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog.getByText('Type your username exactly to confirm the deletion.')).toBeVisible();
    await dialog.getByLabel(/Type your username/).fill(account.username);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Your account was deleted' })).toBeVisible();

    const refused = await quote();
    expect(refused.status()).toBe(401);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    const signIn = await request.post('/api/app/auth/signin', {
      data: { login: account.email, password: account.password },
    });
    expect(signIn.status()).toBe(401);
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const viewport of [
      { name: 'desktop', width: 1280 },
      { name: 'phone', width: 390 },
    ]) {
      test(`the settings page has no accessibility violations (${theme}, ${viewport.name})`, async ({
        page,
      }) => {
        // A full axe run over six sections of forms takes a while on a busy machine.
        test.slow();
        await page.setViewportSize({ width: viewport.width, height: 900 });
        await page.addInitScript((mode) => {
          localStorage.setItem('themeMode', mode);
        }, theme);
        await signedInOnSettings(page, shared);
        await expect(page.getByRole('region', { name: 'Where you are signed in' })).toBeVisible();
        const results = await new AxeBuilder({ page }).analyze();
        expect(
          results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        ).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.width,
        );
      });
    }
  }
});
