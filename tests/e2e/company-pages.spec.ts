import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, openPage, setRole, signInThroughApi, uniqueEmail, type Account } from './fixtures.ts';

// The footer's Company pages as their visitors use them: one member of staff for the whole file, who
// is an administrator (reading the console's messages) and an affiliate (sharing a referral link).

const KEY_GENERATED =
  'The API Key has been generated! A verification email has been sent to your account to activate the key.';
const FIRST_OPTIONS = ['Investment Analysis', 'Live Stock Data', 'Affordability', 'Developer', 'Referral'];

let staff: Account;

test.beforeAll(async ({ request }) => {
  staff = await createAccount(request, { verified: true });
  await setRole(staff.email, 'admin');
});

/** Signs the browser in as the file's member of staff and opens a page once the session is confirmed. */
async function openSignedIn(page: Page, path: string): Promise<void> {
  await openPage(page, '/');
  await signInThroughApi(page, staff);
  await openPage(page, path);
}

/** Opens a page and brings a form that hydrates when seen into view, then waits for it to be live. */
async function openWithForm(page: Page, path: string, formName: string): Promise<void> {
  await openPage(page, path);
  await page.getByRole('form', { name: formName }).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () => document.querySelectorAll('astro-island[ssr]:not([client="demand"])').length === 0,
  );
}

test.describe('contact', () => {
  test('a contact message reaches the admin’s list', async ({ page, browser }) => {
    await openPage(page, '/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact', exact: true }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Talk to the team');

    const form = page.getByRole('form', { name: 'Send us a message' });
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByText('Please enter your name.')).toBeVisible();
    await expect(form.getByLabel('Your name')).toBeFocused();

    const email = uniqueEmail('contact');
    await form.getByLabel('Your name').fill('Grace Hopper');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Topic').selectOption({ label: 'Press and media' });
    await form.getByLabel('Message').fill('Could we interview someone from your data team for our podcast?');
    await form.getByRole('button', { name: 'Send message' }).click();

    await expect(page.getByRole('heading', { name: 'Thank you, Grace!' })).toBeFocused();
    const reference = (await page.locator('.contact-form__reference').textContent()) ?? '';
    expect(reference).toMatch(/^CT-[2-9A-HJKMNP-Z]{8}$/);
    await expect(page.getByRole('status').filter({ hasText: email })).toContainText(reference);

    const adminPage = await (await browser.newContext()).newPage();
    await openSignedIn(adminPage, '/developer/docs/admin/messages?tab=contact');
    await expect(adminPage.getByRole('tab', { name: 'Contact' })).toHaveAttribute('aria-selected', 'true');
    const card = adminPage
      .getByRole('article', { name: 'Grace Hopper · Press and media' })
      .filter({ hasText: email });
    await expect(card).toContainText(reference);
    await expect(card).toContainText('Could we interview someone from your data team for our podcast?');
    await expect(card.getByRole('link', { name: 'Reply by email to Grace Hopper' })).toHaveAttribute(
      'href',
      new RegExp(`^mailto:${email.replace(/[.+]/g, '\\$&')}`),
    );
    await adminPage.context().close();
  });
});

