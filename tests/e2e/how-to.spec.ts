import { readdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, openPage, signInThroughApi, type Account } from './fixtures.ts';

/** The guides' addresses, from their files (one Markdown file per guide, its name the address). */
const GUIDES = readdirSync(path.resolve('src/content/how-to'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `/how-to/${name.replace(/\.md$/, '')}`);
const SCREENER_GUIDE = '/how-to/build-a-stock-screener-in-python';

/** The verified developer the signed-in story follows (signing up costs more than the story). */
let developer: Account;

test.beforeAll(async ({ request }) => {
  developer = await createAccount(request, { verified: true });
});

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The guides the index shows, by title. */
function guideList(page: Page) {
  return page
    .getByRole('main')
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2 }) });
}

test.describe('the how-to guides', () => {
  test('a developer finds the guides from the documentation, filters them by a tag, copies a sample with their own key and follows it to the endpoint reference', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openPage(page, '/');
    await signInThroughApi(page, developer);
    const key = await page.evaluate(() => window.appStores?.$user.get().apiKey ?? '');
    expect(key).not.toBe('');

    await openPage(page, '/developer/docs');
    await page
      .getByRole('navigation', { name: 'Documentation' })
      .getByRole('link', { name: 'How-to guides' })
      .click();
    await expect(page).toHaveURL(/\/how-to$/);
    await expect(page.getByRole('heading', { level: 1, name: 'How-to guides' })).toBeVisible();
    await expect(guideList(page)).toHaveCount(GUIDES.length);

    const filters = page.getByRole('navigation', { name: 'Filter articles by tag' });
    await filters.getByRole('link', { name: /^screener \(1\)$/ }).click();
    await expect(page).toHaveURL(/\/how-to\?tag=screener$/);
    await expect(page.getByRole('status').filter({ hasText: 'tagged' })).toHaveText(
      '1 article tagged “screener”.',
    );
    await expect(filters.getByRole('link', { name: /^screener/ })).toHaveAttribute('aria-current', 'true');
    await expect(page.getByRole('link', { name: 'Stream live prices', exact: true })).toBeHidden();

    await page.getByRole('link', { name: 'Build a stock screener in Python with the API' }).click();
    await expect(page).toHaveURL(new RegExp(`${SCREENER_GUIDE}$`));
    const guide = page.getByRole('article', { name: 'Build a stock screener in Python with the API' });
    await expect(guide.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(guide.getByText(/^By Maya Lindqvist, Developer relations$/)).toBeVisible();
    await expect(guide.getByText(/^\d+ min read$/)).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link')).toHaveText(
      'How-to guides',
    );

    // The first sample calls the screener with the reader's own key, and copies with it.
    const sample = guide.locator('pre', { hasText: '/stable/company-screener?' }).first();
    await expect(sample).toContainText(`apikey=${key}`);
    await sample.getByRole('button', { name: 'Copy code' }).click();
    await expect(sample.getByRole('button', { name: 'Copy code' })).toHaveText('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('/stable/company-screener?sector=Technology');
    expect(copied).toContain(`apikey=${key}`);

    await guide.getByRole('link', { name: 'company-screener', exact: true }).first().click();
    await expect(page).toHaveURL(/\/developer\/docs\/stable\/company-screener$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Company screener');
  });

  test('a reader of a guide finds related reading and the feed, and the feed lists every guide', async ({
    page,
    request,
  }) => {
    await openPage(page, '/how-to/stream-live-prices');
    const related = page.getByRole('region', { name: 'Related articles' });
    await expect(
      related.getByRole('link', { name: 'Streaming live prices over the websocket' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'the how-to guides', exact: true })).toHaveAttribute(
      'href',
      '/how-to',
    );
    await expect(page.getByRole('link', { name: 'RSS', exact: true })).toHaveAttribute(
      'href',
      '/how-to/rss.xml',
    );

    const feed = await request.get('/how-to/rss.xml');
    expect(feed.ok()).toBe(true);
    expect(feed.headers()['content-type']).toMatch(/^application\/(rss\+)?xml/);
    const xml = await feed.text();
    expect(xml).toContain('<title>How-to guides | Tickerlake</title>');
    for (const guide of GUIDES) expect(xml).toContain(`${guide}</link>`);
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    for (const address of ['/how-to', SCREENER_GUIDE, '/how-to/pull-financial-statements-into-excel']) {
      test(`${address} reads without sideways scrolling`, async ({ page }) => {
        await openPage(page, address);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
      });
    }
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const address of ['/how-to', '/how-to?tag=python', SCREENER_GUIDE, '/how-to/stream-live-prices']) {
      test(`${address} has no accessibility violations (${theme})`, async ({ page }) => {
        // A guide is a long page of code and tables, which axe takes a while to walk on a busy machine.
        test.slow();
        await page.addInitScript((mode) => {
          localStorage.setItem('themeMode', mode);
        }, theme);
        await openPage(page, address);
        expect(await axeViolations(page), address).toEqual([]);
      });
    }
  }
});
