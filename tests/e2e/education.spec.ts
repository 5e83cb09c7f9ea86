import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { PAGE_TITLES } from '../../src/lib/symbol-routes.ts';
import { openPage } from './fixtures.ts';

/*
 * The education section as an investor uses it: the index lists the lessons, a lesson leads to the
 * formula page behind its numbers and to the company page it works through, and both pages open.
 * The index and a lesson have no accessibility violations in either theme, on a desktop and a phone.
 */

const LESSON = '/education/discounted-cash-flow-step-by-step';

async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('an education article links to a formula page and a symbol page that open', async ({ page }) => {
  await openPage(page, '/education');
  await expect(page.getByRole('heading', { level: 1, name: 'Education' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Follow with RSS' })).toHaveAttribute(
    'href',
    '/education/rss.xml',
  );

  await page.getByRole('link', { name: 'Discounted cash flow, step by step' }).click();
  await expect(page).toHaveURL(LESSON, { timeout: 15_000 });
  await expect(
    page.getByRole('heading', { level: 1, name: 'Discounted cash flow, step by step' }),
  ).toBeVisible();
  await expect(page.getByText('Daniel Okafor').first()).toBeVisible();

  const article = page.getByRole('article');
  await article.getByRole('link', { name: 'DCF formula', exact: true }).click();
  await expect(page).toHaveURL('/developer/docs/dcf-formula', { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'DCF formula' })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(LESSON, { timeout: 15_000 });
  await page
    .getByRole('article')
    .getByRole('link', { name: 'discounted cash flow page', exact: true })
    .click();
  await expect(page).toHaveURL('/discounted-cash-flow-model/AAPL', { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1 })).toContainText('(AAPL)');
  await expect(
    page.getByRole('heading', { level: 2, name: PAGE_TITLES['discounted-cash-flow-model'], exact: true }),
  ).toBeVisible();
});

for (const [themeIndex, theme] of (['light', 'dark'] as const).entries()) {
  test(`the education index and a lesson have no accessibility violations and fit a phone (${theme})`, async ({
    page,
  }) => {
    // Each page is scanned with axe once per theme, on a desktop in one theme and on a phone in the other,
    // and checked for sideways scrolling at both widths.
    test.setTimeout(120_000);
    await page.addInitScript((mode) => {
      localStorage.setItem('themeMode', mode);
    }, theme);
    for (const [widthIndex, width] of [1280, 390].entries()) {
      await page.setViewportSize({ width, height: 900 });
      for (const [pageIndex, path] of ['/education', LESSON].entries()) {
        await page.goto(path);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        if ((pageIndex + themeIndex + widthIndex) % 2 === 0)
          expect(await violations(page), `${path} at ${String(width)} px`).toEqual([]);
        const sideways = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(sideways, `${path} scrolls sideways at ${String(width)} px`).toBeLessThanOrEqual(0);
      }
    }
  });
}
