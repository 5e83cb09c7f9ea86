import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, openPage, setRole, signInThroughApi, type Account } from './fixtures.ts';

const PAGE = '/developer/docs/admin/coupons';

/** A code no earlier run has used (the e2e database outlives a run). */
function uniqueCode(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
}

/** The administrator every story signs in as; making one takes the role command, once per file. */
let admin: Account;

test.beforeAll(async ({ request }) => {
  admin = await createAccount(request, { verified: true });
  await setRole(admin.email, 'admin');
});

async function onCouponsPage(page: Page): Promise<void> {
  await openPage(page, '/');
  await signInThroughApi(page, admin);
  await openPage(page, PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Coupons' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'New coupon' })).toBeVisible();
}

/** Fills the create form with a percent-off coupon for Professional and opens the confirmation. */
async function fillCoupon(page: Page, code: string, maxUses: string): Promise<void> {
  const form = page.getByRole('region', { name: 'New coupon' });
  await form.getByRole('textbox', { name: 'Code' }).fill(code);
  await form.getByRole('textbox', { name: 'Percent off' }).fill('20');
  await form.getByRole('checkbox', { name: 'Professional', exact: true }).check();
  await form.getByRole('textbox', { name: 'Maximum uses' }).fill(maxUses);
  await form.getByRole('button', { name: 'Create coupon…' }).click();
}

/** Applies a coupon on the pricing page as a visitor does. */
async function applyOnPricingPage(page: Page, code: string): Promise<void> {
  await openPage(page, '/developer/docs/pricing');
  await page.getByLabel('Coupon code').fill(code);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(new RegExp(`couponCode=${code}`, 'i'));
}

test.describe('coupons in the admin console', () => {
  test('an administrator creates a 20 % coupon for Professional with a maximum of uses; a visitor gets the price until it is disabled', async ({
    page,
    browser,
  }) => {
    test.slow();
    const code = uniqueCode('SPRING');
    await onCouponsPage(page);
    await fillCoupon(page, code.toLowerCase(), '50');
    const confirm = page.getByRole('dialog', { name: `Create coupon ${code}?` });
    await expect(confirm).toContainText('20% off Professional; no end; at most 50 uses.');
    await confirm.getByRole('textbox', { name: 'Reason' }).fill('Spring newsletter');
    await confirm.getByRole('button', { name: 'Create coupon' }).click();
    await expect(confirm).toBeHidden();
    const row = page.getByRole('row').filter({ hasText: code });
    await expect(row.getByRole('cell')).toHaveText([
      '20% off',
      'Professional',
      'Never',
      '0 / 50',
      'Active',
      /^\w{3} \d{1,2}, \d{4}$/,
      `Disable coupon ${code}`,
    ]);

    const visitor = await browser.newPage();
    await applyOnPricingPage(visitor, code.toLowerCase());
    await expect(visitor.getByText(`Coupon ${code} applied: the prices above include it.`)).toBeVisible();
    const professional = visitor.getByRole('article', { name: 'Professional' });
    await expect(professional.locator('.plan-price-month')).toContainText('$39');
    await expect(professional.getByText('$31.20', { exact: true })).toBeVisible();
    await expect(
      visitor.getByRole('article', { name: 'Starter' }).getByText('$19', { exact: true }),
    ).toBeVisible();

    await row.getByRole('button', { name: `Disable coupon ${code}` }).click();
    const disable = page.getByRole('dialog', { name: `Disable coupon ${code}?` });
    await disable
      .getByRole('textbox', { name: 'Reason' })
      .fill('The newsletter went out with the wrong code');
    await disable.getByRole('button', { name: 'Disable coupon' }).click();
    await expect(disable).toBeHidden();
    await expect(row.getByRole('cell', { name: 'Disabled' })).toBeVisible();
    await expect(row.getByRole('button')).toHaveCount(0);

    await applyOnPricingPage(visitor, code);
    await expect(visitor.getByText(`Coupon code ${code} is not valid.`)).toBeVisible();
    await expect(professional.getByText('$39', { exact: true })).toBeVisible();
    await expect(professional.getByText('$31.20', { exact: true })).toHaveCount(0);
    await visitor.close();
  });

  test('the server’s refusal shows beside the field it names, and the coupon is created once it is put right', async ({
    page,
  }) => {
    const code = uniqueCode('FIX');
    await onCouponsPage(page);
    await fillCoupon(page, code, '0');
    const confirm = page.getByRole('dialog', { name: `Create coupon ${code}?` });
    await confirm.getByRole('textbox', { name: 'Reason' }).fill('Partner offer');
    await confirm.getByRole('button', { name: 'Create coupon' }).click();
    // A refused field closes the confirmation and takes the focus, its message read with it.
    await expect(confirm).toBeHidden();
    const maxUses = page.getByRole('textbox', { name: 'Maximum uses' });
    await expect(maxUses).toBeFocused();
    await expect(maxUses).toHaveAttribute('aria-invalid', 'true');
    await expect(maxUses).toHaveAccessibleDescription(/^Maximum uses is a whole number from 1 to 1,000,000/);
    await maxUses.fill('3');
    await expect(maxUses).not.toHaveAttribute('aria-invalid', 'true');
    // A missing reason is refused inside the confirmation, which stays open.
    await page.getByRole('button', { name: 'Create coupon…' }).click();
    await confirm.getByRole('textbox', { name: 'Reason' }).fill('');
    await confirm.getByRole('button', { name: 'Create coupon' }).click();
    await expect(confirm.getByText('Give a reason: it is kept in the audit trail.')).toBeVisible();
    await expect(confirm.getByRole('textbox', { name: 'Reason' })).toHaveAttribute('aria-invalid', 'true');
    await confirm.getByRole('textbox', { name: 'Reason' }).fill('Partner offer');
    await confirm.getByRole('button', { name: 'Create coupon' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole('row').filter({ hasText: code })).toContainText('0 / 3');
  });

  test('an analyst reads the coupons with their uses but is offered no form and no Disable button', async ({
    page,
    request,
  }) => {
    const code = uniqueCode('READ');
    await onCouponsPage(page);
    await fillCoupon(page, code, '5');
    const confirm = page.getByRole('dialog', { name: `Create coupon ${code}?` });
    await confirm.getByRole('textbox', { name: 'Reason' }).fill('For the analyst to see');
    await confirm.getByRole('button', { name: 'Create coupon' }).click();
    await expect(page.getByRole('row').filter({ hasText: code })).toBeVisible();

    const analyst = await createAccount(request, { verified: true });
    await setRole(analyst.email, 'analyst');
    await page.context().clearCookies();
    await page.evaluate(() => {
      localStorage.clear();
    });
    await openPage(page, '/');
    await signInThroughApi(page, analyst);
    await openPage(page, PAGE);
    await expect(page.getByRole('row').filter({ hasText: code })).toContainText('0 / 5');
    await expect(
      page.getByText('You can read the coupons here; administrators create and disable them.'),
    ).toBeVisible();
    await expect(page.getByRole('region', { name: 'New coupon' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /Disable coupon/ })).toHaveCount(0);
  });

  test('the coupons page passes axe for an administrator, on a light desktop and a dark phone, with a confirmation open', async ({
    page,
  }) => {
    const check = async (where: string): Promise<void> => {
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        where,
      ).toEqual([]);
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(sideways, `${where}: the page scrolls sideways`).toBeLessThanOrEqual(0);
    };
    const code = uniqueCode('AXE');
    await onCouponsPage(page);
    await fillCoupon(page, code, '10');
    const confirm = page.getByRole('dialog', { name: `Create coupon ${code}?` });
    await confirm.getByRole('textbox', { name: 'Reason' }).fill('Accessibility check');
    await check('the create confirmation');
    await confirm.getByRole('button', { name: 'Create coupon' }).click();
    await expect(page.getByRole('row').filter({ hasText: code })).toBeVisible();
    await check('a light desktop');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => {
      localStorage.setItem('themeMode', 'dark');
    });
    await openPage(page, PAGE);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('row').filter({ hasText: code })).toBeVisible();
    await check('a dark phone');
    await page.getByRole('button', { name: `Disable coupon ${code}` }).click();
    await expect(page.getByRole('dialog', { name: `Disable coupon ${code}?` })).toBeVisible();
    await check('the disable confirmation on a dark phone');
  });
});
