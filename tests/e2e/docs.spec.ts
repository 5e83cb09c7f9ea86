import { readdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { isPending } from '../../src/lib/routes.ts';
import { openPage, signInAs } from './fixtures.ts';

const DOCS_DIR = path.resolve('src/content/docs');
/** The written pages' ids (their file names), which are also their paths under /developer/docs. */
const WRITTEN_PAGES = readdirSync(DOCS_DIR)
  .filter((name) => name.endsWith('.md'))
  .map((name) => name.replace(/\.md$/, ''));

/**
 * Every internal link of the written pages as readers get them (their Markdown twins, with the lists
 * of endpoints written out), with the page it is on.
 */
async function markdownLinks(request: APIRequestContext): Promise<{ from: string; href: string }[]> {
  const links: { from: string; href: string }[] = [];
  for (const id of WRITTEN_PAGES) {
    const twin = await (await request.get(`/developer/docs/${id}.md`)).text();
    for (const match of twin.matchAll(/\]\((\/[^)\s]*)\)/g)) links.push({ from: id, href: match[1] ?? '' });
  }
  return links;
}

test.describe('documentation', () => {
  test('a newcomer opens the documentation, finds the quickstart and reads it page by page', async ({
    page,
  }) => {
    await openPage(page, '/');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Documentation' })
      .click();
    await page.locator('#header-menu-documentation').getByRole('link', { name: 'API Documentation' }).click();

    await expect(page).toHaveURL(/\/developer\/docs$/);
    await expect(page.getByRole('heading', { level: 1, name: 'API documentation' })).toBeVisible();
    const sidebar = page.getByRole('navigation', { name: 'Documentation' });
    await expect(sidebar.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { level: 2, name: 'Endpoints by category' })).toBeVisible();
    await expect(page.getByText('/stable/income-statement', { exact: true })).toBeVisible();
    const readNext = page.locator('#read-next + ul');
    for (const next of [
      'Authentication',
      'Errors',
      'Rate limits',
      'Plans',
      'Financial formulas',
      'Changelog',
    ])
      await expect(readNext.getByRole('link', { name: next, exact: true })).toBeVisible();

    await sidebar.getByRole('link', { name: 'Quickstart' }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/quickstart$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Quickstart' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Quickstart' })).toHaveAttribute('aria-current', 'page');
    await expect(sidebar.getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current', 'page');
    await expect(
      page.getByRole('complementary').getByRole('link', { name: '2. Make your first call' }),
    ).toBeVisible();
    await expect(page.getByText(/^Last updated /)).toBeVisible();

    await page
      .getByRole('navigation', { name: 'Previous and next pages' })
      .getByRole('link', { name: /Overview/ })
      .click();
    await expect(page).toHaveURL(/\/developer\/docs$/);
  });

  test('a signed-out reader sees the key placeholder in the samples', async ({ page }) => {
    await openPage(page, '/developer/docs/quickstart');
    await expect(page.locator('pre').first()).toContainText('apikey=YOUR_API_KEY');
  });

  test('a signed-in reader finds their own key in the samples and copies one', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const key = 'k3yOfTheReader0123456789abcdefghijklmnopqrs';
    await signInAs(page, { username: 'reader', apiKey: key });
    await openPage(page, '/developer/docs/quickstart');
    const sample = page.locator('pre').first();
    await expect(sample).toContainText(`apikey=${key}`);
    await expect(page.locator('pre', { hasText: 'YOUR_API_KEY' })).toHaveCount(0);

    await sample.getByRole('button', { name: 'Copy code' }).click();
    await expect(sample.getByRole('button', { name: 'Copy code' })).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`apikey=${key}`);

    await page.getByRole('button', { name: 'Copy page as Markdown' }).click();
    await expect(page.getByText('Copied the page as Markdown.')).toBeVisible();
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    expect(markdown).toMatch(/^# Quickstart\n/);
    expect(markdown).toContain(`apikey=${key}`);
  });

  test('an AI tool reads any documentation page as Markdown, and the index of them', async ({ request }) => {
    const twin = await request.get('/developer/docs/quickstart', { headers: { Accept: 'text/markdown' } });
    expect(twin.headers()['content-type']).toMatch(/^text\/markdown/);
    expect(await twin.text()).toMatch(/^# Quickstart\n\n> /);
    const page = await request.get('/developer/docs/quickstart');
    expect(page.headers()['content-type']).toMatch(/^text\/html/);
    expect(page.headers().vary).toContain('Accept');

    const index = await request.get('/llms.txt');
    const text = await index.text();
    expect(text).toMatch(/^# .+ API documentation\n/);
    const links = [...text.matchAll(/\]\((https?:\/\/[^)]+\.md)\)/g)].map(
      (match) => new URL(match[1] ?? '').pathname,
    );
    expect(links).toContain('/developer/docs/quickstart.md');
    for (const path of links) expect((await request.get(path)).status(), path).toBe(200);
    expect(await (await request.get('/llms-full.txt')).text()).toContain('# Quickstart');
  });

  test('every link written in the guides leads to a page, or to a section that exists on it', async ({
    request,
  }) => {
    const broken: string[] = [];
    const pages = new Map<string, string>();
    for (const { from, href } of await markdownLinks(request)) {
      const [target = '', fragment] = href.split('#');
      if (isPending(target)) continue;
      let html = pages.get(target);
      if (html === undefined) {
        const res = await request.get(target, { maxRedirects: 5 });
        if (res.status() !== 200) {
          broken.push(`${from}: ${href} (HTTP ${String(res.status())})`);
          continue;
        }
        html = await res.text();
        pages.set(target, html);
      }
      if (fragment !== undefined && !html.includes(`id="${fragment}"`)) {
        broken.push(`${from}: ${href} (no section #${fragment})`);
      }
    }
    expect(broken).toEqual([]);
    expect(pages.size).toBeGreaterThan(10);
  });

  test('a reader finds the plan that opens an endpoint on the plans page and follows it to its reference', async ({
    page,
    request,
  }) => {
    await openPage(page, '/developer/docs/plans');
    const starter = page.getByRole('article').locator('#starter ~ ul').first();
    await expect(starter.getByRole('link', { name: 'company-screener', exact: true })).toBeVisible();
    await expect(starter.getByRole('link', { name: 'quote', exact: true })).toHaveCount(0);
    const power = page.getByRole('article').locator('#power ~ ul').first();
    await power.getByRole('link', { name: 'eod-bulk', exact: true }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/stable\/eod-bulk$/);
    await expect(page.getByRole('heading', { level: 1, name: 'End-of-day prices (bulk)' })).toBeVisible();

    const twin = await (await request.get('/developer/docs/plans.md')).text();
    expect(twin).toContain('[`eod-bulk`](/developer/docs/stable/eod-bulk)');
    expect(twin).not.toContain('<!-- endpoints:');
    const full = await (await request.get('/llms-full.txt')).text();
    expect(full).toContain('[`company-screener`](/developer/docs/stable/company-screener)');
  });

  test('a developer moves from the quickstart to the guides they need', async ({ page }) => {
    await openPage(page, '/developer/docs/quickstart');
    const article = page.getByRole('article');
    await article.getByRole('link', { name: 'Errors', exact: true }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/errors$/);
    await expect(page.getByRole('heading', { level: 2, name: '429 Too Many Requests' })).toBeVisible();

    await page.getByRole('article').getByRole('link', { name: 'Rate limits', exact: true }).first().click();
    await expect(page).toHaveURL(/\/developer\/docs\/rate-limits$/);
    await expect(
      page.getByText('RateLimit-Policy: "minute";q=30;w=60, "day";q=250;w=86400').first(),
    ).toBeVisible();

    const sidebar = page.getByRole('navigation', { name: 'Documentation' });
    await sidebar.getByRole('link', { name: 'Connecting tools' }).click();
    await expect(page).toHaveURL(/\/developer\/docs\/connecting-tools$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Connecting tools' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Connecting tools' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('the third-party integrations page opens from the Documentation menu', async ({ page }) => {
    await openPage(page, '/');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Documentation' })
      .click();
    await page
      .locator('#header-menu-documentation')
      .getByRole('link', { name: 'Third-Party Integrations' })
      .click();

    await expect(page).toHaveURL(/\/developer\/docs\/resources\/?$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Third-party integrations' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'fmp-data (Python)' })).toBeVisible();
    const sidebar = page.getByRole('navigation', { name: 'Documentation' });
    await expect(sidebar.getByRole('link', { name: 'Third-party integrations' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // Listed once, in its section, though the sidebar's "More" links also name the page.
    await expect(sidebar.locator('a[href^="/developer/docs/resources"]')).toHaveCount(1);
  });

  test('an analyst opens the DCF formula from the Documentation menu and follows its worked example to the other formulas', async ({
    page,
  }) => {
    await openPage(page, '/');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Documentation' })
      .click();
    await page.locator('#header-menu-documentation').getByRole('link', { name: 'DCF Formula' }).click();

    await expect(page).toHaveURL(/\/developer\/docs\/dcf-formula$/);
    await expect(page.getByRole('heading', { level: 1, name: 'DCF formula' })).toBeVisible();
    const example = page.getByRole('heading', { level: 2, name: 'Worked example (demo data)' });
    await expect(example).toBeVisible();
    await expect(page.getByRole('row', { name: /dcf \(discounted-cash-flow\)\s+190\.58/ })).toBeVisible();

    const sidebar = page.getByRole('navigation', { name: 'Documentation' });
    await expect(sidebar.getByRole('link', { name: 'DCF formula' })).toHaveAttribute('aria-current', 'page');
    await sidebar.getByRole('link', { name: 'Recommendations formula' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Recommendations formula' })).toBeVisible();
    await expect(page.getByRole('row', { name: /Westbrook & Co\.\s+Buy\s+buy/ })).toBeVisible();
  });

  test('a reader searches the documentation from the keyboard and opens a result', async ({ page }) => {
    await openPage(page, '/developer/docs');
    await page.keyboard.press('/');
    const dialog = page.getByRole('dialog', { name: 'Search the documentation' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('searchbox', { name: 'Search the documentation' }).fill('first call');
    const result = dialog.getByRole('link', { name: /Quickstart/ });
    await expect(result).toBeVisible();
    await expect(dialog.getByRole('status')).toHaveText(/\d+ pages? found/);
    await page.keyboard.press('ArrowDown');
    await expect(result).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/developer\/docs\/quickstart$/);
    await expect(dialog).toBeHidden();

    await page.keyboard.press('Control+k');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('searchbox').fill('jjqxwv');
    await expect(dialog.getByRole('status')).toHaveText(/Nothing found for “jjqxwv”/);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('a reader searches for the income statement and opens its reference page', async ({ page }) => {
    await openPage(page, '/developer/docs/quickstart');
    await page.getByRole('button', { name: /Search docs/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Search the documentation' });
    await dialog.getByRole('searchbox', { name: 'Search the documentation' }).fill('income statement');
    const result = dialog.getByRole('link', { name: /^Income statement reference/ }).first();
    await expect(result).toBeVisible();
    await result.click();
    await expect(page).toHaveURL(/\/developer\/docs\/stable\/income-statement$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Income statement' })).toBeVisible();
  });

  test('search engines find the documentation in the sitemap, each page under its canonical address', async ({
    request,
  }) => {
    const robots = await (await request.get('/robots.txt')).text();
    expect(robots).toMatch(/^Sitemap: .+\/sitemap\.xml$/m);
    const index = await (await request.get('/sitemap.xml')).text();
    const sitemap = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (match) => new URL(match[1] ?? '').pathname,
    );
    const pages: string[] = [];
    for (const path of sitemap) {
      const text = await (await request.get(path)).text();
      pages.push(
        ...[...text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1] ?? '').pathname),
      );
    }
    expect(pages).toContain('/developer/docs/quickstart');
    expect(pages).not.toContain('/developer/docs/dashboard');
    expect(pages).not.toContain('/developer/docs/invoices');
    const html = await (await request.get('/developer/docs/quickstart')).text();
    expect(html).toMatch(/<link rel="canonical" href="[^"]+\/developer\/docs\/quickstart">/);
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('the documentation menu opens the sidebar, and following a link closes it', async ({ page }) => {
      await openPage(page, '/developer/docs');
      const toggle = page.getByRole('button', { name: 'Documentation menu' });
      const sidebar = page.getByRole('navigation', { name: 'Documentation' });
      await expect(sidebar).toBeHidden();
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await sidebar.getByRole('link', { name: 'Quickstart' }).click();
      await expect(page).toHaveURL(/\/developer\/docs\/quickstart$/);
      await expect(page.getByRole('navigation', { name: 'Documentation' })).toBeHidden();
    });
  });

  /**
   * The landing page in both themes and every written page in one of them, alternately, each checked
   * in its own test so each stays short: the pages share one layout and one set of colours, so each
   * kind of content (tables, code, callouts, formulas) is still seen in both themes across the pages.
   */
  const AXE_CHECKS: readonly (readonly [string, 'light' | 'dark'])[] = [
    ['/developer/docs', 'light'],
    ['/developer/docs', 'dark'],
    ...WRITTEN_PAGES.map(
      (id, index) => [`/developer/docs/${id}`, index % 2 === 0 ? 'light' : 'dark'] as const,
    ),
  ];
  for (const [docsPath, theme] of AXE_CHECKS) {
    test(`${docsPath} has no accessibility violations (${theme})`, async ({ page }) => {
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      await openPage(page, docsPath);
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        docsPath,
      ).toEqual([]);
    });
  }
});
