import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openPage } from './fixtures.ts';

/** The figures of one column of the market table, top to bottom, as numbers. */
async function columnNumbers(page: Page, index: number): Promise<number[]> {
  const texts = await page.locator(`table tbody tr td:nth-child(${index + 1})`).allTextContents();
  return texts.map((text) => Number(text.replace(/[^0-9.-]/g, '')));
}

test.describe('the market pages', () => {
  test('a visitor sorts the top gainers by price and back, and opens a gainer’s page', async ({ page }) => {
    await openPage(page, '/top-stock-gainers');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Demo data', { exact: true })).toBeVisible();
    const changeHeader = page.getByRole('columnheader', { name: /Change/ }).first();
    await expect(changeHeader).toHaveAttribute('aria-sort', 'descending');

    const priceHeader = page.getByRole('columnheader', { name: /Price/ });
    await priceHeader.getByRole('link').click();
    await expect(page).toHaveURL(/sort=price/);
    const priceIndex = await page
      .locator('table thead th')
      .evaluateAll((cells) => cells.findIndex((cell) => cell.textContent.includes('Price')));
    const sorted = await columnNumbers(page, priceIndex);
    expect(sorted.length).toBeGreaterThan(1);
    const direction = await page.getByRole('columnheader', { name: /Price/ }).getAttribute('aria-sort');
    const expected = [...sorted].sort((a, b) => (direction === 'ascending' ? a - b : b - a));
    expect(sorted).toEqual(expected);

    await page.getByRole('columnheader', { name: /Price/ }).getByRole('link').click();
    await expect(page.getByRole('columnheader', { name: /Price/ })).not.toHaveAttribute(
      'aria-sort',
      direction ?? '',
    );
    const reversed = await columnNumbers(page, priceIndex);
    expect(reversed).toEqual([...sorted].reverse());

    const firstSymbol = page.locator('table tbody tr').first().getByRole('link').first();
    const symbol = (await firstSymbol.textContent())?.trim() ?? '';
    await firstSymbol.click();
    await expect(page).toHaveURL(new RegExp(`/${encodeURIComponent(symbol.split(/\s/)[0] ?? '')}`));
  });

  test('a symbol picked from the search results shows on the most searched page', async ({ page }) => {
    await openPage(page, '/search?query=NVDA');
    const result = page.getByRole('link', { name: /NVDA/ }).first();
    await expect(result).toBeVisible();
    await result.click();
    await expect(page).toHaveURL(/\/NVDA$/);
    // The page is kept a quarter of a minute by the page cache: look again until it is renewed.
    await expect(async () => {
      await openPage(page, '/most-searched-stocks');
      await expect(page.getByRole('table').getByRole('link', { name: /NVDA/ })).toBeVisible({
        timeout: 1_000,
      });
    }).toPass({ timeout: 45_000 });
  });

  test('the market pages link to each other and have no accessibility violations, light and dark', async ({
    page,
  }) => {
    test.slow(); // six accessibility scans
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of ['/top-stock-losers', '/sector-performance', '/currencies']) {
        await openPage(page, path);
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.violations, `${path} ${scheme}`).toEqual([]);
      }
    }
    await openPage(page, '/market-indexes');
    await page.getByRole('link', { name: 'Cryptocurrencies' }).first().click();
    await expect(page).toHaveURL(/\/cryptocurrencies$/);
  });
});

test.describe('market news', () => {
  test('a reader filters the news by type and symbol, opens an article and follows its symbol', async ({
    page,
  }) => {
    await openPage(page, '/market-news');
    await expect(page.getByRole('heading', { level: 1, name: 'Market News' })).toBeVisible();
    await expect(page.getByText(/^Demo data:/)).toBeVisible();
    await page.getByRole('navigation', { name: 'News type' }).getByRole('link', { name: 'Stocks' }).click();
    await expect(page).toHaveURL(/type=stock/);
    await page.getByLabel('Symbol').fill('AAPL');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/symbol=AAPL/);
    await expect(page.getByRole('heading', { level: 1, name: 'Market News about AAPL' })).toBeVisible();

    const headline = page.getByRole('heading', { level: 2 }).getByRole('link').first();
    const title = (await headline.textContent())?.trim() ?? '';
    await headline.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(
      page
        .getByRole('article')
        .getByText(/demo content/)
        .first(),
    ).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: /^AAPL/ }).first().click();
    await expect(page).toHaveURL(/\/AAPL$/);
  });

  test('an unknown article answers 404, and the news pages have no accessibility violations', async ({
    page,
  }) => {
    test.slow(); // four accessibility scans
    const missing = await page.goto('/market-news/00000000-0000-4000-8000-000000000000');
    expect(missing?.status()).toBe(404);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await openPage(page, '/market-news');
      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
      await page.getByRole('heading', { level: 2 }).getByRole('link').first().click();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    }
  });

  test('the news list fits a phone without scrolling sideways', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openPage(page, '/market-news');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
