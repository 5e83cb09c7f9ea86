import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page, type Response } from '@playwright/test';
import { PAGE_TITLES, symbolPath, type SymbolPage } from '../../src/lib/symbol-routes.ts';
import { openPage } from './fixtures.ts';

/** One symbol of each asset type in the test-scale demo data, with the tabs SPEC §2 gives the type. */
const SYMBOLS = [
  {
    kind: 'stock',
    symbol: 'AAPL',
    tabs: [
      ['Overview', 'financial-summary'],
      ['Profile', 'profile'],
      ['Financial Statements', 'financial-statements'],
      ['Financial Ratios', 'financial-ratios'],
      ['Chart', 'chart'],
      ['Analysis', 'analysis'],
      ['News', 'news'],
      ['Corporate Actions', 'corporate-actions'],
      ['DCF', 'discounted-cash-flow-model'],
    ],
  },
  {
    kind: 'crypto',
    symbol: 'BTCUSD',
    tabs: [
      ['Overview', 'cryptocurrency'],
      ['Chart', 'chart'],
      ['Historical Data', 'historical-data-crypto'],
    ],
  },
  {
    kind: 'index',
    symbol: '^GSPC',
    tabs: [
      ['Overview', 'index-summary'],
      ['Chart', 'chart'],
      ['Historical Data', 'historical-data-index'],
    ],
  },
  {
    kind: 'forex',
    symbol: 'EURUSD',
    tabs: [
      ['Overview', 'forex'],
      ['Chart', 'chart'],
      ['Historical Data', 'historical-data-forex'],
    ],
  },
  {
    kind: 'commodity',
    symbol: 'GCUSD',
    tabs: [
      ['Overview', 'commodity'],
      ['Chart', 'chart'],
      ['Historical Data', 'historical-data-commodity'],
    ],
  },
] as const satisfies readonly {
  kind: string;
  symbol: string;
  tabs: readonly (readonly [string, SymbolPage])[];
}[];

/** A class name only the chart library's code contains (it survives minification). */
const CHART_LIBRARY_MARKER = 'tv-lightweight-charts';

