import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createAccount, openPage, signInThroughApi, uniqueEmail } from './fixtures.ts';

const TOPICS = ['Account', 'API keys', 'Billing', 'Data', 'API', 'Limits'];

function helpForm(page: Page): Locator {
  return page.getByRole('form', { name: 'Ask us a question' });
}

/**
 * Opens the help center and brings its form into view, which is when the form comes alive (it
 * hydrates only when seen, so the page stays light for readers who never scroll to it).
 */
async function openHelpCenter(page: Page, path = '/help-center'): Promise<void> {
  await page.goto(path);
  await page.waitForFunction(() => window.appStores !== undefined);
  await helpForm(page).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () => document.querySelectorAll('astro-island[ssr]:not([client="demand"])').length === 0,
  );
}

async function fillHelp(
  page: Page,
  values: { name?: string; email?: string; message?: string } = {},
): Promise<void> {
  const form = helpForm(page);
  await form.getByLabel('Your name').fill(values.name ?? 'Grace Hopper');
  await form.getByLabel('Email').fill(values.email ?? 'grace@example.com');
  await form.getByLabel('Topic').selectOption({ label: 'Limits' });
  await form
    .getByLabel('Your question')
    .fill(values.message ?? 'My key answers 429 after five calls a minute. Which plan do I need for more?');
}

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('the FAQs', () => {
  test('a visitor opens the FAQs from the footer and reads an answer of a topic', async ({ page }) => {
    await openPage(page, '/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQs', exact: true }).click();
    await expect(page).toHaveURL(/\/faqs$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions');

    const topics = page.getByRole('navigation', { name: 'FAQ topics' }).getByRole('link');
    await expect(topics).toHaveText(TOPICS.map((topic) => new RegExp(`^${topic} \\(\\d+\\)$`)));
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText(TOPICS);

    await topics.filter({ hasText: 'Limits' }).click();
    await expect(page).toHaveURL(/\/faqs#limits$/);
    const question = page.getByText('What does 429 Too Many Requests mean?', { exact: true });
    const answer = page.getByText('Wait the number of seconds');
    await expect(answer).toBeHidden();
    await question.click();
    await expect(answer).toBeVisible();
    await expect(page.getByRole('link', { name: 'Rate limits' }).first()).toHaveAttribute(
      'href',
      '/developer/docs/rate-limits#throttle-on-the-client',
    );
  });

  test('a shared link to an answer opens the page with that answer open and in view', async ({ page }) => {
    await openPage(page, '/faqs#replace-api-key');
    const entry = page.locator('details#replace-api-key');
    await expect(entry).toHaveAttribute('open', '');
    await expect(entry.getByText('The old key stops working within a minute')).toBeInViewport();
    // Only the linked answer opens.
    await expect(page.locator('details[open]')).toHaveCount(1);
  });

  test('each answer offers its own link, which puts the answer in the address', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openPage(page, '/faqs');
    await page.getByText('Is there a free plan?', { exact: true }).click();
    await page.getByRole('link', { name: 'Link to this answer: Is there a free plan?' }).click();
    await expect(page).toHaveURL(/\/faqs#free-plan$/);
    await expect(page.getByRole('status').filter({ hasText: 'Link copied' })).toHaveText(
      'Link copied to the clipboard.',
    );
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/faqs#free-plan$/);

    // Going to another answer's address on the same page opens it too.
    await page.evaluate(() => {
      location.hash = '#openapi';
    });
    await expect(page.locator('details#openapi')).toHaveAttribute('open', '');
  });

  test('the page describes its questions for search engines without breaking its security policy', async ({
    page,
  }) => {
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) refused.push(message.text());
    });
    await openPage(page, '/faqs');
    const data = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}',
    ) as { '@type': string; mainEntity: { name: string; acceptedAnswer: { text: string } }[] };
    expect(data['@type']).toBe('FAQPage');
    expect(data.mainEntity.map((item) => item.name)).toContain('How do I create an account?');
    expect(
      data.mainEntity.find((item) => item.name === 'Is there a free plan?')?.acceptedAnswer.text,
    ).toContain('250 a day');
    expect(refused).toEqual([]);
  });
});

test('a reader searching the documentation finds the FAQs and the help center', async ({ page }) => {
  await openPage(page, '/developer/docs');
  await page.keyboard.press('/');
  const dialog = page.getByRole('dialog', { name: 'Search the documentation' });
  await dialog.getByRole('searchbox', { name: 'Search the documentation' }).fill('invoice');
  await expect(dialog.getByRole('link', { name: /Frequently asked questions/ }).first()).toBeVisible();
  await expect(dialog.getByRole('link', { name: /Help center/ }).first()).toBeVisible();
});

