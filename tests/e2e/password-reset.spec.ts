import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import {
  AUTH_EMULATOR_URL,
  AUTH_PROJECT_ID,
  createAccount,
  DATA_API_URL,
  openPage,
  signInThroughApi,
  type Account,
} from './fixtures.ts';

const DASHBOARD = '/developer/docs/dashboard';
const NEW_PASSWORD = 'a-new-secret-77';

/** The card of the page the emailed links open, found by its heading. */
function newPasswordForm(page: Page) {
  return page.getByRole('form', { name: 'Reset your password' });
}

/** The page's one live region (the flash banner is an alert, not a status). */
function pageStatus(page: Page) {
  return page.getByRole('main').getByRole('status');
}

/**
 * Opens the newest message of a kind for an address in the local mailbox, as someone reading their
 * inbox would, and follows its link, which opens in a new tab.
 */
async function followMailboxLink(context: BrowserContext, email: string, linkName: string): Promise<Page> {
  const mailbox = await context.newPage();
  await openPage(mailbox, '/dev/mailbox');
  await mailbox.getByLabel('Filter by address').fill(email);
  const [opened] = await Promise.all([
    context.waitForEvent('page'),
    mailbox
      .getByRole('link', { name: `${linkName} for ${email}` })
      .first()
      .click(),
  ]);
  await mailbox.close();
  await opened.waitForLoadState();
  return opened;
}

/** The code the Auth emulator issued for the newest message of a kind to an address. */
async function latestCode(request: APIRequestContext, email: string, requestType: string): Promise<string> {
  const answer = await request.get(`${AUTH_EMULATOR_URL}/emulator/v1/projects/${AUTH_PROJECT_ID}/oobCodes`);
  const { oobCodes } = (await answer.json()) as {
    oobCodes: { email: string; requestType: string; oobCode: string }[];
  };
  const code = oobCodes.filter((c) => c.email === email && c.requestType === requestType).at(-1);
  if (code === undefined) throw new Error(`no ${requestType} code for ${email}`);
  return code.oobCode;
}