test.describe('careers', () => {
  test('a job application is received by the hiring team', async ({ page, browser }) => {
    await openPage(page, '/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Careers', exact: true }).click();
    await expect(page).toHaveURL(/\/careers$/);
    const roles = page.getByRole('region', { name: /^Open roles/ }).getByRole('listitem');
    await expect(roles).not.toHaveCount(0);

    await page.getByRole('link', { name: 'Site Reliability Engineer', exact: true }).click();
    await expect(page).toHaveURL(/\/careers\/site-reliability-engineer$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Site Reliability Engineer');
    await expect(page.getByRole('heading', { name: 'What you will do' })).toBeVisible();

    await openWithForm(page, '/careers/site-reliability-engineer', 'Apply for this role');
    const form = page.getByRole('form', { name: 'Apply for this role' });
    await expect(form.getByLabel('Role')).toHaveValue('site-reliability-engineer');
    const email = uniqueEmail('applicant');
    await form.getByLabel('Your name').fill('Ada Lovelace');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Links').fill('not a link');
    await form
      .getByLabel('Cover note')
      .fill(
        'I have run PostgreSQL fleets for six years and cut our last pager load in half by fixing alerts.',
      );
    await form.getByRole('button', { name: 'Send application' }).click();
    await expect(form.getByText(/Each link should be a web address/)).toBeVisible();
    await expect(form.getByLabel('Links')).toBeFocused();

    await form.getByLabel('Links').fill('github.com/ada\nhttps://ada.example.com/cv.pdf');
    await form.getByRole('button', { name: 'Send application' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you, Ada!' })).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: 'Site Reliability Engineer' })).toContainText(
      email,
    );

    const adminPage = await (await browser.newContext()).newPage();
    await openSignedIn(adminPage, '/developer/docs/admin/messages');
    await adminPage.getByRole('tab', { name: 'Job applications' }).click();
    await expect(adminPage).toHaveURL(/[?&]tab=applications/);
    const card = adminPage
      .getByRole('article', { name: 'Ada Lovelace · Site Reliability Engineer' })
      .filter({ hasText: email });
    await expect(card.getByRole('link', { name: 'https://github.com/ada' })).toBeVisible();
    await expect(card).toContainText('cut our last pager load in half');
    await adminPage.context().close();
  });
});

test.describe('affiliates', () => {
  test('a visitor arriving with ?ref=CODE and signing up is counted for the referrer', async ({
    page,
    browser,
  }) => {
    test.slow();
    await openSignedIn(page, '/affiliates');
    const join = page.getByRole('form', { name: 'Join the programme' });
    await join.getByRole('button', { name: 'Join and get my link' }).click();
    await expect(join.getByText('Please accept the affiliate programme terms to join.')).toBeVisible();
    await join.getByRole('checkbox', { name: /I accept the affiliate programme terms/ }).check();
    await join.getByRole('button', { name: 'Join and get my link' }).click();

    const panel = page.getByRole('region', { name: 'Your affiliate account' });
    await expect(panel.getByRole('heading', { name: 'Your affiliate account' })).toBeFocused();
    const code = (await panel.locator('dd code').textContent()) ?? '';
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
    await expect(panel.getByLabel('Your referral link')).toHaveValue(new RegExp(`/\\?ref=${code}$`));
    await expect(panel.getByText('Referred sign-ups')).toBeVisible();
    await expect(panel.locator('.affiliate-panel__count')).toHaveText('0');

    // A visitor follows the link to the pricing page, browses on and signs up.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await openPage(visitor, `/developer/docs/pricing?ref=${code.toLowerCase()}`);
    await expect(visitor).toHaveURL(/\/developer\/docs\/pricing$/);
    const cookie = (await visitorContext.cookies()).find(({ name }) => name === 'tl_ref');
    expect(cookie?.value).toBe(code);
    expect((cookie?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(59 * 24 * 3600);

    await openPage(visitor, '/register');
    const signUp = visitor.getByRole('form', { name: 'Sign up for a free API key' });
    await signUp.getByLabel('Email', { exact: true }).fill(uniqueEmail('referred'));
    await signUp.getByLabel('Password', { exact: true }).fill('correct-horse-42');
    await signUp.getByRole('button', { name: 'Sign up', exact: true }).click();
    const main = visitor.getByRole('main');
    for (const option of FIRST_OPTIONS) await main.getByRole('button', { name: option, exact: true }).click();
    await main.getByRole('button', { name: 'Submit' }).click();
    await expect(main.getByText(KEY_GENERATED)).toBeVisible();
    await visitorContext.close();

    await page.reload();
    await expect(
      page.getByRole('region', { name: 'Your affiliate account' }).locator('.affiliate-panel__count'),
    ).toHaveText('1');
  });

  test('a signed-out visitor reads the terms and is asked to sign in to join', async ({ page }) => {
    await openPage(page, '/affiliates');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Recommend the API, earn from every plan',
    );
    await expect(page.getByRole('region', { name: 'Programme terms' })).toContainText(
      '20% of every payment a referred customer makes',
    );
    const panel = page.getByRole('region', { name: 'Join the programme' });
    await expect(panel.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    await expect(panel.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register');
  });
});

test.describe('the company pages for every visitor', () => {
  const PAGES = ['/careers', '/careers/senior-backend-engineer-data-api', '/affiliates', '/contact'];

  // Each page is scanned once per theme, on a desktop in one and on a phone in the other (the pages share
  // one layout and one set of colours), and checked for sideways scrolling on a phone in both.
  for (const [themeIndex, theme] of (['light', 'dark'] as const).entries()) {
    test(`have no accessibility violations and no sideways scroll on a phone (${theme})`, async ({
      page,
    }) => {
      test.slow();
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      for (const [pageIndex, path] of PAGES.entries()) {
        const scanned = (pageIndex + themeIndex) % 2 === 0 ? 1280 : 390;
        for (const width of scanned === 390 ? [390] : [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          // A form that hydrates when seen comes alive once it is scrolled into view.
          await page.goto(path);
          await page.waitForFunction(() => window.appStores !== undefined);
          await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
          await page.evaluate(() => {
            document.querySelector('astro-island[client="visible"] > *')?.scrollIntoView();
          });
          await page.waitForFunction(
            () => document.querySelectorAll('astro-island[ssr]:not([client="demand"])').length === 0,
          );
          if (width === scanned) {
            const results = await new AxeBuilder({ page }).analyze();
            expect(
              results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
              `${path} at ${String(width)} px`,
            ).toEqual([]);
          }
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow, `${path} at ${String(width)} px`).toBeLessThanOrEqual(0);
        }
      }
    });
  }
});
