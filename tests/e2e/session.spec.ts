import { expect, test, type Page } from '@playwright/test';
import { createAccount, openPage, signInThroughApi } from './fixtures.ts';

/** The access token the browser holds, from the stored session. */
async function storedToken(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('session');
    return raw === null ? undefined : (JSON.parse(raw) as { accessToken: string }).accessToken;
  });
}

function accountMenu(page: Page): ReturnType<Page['getByRole']> {
  return page.getByRole('banner').getByRole('button', { name: /^Account menu/ });
}

test.describe('the session in the browser', () => {
  test('a signed-in visitor keeps the session and the theme across page changes and reloads', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await page.emulateMedia({ colorScheme: 'light' });
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await expect(accountMenu(page)).toBeVisible();
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page).toHaveURL(/\/terms-of-service$/);
    await expect(accountMenu(page)).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

    await page.reload();
    await expect(accountMenu(page)).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  });

  test('an access token the server no longer accepts is renewed from the refresh cookie unnoticed', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await openPage(page, '/');
    await signInThroughApi(page, account);
    const original = await storedToken(page);
    expect(original).toBeDefined();
    // An expired token and one with a broken signature are refused alike: the server checks both.
    const stale = `${original?.slice(0, -4) ?? ''}AAAA`;
    await page.evaluate((token) => {
      const raw = localStorage.getItem('session') ?? '{}';
      localStorage.setItem('session', JSON.stringify({ ...JSON.parse(raw), accessToken: token }));
    }, stale);

    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/app/auth/refresh') && r.ok());
    await page.reload();
    await refreshed;
    await expect(accountMenu(page)).toBeVisible();
    await expect.poll(() => storedToken(page)).not.toBe(stale);
    await expect.poll(() => storedToken(page)).not.toBe(original);
  });

  test('a call refused with 403 renews the session once and is retried once', async ({ page, request }) => {
    const account = await createAccount(request);
    await openPage(page, '/');
    await signInThroughApi(page, account);
    const calls: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/admin/') || path === '/api/app/auth/refresh') calls.push(path);
    });
    // A token the server does not honour any more, as after it expired while the page was open.
    await page.evaluate(() => {
      const stores = window.appStores;
      if (!stores) throw new Error('the stores are not exposed');
      const token = stores.$auth.get().accessToken;
      stores.$auth.setKey('accessToken', `${token.slice(0, -4)}AAAA`);
    });
    const outcome = await page.evaluate(async (userid) => {
      try {
        await window.appStores?.api(`/api/admin/users/${userid}`);
        return { status: 200, message: '' };
      } catch (error) {
        const failure = error as { status: number; message: string };
        return { status: failure.status, message: failure.message };
      }
    }, account.userid);

    // The renewed session is a real one, and an ordinary user is still no member of staff.
    expect(outcome).toEqual({ status: 403, message: 'Only administrators and analysts can see this.' });
    expect(calls).toEqual([
      `/api/admin/users/${account.userid}`,
      '/api/app/auth/refresh',
      `/api/admin/users/${account.userid}`,
    ]);
    await expect(accountMenu(page)).toBeVisible();
  });

  test('logging out ends the session on the server and forgets it in the browser', async ({
    page,
    request,
  }) => {
    const account = await createAccount(request);
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await accountMenu(page).click();
    const menu = page.locator('#header-menu-account');
    await menu
      .getByRole('button', { name: 'Logout' })
      .or(menu.getByRole('menuitem', { name: 'Logout' }))
      .click();
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Sign In' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('session'))).toBeNull();
    expect(await page.evaluate(() => window.appStores?.$user.get().email)).toBe('');

    // The refresh cookie no longer opens a session, so a reload stays signed out.
    const status = await page.evaluate(
      async () => (await fetch('/api/app/auth/refresh', { credentials: 'include' })).status,
    );
    expect(status).toBe(401);
    await page.reload();
    await expect(header.getByRole('link', { name: 'Sign In' })).toBeVisible();
  });

  test('a signed-out visitor works with the public token the server hands out', async ({ page }) => {
    const publicToken = page.waitForResponse((r) => r.url().endsWith('/api/app/auth/public-token'));
    const plansCall = page.waitForRequest((r) => r.url().endsWith('/api/portal/account/get-price-plans'));
    await openPage(page, '/');
    await page.waitForFunction(() => window.appStores !== undefined);
    await page.evaluate(() => window.appStores?.api('/api/portal/account/get-price-plans'));
    const answer = await publicToken;
    const { accessToken } = (await answer.json()) as { accessToken: string };
    expect(accessToken.split('.')).toHaveLength(3);
    expect(await page.evaluate(() => localStorage.getItem('public-token'))).toBe(accessToken);
    const headers = (await plansCall).headers();
    expect(headers.authorization).toBe(`Bearer ${accessToken}`);
    expect(headers['x-public-auth']).toBe(accessToken);
  });
});

test.describe('a page left alone', () => {
  test('after thirty idle minutes asks for a refresh, and Refresh Now reloads the page', async ({ page }) => {
    await page.clock.install();
    await openPage(page, '/');
    // The watch starts with the overlays, which expose the stores in the same step.
    await page.waitForFunction(() => window.appStores !== undefined);
    await page.clock.fastForward('29:00');
    const dialog = page.getByRole('dialog', { name: 'Stay Ahead with Fresh Data!' });
    await expect(dialog).toHaveCount(0);
    await page.clock.fastForward('02:00');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(
      'Your session has been inactive. For the latest financial insights, please refresh.',
    );
    const reloaded = page.waitForEvent('load');
    await dialog.getByRole('button', { name: 'Refresh Now' }).click();
    await reloaded;
    await expect(dialog).toHaveCount(0);
  });
});
