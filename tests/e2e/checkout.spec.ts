import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { fillCard, openPage, startCheckout } from './fixtures.ts';

const DASHBOARD = '/developer/docs/dashboard';

test.describe('checkout in test mode', () => {
  test('a signed-in developer pays for Professional with 4242 and lands on the dashboard on the new plan', async ({
    page,
    request,
  }) => {
    const account = await startCheckout(page, request, 'monthlyT2');
    await expect(page.getByText('TEST MODE')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Subscribe to Professional');
    await expect(page.getByText('$39.00', { exact: true })).toBeVisible();

    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $39.00' }).click();

    await expect(page).toHaveURL(new RegExp(`${DASHBOARD}$`));
    await expect(page.getByText('Your subscription to Professional is active.')).toBeVisible();
    const plan = page.getByRole('region', { name: 'Your plan' });
    await expect(plan.getByText('Professional', { exact: true })).toBeVisible();
    // The session's user data, which the header and the premium gates read, has the new plan too.
    await expect
      .poll(() => page.evaluate(() => window.appStores?.$user.get()))
      .toMatchObject({ planCode: 'monthlyT2', isPremium: true, dataTier: 2 });

    const mailbox = await request.get('/api/dev/mailbox');
    const { messages } = (await mailbox.json()) as {
      messages: { email: string; requestType: string; body?: string }[];
    };
    const receipt = messages.find((m) => m.email === account.email && m.requestType === 'BILLING_RECEIPT');
    expect(receipt?.body).toContain('Amount charged: $39.00');

    // Said once: coming back to the dashboard does not repeat it.
    await openPage(page, DASHBOARD);
    await expect(
      page.getByRole('region', { name: 'Your plan' }).getByText('Professional', { exact: true }),
    ).toBeVisible();
    await expect(page.getByText('Your subscription to Professional is active.')).toHaveCount(0);
  });

  test('a declined card shows the provider message, stays on the page and leaves the plan as it was', async ({
    page,
    request,
  }) => {
    await startCheckout(page, request, 'monthlyT2');
    const checkoutUrl = page.url();
    await fillCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay $39.00' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
    expect(page.url()).toBe(checkoutUrl);
    const { subscription } = await page.evaluate(
      () =>
        window.appStores?.api<{ subscription: unknown }>('/api/portal/billing/subscription') ??
        Promise.reject(new Error('no stores')),
    );
    expect(subscription).toBeNull();
  });

  test('a card that asks for confirmation shows the failure, then pays once the confirmation is completed', async ({
    page,
    request,
  }) => {
    await startCheckout(page, request, 'monthlyT2');
    await fillCard(page, '4000 0025 0000 3155');
    await page.getByRole('button', { name: 'Pay $39.00' }).click();
    await expect(page.getByRole('heading', { name: 'Confirm this payment' })).toBeVisible();
    await page.getByRole('button', { name: 'Fail authentication' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'unable to authenticate' })).toBeVisible();
    await page.getByRole('button', { name: 'Pay $39.00' }).click();
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await expect(page).toHaveURL(new RegExp(`${DASHBOARD}$`));
    await expect(page.getByText('Your subscription to Professional is active.')).toBeVisible();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the checkout page has no accessibility violations (${theme})`, async ({ page, request }) => {
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      await startCheckout(page, request, 'monthlyT2');
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    });
  }
});