/** Has the emulator send the account a verification email, as the sign-up does. */
async function mailVerification(request: APIRequestContext, account: Account): Promise<string> {
  const toolkit = `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts`;
  const signedIn = await request.post(`${toolkit}:signInWithPassword?key=demo-api-key`, {
    data: { email: account.email, password: account.password, returnSecureToken: true },
  });
  const { idToken } = (await signedIn.json()) as { idToken: string };
  const sent = await request.post(`${toolkit}:sendOobCode?key=demo-api-key`, {
    data: { requestType: 'VERIFY_EMAIL', idToken },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  return latestCode(request, account.email, 'VERIFY_EMAIL');
}

async function signInOnLoginPage(page: Page, email: string, password: string): Promise<void> {
  await openPage(page, '/login');
  const form = page.getByRole('form', { name: 'Sign in to Tickerlake' });
  await form.getByLabel('Email or username').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
}

test.describe('resetting a forgotten password', () => {
  test('a customer who forgot their password sets a new one from the emailed link, is signed in, and only the new password works from then on', async ({
    page,
    context,
    browser,
    request,
  }) => {
    // Four pages in two browsers, one of them cold (the later sign-in loads /login's whole script).
    test.slow();
    const account = await createAccount(request);

    await openPage(page, '/forgotpassword');
    await page.getByRole('form', { name: 'Reset your password' }).getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('form', { name: 'Reset your password' }).getByRole('status')).toHaveText(
      `If an account exists for ${account.email}, a link to reset your password is on its way.`,
    );

    const action = await followMailboxLink(context, account.email, 'Reset password');
    await expect(action).toHaveURL(/\/auth\/action\?mode=resetPassword&oobCode=/);
    const link = action.url();
    const form = newPasswordForm(action);
    await expect(form).toContainText(`Choose a new password for ${account.email}.`);
    await action.waitForFunction(
      () => document.querySelectorAll('astro-island[ssr]:not([client="demand"])').length === 0,
    );

    const password = form.getByLabel('New password', { exact: true });
    const confirm = form.getByLabel('Confirm new password');
    const save = form.getByRole('button', { name: 'Save new password' });

    await password.fill('12345');
    await confirm.fill('12345');
    await save.click();
    await expect(pageStatus(action)).toHaveText('Password should be at least 6 characters.');
    await expect(password).toHaveAttribute('aria-invalid', 'true');

    await password.fill(NEW_PASSWORD);
    await confirm.fill(`${NEW_PASSWORD}!`);
    await save.click();
    await expect(pageStatus(action)).toHaveText('The two passwords do not match.');
    await expect(confirm).toHaveAttribute('aria-invalid', 'true');

    await confirm.fill(NEW_PASSWORD);
    await save.click();
    await expect(action).toHaveURL(DASHBOARD);
    await expect(action.getByRole('heading', { name: `Welcome, ${account.username}` })).toBeVisible();

    // The link works once.
    await openPage(action, link);
    await expect(pageStatus(action)).toHaveText(
      'This password reset link is not valid or has already been used.',
    );
    await expect(action.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/forgotpassword',
    );

    // Later, in another browser: the old password is refused, the new one signs in.
    const later = await browser.newContext();
    const laterPage = await later.newPage();
    await signInOnLoginPage(laterPage, account.email, account.password);
    await expect(
      laterPage.getByRole('alert').filter({ hasText: 'Invalid email/username or password.' }),
    ).toHaveCount(2);
    await laterPage.getByLabel('Password').fill(NEW_PASSWORD);
    await laterPage.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(laterPage).toHaveURL(DASHBOARD);
    await later.close();
  });

  test('a link nobody issued is refused, with the way to a new one', async ({ page }) => {
    await openPage(page, '/auth/action?mode=resetPassword&oobCode=made-up-code');
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await expect(pageStatus(page)).toHaveText(
      'This password reset link is not valid or has already been used.',
    );
    await expect(page.getByRole('alert')).toHaveText(
      'This password reset link is not valid or has already been used.',
    );
    await expect(newPasswordForm(page)).toHaveCount(0);
    await page.getByRole('link', { name: 'Request a new link' }).click();
    await expect(page).toHaveURL(/\/forgotpassword$/);
  });

  test('a link without its code, or of a kind the site does not handle, says so', async ({ page }) => {
    await openPage(page, '/auth/action?mode=resetPassword');
    await expect(pageStatus(page)).toHaveText(
      'This link is incomplete: it has no code. Open the link from the email again, or ask for a new one.',
    );
    await expect(page.getByRole('link', { name: 'Request a new link' })).toBeVisible();

    await openPage(page, '/auth/action?mode=recoverEmail&oobCode=abc');
    await expect(page.getByRole('heading', { name: 'This link cannot be opened' })).toBeVisible();
    await expect(pageStatus(page)).toHaveText(
      'This link is not one this site can open. Use the link in the most recent email we sent you, or ask for a new one.',
    );
    await expect(page.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  });

  test('when the server cannot be reached the page says so and tries again on request', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await request.post(
      `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=demo-api-key`,
      {
        data: { requestType: 'PASSWORD_RESET', email: account.email },
      },
    );
    const oobCode = await latestCode(request, account.email, 'PASSWORD_RESET');
    // A lost connection cannot be staged against the real server: the first check is dropped here.
    let dropped = false;
    await page.route('**/api/portal/auth/password-reset/check', async (route) => {
      if (dropped) return route.continue();
      dropped = true;
      return route.abort('internetdisconnected');
    });
    await openPage(page, `/auth/action?mode=resetPassword&oobCode=${encodeURIComponent(oobCode)}`);
    await expect(pageStatus(page)).toHaveText(
      'We could not reach the server. Please check your connection and try again.',
    );
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(newPasswordForm(page)).toContainText(`Choose a new password for ${account.email}.`);
  });
});

test.describe('verifying an email address', () => {
  test('a signed-in developer follows the verification link from the local mailbox and the dashboard stops asking', async ({
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
    await verification.getByRole('button', { name: 'Resend verification email' }).click();
    await expect(verification.getByRole('status')).toContainText(
      `We sent a verification email to ${account.email}.`,
    );

    const action = await followMailboxLink(context, account.email, 'Verify email address');
    await expect(action).toHaveURL(/\/auth\/action\?mode=verifyEmail&oobCode=/);
    await expect(action.getByRole('heading', { name: 'Email address verified' })).toBeVisible();
    await expect(pageStatus(action)).toHaveText(
      'Thank you: your email address is verified and your API key is active.',
    );
    await action.getByRole('link', { name: 'Go to your dashboard' }).click();
    await expect(action).toHaveURL(DASHBOARD);
    const verified = action.getByRole('region', { name: 'Email verification' });
    await expect(verified).toContainText(`${account.email} is verified. Your API key is active.`);
    await expect(verified.getByRole('button', { name: 'Resend verification email' })).toHaveCount(0);
  });

  test('a signed-out customer verifies from the link: the API key works at once and signing in shows it', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    const signedIn = await request.post('/api/app/auth/signin', {
      data: { login: account.email, password: account.password },
    });
    const { apiKey } = (await signedIn.json()) as { apiKey: string };
    const oobCode = await mailVerification(request, account);
    await openPage(page, `/auth/action?mode=verifyEmail&oobCode=${encodeURIComponent(oobCode)}`);
    await expect(pageStatus(page)).toHaveText(
      'Thank you: your email address is verified and your API key is active.',
    );
    const quote = await request.get(
      `${DATA_API_URL}/stable/quote?symbol=AAPL&apikey=${encodeURIComponent(apiKey)}`,
    );
    expect(quote.status()).toBe(200);

    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    const signIn = page.getByRole('form', { name: 'Sign in to Tickerlake' });
    await expect(signIn.getByLabel('Email or username')).toHaveValue(account.email);
    await signIn.getByLabel('Password').fill(account.password);
    await signIn.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(DASHBOARD);
    await expect(page.getByRole('region', { name: 'Email verification' })).toContainText(
      `${account.email} is verified. Your API key is active.`,
    );
  });

  test('a verification link used twice says so and leads to the dashboard to send a new one', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    const oobCode = await mailVerification(request, account);
    const link = `/auth/action?mode=verifyEmail&oobCode=${encodeURIComponent(oobCode)}`;
    await openPage(page, link);
    await expect(page.getByRole('heading', { name: 'Email address verified' })).toBeVisible();
    await openPage(page, link);
    await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    await expect(pageStatus(page)).toHaveText(
      'This verification link is not valid or has already been used.',
    );
    await expect(page.getByRole('link', { name: 'Sign in to send a new link' })).toHaveAttribute(
      'href',
      '/login',
    );
  });
});

