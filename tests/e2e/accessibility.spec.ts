import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

const widths = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'mobile', viewport: { width: 390, height: 844 } },
];

for (const { name, viewport } of widths) {
  for (const theme of ['light', 'dark'] as const) {
    test(`the home page has no accessibility violations (${name}, ${theme})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await page.waitForLoadState('networkidle');
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    });
  }
}

test('the legal pages have no accessibility violations in dark mode', async ({ page }) => {
  await page.addInitScript(() => {
    localStorage.setItem('themeMode', 'dark');
  });
  for (const path of ['/terms-of-service', '/privacy-policy']) {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).analyze();
    expect(
      results.violations.map((v) => v.id),
      path,
    ).toEqual([]);
  }
});