function escapeRegExp(text: string): RegExp {
  return new RegExp(`${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/** The section under a symbol page's `<h2>`, where the page's panel is. */
function panel(page: Page, symbolPage: SymbolPage): Locator {
  return page.getByRole('region', { name: PAGE_TITLES[symbolPage], exact: true });
}

/** Table cells, definitions or list items with text: the data a panel shows. */
function dataItems(region: Locator): Locator {
  return region.locator('td, th[scope="row"], dd, li').filter({ hasText: /\S/ });
}

/** Dates as `YYYY-MM-DD`, however a cell shows them: ISO or spelled out ("Nov 20, 2026", a UTC day). */
function isoDate(text: string): string {
  const trimmed = text.trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return trimmed.slice(0, 10);
  const parsed = Date.parse(`${trimmed} UTC`);
  return Number.isNaN(parsed) ? trimmed : new Date(parsed).toISOString().slice(0, 10);
}

/** Collects the JavaScript a page loads, to look into what was shipped. */
function recordScripts(page: Page): Response[] {
  const scripts: Response[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type === 'script' || /\.m?js(\?|$)/.test(response.url())) scripts.push(response);
  });
  return scripts;
}

async function scriptsWithChartLibrary(scripts: readonly Response[]): Promise<string[]> {
  const found: string[] = [];
  for (const response of scripts) {
    const body = await response.text().catch(() => '');
    if (response.url().includes('lightweight-charts') || body.includes(CHART_LIBRARY_MARKER)) {
      found.push(response.url());
    }
  }
  return found;
}

test.describe('symbol page tabs', () => {
  for (const { kind, symbol, tabs } of SYMBOLS) {
    test(`a visitor on a ${kind} (${symbol}) finds every tab of its type and each tab shows its data`, async ({
      page,
    }) => {
      // One page load and a client-side navigation per tab: up to ten pages in one test.
      test.setTimeout(60_000);
      const [, overview] = tabs[0];
      await openPage(page, symbolPath(overview, symbol));
      await expect(page.getByRole('heading', { level: 1 })).toContainText(`(${symbol})`);
      await expect(page.getByText('Demo data', { exact: true })).toBeVisible();

      const nav = page.getByRole('navigation', { name: `${symbol} sections` });
      await expect(nav.getByRole('link')).toHaveText(tabs.map(([label]) => label));

      for (const [label, target] of tabs) {
        const link = nav.getByRole('link', { name: label, exact: true });
        await link.click();
        await expect(page).toHaveURL(escapeRegExp(symbolPath(target, symbol)));
        await expect(link).toHaveAttribute('aria-current', 'page');
        await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
        await expect(
          page.getByRole('heading', { level: 2, name: PAGE_TITLES[target], exact: true }),
        ).toBeVisible();
        await expect(page.getByRole('heading', { level: 1 })).toContainText(`(${symbol})`);

        const region = panel(page, target);
        if (target === 'chart') {
          await expect(region.getByRole('group', { name: 'Range' })).toBeVisible();
          await expect(
            region
              .getByRole('table', { name: `Price data of ${symbol}`, includeHidden: true })
              .locator('tbody tr')
              .first(),
          ).toBeAttached();
        } else {
          await expect(dataItems(region).first(), `${label}: data in the panel`).toBeVisible();
        }
      }
    });
  }

  test('tabs change the page without a full reload and keep the header', async ({ page }) => {
    await openPage(page, '/financial-summary/AAPL');
    const title = page.getByRole('heading', { level: 1 });
    await expect(title).toContainText('(AAPL)');
    const name = await title.textContent();
    await page.evaluate(() => {
      (window as unknown as { __marker?: number }).__marker = 1;
    });

    await page
      .getByRole('navigation', { name: 'AAPL sections' })
      .getByRole('link', { name: 'Profile' })
      .click();
    await expect(page).toHaveURL(/\/profile\/AAPL$/);
    await expect(page.getByRole('heading', { level: 2, name: PAGE_TITLES.profile })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
    await expect(title).toHaveText(name ?? '');
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('the tab bar scrolls to show the current tab at its far end', async ({ page }) => {
      await openPage(page, '/discounted-cash-flow-model/AAPL');
      const tabs = page.getByRole('navigation', { name: 'AAPL sections' });
      await expect(tabs.getByRole('link', { name: 'DCF' })).toHaveAttribute('aria-current', 'page');
      await expect(tabs.getByRole('link', { name: 'DCF' })).toBeInViewport({ ratio: 1 });
      await expect(tabs.getByRole('link', { name: 'Overview' })).not.toBeInViewport();
    });

    test('wide tables scroll inside their frames and the page never scrolls sideways', async ({ page }) => {
      for (const path of [
        '/financial-ratios/AAPL',
        '/dupont-ratio-analysis/AAPL',
        '/income-statement/AAPL',
        '/historical-data-crypto/BTCUSD',
      ]) {
        await openPage(page, path);
        await expect(page.getByRole('table').first()).toBeVisible();
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          path,
        ).toBeLessThanOrEqual(0);
      }
    });
  });
});

test.describe('symbol page addresses', () => {
  const redirects = [
    ['a stock asked for on the cryptocurrency page', '/cryptocurrency/AAPL', '/financial-summary/AAPL'],
    [
      'a cryptocurrency asked for on the stock overview',
      '/financial-summary/BTCUSD',
      '/cryptocurrency/BTCUSD',
    ],
    [
      'a currency pair asked for on the stock history',
      '/historical-data/EURUSD',
      '/historical-data-forex/EURUSD',
    ],
    ['a symbol typed in lower case', '/financial-summary/aapl', '/financial-summary/AAPL'],
  ] as const;
  for (const [what, from, to] of redirects) {
    test(`${what} is moved permanently to its own page`, async ({ request, page }) => {
      const answer = await request.get(from, { maxRedirects: 0 });
      expect(answer.status()).toBe(301);
      expect(
        new URL(
          answer.headersArray().find((header) => header.name.toLowerCase() === 'location')?.value ?? '',
          'http://site.test',
        ).pathname,
      ).toBe(to);

      await page.goto(from);
      await expect(page).toHaveURL(escapeRegExp(to));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    });
  }

  test('an unknown symbol answers 404 with a search form that leads to the search', async ({ page }) => {
    const answer = await page.goto('/financial-summary/NOSUCH1');
    expect(answer?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No symbol “NOSUCH1”');
    const field = page.getByLabel('Symbol or name');
    await expect(field).toHaveValue('NOSUCH1');
    await field.fill('Apple');
    await field.press('Enter');
    await expect(page).toHaveURL(/\/search\?query=Apple$/);
    await page.getByRole('link', { name: /AAPL.*Apple Inc/ }).click();
    await expect(page).toHaveURL(/\/financial-summary\/AAPL$/);
  });

  test('a near-miss symbol suggests the symbols it was probably meant to be', async ({ page }) => {
    const answer = await page.goto('/financial-summary/AAP');
    expect(answer?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 2, name: 'Did you mean' })).toBeVisible();
    const suggestion = page.getByRole('listitem').getByRole('link', { name: /^AAPL\b/ });
    await expect(suggestion).toHaveAttribute('href', '/financial-summary/AAPL');
    await suggestion.click();
    await expect(page).toHaveURL(/\/financial-summary\/AAPL$/);
  });
});

test.describe('discounted cash flow model', () => {
  test('an investor changes the growth rate, sees the value per share recomputed, and resets the assumptions', async ({
    page,
  }) => {
    await openPage(page, '/discounted-cash-flow-model/AAPL');
    const form = page.getByRole('form', { name: 'Assumptions' });
    for (const label of [
      'Growth rate (%)',
      'Discount rate (%)',
      'Terminal growth rate (%)',
      'Projection years',
    ]) {
      await expect(form.getByLabel(label, { exact: true })).toBeVisible();
    }
    const result = page.getByLabel('Equity value per share', { exact: true });
    await expect(result).not.toBeEmpty();
    const initial = (await result.textContent()) ?? '';
    expect(initial).toMatch(/\d/);

    const growth = form.getByLabel('Growth rate (%)', { exact: true });
    const defaultGrowth = await growth.inputValue();
    const changed = String(Number(defaultGrowth) + 5);
    await growth.fill(changed);
    await growth.press('Tab');
    await expect(result).not.toHaveText(initial);
    await expect(result).toHaveText(/\d/);

    await form.getByRole('button', { name: 'Reset to defaults' }).click();
    await expect(growth).toHaveValue(defaultGrowth);
    await expect(result).toHaveText(initial);
  });
});

test.describe('historical data', () => {
  for (const [path, symbol] of [
    ['/historical-data/AAPL', 'AAPL'],
    ['/historical-data-crypto/BTCUSD', 'BTCUSD'],
  ] as const) {
    test(`the CSV download of ${symbol}'s history holds every date the table shows, and JSON is offered too`, async ({
      page,
    }) => {
      await openPage(page, path);
      const table = page.getByRole('table', { name: `Historical prices of ${symbol}`, exact: true });
      const firstCells = table.locator('tbody tr > :first-child');
      await expect(firstCells.first()).toBeVisible();
      const shown = (await firstCells.allTextContents()).map((text) => isoDate(text));
      expect(shown.length).toBeGreaterThan(0);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      const csv = await readFile(await download.path(), 'utf8');
      const csvDates = new Set(
        csv
          .split(/\r?\n/)
          .slice(1)
          .map((line) => isoDate(line.split(',')[0]?.replace(/"/g, '') ?? ''))
          .filter((value) => value !== ''),
      );
      expect(shown.filter((date) => !csvDates.has(date))).toEqual([]);
      await expect(page.getByText(`Downloaded ${download.suggestedFilename()}.`)).toBeVisible();

      const [json] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download JSON' }).click(),
      ]);
      expect(json.suggestedFilename()).toMatch(/\.json$/);
      const parsed = JSON.parse(await readFile(await json.path(), 'utf8')) as unknown;
      expect(parsed).toBeTruthy();
    });
  }

  test('a visitor pages back to older prices and returns to the newest', async ({ page }) => {
    await openPage(page, '/historical-data-crypto/BTCUSD');
    const pager = page.getByRole('navigation', { name: 'Pages of historical prices of BTCUSD' });
    await expect(pager.getByText(/^Page 1 of \d+$/)).toBeVisible();
    await expect(pager.getByRole('link', { name: 'Newer' })).toHaveCount(0);
    const table = page.getByRole('table', { name: 'Historical prices of BTCUSD', exact: true });
    const newest = await table.locator('tbody tr > :first-child').first().textContent();

    await pager.getByRole('link', { name: 'Older' }).click();
    await expect(pager.getByText(/^Page 2 of \d+$/)).toBeVisible();
    await expect(table.locator('tbody tr > :first-child').first()).not.toHaveText(newest ?? '');

    await pager.getByRole('link', { name: 'Newer' }).click();
    await expect(pager.getByText(/^Page 1 of \d+$/)).toBeVisible();
    await expect(table.locator('tbody tr > :first-child').first()).toHaveText(newest ?? '');
  });

  test('a range that ends before it starts is pointed out at its field, and the last year is shown instead', async ({
    page,
  }) => {
    await openPage(page, '/historical-data-forex/EURUSD');
    const from = page.getByLabel('From', { exact: true });
    await from.fill('2026-06-01');
    await page.getByLabel('To', { exact: true }).fill('2026-01-01');
    await page.getByRole('button', { name: 'Show prices' }).click();

    await expect(page).toHaveURL(/from=2026-06-01/);
    const alert = page.getByRole('alert').filter({ hasText: '“From” must be on or before “To”.' });
    await expect(alert).toContainText('Showing the last year instead.');
    await expect(from).toHaveAttribute('aria-invalid', 'true');
    await expect(from).toHaveAccessibleDescription('“From” must be on or before “To”.');
    await expect(page.getByLabel('To', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('table', { name: 'Historical prices of EURUSD', exact: true })).toBeVisible();
  });
});

