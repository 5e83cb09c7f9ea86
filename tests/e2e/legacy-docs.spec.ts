import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openPage, signInAs } from './fixtures.ts';

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' }).first();
const legacyNote = (page: Page) => page.getByRole('complementary', { name: 'Your legacy access' });

test.describe('the legacy API documentation', () => {
  test('a legacy user finds the legacy docs in the Documentation menu and reads how to call the legacy API', async ({
    page,
  }) => {
    await signInAs(page, { username: 'lena', legacy: true });
    await openPage(page, '/');
    await mainNav(page).getByRole('button', { name: 'Documentation' }).click();
    const menu = page.locator('#header-menu-documentation');
    await expect(menu.getByRole('link', { name: /API Viewer.*Legacy/ })).toBeVisible();
    await menu.getByRole('link', { name: /API Documentation.*Legacy/ }).click();

    await expect(page).toHaveURL(/\/developer\/docs\/legacy$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Legacy API' })).toBeVisible();
    await expect(legacyNote(page)).toContainText('Your account has legacy access');
    await expect(page.getByRole('heading', { name: 'Making legacy calls' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Quotes of several symbols' })).toBeVisible();
    await expect(page.getByLabel('Quotes of several symbols')).toContainText('/api/v3/quote/AAPL,MSFT');
    await expect(page.getByLabel('An answer of historical-price-full')).toContainText('"historical"');
    await expect(page.getByText('Sign in with such an account to see it')).toBeHidden();

    await page.getByRole('link', { name: /Stable: \/stable\/historical-price-eod\/full/ }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/legacy-endpoints#historical-price-full$/);
    await expect(legacyNote(page)).toBeVisible();
  });

  test('a visitor who opens the legacy docs learns what they are and how to move to the stable API', async ({
    page,
  }) => {
    await openPage(page, '/developer/docs/legacy');
    await expect(page.getByRole('heading', { level: 1, name: 'Legacy API' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Who can use it' })).toBeVisible();
    await expect(page.getByLabel('The refusal of a legacy call')).toContainText(
      'Legacy Endpoint : Due to Legacy endpoints being no longer supported',
    );
    await expect(page.getByRole('heading', { name: 'Moving to the stable API' })).toBeVisible();
    await expect(page.getByLabel('The same request on the stable API')).toContainText(
      '/stable/historical-price-eod/full?symbol=AAPL',
    );
    await expect(page.getByText('Sign in with such an account to see it')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Quotes of several symbols' })).toBeHidden();
    await expect(legacyNote(page)).toBeHidden();
  });

  test('a signed-in user without legacy access sees the same explanation, not an error', async ({ page }) => {
    await signInAs(page, { username: 'nora', legacy: false });
    const answer = await page.goto('/developer/docs/legacy');
    expect(answer?.status()).toBe(200);
    await page.waitForFunction(() => window.appStores !== undefined);
    await expect(page.getByRole('heading', { name: 'Moving to the stable API' })).toBeVisible();
    await expect(page.getByText('Sign in with such an account to see it')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Making legacy calls' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'A quote', exact: true })).toBeHidden();
    await expect(legacyNote(page)).toBeHidden();
  });
});

test.describe('the legacy endpoints guide', () => {
  test('a visitor follows the footer’s Legacy Endpoints link and finds the stable equivalent of each legacy endpoint', async ({
    page,
  }) => {
    await openPage(page, '/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Legacy Endpoints' }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/legacy-endpoints$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Legacy endpoints' })).toBeVisible();
    await expect(legacyNote(page)).toBeHidden();

    const history = page.getByRole('row', { name: /\/api\/v3\/historical-price-full\/\{symbol\}/ });
    await expect(history).toContainText('/stable/historical-price-eod/full');
    await expect(history).toContainText('serietype=line');
    const quote = page.getByRole('row', { name: /^\/api\/v3\/quote\/\{symbol\}/ });
    await expect(quote).toContainText('/stable/batch-quote?symbols=AAPL,MSFT');
    await expect(quote).toContainText('The field changesPercentage becomes changePercentage');
    const news = page.getByRole('row', { name: /\/api\/v3\/stock_news/ });
    await expect(news).toContainText('tickers becomes symbols');

    await page
      .getByRole('navigation', { name: 'On this page' })
      .filter({ visible: true })
      .getByRole('link', { name: 'Statements' })
      .click();
    await expect(page.getByRole('heading', { name: 'Statements' })).toBeInViewport();
  });

  test('a reader copies the guide as Markdown to rewrite their legacy calls', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openPage(page, '/developer/docs/legacy-endpoints');
    await page.getByRole('button', { name: 'Copy page as Markdown' }).click();
    await expect(page.getByText('Copied the page as Markdown.')).toBeVisible();
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    expect(markdown).toContain('### `/api/v3/quote/{symbol}` (Stock quote)');
    expect(markdown).toContain('- Stable: `/stable/quote?symbol=AAPL`');
  });

  test('on a phone each legacy endpoint reads as a card of labelled lines', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openPage(page, '/developer/docs/legacy-endpoints#profile');
    const profile = page.locator('tr#profile');
    await expect(profile).toBeInViewport();
    const width = await profile.evaluate((row) => row.getBoundingClientRect().width);
    expect(width).toBeLessThanOrEqual(390);
    const scrolls = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(scrolls).toBe(false);
  });
});

const views = [
  {
    name: 'desktop, light, visitor',
    viewport: { width: 1280, height: 900 },
    theme: 'light',
    legacy: undefined,
  },
  { name: 'phone, dark, legacy user', viewport: { width: 390, height: 844 }, theme: 'dark', legacy: true },
  { name: 'desktop, dark, legacy user', viewport: { width: 1280, height: 900 }, theme: 'dark', legacy: true },
  { name: 'phone, light, visitor', viewport: { width: 390, height: 844 }, theme: 'light', legacy: undefined },
] as const;

for (const view of views) {
  test(`the legacy pages have no accessibility violations (${view.name})`, async ({ page }) => {
    await page.setViewportSize(view.viewport);
    await page.addInitScript((mode) => {
      localStorage.setItem('themeMode', mode);
    }, view.theme);
    if (view.legacy) await signInAs(page, { username: 'lena', legacy: true });
    for (const path of ['/developer/docs/legacy', '/developer/docs/legacy-endpoints']) {
      await openPage(page, path);
      await expect(page.locator('html')).toHaveAttribute('data-theme', view.theme);
      if (view.legacy) await expect(legacyNote(page)).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        path,
      ).toEqual([]);
    }
  });
}
