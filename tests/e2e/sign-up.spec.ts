import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { AUTH_EMULATOR_URL, AUTH_PROJECT_ID, createAccount, openPage, uniqueEmail } from './fixtures.ts';

const PASSWORD = 'correct-horse-42';
const DASHBOARD = '/developer/docs/dashboard';
const AGREEMENT = 'Please agree to the terms and conditions & privacy policy before proceeding.';
const PREPARING = 'We are preparing your API key, which will be ready in just a few seconds....';
const KEY_GENERATED =
  'The API Key has been generated! A verification email has been sent to your account to activate the key.';
const SUCCESS = 'User created successfully. Please check your email to verify your account.';
const LEAVE = 'You have attempted to leave this page. Are you sure?';

/** The first option of each question, in order; the stories answer with these unless they say otherwise. */
const FIRST_OPTIONS = [
  'Investment Analysis',
  'Live Stock Data',
  'Affordability',
  'Developer',
  'Search Engine',
] as const;

/** The sign-up form of the /register page, found by its heading. */
function signUpPage(page: Page): Locator {
  return page.getByRole('form', { name: 'Sign up for a free API key' });
}

/** Opens the auth pop-up on its sign-up view, as the shell's controls do, and returns that view. */
async function openSignUpPopup(page: Page): Promise<Locator> {
  await page.waitForFunction(() => window.appStores !== undefined);
  await page.evaluate(() => window.appStores?.openAuthPopup(2));
  return page
    .getByRole('dialog', { name: 'Sign up for a free API key' })
    .getByRole('tabpanel', { name: 'Sign up' });
}

/** Fills the email and password and presses Sign up, within the page or the pop-up view. */
async function fillAndSubmit(scope: Locator, email: string, password = PASSWORD): Promise<void> {
  await scope.getByLabel('Email', { exact: true }).fill(email);
  await scope.getByLabel('Password', { exact: true }).fill(password);
  await scope.getByRole('button', { name: 'Sign up', exact: true }).click();
}

/** Answers the questions from the one on screen to the last with the given options. */
async function answer(scope: Locator, options: readonly string[]): Promise<void> {
  for (const option of options) await scope.getByRole('button', { name: option, exact: true }).click();
}

/** A message shown both as the error flash and next to the form. */
async function expectError(page: Page, text: string): Promise<void> {
  await expect(page.getByRole('alert').filter({ hasText: text })).toHaveCount(2);
}

/** The header's auth block: Dashboard and the account menu while signed in, Sign In otherwise. */
async function expectSignedIn(page: Page): Promise<void> {
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(header.getByRole('button', { name: /^Account menu/ })).toBeVisible();
}

/**
 * A Firebase ID token of the account with this address, signed in at the Auth emulator as its owner
 * would: with the password, or as the Google account the local sign-in names (whose subject is the
 * address in hex, as the site's emulator sign-in makes it).
 */
async function idTokenOf(request: APIRequestContext, email: string, password?: string): Promise<string> {
  const base = `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts`;
  const answer =
    password === undefined
      ? await request.post(`${base}:signInWithIdp?key=demo-api-key`, {
          data: {
            postBody: `id_token=${encodeURIComponent(
              JSON.stringify({ sub: Buffer.from(email).toString('hex'), email, email_verified: true }),
            )}&providerId=google.com`,
            requestUri: 'http://localhost',
            returnSecureToken: true,
          },
        })
      : await request.post(`${base}:signInWithPassword?key=demo-api-key`, {
          data: { email, password, returnSecureToken: true },
        });
  expect(answer.ok(), await answer.text()).toBe(true);
  return String(((await answer.json()) as { idToken: unknown }).idToken);
}

