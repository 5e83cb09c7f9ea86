import { expect, test } from '@playwright/test';
import { openPage, signInAs } from './fixtures.ts';

test.describe('mobile header', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the hamburger opens the navigation and blocks page scrolling until it is closed', async ({
    page,
  }) => {
    await openPage(page, '/');
    await expect(page.getByRole('button', { name: 'Datasets' })).toBeHidden();
    const hamburger = page.getByRole('button', { name: 'Menu' });
    await hamburger.click();
    await expect(hamburger).toHaveAttribute('aria-expanded', 'true');
    const panel = page.locator('#mobile-menu');
    await expect(panel.getByRole('link', { name: 'Real-Time Market Data' })).toBeVisible();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');

    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(hamburger).toBeFocused();
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden');
  });

  test('the app-wide mobile flag is set at phone widths', async ({ page }) => {
    await openPage(page, '/');
    await expect(page.locator('html')).toHaveAttribute('data-mobile', 'true');
  });
});

test.describe('desktop header', () => {
  test('becomes sticky after scrolling past its own height, and not before', async ({ page }) => {
    await openPage(page, '/');
    const header = page.getByRole('banner');
    const height = await header.evaluate((el) => el.getBoundingClientRect().height);
    await page.mouse.wheel(0, Math.max(1, height - 20));
    await page.waitForTimeout(100);
    await expect(header).not.toHaveAttribute('data-sticky', 'true');
    await page.evaluate((y) => {
      window.scrollTo(0, y);
    }, height + 200);
    await expect(header).toHaveAttribute('data-sticky', 'true');
    await expect(page.getByRole('button', { name: 'Datasets' })).toBeInViewport();
    await page.evaluate(() => {
      window.scrollTo(0, 0);
    });
    await expect(header).toHaveAttribute('data-sticky', 'false');
  });

  test('is not in the mobile layout above 1050 px', async ({ page }) => {
    await openPage(page, '/');
    await expect(page.locator('html')).toHaveAttribute('data-mobile', 'false');
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
  });
});

test.describe('header while the session loads', () => {
  for (const who of ['a visitor', 'a signed-in user'] as const) {
    test(`for ${who}, the auth block replaces its skeleton without shifting the layout`, async ({ page }) => {
      if (who === 'a signed-in user') await signInAs(page, { username: 'jane' });
      // Shifts from the moment the document is parsed, when the islands hydrate and the session is
      // restored (a busy browser may paint a half-parsed page before that, which says nothing about
      // the auth block). Any shift of the header's own parts counts: they are too small for the
      // page's shift score to notice.
      await page.addInitScript(() => {
        const shifts: { value: number; inHeader: boolean }[] = [];
        (window as unknown as { shifts: typeof shifts }).shifts = shifts;
        new PerformanceObserver((list) => {
          const parsedAt = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
          if (!(parsedAt.domContentLoadedEventStart > 0)) return;
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
            sources: { node: Node | null }[];
          })[]) {
            if (entry.hadRecentInput || entry.startTime < parsedAt.domContentLoadedEventStart) continue;
            const header = document.querySelector('header');
            const inHeader = entry.sources.some((source) => source.node && header?.contains(source.node));
            shifts.push({ value: entry.value, inHeader });
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await openPage(page, '/');
      const banner = page.getByRole('banner');
      await expect(
        who === 'a visitor'
          ? banner.getByRole('link', { name: 'Sign In' })
          : banner.getByRole('link', { name: 'Dashboard' }),
      ).toBeVisible();
      await page.waitForTimeout(300);
      const shifts = await page.evaluate(
        () => (window as unknown as { shifts: { value: number; inHeader: boolean }[] }).shifts,
      );
      expect(shifts.filter((shift) => shift.inHeader)).toEqual([]);
      expect(shifts.reduce((sum, shift) => sum + shift.value, 0)).toBeLessThan(0.01);
    });
  }
});

test.describe('footer', () => {
  test('shows the four link groups, the professional network link and the copyright years', async ({
    page,
  }) => {
    await openPage(page, '/');
    const footer = page.getByRole('contentinfo');
    for (const group of ['API', 'Company', 'Stock Screener', 'Legal']) {
      await expect(footer.getByRole('heading', { name: group, exact: true })).toBeVisible();
    }
    await expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      '/terms-of-service',
    );
    const external = footer.locator('a[target="_blank"]');
    await expect(external).toHaveCount(1);
    await expect(external).toHaveAttribute('rel', /noopener/);
    await expect(footer).toContainText('2017-2025');
  });
});
