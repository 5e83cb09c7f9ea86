import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { openPage, signInAs } from './fixtures.ts';

test.describe('sections beyond the visitor’s plan', () => {
  test('a signed-out visitor who asks for quarterly statements is offered a subscription and stays on the page', async ({
    page,
  }) => {
    await openPage(page, '/financial-statements/AAPL');
    await page
      .getByRole('navigation', { name: 'Reporting period' })
      .getByRole('link', { name: 'Quarterly' })
      .click();

    const dialog = page.getByRole('dialog', { name: 'Unrestricted Access' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'Get subscription' })).toHaveAttribute(
      'href',
      '/developer/docs/pricing',
    );
    await dialog.getByRole('button', { name: 'Keep Browsing' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/financial-statements\/AAPL$/);
  });

  test('a subscriber whose plan includes quarterly figures goes straight to them', async ({ page }) => {
    await signInAs(page, { username: 'analyst-pro', planCode: 'monthlyT2', dataTier: 2 });
    await openPage(page, '/financial-ratios/AAPL');
    await page
      .getByRole('navigation', { name: 'Reporting period' })
      .getByRole('link', { name: 'Quarterly' })
      .click();

    await expect(page).toHaveURL(/\/financial-ratios\/AAPL\?period=quarter$/);
    await expect(page.getByRole('dialog', { name: 'Unrestricted Access' })).toBeHidden();
    await expect(
      page.getByRole('navigation', { name: 'Reporting period' }).getByRole('link', { name: 'Quarterly' }),
    ).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('table', { name: /^Profitability ratios of .+, quarterly$/ })).toBeVisible();
    await expect(page.locator('[inert]').getByRole('table')).toHaveCount(0);
    await expect(page.getByRole('region', { name: /are part of/ })).toBeHidden();
  });

  test('a signed-out visitor who opens quarterly statements by their address finds them covered and is offered a subscription', async ({
    page,
  }) => {
    await openPage(page, '/financial-statements-quarterly/AAPL');

    const dialog = page.getByRole('dialog', { name: 'Unrestricted Access' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Keep Browsing' }).click();
    await expect(dialog).toBeHidden();

    const notice = page.getByRole('region', {
      name: /^Quarterly financial statements are part of the .+ plan and above\.$/,
    });
    await expect(notice).toBeVisible();
    await expect(notice.getByRole('link', { name: 'Sign in' })).toBeVisible();
    await expect(notice.getByRole('link', { name: 'Show annual statements' })).toHaveAttribute(
      'href',
      '/financial-statements/AAPL',
    );
    // The covered figures are inert: out of reach of the keyboard, the mouse and screen readers.
    await expect(
      page
        .locator('[inert]')
        .getByRole('table', { name: /quarterly/ })
        .first(),
    ).toBeAttached();
    await expect
      .poll(() =>
        page.evaluate(
          () => [...document.querySelectorAll('table')].filter((t) => !t.closest('[inert]')).length,
        ),
      )
      .toBe(0);

    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);

    await notice.getByRole('link', { name: 'Show annual statements' }).click();
    await expect(page).toHaveURL(/\/financial-statements\/AAPL$/);
    await expect(page.getByRole('table', { name: /^Income statement of .+, annual/ })).toBeVisible();
  });

  test('a signed-out subscriber signs in from the covered section without leaving the page', async ({
    page,
  }) => {
    await openPage(page, '/financial-statements-quarterly/AAPL');
    await page
      .getByRole('dialog', { name: 'Unrestricted Access' })
      .getByRole('button', { name: 'Keep Browsing' })
      .click();
    const signIn = page.getByRole('region', { name: /are part of/ }).getByRole('link', { name: 'Sign in' });
    await expect(signIn).toHaveAttribute('href', '/login');
    await signIn.click();

    const dialog = page.getByRole('dialog', { name: 'Sign in to Tickerlake' });
    await expect(
      dialog.getByRole('tabpanel', { name: 'Sign in' }).getByLabel('Email or username'),
    ).toBeFocused();
    await expect(page).toHaveURL(/\/financial-statements-quarterly\/AAPL$/);
  });

  test('a subscriber who opens quarterly statements by their address sees them', async ({ page }) => {
    await signInAs(page, { username: 'analyst-pro', planCode: 'monthlyT2', dataTier: 2 });
    await openPage(page, '/financial-statements-quarterly/AAPL');

    await expect(page.getByRole('table', { name: /^Income statement of .+, quarterly/ })).toBeVisible();
    await expect(page.locator('[inert]').getByRole('table')).toHaveCount(0);
    await expect(page.getByRole('region', { name: /are part of/ })).toBeHidden();
    await expect(page.getByRole('dialog', { name: 'Unrestricted Access' })).toBeHidden();
  });

  test('a signed-out visitor who asks for five years of chart history is offered a subscription and keeps the year shown', async ({
    page,
  }) => {
    await openPage(page, '/chart/AAPL');
    const range = page.getByRole('group', { name: 'Range' });
    await range.getByRole('button', { name: '5Y' }).click();

    const dialog = page.getByRole('dialog', { name: 'Unrestricted Access' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Keep Browsing' }).click();
    await expect(range.getByRole('button', { name: '1Y' })).toHaveAttribute('aria-pressed', 'true');
    await expect(range.getByRole('button', { name: '5Y' })).toHaveAttribute('aria-pressed', 'false');
  });

  test('a signed-out visitor who asks for the intraday chart is offered a subscription', async ({ page }) => {
    await openPage(page, '/chart/AAPL');
    const range = page.getByRole('group', { name: 'Range' });
    await range.getByRole('button', { name: '1D' }).click();

    await expect(page.getByRole('dialog', { name: 'Unrestricted Access' })).toBeVisible();
    await expect(range.getByRole('button', { name: '1D' })).toHaveAttribute('aria-pressed', 'false');
  });

  test('a visitor whose stored session the server does not know is told by the server that Free covers five years', async ({
    page,
  }) => {
    // The browser remembers a starter plan the server does not know: the server's answer decides.
    await signInAs(page, { username: 'former-starter', planCode: 'starterT1', dataTier: 1 });
    await openPage(page, '/chart/AAPL');
    const range = page.getByRole('group', { name: 'Range' });
    await range.getByRole('button', { name: '5Y' }).click();

    const dialog = page.getByRole('dialog', { name: 'Unrestricted Access' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Keep Browsing' }).click();
    await expect(
      page.getByText(/The 5 years chart could not be loaded\. .*It is included in the Free plan/),
    ).toBeVisible();
    await expect(range.getByRole('button', { name: '1Y' })).toHaveAttribute('aria-pressed', 'true');
  });
});