test.describe('price chart', () => {
  test('a visitor switches the range and the series style and reads the prices as a table', async ({
    page,
  }) => {
    await openPage(page, '/chart/AAPL');
    const range = page.getByRole('group', { name: 'Range' });
    const labels = ['1D', '5D', '1M', '6M', 'YTD', '1Y', '5Y', 'Max'];
    await expect(range.getByRole('button')).toHaveText(labels);
    await expect(range.locator('[aria-pressed="true"]')).toHaveCount(1);

    const halfYear = range.getByRole('button', { name: '6M', exact: true });
    await halfYear.click();
    await expect(halfYear).toHaveAttribute('aria-pressed', 'true');
    await expect(range.locator('[aria-pressed="true"]')).toHaveCount(1);
    const year = range.getByRole('button', { name: '1Y', exact: true });
    await year.click();
    await expect(year).toHaveAttribute('aria-pressed', 'true');
    await expect(range.locator('[aria-pressed="true"]')).toHaveCount(1);

    const line = page.getByRole('button', { name: 'Line', exact: true });
    const candles = page.getByRole('button', { name: 'Candles', exact: true });
    await line.click();
    await expect(line).toHaveAttribute('aria-pressed', 'true');
    await expect(candles).toHaveAttribute('aria-pressed', 'false');
    await candles.click();
    await expect(candles).toHaveAttribute('aria-pressed', 'true');

    const table = page.getByRole('table', { name: 'Price data of AAPL', exact: true });
    await expect(table).toBeHidden();
    await page.locator('summary', { hasText: 'Data table' }).click();
    await expect(table).toBeVisible();
    await expect(table.locator('tbody tr').first()).toBeVisible();
  });

  test('the chart library is loaded on chart pages only', async ({ page }) => {
    const scripts = recordScripts(page);
    await openPage(page, '/financial-summary/AAPL');
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    expect(await scriptsWithChartLibrary(scripts)).toEqual([]);

    scripts.length = 0;
    await openPage(page, '/chart/AAPL');
    await expect
      .poll(async () => (await scriptsWithChartLibrary(scripts)).length, { timeout: 10_000 })
      .toBeGreaterThan(0);
  });
});

test.describe('symbol page accessibility', () => {
  const overviews = [
    '/financial-summary/AAPL',
    '/cryptocurrency/BTCUSD',
    '/index-summary/%5EGSPC',
    '/forex/EURUSD',
    '/commodity/GCUSD',
  ];
  for (const path of overviews) {
    for (const theme of ['light', 'dark'] as const) {
      test(`${path} has no accessibility violations (${theme})`, async ({ page }) => {
        await page.addInitScript((mode) => {
          localStorage.setItem('themeMode', mode);
        }, theme);
        await openPage(page, path);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        const results = await new AxeBuilder({ page }).analyze();
        expect(
          results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        ).toEqual([]);
      });
    }
  }
});
