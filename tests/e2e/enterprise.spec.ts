import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createAccount, openPage, signInThroughApi } from './fixtures.ts';

const COMPANY_REQUIRED = 'Please enter your company name.';
const CONSENT_REQUIRED = 'Please agree to be contacted about your enquiry.';

function enquiryForm(page: Page): Locator {
  return page.getByRole('form', { name: 'Talk to our enterprise team' });
}

/** Fills in every field of the form except those named in `skip`. */
async function fillEnquiry(page: Page, skip: readonly string[] = []): Promise<void> {
  const form = enquiryForm(page);
  if (!skip.includes('name')) await form.getByLabel('Full name').fill('Grace Hopper');
  if (!skip.includes('email')) await form.getByLabel('Work email').fill('grace@example.com');
  if (!skip.includes('company')) await form.getByLabel('Company', { exact: true }).fill('Compiler Systems');
  if (!skip.includes('jobTitle')) await form.getByLabel('Job title (optional)').fill('Chief Data Officer');
  if (!skip.includes('companySize')) {
    await form.getByLabel('Company size').selectOption({ label: '201–1,000 employees' });
  }
  if (!skip.includes('message')) {
    await form
      .getByLabel('Your use case')
      .fill('We would like to redistribute end-of-day prices to the clients of our wealth platform.');
  }
  if (!skip.includes('consent'))
    await form.getByRole('checkbox', { name: /I agree to be contacted/ }).check();
}

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('the enterprise enquiry page', () => {
  test('a visitor from a company sends an enquiry and is told when to expect an answer', async ({ page }) => {
    await openPage(page, '/enterprise-info');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Market data licensing for your business',
    );
    await expect(page.getByRole('heading', { name: 'Redistribution rights' })).toBeVisible();

    await fillEnquiry(page);
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/portal/enterprise/enquiry'));
    await enquiryForm(page).getByRole('button', { name: 'Send enquiry' }).click();
    expect((await answer).status()).toBe(201);

    const thanks = page.getByRole('heading', { name: 'Thank you, Grace!' });
    await expect(thanks).toBeVisible();
    await expect(thanks).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: 'within one business day' })).toHaveText(
      "Your enquiry has reached our enterprise team. We'll reply within one business day at grace@example.com.",
    );

    await page.getByRole('button', { name: 'Send another enquiry' }).click();
    await expect(enquiryForm(page).getByLabel('Full name')).toHaveValue('');
  });

  test('a missing company is pointed out next to its field and nothing typed is lost', async ({ page }) => {
    await openPage(page, '/enterprise-info');
    await fillEnquiry(page, ['company', 'consent']);
    const form = enquiryForm(page);
    await form.getByRole('button', { name: 'Send enquiry' }).click();

    const company = form.getByLabel('Company', { exact: true });
    await expect(company).toHaveAttribute('aria-invalid', 'true');
    await expect(company).toHaveAccessibleDescription(COMPANY_REQUIRED);
    await expect(company).toBeFocused();
    const consent = form.getByRole('checkbox', { name: /I agree to be contacted/ });
    await expect(consent).toHaveAccessibleDescription(CONSENT_REQUIRED);
    await expect(form.getByRole('status')).toHaveText(
      'Please correct the highlighted fields and send your enquiry again.',
    );

    await expect(form.getByLabel('Full name')).toHaveValue('Grace Hopper');
    await expect(form.getByLabel('Work email')).toHaveValue('grace@example.com');
    await expect(form.getByLabel('Job title (optional)')).toHaveValue('Chief Data Officer');
    await expect(form.getByLabel('Company size')).toHaveValue('201-1000');
    await expect(form.getByLabel('Your use case')).toHaveValue(/redistribute end-of-day prices/);

    await company.fill('Compiler Systems');
    await expect(company).toHaveAttribute('aria-invalid', 'false');
    await expect(form.getByText(COMPANY_REQUIRED)).toHaveCount(0);
  });

  test('when the server cannot be reached the visitor is told so and can send again', async ({ page }) => {
    await openPage(page, '/enterprise-info');
    await page.route('**/api/portal/enterprise/enquiry', (route) => route.abort('connectionrefused'));
    await fillEnquiry(page);
    const form = enquiryForm(page);
    await form.getByRole('button', { name: 'Send enquiry' }).click();

    const problem = 'We could not reach the server. Please check your connection and try again.';
    await expect(form.getByRole('status')).toHaveText(problem);
    await expect(page.getByRole('alert').filter({ hasText: problem })).toBeVisible();
    await expect(form.getByLabel('Full name')).toHaveValue('Grace Hopper');
    await expect(form.getByRole('checkbox', { name: /I agree to be contacted/ })).toBeChecked();
    await expect(form.getByRole('button', { name: 'Send enquiry' })).toBeEnabled();
  });

  test('a signed-in developer finds their name and email already filled in', async ({ page, request }) => {
    const account = await createAccount(request);
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openPage(page, '/enterprise-info');
    const form = enquiryForm(page);
    await expect(form.getByLabel('Work email')).toHaveValue(account.email);
    await expect(form.getByLabel('Full name')).toHaveValue(account.username);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the page and its error messages have no accessibility violations (${theme})`, async ({ page }) => {
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      await openPage(page, '/enterprise-info');
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      expect(await axeViolations(page)).toEqual([]);

      await enquiryForm(page).getByRole('button', { name: 'Send enquiry' }).click();
      await expect(enquiryForm(page).getByLabel('Company', { exact: true })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});
