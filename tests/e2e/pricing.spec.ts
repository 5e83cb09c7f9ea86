import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import {
  createAccount,
  DATA_API_URL,
  fillCard,
  openPage,
  signInThroughApi,
  uniqueEmail,
} from './fixtures.ts';

test.describe('pricing', () => {
  test('a visitor opens personal pricing from the menu, compares the plans and sees the annual saving', async ({
    page,
  }) => {
    await openPage(page, '/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Pricing' }).click();
    await page.locator('#header-menu-pricing').getByRole('link', { name: 'Personal use' }).click();

    await expect(page).toHaveURL(/\/developer\/docs\/pricing$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Pricing for personal use' })).toBeVisible();
    for (const name of ['Free', 'Starter', 'Professional', 'Power'])
      await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
    const professional = page.getByRole('article', { name: 'Professional' });
    await expect(professional.getByText('Most popular')).toBeVisible();
    await expect(professional.getByText('$39', { exact: true })).toBeVisible();
    await expect(professional.getByText('120 calls a minute')).toBeVisible();
    // What a tier opens links to the reference of each endpoint it adds.
    await expect(professional.getByRole('link', { name: 'grades-consensus' })).toHaveAttribute(
      'href',
      '/developer/docs/stable/grades-consensus',
    );

    await page.getByText('Annual', { exact: false }).first().click();
    await expect(professional.getByText('$390', { exact: true })).toBeVisible();
    await expect(professional.getByText(/Save \$78 \(17%\)/)).toBeVisible();
    await expect(professional.getByText('$39', { exact: true })).toBeHidden();

    const compare = page.getByRole('region', { name: 'Plan comparison' });
    // Free reads the annual statements (of the sample symbols); analysts' data starts at Professional.
    await expect(compare.getByRole('row', { name: /^Statements\s+All (\d+)\s+All \1\b/ })).toBeVisible();
    await expect(compare.getByRole('row', { name: /^Analysts\s+None\s+None\s+All 4/ })).toBeVisible();
    const free = page.getByRole('article', { name: 'Free' });
    await expect(free.getByText('30 calls a minute')).toBeVisible();
    await expect(free.getByText('5 years of daily history')).toBeVisible();
    await expect(free.getByRole('link', { name: 'income-statement', exact: true })).toBeVisible();
  });

  test('a signed-out visitor picks Professional, signs up in the pop-up, pays with 4242 and calls a Professional endpoint', async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(90_000);
    const email = uniqueEmail('buyer');
    const password = 'correct-horse-42';
    await openPage(page, '/developer/docs/pricing');
    await page.getByRole('button', { name: 'Choose Professional' }).click();

    const dialog = page.getByRole('dialog', { name: 'Sign up for a free API key' });
    const signUp = dialog.getByRole('tabpanel', { name: 'Sign up' });
    await signUp.getByLabel('Email', { exact: true }).fill(email);
    await signUp.getByLabel('Password', { exact: true }).fill(password);
    await signUp.getByRole('button', { name: 'Sign up', exact: true }).click();
    // On the pricing page the sign-up finishes without the questionnaire, and the new account goes
    // on to the checkout of the plan it chose.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Subscribe to Professional', {
      timeout: 15_000,
    });
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $39.00' }).click();

    await expect(page).toHaveURL(/\/developer\/docs\/dashboard$/);
    await expect(page.getByText('Your subscription to Professional is active.')).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Your plan' }).getByText('Professional', { exact: true }),
    ).toBeVisible();

    // The address is confirmed from the sign-up's email (the local mailbox here), and the key then
    // reads what Professional opens.
    const mailbox = await context.newPage();
    await openPage(mailbox, '/dev/mailbox');
    await mailbox.getByLabel('Filter by address').fill(email);
    const [actionPage] = await Promise.all([
      context.waitForEvent('page'),
      mailbox.getByRole('link', { name: `Verify email address for ${email}` }).click(),
    ]);
    await expect(actionPage.getByRole('main').getByRole('status')).toHaveText(
      'Thank you: your email address is verified and your API key is active.',
    );
    const key = await page.evaluate(() => window.appStores?.$user.get().apiKey ?? '');
    const answer = await request.get(`${DATA_API_URL}/stable/grades-consensus?symbol=AAPL&apikey=${key}`);
    expect(answer.status(), await answer.text()).toBe(200);
  });

  test('a coupon that does not exist is refused with the reason, and the prices stay', async ({ page }) => {
    await openPage(page, '/developer/docs/pricing');
    await page.getByLabel('Coupon code').fill('NOSUCHCODE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/couponCode=NOSUCHCODE/);
    await expect(page.getByText('Coupon code NOSUCHCODE is not valid.')).toBeVisible();
    await expect(
      page.getByRole('article', { name: 'Professional' }).getByText('$39', { exact: true }),
    ).toBeVisible();
  });

  test('a business finds the commercial plans, and talks to sales about Enterprise', async ({ page }) => {
    await openPage(page, '/developer/docs/pricing?planType=commercial');
    await expect(page.getByRole('heading', { level: 1, name: 'Pricing for commercial use' })).toBeVisible();
    await expect(page.getByRole('article', { name: 'Commercial Build' })).toBeVisible();
    const enterprise = page.getByRole('article', { name: 'Commercial Enterprise' });
    await expect(enterprise.getByText('Redistribution and unlimited end users')).toBeVisible();
    await enterprise.getByRole('link', { name: 'Contact sales' }).click();
    await expect(page).toHaveURL(/\/enterprise-info$/);
  });

  test('a signed-out visitor who chooses Professional is asked to sign up without leaving the page', async ({
    page,
  }) => {
    await openPage(page, '/developer/docs/pricing');
    await page.getByRole('button', { name: 'Choose Professional' }).click();
    await expect(page.getByRole('dialog').getByRole('heading', { name: /sign up/i })).toBeVisible();
    await expect(page).toHaveURL(/\/developer\/docs\/pricing$/);
  });

  test('a signed-in developer sees their current plan marked', async ({ page, request }) => {
    const account = await createAccount(request, { verified: true });
    await openPage(page, '/developer/docs/pricing');
    await signInThroughApi(page, account);
    await expect(page.getByRole('article', { name: 'Free' }).getByText('Your current plan')).toBeVisible();
    await expect(
      page.getByRole('article', { name: 'Professional' }).getByText('Your current plan'),
    ).toBeHidden();
  });

  test('a visitor asking for quarterly statements follows Get subscription to the plans that open them', async ({
    page,
  }) => {
    await openPage(page, '/financial-statements/AAPL');
    await page
      .getByRole('navigation', { name: 'Reporting period' })
      .getByRole('link', { name: 'Quarterly' })
      .click();
    await page
      .getByRole('dialog', { name: 'Unrestricted Access' })
      .getByRole('link', { name: 'Get subscription' })
      .click();
    await expect(page).toHaveURL(/\/developer\/docs\/pricing$/);
    await expect(
      page.getByRole('article', { name: 'Professional' }).getByText(/Quarterly statements/),
    ).toBeVisible();
  });

  test('on a phone the plans stack and the comparison scrolls inside its frame, not the page', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openPage(page, '/developer/docs/pricing');
    await expect(page.getByRole('heading', { level: 1, name: 'Pricing for personal use' })).toBeVisible();
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the pricing pages have no accessibility violations (${theme})`, async ({ page }) => {
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      for (const path of ['/developer/docs/pricing', '/developer/docs/pricing?planType=commercial']) {
        await openPage(page, path);
        const results = await new AxeBuilder({ page }).analyze();
        expect(
          results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          path,
        ).toEqual([]);
      }
    });
  }
});
