import { expect, test, type Page } from '@playwright/test';

const EMULATOR = `http://127.0.0.1:${process.env.E2E_AUTH_EMULATOR_PORT ?? '9699'}`;
const PROJECT_ID = 'demo-marketdata';

interface OobCode {
  email: string;
  requestType: string;
}

/** The reset form, found by its heading, so its status message is not confused with the flash banner. */
function resetForm(page: Page) {
  return page.getByRole('form', { name: 'Reset your password' });
}

test.describe('forgot password', () => {
  test('a person who forgot their password asks for a reset link and it is mailed', async ({
    page,
    request,
  }) => {
    const email = `reset-${String(Date.now())}-${String(Math.floor(Math.random() * 1e6))}@example.com`;
    const signUp = await request.post(
      `${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
      { data: { email, password: 'correct horse battery', returnSecureToken: true } },
    );
    expect(signUp.ok()).toBe(true);

    await page.goto('/forgotpassword');
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await resetForm(page).getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();

    await expect(resetForm(page).getByRole('status')).toHaveText(
      `If an account exists for ${email}, a link to reset your password is on its way.`,
    );

    const codes = await request.get(`${EMULATOR}/emulator/v1/projects/${PROJECT_ID}/oobCodes`);
    expect(codes.ok()).toBe(true);
    const { oobCodes } = (await codes.json()) as { oobCodes: OobCode[] };
    expect(oobCodes).toContainEqual(expect.objectContaining({ email, requestType: 'PASSWORD_RESET' }));
  });

  test('a mistyped address is pointed out before anything is sent', async ({ page }) => {
    await page.goto('/forgotpassword');
    await resetForm(page).getByLabel('Email').fill('not-an-address');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(resetForm(page).getByRole('status')).toHaveText('Please enter a valid email address.');
    await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address.');
  });

  test('submitting an empty form asks for the address', async ({ page }) => {
    await page.goto('/forgotpassword');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(resetForm(page).getByRole('status')).toHaveText('Please fill all the fields.');
  });

  test('the page leads back to sign in', async ({ page }) => {
    await page.goto('/forgotpassword');
    await expect(resetForm(page).getByRole('link', { name: 'Back to sign in' })).toHaveAttribute(
      'href',
      '/login',
    );
  });
});
