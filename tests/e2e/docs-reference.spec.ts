import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openPage, signInAs } from './fixtures.ts';

const QUOTE = '/developer/docs/stable/quote';

/** The request samples' tab list of an endpoint page. */
function languageTabs(page: Page) {
  return page.getByRole('tablist', { name: 'Language of the example request' });
}

test.describe('API reference', () => {
  test('a reader finds an endpoint from the documentation’s landing page and reads its reference', async ({
    page,
  }) => {
    await openPage(page, '/developer/docs');
    await page.getByRole('link', { name: '/stable/historical-price-eod/full' }).click();

    await expect(page).toHaveURL(/\/developer\/docs\/stable\/historical-price-eod\/full$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Daily prices, full' })).toBeVisible();
    await expect(
      page.getByText('http://localhost:4322/stable/historical-price-eod/full').first(),
    ).toBeVisible();
    const parameters = page.getByRole('region', { name: 'Table: parameters' });
    await expect(parameters.getByRole('row', { name: /^symbol\s*string, required/ })).toBeVisible();
    await expect(page.getByText(/the last 5 years on Free, the last 10 years on Starter/)).toBeVisible();
    await expect(page.getByText(/^The first 3 of the [\d,]+ rows of a real answer/)).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Table: errors' }).getByRole('cell', { name: '402' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Try it in the API viewer' })).toHaveAttribute(
      'href',
      '/playground?endpoint=historical-price-eod/full&symbol=AAPL',
    );

    const sidebar = page.getByRole('navigation', { name: 'Documentation' });
    await expect(sidebar.getByRole('link', { name: 'Daily prices, full' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await sidebar.getByText('Company', { exact: true }).click();
    await sidebar.getByRole('link', { name: 'Company profile', exact: true }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/stable\/profile$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Company profile' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Company profile', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('a signed-out reader sees the key placeholder in the samples and an invitation to get a key', async ({
    page,
  }) => {
    await openPage(page, QUOTE);
    const curl = page.getByRole('tabpanel', { name: 'curl' });
    await expect(curl).toContainText("symbol=AAPL&apikey=YOUR_API_KEY'");
    const signUp = page.getByRole('link', { name: 'Sign up for a free key' });
    await expect(signUp).toBeVisible();
    await signUp.click();
    await expect(page).toHaveURL(/\/register$/);
  });

  test('a signed-in reader sees their own key in every sample, copies one, and is not asked to sign up', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const key = 'k3yOfTheReader0123456789abcdefghijklmnopqrs';
    await signInAs(page, { username: 'reader', apiKey: key });
    await openPage(page, QUOTE);

    const curl = page.getByRole('tabpanel', { name: 'curl' });
    await expect(curl).toContainText(`apikey=${key}`);
    await expect(page.getByText('YOUR_API_KEY')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Sign up for a free key' })).toBeHidden();

    await languageTabs(page).getByRole('tab', { name: 'Python' }).click();
    const python = page.getByRole('tabpanel', { name: 'Python' });
    await expect(python).toContainText(`apikey=${key}`);
    await python.getByRole('button', { name: 'Copy code' }).click();
    await expect(python.getByRole('button', { name: 'Copy code' })).toHaveText('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('import requests');
    expect(copied).toContain(`/stable/quote?symbol=AAPL&apikey=${key}`);
  });

  test('the language a reader picks is the one every endpoint page shows, also after a reload', async ({
    page,
  }) => {
    await openPage(page, QUOTE);
    const tabs = languageTabs(page);
    await expect(tabs.getByRole('tab', { name: 'curl' })).toHaveAttribute('aria-selected', 'true');
    await tabs.getByRole('tab', { name: 'Go' }).click();
    await expect(tabs.getByRole('tab', { name: 'Go' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'Go' })).toContainText('package main');
    await expect(page.getByRole('tabpanel', { name: 'curl' })).toBeHidden();

    // The keyboard moves along the tabs and picks as it goes.
    await tabs.getByRole('tab', { name: 'Go' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(tabs.getByRole('tab', { name: 'PHP' })).toBeFocused();
    await expect(tabs.getByRole('tab', { name: 'PHP' })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowLeft');
    await expect(tabs.getByRole('tab', { name: 'Go' })).toHaveAttribute('aria-selected', 'true');

    // Another endpoint, reached through the client router.
    await page
      .getByRole('navigation', { name: 'Documentation' })
      .getByRole('link', { name: 'Short quote', exact: true })
      .click();
    await expect(page).toHaveURL(/\/stable\/quote-short$/);
    await expect(languageTabs(page).getByRole('tab', { name: 'Go' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByRole('tabpanel', { name: 'Go' })).toContainText('/stable/quote-short?symbol=AAPL');

    // A later visit, loaded afresh.
    await openPage(page, '/developer/docs/stable/profile');
    await expect(languageTabs(page).getByRole('tab', { name: 'Go' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByRole('tabpanel', { name: 'Go' })).toBeVisible();
  });

  test('the chosen language shows from the first paint, before the page’s own scripts run', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      localStorage.setItem('codeLanguage', 'ruby');
    });
    // Only the inline first-paint script runs: the page's bundled scripts never arrive.
    await page.route('**/_astro/*.js', (route) => route.abort());
    await page.goto(QUOTE);
    await expect(page.locator('.code-panel[data-lang="ruby"]')).toBeVisible();
    await expect(page.locator('.code-panel[data-lang="ruby"]')).toContainText("require 'net/http'");
    await expect(page.locator('.code-panel[data-lang="curl"]')).toBeHidden();
  });

  test('an AI tool reads an endpoint’s reference as Markdown, listed in llms.txt', async ({ request }) => {
    const twin = await request.get('/developer/docs/stable/historical-chart/5min.md');
    expect(twin.status()).toBe(200);
    const text = await twin.text();
    expect(text).toMatch(/^# Intraday chart, 5min bars\n\n> /);
    expect(text).toContain('## Example answer');
    expect(text).toContain('apikey=YOUR_API_KEY');
    const negotiated = await request.get('/developer/docs/stable/quote', {
      headers: { Accept: 'text/markdown' },
    });
    expect(await negotiated.text()).toMatch(/^# Stock quote\n/);

    const index = await (await request.get('/llms.txt')).text();
    expect(index).toContain('## API reference');
    expect(index).toContain('/developer/docs/stable/historical-chart/5min.md)');
    const full = await (await request.get('/llms-full.txt')).text();
    expect(full).toContain('# Intraday chart, 5min bars');
  });
});

test.describe('cycle times and changelog', () => {
  test('a reader looks up how often quotes are refreshed, on the stable and the legacy page', async ({
    page,
  }) => {
    await openPage(page, '/developer/docs/cycle-times-stable/');
    await expect(page.getByRole('heading', { level: 1, name: 'Cycle times' })).toBeVisible();
    const quotes = page.getByRole('region', { name: 'Table: cycle times, Quotes' });
    await expect(quotes.getByRole('row', { name: /\/stable\/quote Stock quote Real-time/ })).toBeVisible();
    await quotes.getByRole('link', { name: '/stable/quote', exact: true }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/stable\/quote$/);

    await openPage(page, '/developer/docs/cycle-times/');
    await expect(page.getByRole('heading', { level: 1, name: 'Cycle times (legacy API)' })).toBeVisible();
    const legacyQuotes = page.getByRole('region', { name: 'Table: legacy cycle times, Quotes' });
    await expect(
      legacyQuotes.getByRole('row', {
        name: /^\/api\/v3\/quote\/\{symbol\}\s*as \/stable\/quote Real-time/,
      }),
    ).toBeVisible();
    await legacyQuotes.getByRole('link', { name: '/stable/quote', exact: true }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/stable\/quote$/);
  });

  test('a reader follows the changelog in a feed reader and from an entry to its endpoint', async ({
    page,
    request,
  }) => {
    await openPage(page, '/developer/docs/changelog/');
    await expect(page.getByRole('heading', { level: 1, name: 'API changelog' })).toBeVisible();
    const feedLink = page.locator('link[rel="alternate"][type="application/rss+xml"]');
    await expect(feedLink).toHaveAttribute('href', '/developer/docs/changelog/rss.xml');
    const feed = await request.get('/developer/docs/changelog/rss.xml');
    expect(feed.status()).toBe(200);
    // Served as a static file of the build: XML by its extension.
    expect(feed.headers()['content-type']).toMatch(/^application\/(rss\+)?xml/);
    expect(await feed.text()).toContain('<title>Quotes</title>');

    const quotes = page
      .getByRole('article', { name: 'Quotes' })
      .filter({ has: page.locator('time[datetime="2026-11-22"]') });
    await expect(quotes.getByText('New endpoint')).toBeVisible();
    await expect(quotes.locator('time')).toHaveAttribute('datetime', '2026-11-22');
    await quotes.getByRole('link', { name: '/stable/batch-quote', exact: true }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/stable\/batch-quote$/);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`an endpoint page, the changelog and the cycle times have no accessibility violations (${theme})`, async ({
      page,
    }) => {
      // Long pages through axe: more than the default time on a busy machine.
      test.setTimeout(90_000);
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      // The endpoint page in both themes; the changelog and the two cycle-time tables (one layout, one set of
      // colours, hundreds of rows each) in one theme each.
      const pages =
        theme === 'light'
          ? [QUOTE, '/developer/docs/changelog/', '/developer/docs/cycle-times-stable/']
          : [QUOTE, '/developer/docs/cycle-times/'];
      for (const path of pages) {
        await openPage(page, path);
        const results = await new AxeBuilder({ page }).analyze();
        expect(
          results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          path,
        ).toEqual([]);
      }
    });
  }
});
