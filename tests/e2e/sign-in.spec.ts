import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  answerQuestionnaire,
  AUTH_EMULATOR_URL,
  createAccount,
  openPage,
  uniqueEmail,
  updateIdentity,
} from './fixtures.ts';

const DASHBOARD = '/developer/docs/dashboard';

/** The sign-in form of the /login page, found by its heading. */
function signInPage(page: Page) {
  return page.getByRole('form', { name: 'Sign in to Tickerlake' });
}

/** The header shows the signed-in auth block: Dashboard and the account menu. */
async function expectSignedIn(page: Page): Promise<void> {
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(header.getByRole('button', { name: /^Account menu/ })).toBeVisible();
}

/** Opens the auth pop-up on its sign-in view, as the shell's controls do, and returns that view. */
async function openSignInPopup(page: Page) {
  await page.waitForFunction(() => window.appStores !== undefined);
  await page.evaluate(() => window.appStores?.openAuthPopup(1));
  return page
    .getByRole('dialog', { name: 'Sign in to Tickerlake' })
    .getByRole('tabpanel', { name: 'Sign in' });
}

/** A message shown both as the error flash and next to the form. */
async function expectError(page: Page, text: string): Promise<void> {
  await expect(page.getByRole('alert').filter({ hasText: text })).toHaveCount(2);
}

/**
 * Signs in at the Auth emulator as the Google account the sign-in form names for an address (its
 * Google account id is the address's bytes in hex, as the form derives it) and returns its ID token.
 */
async function googleIdToken(request: APIRequestContext, email: string): Promise<string> {
  const claims = { sub: Buffer.from(email.toLowerCase()).toString('hex'), email, email_verified: true };
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
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
  return String(((await signedIn.json()) as { idToken: unknown }).idToken);
}

/**
 * Creates a Google account that has finished signing up, as an earlier Google sign-up would have:
 * the identity in the Auth emulator, its account on the site and its questionnaire on record.
 */
async function createGoogleAccount(request: APIRequestContext, email: string): Promise<void> {
  const idToken = await googleIdToken(request, email);
  // Before validate-user, whose session cookie would make this a cookie-borne (cross-site) call.
  const survey = await request.post('/api/portal/account/submit-survey', {
    data: {
      email,
      type: 'signup',
      'Primary purpose for using the API': 'Other',
      'Dataset most interested in': 'Other',
      'Most important aspect in a provider': 'Data Accuracy',
      'Role in organization': 'Other',
      'How did you hear about us': 'Other',
    },
    headers: { Authorization: `Bearer ${idToken}` },
  });
  expect(survey.ok(), await survey.text()).toBe(true);
  const validated = await request.get('/api/portal/auth/validate-user', { params: { accessToken: idToken } });
  expect(validated.ok(), await validated.text()).toBe(true);
}

