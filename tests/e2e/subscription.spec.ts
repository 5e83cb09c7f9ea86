import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createAccount, fillCard, openPage, signInThroughApi, type Account } from './fixtures.ts';

const DASHBOARD = '/developer/docs/dashboard';
const PRICING = '/developer/docs/pricing';

/** A day as the site writes it ("Dec 26, 2026"): read in UTC, so it never shifts with the time zone. */
function day(iso: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));
}

/** A new verified account, signed in, that paid for `planCode` with 4242 and landed on the dashboard. */
async function subscribe(page: Page, request: APIRequestContext, planCode: string): Promise<Account> {
  const account = await createAccount(request, { verified: true });
  await openPage(page, '/');
  await signInThroughApi(page, account);
  const { url } = await page.evaluate(
    (code) =>
      window.appStores?.api<{ url: string }>('/api/portal/billing/checkout', {
        method: 'POST',
        body: { planCode: code },
      }) ?? Promise.reject(new Error('no stores')),
    planCode,
  );
  await openPage(page, url);
  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: /^Pay / }).click();
  // The dashboard takes the checkout's query off the address once it has loaded.
  await expect(page).toHaveURL(new RegExp(`${DASHBOARD}$`), { timeout: 15_000 });
  return account;
}

/** When the signed-in account's current period ends, as the portal says. */
async function periodEnd(page: Page): Promise<string> {
  const { subscription } = await page.evaluate(
    () =>
      window.appStores?.api<{ subscription: { currentPeriodEnd: string } }>(
        '/api/portal/billing/subscription',
      ) ?? Promise.reject(new Error('no stores')),
  );
  return subscription.currentPeriodEnd;
}

test.describe('a subscription after the checkout', () => {
  // Each story pays a checkout first.
  test.describe.configure({ timeout: 60_000 });

  test('a subscriber cancels and keeps the plan until the period ends', async ({ page, request }) => {
    const account = await subscribe(page, request, 'monthlyT2');
    const ends = day(await periodEnd(page));
    const billing = page.getByRole('region', { name: 'Plan and billing' });
    await expect(billing.getByText('Active', { exact: true })).toBeVisible();
    await expect(billing.getByText(`Renews on ${ends}.`)).toBeVisible();
    await expect(billing.getByRole('link', { name: 'Invoices' })).toHaveAttribute(
      'href',
      '/developer/docs/invoices',
    );

    await billing.getByRole('button', { name: 'Cancel subscription' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel your subscription?' });
    await expect(confirm).toContainText(`You keep Professional until ${ends}.`);
    await confirm.getByRole('button', { name: 'Cancel at period end' }).click();
    await expect(confirm).toBeHidden();

    await expect(billing.getByText(`Cancels on ${ends}`, { exact: true })).toBeVisible();
    await expect(billing.getByRole('status')).toHaveText(
      `Your subscription is canceled. You keep Professional until ${ends}.`,
    );
    // The plan stays until the period ends, on the dashboard and after a reload.
    await openPage(page, DASHBOARD);
    await expect(
      page.getByRole('region', { name: 'Your plan' }).getByText('Professional', { exact: true }),
    ).toBeVisible();
    await expect(billing.getByText(`Your subscription cancels on ${ends}.`, { exact: false })).toBeVisible();

    const mailbox = await request.get('/api/dev/mailbox');
    const { messages } = (await mailbox.json()) as { messages: { email: string; requestType: string }[] };
    expect(messages.some((m) => m.email === account.email && m.requestType === 'BILLING_CANCELED')).toBe(
      true,
    );

    await billing.getByRole('button', { name: 'Resume subscription' }).click();
    await expect(billing.getByRole('status')).toHaveText(
      'Your subscription is resumed and renews as before.',
    );
    await expect(billing.getByText(`Renews on ${ends}.`)).toBeVisible();
    await expect(billing.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
  });

  test('a subscriber moves up to Power from the pricing page, seeing the amount before confirming', async ({
    page,
    request,
  }) => {
    await subscribe(page, request, 'monthlyT2');
    await openPage(page, PRICING);
    await page.getByRole('button', { name: 'Choose Power' }).click();
    const change = page.getByRole('dialog', { name: 'Change to Power' });
    await expect(change).toContainText(/You move from Professional to Power now\. \$\d+\.\d\d is charged/);
    await change.getByRole('button', { name: 'Confirm change' }).click();
    await expect(change).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'You are on Power now.' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.appStores?.$user.get().planCode)).toBe('monthlyT3');
    // No second checkout: still one subscription, now on Power.
    await openPage(page, DASHBOARD);
    await expect(
      page.getByRole('region', { name: 'Plan and billing' }).getByText('Power', { exact: true }),
    ).toBeVisible();
  });

  test('the plan and billing card and its cancel dialog have no accessibility violations, on a phone too', async ({
    page,
    request,
  }) => {
    await subscribe(page, request, 'monthlyT2');
    await page.setViewportSize({ width: 375, height: 800 });
    const billing = page.getByRole('region', { name: 'Plan and billing' });
    await billing.getByRole('button', { name: 'Cancel subscription' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel your subscription?' });
    await expect(confirm).toBeVisible();
    const box = await confirm.boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(375);
    const results = await new AxeBuilder({ page }).include('.dashboard').analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
    await confirm.getByRole('button', { name: 'Keep subscription' }).click();
    await expect(billing.getByRole('button', { name: 'Cancel subscription' })).toBeFocused();
  });
});
