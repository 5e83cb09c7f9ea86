import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, fillCard, openPage, signInThroughApi, startCheckout } from './fixtures.ts';

const DASHBOARD = '/developer/docs/dashboard';
const INVOICES = '/developer/docs/invoices';

/** Pays the open test-mode checkout with 4242 and waits for the dashboard. */
async function payWith4242(page: Page): Promise<void> {
  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay $39.00' }).click();
  // The dashboard takes ?checkout=success off the address once it has said so.
  await expect(page).toHaveURL(new RegExp(`${DASHBOARD}(\\?checkout=success)?$`));
  await expect(page.getByText('Your subscription to Professional is active.')).toBeVisible({
    timeout: 15_000,
  });
}

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('invoices', () => {
  // Paying a checkout on the way to an invoice takes a while on a busy machine.
  test.slow();

  test('the invoice downloads: a developer pays for Professional, finds the invoice from the dashboard, saves its PDF and opens the printable view', async ({
    page,
    request,
  }) => {
    await startCheckout(page, request, 'monthlyT2');
    await payWith4242(page);

    await page.getByRole('region', { name: 'Your plan' }).getByRole('link', { name: 'Invoices' }).click();
    await expect(page).toHaveURL(new RegExp(`${INVOICES}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Your invoices, newest first' });
    const row = table.getByRole('row').filter({ has: page.getByRole('rowheader') });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('rowheader')).toContainText(/TEST-\d{6}/);
    await expect(row.getByRole('cell', { name: '$39.00' })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Professional' })).toBeVisible();
    await expect(row.getByText('Paid', { exact: true })).toBeVisible();
    const number = /TEST-\d{6}/.exec((await row.getByRole('rowheader').textContent()) ?? '')?.[0] ?? '';

    const downloading = page.waitForEvent('download');
    await row.getByRole('button', { name: `Download PDF of ${number}` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`tickerlake-invoice-${number}.pdf`);
    const file = await readFile(await download.path());
    expect(file.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect(
      page.getByRole('status').filter({ hasText: `Downloaded tickerlake-invoice-${number}.pdf.` }),
    ).toBeVisible();

    await row.getByRole('link', { name: `View ${number}` }).click();
    await expect(page).toHaveURL(new RegExp(`${INVOICES}/${number}$`));
    const invoice = page.getByRole('article', { name: `Invoice ${number}` });
    await expect(invoice).toBeVisible();
    await expect(invoice.getByRole('note')).toContainText('TEST MODE');
    await expect(invoice.getByRole('region', { name: 'Bill to' })).toContainText('Ada Lovelace');
    await expect(invoice.getByRole('region', { name: 'Bill to' })).toContainText('1 Analytical Way');
    await expect(invoice.getByRole('row', { name: /Total \(USD\) \$39\.00/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
    // On paper only the invoice is printed: no site header, no buttons.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('banner').first()).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
    await expect(invoice).toBeVisible();
  });

  test('a developer without invoices is pointed to the plans, and changes the billing details for future invoices', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request, { verified: true });
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openPage(page, INVOICES);
    await expect(page.getByText('No invoices yet')).toBeVisible();
    await expect(page.getByRole('link', { name: 'See the plans' })).toHaveAttribute(
      'href',
      '/developer/docs/pricing',
    );

    const form = page.getByRole('form', { name: 'Billing details' });
    await form.getByLabel('Name or company').fill('Analytical Engines Ltd');
    await form.getByLabel('Address line 1').fill('12 Babbage Street');
    await form.getByLabel('City').fill('Cambridge');
    await form.getByLabel('Postal code').fill('CB2 1TN');
    await form.getByLabel('Country').selectOption('GB');
    await form.getByRole('button', { name: 'Save billing details' }).click();
    await expect(form.getByRole('status')).toHaveText(
      'Billing details saved. Your next invoices will carry them.',
    );

    await form.getByLabel('City').fill('');
    await form.getByRole('button', { name: 'Save billing details' }).click();
    await expect(form.getByRole('alert')).toHaveText('Please correct the highlighted fields.');
    await expect(form.getByLabel('City')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel('City')).toHaveAccessibleDescription('Enter the city.');
    await expect(form.getByLabel('City')).toBeFocused();

    await openPage(page, INVOICES);
    await expect(form.getByLabel('Name or company')).toHaveValue('Analytical Engines Ltd');
    await expect(form.getByLabel('City')).toHaveValue('Cambridge');
    await expect(form.getByLabel('Country')).toHaveValue('GB');
  });

  test('an invoice that is not the account’s reads as not found', async ({ page, request }) => {
    const account = await createAccount(request, { verified: true });
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openPage(page, `${INVOICES}/TEST-999999`);
    await expect(page.getByRole('heading', { level: 1, name: 'Invoice not found' })).toBeVisible();
  });

  test('a signed-out visitor is sent away from the invoices page', async ({ page }) => {
    await page.goto(INVOICES);
    await expect(page).toHaveURL(/^http:\/\/[^/]+\/$/);
    await expect(page.getByRole('table')).toHaveCount(0);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the invoices page and the printable invoice have no accessibility violations (${theme}, desktop and phone)`, async ({
      page,
      request,
    }) => {
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      await startCheckout(page, request, 'monthlyT2');
      await payWith4242(page);
      await openPage(page, INVOICES);
      await expect(page.getByRole('table', { name: 'Your invoices, newest first' })).toBeVisible();
      await expect(page.getByRole('form', { name: 'Billing details' })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      // And on a phone, where the dashboard's navigation sits above the page.
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.getByRole('link', { name: /^View TEST-/ }).click();
      await expect(page.getByRole('article', { name: /^Invoice TEST-/ })).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});