/** Whether the site has the sign-up questionnaire on record for a Google account's address. */
async function surveyOnRecord(request: APIRequestContext, email: string): Promise<boolean> {
  const answer = await request.get('/api/portal/account/get-survey', {
    params: { email, type: 'signup' },
    headers: { Authorization: `Bearer ${await googleIdToken(request, email)}` },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  return 'email' in ((await answer.json()) as Record<string, unknown>);
}

/** Signs in with Google as the local Auth emulator offers it: by naming the Google account. */
async function signInWithGoogle(scope: Page | Locator, email: string): Promise<void> {
  await scope.getByRole('button', { name: 'Sign in with Google' }).click();
  const google = scope.getByRole('form', { name: 'Sign in with Google' });
  await expect(google.getByLabel('Google account email')).toBeFocused();
  await google.getByLabel('Google account email').fill(email);
  await google.getByRole('button', { name: 'Continue with Google' }).click();
}

test.describe('sign in', () => {
  test('a customer signs in with their email and lands on the dashboard', async ({ page, request }) => {
    const account = await createAccount(request);
    await openPage(page, '/login');
    // A sign-up shortly before leaves these marks; signing in clears them.
    await page.evaluate(() => {
      document.cookie = 'new_registration=true; path=/';
      sessionStorage.setItem('new_registration', 'true');
    });
    const form = signInPage(page);
    await form.getByLabel('Email or username').fill(account.email);
    await form.getByLabel('Password').fill(account.password);
    await form.getByRole('button', { name: 'Sign In', exact: true }).click();

    await expect(page).toHaveURL(DASHBOARD);
    await expectSignedIn(page);
    expect(await page.evaluate(() => document.cookie)).not.toContain('new_registration');
    expect(await page.evaluate(() => sessionStorage.getItem('new_registration'))).toBeNull();
  });

  test('a customer sent to sign in returns to the page they asked for', async ({ page, request }) => {
    const account = await createAccount(request);
    await openPage(page, '/login?redirect=%2Fprivacy-policy');
    const form = signInPage(page);
    await form.getByLabel('Email or username').fill(account.email);
    await form.getByLabel('Password').fill(account.password);
    await form.getByRole('button', { name: 'Sign In', exact: true }).click();

    await expect(page).toHaveURL(/\/privacy-policy$/);
    await expectSignedIn(page);
  });

  test('the Sign In button is busy while the server answers', async ({ page, request }) => {
    const account = await createAccount(request);
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    await page.route('**/api/app/auth/signin', async (route) => {
      await held;
      await route.continue();
    });
    await openPage(page, '/login');
    const form = signInPage(page);
    const button = form.getByRole('button', { name: 'Sign In', exact: true });
    await form.getByLabel('Email or username').fill(account.email);
    await form.getByLabel('Password').fill(account.password);
    await button.click();

    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('aria-busy', 'true');
    answer();
    await expect(page).toHaveURL(DASHBOARD);
  });

  test('a customer signs in with their username', async ({ page, request }) => {
    const account = await createAccount(request);
    await openPage(page, '/login');
    const form = signInPage(page);
    await form.getByLabel('Email or username').fill(account.username);
    await form.getByLabel('Password').fill(account.password);
    await form.getByRole('button', { name: 'Sign In', exact: true }).click();

    await expect(page).toHaveURL(DASHBOARD);
    await expectSignedIn(page);
  });

  test('a wrong password is refused and the form keeps the login', async ({ page, request }) => {
    const account = await createAccount(request);
    await openPage(page, '/login');
    const form = signInPage(page);
    await form.getByLabel('Email or username').fill(account.email);
    await form.getByLabel('Password').fill('not-the-password');
    await form.getByRole('button', { name: 'Sign In', exact: true }).click();

    await expectError(page, 'Invalid email/username or password.');
    await expect(page).toHaveURL(/\/login$/);
    await expect(form.getByLabel('Email or username')).toHaveValue(account.email);
    await expect(form.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled();
  });

  test('a blocked account cannot sign in', async ({ page, request }) => {
    const account = await createAccount(request);
    await updateIdentity(request, account.uid, { disableUser: true });
    await openPage(page, '/login');
    const form = signInPage(page);
    await form.getByLabel('Email or username').fill(account.email);
    await form.getByLabel('Password').fill(account.password);
    await form.getByRole('button', { name: 'Sign In', exact: true }).click();

    await expectError(page, 'Your account has been blocked. Please contact support.');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('submitting empty fields asks for them', async ({ page }) => {
    await openPage(page, '/login');
    await signInPage(page).getByRole('button', { name: 'Sign In', exact: true }).click();
    await expectError(page, 'Please fill all the fields.');
  });

  test('an error handed to the page is shown as a flash message', async ({ page }) => {
    await openPage(page, '/login?error=Something%20failed');
    const flash = page.getByRole('alert').filter({ hasText: 'Something failed' });
    await expect(flash).toBeVisible();
    // The banner sits under the header: the navigation stays visible and usable while it shows.
    const header = await page.getByRole('banner').boundingBox();
    const banner = await flash.boundingBox();
    expect(banner?.y ?? 0).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Pricing' }).click();
  });

  test('an email handed to the page is filled in', async ({ page }) => {
    await openPage(page, '/login?email=a@b.co');
    await expect(signInPage(page).getByLabel('Email or username')).toHaveValue('a@b.co');
  });

  test('the page leads to password reset and to sign-up', async ({ page }) => {
    await openPage(page, '/login');
    const screen = page.getByRole('main');
    await expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgotpassword',
    );
    await expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
  });

  test('signing in from the pop-up closes it and stays on the page', async ({ page, request }) => {
    const account = await createAccount(request);
    await openPage(page, '/terms-of-service');
    const popup = await openSignInPopup(page);
    await expect(popup.getByLabel('Email or username')).toBeFocused();
    await popup.getByLabel('Email or username').fill(account.email);
    await popup.getByLabel('Password').fill(account.password);
    await popup.getByRole('button', { name: 'Sign In', exact: true }).click();

    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page).toHaveURL(/\/terms-of-service$/);
    await expectSignedIn(page);
  });

  test("the pop-up's sign-up link switches to the sign-up view", async ({ page }) => {
    await openPage(page, '/terms-of-service');
    const popup = await openSignInPopup(page);
    await popup.getByRole('link', { name: 'Sign up' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('tab', { name: 'Sign up' })).toHaveAttribute('aria-selected', 'true');
    await expect(dialog.getByRole('tabpanel', { name: 'Sign up' })).toBeVisible();
    await expect(page).toHaveURL(/\/terms-of-service$/);
  });

  test('a Google user whose sign-up is finished signs straight in with their Google account', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('google');
    await createGoogleAccount(request, email);
    await openPage(page, '/login');
    await signInWithGoogle(page, email);

    await expect(page).toHaveURL(DASHBOARD);
    await expectSignedIn(page);
  });

  test('a new visitor who signs in with Google from /login answers the questionnaire and reaches the dashboard', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('google-new');
    await openPage(page, '/login');
    await signInWithGoogle(page, email);

    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Get Your Free API Key', level: 1 })).toBeVisible();
    await expect(main.getByRole('group', { name: /Primary purpose for using the API/ })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    // The session is stored only once the questionnaire is done.
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    await answerQuestionnaire(main);

    await expect(page).toHaveURL(DASHBOARD);
    await expectSignedIn(page);
    expect(await surveyOnRecord(request, email)).toBe(true);
    expect(await page.evaluate(() => window.dataLayer)).toContainEqual({
      event: 'sign_up',
      method: 'google.com',
      category: 'Page',
    });
  });

  test('a new visitor who signs in with Google in the pop-up answers the questionnaire there and stays on the page', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('google-popup');
    await openPage(page, '/terms-of-service');
    await signInWithGoogle(await openSignInPopup(page), email);

    const dialog = page.getByRole('dialog', { name: 'Sign up for a free API key' });
    await expect(dialog.getByRole('tab', { name: 'Sign up' })).toHaveAttribute('aria-selected', 'true');
    const view = dialog.getByRole('tabpanel', { name: 'Sign up' });
    await expect(view.getByRole('heading', { name: 'Get Your Free API Key' })).toBeVisible();
    await answerQuestionnaire(view);

    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page).toHaveURL(/\/terms-of-service$/);
    await expectSignedIn(page);
    expect(await surveyOnRecord(request, email)).toBe(true);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the sign-in page and pop-up have no accessibility violations (${theme})`, async ({ page }) => {
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      await openPage(page, '/login');
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      const violations = async (): Promise<string[]> =>
        (await new AxeBuilder({ page }).analyze()).violations.map(
          (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
        );
      expect(await violations()).toEqual([]);
      await page.getByRole('button', { name: 'Sign in with Google' }).click();
      await expect(page.getByLabel('Google account email')).toBeFocused();
      expect(await violations()).toEqual([]);
      await openSignInPopup(page);
      await expect(page.getByRole('dialog')).toBeVisible();
      expect(await violations()).toEqual([]);
    });
  }
});