for (const { name, viewport, theme } of [
  { name: 'a phone in dark mode', viewport: { width: 390, height: 844 }, theme: 'dark' },
  { name: 'a desktop in light mode', viewport: { width: 1280, height: 900 }, theme: 'light' },
] as const) {
  test(`the new-password form and a refused link have no accessibility violations on ${name}`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    await page.addInitScript((mode) => {
      localStorage.setItem('themeMode', mode);
    }, theme);
    const account = await createAccount(request);
    await request.post(
      `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=demo-api-key`,
      {
        data: { requestType: 'PASSWORD_RESET', email: account.email },
      },
    );
    const oobCode = await latestCode(request, account.email, 'PASSWORD_RESET');
    const pages = [
      {
        path: `/auth/action?mode=resetPassword&oobCode=${encodeURIComponent(oobCode)}`,
        ready: newPasswordForm(page).getByLabel('Confirm new password'),
      },
      {
        path: '/auth/action?mode=resetPassword&oobCode=made-up-code',
        ready: page.getByRole('link', { name: 'Request a new link' }),
      },
    ];
    for (const { path, ready } of pages) {
      await openPage(page, path);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expect(ready).toBeVisible();
      await page.waitForLoadState('networkidle');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${path} fits the screen`).toBeLessThanOrEqual(viewport.width);
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        path,
      ).toEqual([]);
    }
  });
}
