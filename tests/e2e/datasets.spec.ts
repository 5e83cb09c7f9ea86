import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DATASETS } from '../../src/lib/routes.ts';
import { openPage, waitForLivePage, signInAs } from './fixtures.ts';

/** The one signed-in reader of this file (a stored session, as a finished sign-in leaves it). */
const READER = { username: 'dataset-reader', apiKey: 'datasetReaderKey0123456789abcdefghijkl' };

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' }).first();

/** Axe's findings on the page as it is, one line per rule. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('datasets', () => {
  test('from the home page, every Datasets menu item opens its dataset with a live sample', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await openPage(page, '/');
    for (const dataset of DATASETS) {
      // Each dataset page is a new page: its header's script must run before the menu opens on a click.
      await waitForLivePage(page);
      const menu = mainNav(page).getByRole('button', { name: 'Datasets' });
      await menu.click();
      await expect(menu).toHaveAttribute('aria-expanded', 'true');
      await page
        .locator('#header-menu-datasets')
        .getByRole('link', { name: dataset.label, exact: true })
        .click();

      await expect(page).toHaveURL(new RegExp(`/datasets/${dataset.id}$`));
      await expect(page.getByRole('heading', { level: 1, name: dataset.label })).toBeVisible();
      const coverage = page.locator('[data-dataset-coverage]');
      await expect(coverage.getByText(/ covered$/)).toBeVisible();
      const sample = page.getByRole('region', { name: /the first rows of \/stable\// });
      await expect(sample.getByRole('row').nth(1)).toBeVisible();
      await expect(page.getByText('Demo data: generated figures').first()).toBeVisible();
      await expect(page.getByRole('link', { name: 'Open in the API viewer' })).toHaveAttribute(
        'href',
        /^\/playground\?endpoint=/,
      );
    }
  });

  test('a dataset page lists its endpoints with their plans and opens the reference and the API viewer', async ({
    page,
  }) => {
    await openPage(page, '/datasets/market-data-historic');
    const endpoints = page.getByRole('region', { name: 'Endpoints of Historical Market Data' });
    const daily = endpoints.getByRole('row', { name: /historical-price-eod\/full/ });
    await expect(daily).toContainText('Every plan');
    await expect(endpoints.getByRole('row', { name: /historical-chart\/1min/ })).toContainText(
      'Professional and above',
    );
    await expect(page.getByText('History', { exact: true })).toBeVisible();

    await page.getByRole('link', { name: 'Reference: historical-price-eod/full' }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/stable\/historical-price-eod\/full$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Daily prices, full' })).toBeVisible();

    await openPage(page, '/datasets/market-data-historic');
    const viewer = page.getByRole('link', { name: 'Open in the API viewer' });
    await expect(viewer).toHaveAttribute(
      'href',
      '/playground?endpoint=historical-price-eod/full&symbol=AAPL',
    );
    await viewer.click();
    await expect(page).toHaveURL(/\/playground\?endpoint=historical-price-eod\/full/);
  });

  test('a signed-in reader finds their own key in the dataset’s request samples', async ({ page }) => {
    await signInAs(page, READER);
    await openPage(page, '/datasets/economics');
    const curl = page.getByRole('tabpanel', { name: 'curl' });
    await expect(curl).toContainText(`/stable/treasury-rates?apikey=${READER.apiKey}`);
    await expect(page.getByText('YOUR_API_KEY')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Sign up for a free key' })).toBeHidden();
  });

  test('a signed-out reader sees the key placeholder and an invitation to get a key', async ({ page }) => {
    await openPage(page, '/datasets/economics');
    await expect(page.getByRole('tabpanel', { name: 'curl' })).toContainText('apikey=YOUR_API_KEY');
    await expect(page.getByRole('link', { name: 'Sign up for a free key' })).toBeVisible();
  });

  test('the index lists every dataset by category, and its search narrows the list as one types', async ({
    page,
  }) => {
    await openPage(page, '/datasets');
    await expect(page.getByRole('heading', { level: 1, name: 'Datasets' })).toBeVisible();
    const list = page.getByRole('main');
    for (const dataset of DATASETS) {
      await expect(list.getByRole('link', { name: dataset.label, exact: true })).toBeVisible();
    }

    const search = page.getByRole('searchbox', { name: 'Search datasets' });
    const status = page.getByRole('search').getByRole('status');
    await search.fill('insider');
    await expect(status).toHaveText('1 dataset matches “insider”.');
    await expect(list.getByRole('link', { name: 'Ownership, Senate & Insider', exact: true })).toBeVisible();
    await expect(list.getByRole('link', { name: 'Crypto', exact: true })).toBeHidden();
    await expect(page.getByRole('heading', { level: 2, name: 'Prices and markets' })).toBeHidden();

    await search.fill('bonds of the moon');
    await expect(status).toHaveText('No dataset matches “bonds of the moon”.');

    await search.fill('');
    await expect(list.getByRole('link', { name: 'Crypto', exact: true })).toBeVisible();
    await list.getByRole('link', { name: 'Crypto', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Crypto' })).toBeVisible();
  });

  test('without JavaScript the index is the full list, with no search box that cannot work', async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/datasets');
    await expect(page.getByRole('link', { name: 'Crypto', exact: true })).toBeVisible();
    await expect(page.getByRole('searchbox', { name: 'Search datasets' })).toBeHidden();
    await context.close();
  });

  test('an unknown dataset answers 404 with the site’s page', async ({ page }) => {
    const res = await page.goto('/datasets/bonds');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: "We couldn't find that page" })).toBeVisible();
  });

  test('a dataset page is public for a minute, so the page cache and browsers may keep it', async ({
    request,
  }) => {
    const res = await request.get('/datasets/crypto');
    expect(res.status()).toBe(200);
    expect(res.headers()['cache-control']).toMatch(/^public, max-age=60\b/);
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const { name, viewport } of [
      { name: 'desktop', viewport: { width: 1280, height: 900 } },
      { name: 'phone', viewport: { width: 390, height: 844 } },
    ]) {
      test(`the index and a dataset page have no accessibility violations and no sideways scroll (${theme}, ${name})`, async ({
        page,
      }) => {
        // Two pages, each checked by axe: more than one page's usual allowance on a busy machine.
        test.setTimeout(90_000);
        await page.setViewportSize(viewport);
        await page.addInitScript((mode) => {
          localStorage.setItem('themeMode', mode);
        }, theme);
        for (const path of ['/datasets', '/datasets/fundamental-financial-statements']) {
          await openPage(page, path);
          await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
          expect(await violations(page), path).toEqual([]);
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow, path).toBeLessThanOrEqual(0);
        }
      });
    }
  }
});
