import { expect, test } from '@playwright/test';
import { openPage } from './fixtures.ts';

test.describe('dark and light mode', () => {
  test('the dark mode switch applies at once, survives a reload and a page change', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await openPage(page, '/');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'light');
    const toggle = page.getByRole('switch', { name: 'Dark mode' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(html).toHaveAttribute('data-theme', 'dark');
    expect(await page.evaluate(() => localStorage.getItem('displayDarkMode'))).toBe('true');

    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'dark');

    // A client-side navigation (view transition) keeps the theme.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page).toHaveURL(/\/terms-of-service$/);
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('switch', { name: 'Dark mode' })).toHaveAttribute('aria-checked', 'true');
  });

  test('the saved theme is painted before the first frame, with no flash of the other theme', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.addInitScript(() => {
      localStorage.setItem('themeMode', 'dark');
      localStorage.setItem('displayDarkMode', 'true');
      // Record the theme the document has as soon as the body exists, before any island runs.
      document.addEventListener(
        'readystatechange',
        () => {
          if (document.readyState === 'interactive') {
            (window as unknown as { firstTheme?: string | null }).firstTheme =
              document.documentElement.getAttribute('data-theme');
          }
        },
        { once: true },
      );
    });
    await openPage(page, '/');
    expect(await page.evaluate(() => (window as unknown as { firstTheme?: string | null }).firstTheme)).toBe(
      'dark',
    );
  });

  test('system mode follows the operating system preference', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await openPage(page, '/');
    const html = page.locator('html');
    const system = page.getByRole('button', { name: 'Use system theme' });
    // An explicit choice first: light, although the system is dark.
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    await expect(html).toHaveAttribute('data-theme', 'light');
    await expect(system).toHaveAttribute('aria-pressed', 'false');

    await system.click();
    await expect(system).toHaveAttribute('aria-pressed', 'true');
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html).toHaveAttribute('data-theme', 'light');
    expect(await page.evaluate(() => localStorage.getItem('themeMode'))).toBe('system');
  });
});
