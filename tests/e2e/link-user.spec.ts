import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { AdminAuditEntry } from '../../src/lib/admin.ts';
import { createAccount, openPage, setRole, signInThroughApi, uniqueEmail, type Account } from './fixtures.ts';

// Link User (SPEC §7 code-signin): an administrator finds a user, switches into their account with
// a banner on every page, and returns to their own session without signing in again.

function accountMenu(page: Page): Locator {
  return page.getByRole('banner').getByRole('button', { name: /^Account menu/ });
}

/** The flash message on the page (dialogs repeat it, hidden while they are closed). */
function flash(page: Page, text: string): Locator {
  return page.getByText(text).filter({ visible: true });
}

function linkBanner(page: Page): Locator {
  return page.getByRole('region', { name: 'Viewing another account' });
}

/** Axe's findings on the page as it is now, as readable lines. */
async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A new administrator, signed in on the home page with a refresh cookie, as a sign-in leaves them. */
async function signedInAdmin(page: Page, request: APIRequestContext): Promise<Account> {
  const admin = await createAccount(request, { email: uniqueEmail('admin') });
  await setRole(admin.email, 'admin');
  await openPage(page, '/');
  await signInThroughApi(page, admin);
  return admin;
}

/** Finds the account on Link User and confirms the switch into it. */
async function switchInto(page: Page, user: Account): Promise<void> {
  await openPage(page, '/profile-link');
  await page.getByLabel('Email, username or user id').fill(user.email);
  await page.getByRole('button', { name: 'Search' }).click();
  await page
    .getByRole('row', { name: new RegExp(user.username) })
    .getByRole('button', { name: 'Switch to this user' })
    .click();
  await page
    .getByRole('dialog', { name: `Switch to ${user.username}?` })
    .getByRole('button', { name: 'Switch to this user' })
    .click();
  await expect(page).toHaveURL(/\/developer\/docs\/dashboard$/);
}

