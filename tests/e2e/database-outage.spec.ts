import { expect, test } from '@playwright/test';
import { siteBehindRelay, TEST_DATABASE_URL } from './site-behind-relay.ts';

// The production site on PostgreSQL through a relay that can be cut, as when the database goes
// away: the symbol pages must answer a retryable 503 with the site's own page, and come back
// without a restart once the database does.

const ports = { site: 4381, dataApi: 4382, emulator: 9731 };

test.describe('symbol pages during a database outage', () => {
  test.skip(TEST_DATABASE_URL === undefined, 'needs PostgreSQL (TEST_DATABASE_URL)');
  test.describe.configure({ timeout: 180_000 });

  const { relay, site } = siteBehindRelay({ ports, schemaPrefix: 'outage_site' });

  test('a visitor sees the site’s own “back shortly” page with a retry hint, and the page again once the database returns', async ({
    page,
  }) => {
    expect((await fetch(`${site}/financial-summary/AAPL`)).status).toBe(200);

    await relay.cut();
    // A page not rendered before, so no cached copy stands in for the database.
    const down = await fetch(`${site}/income-statement/MSFT`);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(down.headers.get('cache-control')).toBe('no-store');
    expect(down.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await down.text()).toContain('We’ll be right back');

    const answer = await page.goto(`${site}/chart/MSFT`);
    expect(answer?.status()).toBe(503);
    await expect(page.getByRole('heading', { level: 1, name: 'We’ll be right back' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/chart/MSFT');
    await expect(page.getByRole('navigation', { name: 'Main' }).first()).toBeVisible();

    await relay.restore();
    await expect.poll(async () => (await fetch(`${site}/chart/MSFT`)).status, { timeout: 20_000 }).toBe(200);
    await page.getByRole('link', { name: 'Try again' }).click();
    await expect(page.getByRole('region', { name: 'Price Chart' })).toBeVisible();
  });
});