test.describe('the help center', () => {
  test('a visitor finds the help center in the documentation menu and opens a guide', async ({ page }) => {
    await openPage(page, '/');
    await page.getByRole('button', { name: 'Documentation' }).click();
    await page.getByRole('link', { name: 'Help Center' }).first().click();
    await expect(page).toHaveURL(/\/help-center$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Help center');
    await expect(page.getByRole('navigation', { name: 'Help topics' }).getByRole('link')).toHaveText([
      ...TOPICS.map((topic) => new RegExp(`^${topic} \\(\\d+\\)$`)),
      'Ask us',
    ]);
    const guide = page.locator('details#verify-your-email');
    await expect(guide.getByText('Check again')).toBeHidden();
    await page.getByText('Verify your email address', { exact: true }).click();
    await expect(guide).toHaveAttribute('open', '');
    await expect(guide.getByText('Check again')).toBeVisible();
  });

  test('a visitor sends a question, sees its reference and finds the confirmation in the local mailbox', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('help');
    await openHelpCenter(page);
    await fillHelp(page, { email });
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/portal/help/request'));
    await helpForm(page).getByRole('button', { name: 'Send question' }).click();
    expect((await answer).status()).toBe(201);

    const thanks = page.getByRole('heading', { name: 'Thank you, Grace!' });
    await expect(thanks).toBeFocused();
    const status = page.getByRole('status').filter({ hasText: 'Your reference is' });
    await expect(status).toHaveText(
      new RegExp(
        `^We received your question\\. Your reference is HC-[A-Z0-9]{8}; we sent a confirmation to ${email.replace(/[.+]/g, '\\$&')} and will answer there\\.$`,
      ),
    );
    const reference = /HC-[A-Z0-9]{8}/.exec((await status.textContent()) ?? '')?.[0] ?? '';

    const mailbox = await context.newPage();
    await openPage(mailbox, '/dev/mailbox');
    await mailbox.getByLabel('Filter by address').fill(email);
    const message = mailbox.getByRole('listitem').filter({ hasText: email });
    await expect(message.getByText('Help request received')).toBeVisible();
    await expect(message.getByText(`We received your question (${reference})`)).toBeVisible();
    await expect(message).toContainText('Which plan do I need for more?');

    await page.getByRole('button', { name: 'Ask another question' }).click();
    await expect(helpForm(page).getByLabel('Your name')).toHaveValue('');
  });

  test('a reader who never scrolls to the form downloads none of its code', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const formScripts: string[] = [];
    page.on('request', (request) => {
      if (/HelpForm|help-form/i.test(request.url())) formScripts.push(request.url());
    });
    await page.goto('/help-center');
    await page.waitForLoadState('networkidle');
    expect(formScripts).toEqual([]);

    await helpForm(page).scrollIntoViewIfNeeded();
    await expect.poll(() => formScripts.length).toBeGreaterThan(0);
    await expect(helpForm(page).getByRole('button', { name: 'Send question' })).toBeEnabled();
  });

  test('a wrong field is named next to it and nothing typed is lost', async ({ page }) => {
    await openHelpCenter(page);
    await fillHelp(page, { email: 'grace-at-example.com', message: 'Help!' });
    const form = helpForm(page);
    await form.getByRole('button', { name: 'Send question' }).click();

    const email = form.getByLabel('Email');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription('Please enter a valid email address.');
    await expect(email).toBeFocused();
    await expect(form.getByLabel('Your question')).toHaveAccessibleDescription(
      /Please tell us a little more \(at least 10 characters\)\.$/,
    );
    await expect(form.getByRole('status')).toHaveText(
      'Please correct the highlighted fields and send your question again.',
    );
    await expect(form.getByLabel('Your name')).toHaveValue('Grace Hopper');
    await expect(form.getByLabel('Topic')).toHaveValue('limits');
    await expect(form.getByLabel('Your question')).toHaveValue('Help!');
  });

  test('when the server cannot be reached the visitor is told so and keeps the question', async ({
    page,
  }) => {
    await openHelpCenter(page);
    await page.route('**/api/portal/help/request', (route) => route.abort('connectionrefused'));
    await fillHelp(page);
    const form = helpForm(page);
    await form.getByRole('button', { name: 'Send question' }).click();
    await expect(form.getByRole('status')).toHaveText(
      'We could not reach the server. Please check your connection and try again.',
    );
    await expect(form.getByLabel('Your question')).toHaveValue(/Which plan do I need for more\?/);
    await expect(form.getByRole('button', { name: 'Send question' })).toBeEnabled();
  });

  test('a signed-in developer finds their name and email already filled in', async ({ page, request }) => {
    const account = await createAccount(request);
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openHelpCenter(page);
    const form = helpForm(page);
    await expect(form.getByLabel('Email')).toHaveValue(account.email);
    await expect(form.getByLabel('Your name')).toHaveValue(account.username);
  });
});

for (const theme of ['light', 'dark'] as const) {
  test(`the FAQs and the help center have no accessibility violations (${theme})`, async ({ page }) => {
    await page.addInitScript((mode) => {
      localStorage.setItem('themeMode', mode);
    }, theme);
    await openPage(page, '/faqs#find-api-key');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    expect(await axeViolations(page)).toEqual([]);

    await openHelpCenter(page, '/help-center#fix-common-errors');
    expect(await axeViolations(page)).toEqual([]);
    await helpForm(page).getByRole('button', { name: 'Send question' }).click();
    await expect(helpForm(page).getByLabel('Your name')).toHaveAttribute('aria-invalid', 'true');
    expect(await axeViolations(page)).toEqual([]);
  });
}