test.describe('Link User', () => {
  test('an admin views a user on every page, with their avatar, and returns to their own session without signing in', async ({
    page,
    request,
  }) => {
    test.slow();
    const admin = await signedInAdmin(page, request);
    const user = await createAccount(request, { email: uniqueEmail('viewed') });

    await openPage(page, '/profile-link');
    await expect(page.getByRole('heading', { name: 'Link User', level: 1 })).toBeVisible();
    await page.getByLabel('Email, username or user id').fill(user.email);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('row', { name: new RegExp(user.username) });
    await expect(row).toContainText(user.email);
    await expect(row).toContainText('free');
    expect(await axeViolations(page)).toEqual([]);

    await row.getByRole('button', { name: 'Switch to this user' }).click();
    const dialog = page.getByRole('dialog', { name: `Switch to ${user.username}?` });
    await expect(dialog).toContainText('at most 15 minutes');
    await dialog.getByRole('button', { name: 'Switch to this user' }).click();

    await expect(page).toHaveURL(/\/developer\/docs\/dashboard$/);
    await expect(linkBanner(page)).toContainText(`Viewing as ${user.username} — Return to admin`);
    await expect(linkBanner(page)).toContainText(/1[45]:\d\d left/);
    await expect(accountMenu(page)).toHaveAccessibleName(`Account menu for ${user.username}`);
    await expect(accountMenu(page)).toHaveText('V');
    expect(await axeViolations(page)).toEqual([]);
    // The banner reads as well in dark mode and on a phone.
    await page.getByRole('switch', { name: 'Dark mode' }).click();
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(linkBanner(page).getByRole('button', { name: 'Return to admin' })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    await openPage(page, '/developer/docs/api-keys');
    await expect(linkBanner(page)).toContainText(`Viewing as ${user.username}`);
    await expect(accountMenu(page)).toHaveText('V');
    await accountMenu(page).click();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Link User' })).toBeHidden();
    await accountMenu(page).click();

    await linkBanner(page).getByRole('button', { name: 'Return to admin' }).click();
    await expect(page).toHaveURL(/\/profile-link$/);
    await expect(flash(page, 'You are back in your own account.')).toBeVisible();
    await expect(linkBanner(page)).toBeHidden();
    await expect(accountMenu(page)).toHaveAccessibleName(`Account menu for ${admin.username}`);
    await expect(accountMenu(page)).toHaveText('A');
    await accountMenu(page).click();
    const menu = page.getByRole('banner');
    await expect(menu.getByRole('link', { name: 'Admin' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Link User' })).toBeVisible();

    // Still the administrator after a reload: the session came back from their own cookie.
    await page.reload();
    await expect(accountMenu(page)).toHaveAccessibleName(`Account menu for ${admin.username}`);
    await expect(page.getByRole('heading', { name: 'Link User', level: 1 })).toBeVisible();

    // The audit trail holds the switch and the return, both by the administrator.
    const { entries } = await page.evaluate(
      (userId) =>
        window.appStores?.api<{ entries: AdminAuditEntry[] }>('/api/admin/audit', { query: { userId } }) ??
        Promise.reject(new Error('no stores')),
      user.userid,
    );
    expect(entries.map((entry) => [entry.action, entry.actor])).toEqual(
      expect.arrayContaining([
        ['impersonate', admin.username],
        ['impersonate_end', admin.username],
      ]),
    );
  });

  test('switching into another admin is refused, in their row and by the server', async ({
    page,
    request,
  }) => {
    test.slow();
    await signedInAdmin(page, request);
    const other = await createAccount(request, { email: uniqueEmail('other') });
    await setRole(other.email, 'admin');
    const promoted = await createAccount(request, { email: uniqueEmail('promoted') });

    await openPage(page, '/profile-link');
    await page.getByLabel('Email, username or user id').fill(other.email);
    await page.getByRole('button', { name: 'Search' }).click();
    const adminRow = page.getByRole('row', { name: new RegExp(other.username) });
    await expect(adminRow).toContainText('Administrators cannot be viewed.');
    await expect(adminRow.getByRole('button', { name: 'Switch to this user' })).toHaveCount(0);

    // Made an administrator after the search: the server refuses, and says why.
    await page.getByLabel('Email, username or user id').fill(promoted.email);
    await page.getByRole('button', { name: 'Search' }).click();
    await page
      .getByRole('row', { name: new RegExp(promoted.username) })
      .getByRole('button', { name: 'Switch to this user' })
      .click();
    await setRole(promoted.email, 'admin');
    const dialog = page.getByRole('dialog', { name: `Switch to ${promoted.username}?` });
    await dialog.getByRole('button', { name: 'Switch to this user' }).click();
    await expect(dialog.getByText('Administrators cannot be impersonated.')).toBeVisible();
    await expect(page).toHaveURL(/\/profile-link$/);
    await expect(linkBanner(page)).toBeHidden();
  });

  test('a switch the server has ended brings the admin back with a message, and logout while switched signs everything out', async ({
    page,
    request,
  }) => {
    test.slow();
    const admin = await signedInAdmin(page, request);
    const user = await createAccount(request, { email: uniqueEmail('viewed') });
    await switchInto(page, user);
    await expect(linkBanner(page)).toContainText(`Viewing as ${user.username}`);

    // Ended elsewhere (another tab returned, or the 15 minutes ran out): the next check notices.
    const token = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('session') ?? '{}') as { accessToken?: string }).accessToken,
    );
    const ended = await request.post('/api/app/auth/code-signout', {
      headers: { Authorization: `Bearer ${token ?? ''}` },
    });
    expect(ended.ok()).toBe(true);
    await page.reload();
    await expect(page).toHaveURL(/\/profile-link$/);
    await expect(
      flash(page, `Your view of ${user.username} was ended. You are back in your own account.`),
    ).toBeVisible();
    await expect(linkBanner(page)).toBeHidden();
    await expect(accountMenu(page)).toHaveAccessibleName(`Account menu for ${admin.username}`);

    await switchInto(page, user);
    await expect(linkBanner(page)).toContainText(`Viewing as ${user.username}`);
    await accountMenu(page).click();
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect(linkBanner(page)).toBeHidden();
    await page.reload();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expect(linkBanner(page)).toBeHidden();
  });

  test('when the 15 minutes are up the admin is brought back on their own, with a message', async ({
    page,
    request,
  }) => {
    test.slow();
    await page.clock.install();
    const admin = await signedInAdmin(page, request);
    const user = await createAccount(request, { email: uniqueEmail('viewed') });
    await switchInto(page, user);
    await expect(linkBanner(page)).toContainText(/1[45]:\d\d left/);

    await page.clock.fastForward('14:00');
    await expect(linkBanner(page)).toContainText(/[01]:\d\d left/);
    await page.clock.fastForward('01:30');
    await expect(
      flash(page, `Your 15 minutes viewing ${user.username} are over. You are back in your own account.`),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/profile-link$/);
    await expect(linkBanner(page)).toBeHidden();
    await expect(accountMenu(page)).toHaveAccessibleName(`Account menu for ${admin.username}`);
  });

  test('an ordinary user opening Link User lands on the home page', async ({ page, request }) => {
    const user = await createAccount(request);
    await openPage(page, '/');
    await signInThroughApi(page, user);
    await page.goto('/profile-link');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Link User' })).toHaveCount(0);
  });
});
