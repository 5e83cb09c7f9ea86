import { expect, test, type Page } from '@playwright/test';

/** Drives the app-state stores the way other flows (sign-in, plan checks, idle detection) will. */
async function stores(page: Page): Promise<void> {
  await page.goto('/');
  await page.waitForFunction(() => window.appStores !== undefined);
}

/**
 * Shows a message through the stores and measures, in the page's own clock, how long it stays in the
 * document from that moment: timing is taken where it happens, from the call itself, so a busy test
 * machine (a late first check) cannot make the message look shorter-lived than it is.
 */
function measureVisibleMs(page: Page, text: string, kind: 'flash' | 'snackbar'): Promise<number> {
  return page.evaluate(
    ({ wanted, which }) =>
      new Promise<number>((resolve) => {
        const visible = (): boolean =>
          [...document.querySelectorAll('body *')].some(
            (el) => el.children.length === 0 && el.textContent.includes(wanted) && el.checkVisibility(),
          );
        let seen = false;
        const shownAt = performance.now();
        if (which === 'flash') window.appStores?.showFlash(wanted);
        else window.appStores?.showSnackbar(wanted);
        const tick = (): void => {
          if (visible()) seen = true;
          else if (seen) {
            resolve(performance.now() - shownAt);
            return;
          }
          setTimeout(tick, 20);
        };
        tick();
      }),
    { wanted: text, which: kind },
  );
}

test.describe('flash messages and snackbars', () => {
  test('an error flash is announced and clears itself after 3 seconds', async ({ page }) => {
    await stores(page);
    const text = 'Sign in failed. Please try again later.';
    const shownFor = measureVisibleMs(page, text, 'flash');
    await expect(page.getByRole('alert').filter({ hasText: text })).toBeVisible();
    const ms = await shownFor;
    expect(ms).toBeGreaterThanOrEqual(3000);
    expect(ms).toBeLessThan(4000);
  });

  test('a success flash is announced politely', async ({ page }) => {
    await stores(page);
    await page.evaluate(() =>
      window.appStores?.showFlash(
        'User created successfully. Please check your email to verify your account.',
        'success',
      ),
    );
    await expect(
      page.getByRole('status').filter({ hasText: 'User created successfully. Please check your email' }),
    ).toBeVisible();
  });

  test('a snackbar appears at the bottom center and hides after 6 seconds', async ({ page }) => {
    test.setTimeout(20_000);
    await stores(page);
    const shownFor = measureVisibleMs(page, 'API key copied', 'snackbar');
    const snackbar = page.getByText('API key copied');
    await expect(snackbar).toBeVisible();
    const box = await snackbar.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport && Math.abs(box.x + box.width / 2 - viewport.width / 2)).toBeLessThan(40);
    expect(box && viewport && box.y).toBeGreaterThan((viewport?.height ?? 0) / 2);
    const ms = await shownFor;
    expect(ms).toBeGreaterThanOrEqual(6000);
    expect(ms).toBeLessThan(7500);
  });
});

test.describe('dialogs', () => {
  test('the premium dialog offers Keep Browsing and Get subscription, closes on Escape and returns focus', async ({
    page,
  }) => {
    await stores(page);
    const opener = page.getByRole('link', { name: 'Read the docs' }).first();
    await opener.focus();
    await page.evaluate(() => window.appStores?.openPremiumPopup());
    const dialog = page.getByRole('dialog', { name: 'Unrestricted Access' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Keep Browsing' })).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'Get subscription' })).toHaveAttribute(
      'href',
      '/developer/docs/pricing',
    );

    // Focus stays inside while tabbing.
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    expect(await page.evaluate(() => window.appStores?.$auth.get().premiumPopup)).toBe(false);
  });

  test('Keep Browsing closes the premium dialog', async ({ page }) => {
    await stores(page);
    await page.evaluate(() => window.appStores?.openPremiumPopup());
    await page.getByRole('button', { name: 'Keep Browsing' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
  });

  test('the session-inactive dialog asks to refresh, and Refresh Now reloads the page', async ({ page }) => {
    await stores(page);
    await page.evaluate(() => window.appStores?.openSessionInactive());
    const dialog = page.getByRole('dialog', { name: 'Stay Ahead with Fresh Data!' });
    await expect(dialog).toContainText(
      'Your session has been inactive. For the latest financial insights, please refresh.',
    );
    await page.evaluate(() => {
      (window as unknown as { beforeReload?: boolean }).beforeReload = true;
    });
    await Promise.all([
      page.waitForEvent('load'),
      dialog.getByRole('button', { name: 'Refresh Now' }).click(),
    ]);
    expect(
      await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload),
    ).toBeUndefined();
  });

  test('the sign-in dialog switches between its sign-in and sign-up views', async ({ page }) => {
    await stores(page);
    await page.evaluate(() => window.appStores?.openAuthPopup(1));
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('tab', { name: 'Sign in' })).toHaveAttribute('aria-selected', 'true');
    await dialog.getByRole('tab', { name: 'Sign up' }).click();
    await expect(dialog.getByRole('tab', { name: 'Sign up' })).toHaveAttribute('aria-selected', 'true');
    expect(await page.evaluate(() => window.appStores?.$auth.get().authPopup)).toBe(2);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect(await page.evaluate(() => window.appStores?.$auth.get().authPopup)).toBe(false);
  });
});
