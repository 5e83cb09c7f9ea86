import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openPage } from './fixtures.ts';
import { siteBehindRelay, TEST_DATABASE_URL } from './site-behind-relay.ts';

const COMPONENTS = ['Website', 'Accounts API', 'Data API', 'Database', 'Identity provider'];

/** The card of one component or endpoint group on the status page. */
function card(page: Page, name: string) {
  return page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) });
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

test.describe('status page', () => {
  test('a visitor opens the status page from the footer and sees every component operational with 90 days of uptime bars', async ({
    page,
  }) => {
    await openPage(page, '/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Status', exact: true }).click();

    await expect(page).toHaveURL(/\/developer\/docs\/status\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Status' })).toBeVisible();
    // The end-to-end site probes itself every 10 s: a check slowed by a busy machine is soon done again.
    await expect(page.getByRole('status').filter({ hasText: 'All systems operational' })).toBeVisible({
      timeout: 25_000,
    });
    for (const name of COMPONENTS) {
      const item = card(page, name);
      await expect(item.getByText('Operational', { exact: true })).toBeVisible();
      await expect(item.getByText(/^\d+ ms$|^\d+\.\d s$/)).toBeVisible();
      await expect(item.getByTitle(/^\d{4}-\d\d-\d\d: /)).toHaveCount(90);
      await expect(item.getByTitle(`${today()}: 100% of checks passed`)).toBeVisible();
    }
    // The end-to-end site starts on an empty database: the days before it started have no checks.
    // A run that crosses midnight (UTC) has checks on yesterday as well as today.
    const database = card(page, 'Database');
    const checkedDays = await database.getByTitle(/: 100% of checks passed$/).count();
    expect(checkedDays === 1 || checkedDays === 2).toBe(true);
    await expect(database.getByTitle(/: No data$/)).toHaveCount(90 - checkedDays);
    await expect(
      database.getByText(
        `Last 90 days: every check passed on ${checkedDays} day${checkedDays === 1 ? '' : 's'}, no data on ${90 - checkedDays} days.`,
      ),
    ).toBeAttached();
    await expect(card(page, 'Quotes').getByText('Operational', { exact: true })).toBeVisible();
    const sidebar = page.getByRole('navigation', { name: 'Documentation' });
    await expect(sidebar.getByRole('link', { name: 'Status' })).toHaveAttribute('aria-current', 'page');
  });

  test('a developer finds the status in the Documentation menu and the same figures as JSON', async ({
    page,
    request,
  }) => {
    await openPage(page, '/developer/docs');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Documentation' })
      .click();
    await page.locator('#header-menu-documentation').getByRole('link', { name: 'Status' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Status' })).toBeVisible();

    await expect(page.getByRole('link', { name: '/api/status' }).first()).toHaveAttribute(
      'href',
      '/api/status',
    );
    const answer = await request.get('/api/status');
    expect(answer.headers()['cache-control']).toBe('no-store');
    const body = (await answer.json()) as { state: string; components: { id: string; days: unknown[] }[] };
    await expect
      .poll(async () => ((await (await request.get('/api/status')).json()) as { state: string }).state, {
        timeout: 25_000,
      })
      .toBe('operational');
    expect(body.components.map((item) => item.id)).toEqual([
      'site',
      'accounts-api',
      'data-api',
      'database',
      'identity',
    ]);
    expect(body.components.every((item) => item.days.length === 90)).toBe(true);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`the status page has no accessibility violations (${theme})`, async ({ page }) => {
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      await openPage(page, '/developer/docs/status/');
      await expect(card(page, 'Website').getByTitle(/^\d{4}-\d\d-\d\d: /)).toHaveCount(90);
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    });
  }
});

// The production site on PostgreSQL through a relay that can be cut, probing itself every two
// seconds: the page must show the database down within a probe interval, and up again after.

const ports = { site: 4396, dataApi: 4397, emulator: 9746 };

test.describe('status page during a database outage', () => {
  test.skip(TEST_DATABASE_URL === undefined, 'needs PostgreSQL (TEST_DATABASE_URL)');
  test.describe.configure({ timeout: 180_000 });

  const { relay, site } = siteBehindRelay({
    ports,
    schemaPrefix: 'status_site',
    env: { STATUS_PROBE_INTERVAL_MS: '2000' },
  });

  test('the status page shows the database down while the outage proxy is cut, and operational once it is back', async ({
    page,
  }) => {
    await page.goto(`${site}/developer/docs/status/`);
    const database = card(page, 'Database');
    await expect(database.getByText('Operational', { exact: true })).toBeVisible({ timeout: 15_000 });

    await relay.cut();
    // Within one probe interval (2 s) and the page's next read of the status.
    await expect(database.getByText('Down', { exact: true })).toBeVisible({ timeout: 8_000 });
    await expect(page.getByRole('status').filter({ hasText: 'Some systems are down' })).toBeVisible();
    await expect(card(page, 'Website').getByText('Operational', { exact: true })).toBeVisible();
    // Today's bar counts the failed checks, stored or not.
    await expect(database.getByTitle(`${today()}: 100% of checks passed`)).toHaveCount(0);
    await expect(database.getByText(new RegExp(`Days with failed checks: ${today()} \\(`))).toBeAttached();

    await relay.restore();
    await expect(database.getByText('Operational', { exact: true })).toBeVisible({ timeout: 15_000 });
  });
});