/** Whether the site has the sign-up questionnaire on record for an address, asked as its owner. */
async function surveyOnRecord(
  request: APIRequestContext,
  email: string,
  password?: string,
): Promise<boolean> {
  const answer = await request.get('/api/portal/account/get-survey', {
    params: { email, type: 'signup' },
    headers: { Authorization: `Bearer ${await idTokenOf(request, email, password)}` },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  return 'email' in ((await answer.json()) as Record<string, unknown>);
}

/** The kinds of mail the Auth emulator has sent to an address (VERIFY_EMAIL, PASSWORD_RESET, …). */
async function mailKinds(request: APIRequestContext, email: string): Promise<string[]> {
  const answer = await request.get(`${AUTH_EMULATOR_URL}/emulator/v1/projects/${AUTH_PROJECT_ID}/oobCodes`);
  const { oobCodes } = (await answer.json()) as { oobCodes: { email: string; requestType: string }[] };
  return oobCodes.filter((code) => code.email === email).map((code) => code.requestType);
}

test.describe('sign up on the page', () => {
  test('a visitor signs up, answers the five questions and gets the key generated', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('signup');
    await openPage(page, '/register');
    const form = signUpPage(page);
    await expect(form.getByRole('checkbox', { name: /I agree to the Terms of Use/ })).toBeChecked();
    await expect(form.getByRole('link', { name: /Terms of Use/ })).toHaveAttribute(
      'href',
      '/terms-of-service',
    );
    await expect(form.getByRole('link', { name: /Privacy Policy/ })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
    await fillAndSubmit(form, email);

    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Get Your Free API Key', level: 1 })).toBeVisible();
    await expect(
      main.getByText(
        'Finish your account registration by identifying how you plan to use your powerful API key!',
      ),
    ).toBeVisible();
    await expect(main.getByRole('group', { name: /Primary purpose for using the API/ })).toBeVisible();
    await expect(main.getByRole('button', { name: 'Step 1 of 5' })).toHaveAttribute('aria-current', 'step');
    await expect(main.getByRole('button', { name: 'Step 2 of 5' })).toBeDisabled();
    await expect(main.getByRole('button', { name: 'Submit' })).toHaveCount(0);

    await answer(main, ['Market Research', 'Financial Statements']);
    await expect(main.getByRole('group', { name: /Most important aspect in a provider/ })).toBeVisible();
    await expect(main.getByRole('button', { name: 'Step 3 of 5' })).toHaveAttribute('aria-current', 'step');
    await expect(main.getByRole('button', { name: 'Step 4 of 5' })).toBeDisabled();

    // The dots lead back to a step already answered, with its answer kept, and forward again.
    await main.getByRole('button', { name: 'Step 1 of 5' }).click();
    await expect(main.getByRole('group', { name: /Primary purpose for using the API/ })).toBeVisible();
    await expect(main.getByRole('button', { name: 'Market Research' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await main.getByRole('button', { name: 'Step 3 of 5' }).click();
    await expect(main.getByRole('group', { name: /Most important aspect in a provider/ })).toBeVisible();

    // Leaving mid-questionnaire asks first; declining stays on the questionnaire.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click();
    await expect.poll(() => asked).toEqual([`confirm: ${LEAVE}`]);
    await expect(page).toHaveURL(/\/register$/);
    await expect(main.getByRole('group', { name: /Most important aspect in a provider/ })).toBeVisible();

    await answer(main, ['Data Accuracy', 'Student']);
    await expect(main.getByRole('button', { name: 'Submit' })).toHaveCount(0);
    await answer(main, ['Referral']);
    await expect(main.getByRole('button', { name: 'Step 5 of 5' })).toHaveAttribute('aria-current', 'step');

    // The registration call is held until the preparing view has been seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/portal/user/register-user', async (route) => {
      await held;
      await route.continue();
    });
    await main.getByRole('button', { name: 'Submit' }).click();
    await expect(main.getByText(PREPARING)).toBeVisible();
    release();

    await expect(main.getByText(KEY_GENERATED)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: SUCCESS })).toBeVisible();
    await expectSignedIn(page);
    expect(await surveyOnRecord(request, email, PASSWORD)).toBe(true);
    expect(await mailKinds(request, email)).toContain('VERIFY_EMAIL');

    // About four seconds later the short session ends and the new registration is marked and counted.
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible({
      timeout: 10_000,
    });
    const cookie = (await page.context().cookies()).find(({ name }) => name === 'new_registration');
    expect(cookie?.value).toBe('true');
    expect((cookie?.expires ?? 0) - Date.now() / 1000).toBeLessThanOrEqual(300);
    expect(await page.evaluate(() => sessionStorage.getItem('new_registration'))).toBe('true');
    expect(await page.evaluate(() => window.dataLayer)).toContainEqual({
      event: 'sign_up',
      method: 'Email',
      category: 'Page',
    });
    await expect(main.getByText(KEY_GENERATED)).toBeVisible();

    await main.getByRole('link', { name: 'Log In' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('closing the page mid-questionnaire asks the browser to confirm', async ({ page }) => {
    await openPage(page, '/register');
    await fillAndSubmit(signUpPage(page), uniqueEmail('unload'));
    await answer(page.getByRole('main'), ['Market Research']);
    const dialog = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const shown = await dialog;
    expect(shown.type()).toBe('beforeunload');
    await shown.dismiss();
    expect(page.isClosed()).toBe(false);
  });

  test('the email and error query parameters prefill the form and show a flash', async ({ page }) => {
    await openPage(page, '/register?email=ann%40example.com&error=That%20link%20has%20expired.');
    await expect(signUpPage(page).getByLabel('Email', { exact: true })).toHaveValue('ann@example.com');
    await expect(page.getByRole('alert').filter({ hasText: 'That link has expired.' })).toBeVisible();
  });

  test('the sign-in link leads to /login', async ({ page }) => {
    await openPage(page, '/register');
    await page.getByRole('main').getByRole('link', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('sign up in the pop-up', () => {
  test('the questionnaire takes the place of the form and the pop-up turns into sign-in afterwards', async ({
    page,
  }) => {
    const email = uniqueEmail('popup');
    await openPage(page, '/');
    const view = await openSignUpPopup(page);
    await fillAndSubmit(view, email);
    await expect(view.getByRole('heading', { name: 'Get Your Free API Key' })).toBeVisible();
    await expect(view.getByLabel('Email', { exact: true })).toHaveCount(0);
    await answer(view, FIRST_OPTIONS);
    await view.getByRole('button', { name: 'Submit' }).click();

    await expect(view.getByText(KEY_GENERATED)).toBeVisible();
    const dialog = page.getByRole('dialog');
    // Signed out about four seconds later, and switched to sign-in about one second after that.
    await expect(dialog.getByRole('tab', { name: 'Sign in' })).toHaveAttribute('aria-selected', 'true', {
      timeout: 10_000,
    });
    await expect(dialog.getByLabel('Email or username')).toHaveValue(email);
    expect(await page.evaluate(() => window.dataLayer)).toContainEqual({
      event: 'sign_up',
      method: 'Email',
      category: 'Popup',
    });
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeAttached();
  });

  test('the sign-in link switches the pop-up to its sign-in view', async ({ page }) => {
    await openPage(page, '/');
    const view = await openSignUpPopup(page);
    await view.getByRole('link', { name: 'Sign in' }).click();
    await expect(page.getByRole('dialog').getByRole('tab', { name: 'Sign in' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('sign-up checks', () => {
  test('the agreement must be ticked, for the form and for Google', async ({ page }) => {
    await openPage(page, '/register');
    const form = signUpPage(page);
    await form.getByRole('checkbox', { name: /I agree/ }).uncheck();
    await fillAndSubmit(form, uniqueEmail('terms'));
    await expect(form.getByRole('alert')).toHaveText(AGREEMENT);
    await expect(page.getByRole('alert').filter({ hasText: AGREEMENT })).toHaveCount(2);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expectError(page, AGREEMENT);
    await expect(page.getByLabel('Google account email')).toHaveCount(0);
  });

  test('Sign up waits for both fields, and Enter with one empty says so', async ({ page }) => {
    await openPage(page, '/register');
    const form = signUpPage(page);
    const submit = form.getByRole('button', { name: 'Sign up', exact: true });
    await expect(submit).toBeDisabled();
    await form.getByLabel('Email', { exact: true }).fill(uniqueEmail('empty'));
    await expect(submit).toBeDisabled();
    await form.getByLabel('Email', { exact: true }).press('Enter');
    await expect(form.getByRole('alert')).toHaveText('Please fill all the fields.');
    await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await expect(submit).toBeEnabled();
  });

  test('an address the server finds invalid is refused in its words', async ({ page }) => {
    await openPage(page, '/register');
    await fillAndSubmit(signUpPage(page), 'not-an-address');
    await expectError(page, 'Please enter a valid email address.');
  });

  test('an address that already has an account is refused', async ({ page, request }) => {
    const account = await createAccount(request);
    await openPage(page, '/register');
    await fillAndSubmit(signUpPage(page), account.email);
    await expectError(page, 'User already exists.');
  });

  test('an address the identity provider already knows is refused when the account is created', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('identity');
    const created = await request.post(
      `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
      { data: { email, password: PASSWORD, returnSecureToken: true } },
    );
    expect(created.ok()).toBe(true);
    await openPage(page, '/register');
    await fillAndSubmit(signUpPage(page), email);
    const main = page.getByRole('main');
    await answer(main, FIRST_OPTIONS);
    await main.getByRole('button', { name: 'Submit' }).click();
    await expectError(page, 'User already exists.');
    await expect(signUpPage(page).getByLabel('Email', { exact: true })).toHaveValue(email);
  });

  test('a password under six characters is refused', async ({ page }) => {
    await openPage(page, '/register');
    await fillAndSubmit(signUpPage(page), uniqueEmail('weak'), 'abc');
    await expectError(page, 'Password should be at least 6 characters.');
  });
});

test.describe('sign up with Google', () => {
  /** Continues with Google as the local Auth emulator offers it: by naming the Google account. */
  async function continueWithGoogle(page: Page, email: string): Promise<void> {
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await page.getByLabel('Google account email').fill(email);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
  }

  test('a new Google user answers the questionnaire and ends signed in on the dashboard', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('google');
    await openPage(page, '/register');
    await continueWithGoogle(page, email);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Get Your Free API Key' })).toBeVisible();
    await answer(main, FIRST_OPTIONS);
    await main.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(new RegExp(`${DASHBOARD}$`));
    await expectSignedIn(page);
    expect(await surveyOnRecord(request, email)).toBe(true);
    expect(await page.evaluate(() => window.dataLayer)).toContainEqual({
      event: 'sign_up',
      method: 'google.com',
      category: 'Page',
    });
  });

  test('a Google user whose questionnaire is on record finishes at once', async ({ page, request }) => {
    const email = uniqueEmail('google-known');
    const answers = {
      'Primary purpose for using the API': 'Other',
      'Dataset most interested in': 'Other',
      'Most important aspect in a provider': 'Data Accuracy',
      'Role in organization': 'Other',
      'How did you hear about us': 'Other',
    };
    const submitted = await request.post('/api/portal/account/submit-survey', {
      data: { email, type: 'signup', ...answers },
      headers: { Authorization: `Bearer ${await idTokenOf(request, email)}` },
    });
    expect(submitted.ok(), await submitted.text()).toBe(true);

    await openPage(page, '/register');
    await continueWithGoogle(page, email);
    await expect(page).toHaveURL(new RegExp(`${DASHBOARD}$`));
    await expectSignedIn(page);
  });
});

test.describe('accessibility', () => {
  /** The rule ids axe finds broken on the page as it is now, with the elements at fault. */
  async function violations(page: Page): Promise<string[]> {
    const results = await new AxeBuilder({ page }).analyze();
    return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  for (const theme of ['light', 'dark'] as const) {
    test(`the sign-up form and the questionnaire have no accessibility violations (${theme})`, async ({
      page,
    }) => {
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      await openPage(page, '/register');
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      expect(await violations(page)).toEqual([]);
      await fillAndSubmit(signUpPage(page), uniqueEmail('a11y'));
      await answer(page.getByRole('main'), ['Market Research']);
      await expect(page.getByRole('button', { name: 'Step 2 of 5' })).toHaveAttribute('aria-current', 'step');
      expect(await violations(page)).toEqual([]);
    });
  }
});
