import { runInNewContext } from 'node:vm';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { SPREADSHEET_FUNCTIONS, SPREADSHEET_NAMESPACE } from '../../src/lib/spreadsheet/functions.ts';
import { createAccount, openPage, signInAs, signInThroughApi } from './fixtures.ts';

const PAGE = '/developer/docs/excel-add-on';
const EXPLORER = '/developer/docs/excel-add-on-explorer';

test.describe('the Excel add-on page', () => {
  test('a signed-out reader learns the functions and how to install the add-in, and downloads its files', async ({
    page,
    request,
  }) => {
    await openPage(page, PAGE);
    await expect(page.getByRole('heading', { level: 1, name: 'Excel add-on' })).toBeVisible();
    for (const fn of SPREADSHEET_FUNCTIONS) {
      await expect(page.getByRole('heading', { level: 3, name: fn.name, exact: true })).toBeVisible();
      await expect(page.getByLabel(`Example of ${fn.name}`)).toContainText(
        `=${SPREADSHEET_NAMESPACE}.${fn.name}(`,
      );
    }
    await expect(page.getByRole('heading', { name: 'Excel on the web' })).toBeVisible();
    await expect(page.getByText('Upload My Add-in').first()).toBeVisible();
    await expect(page.getByRole('link', { name: '/devauth' }).first()).toBeVisible();
    // Signed out, the samples keep the placeholder.
    await expect(page.getByLabel('IMPORTDATA of a price history')).toContainText('apikey=YOUR_API_KEY');

    const manifestHref = await page.locator('[data-manifest-link]').getAttribute('href');
    const manifest = await request.get(manifestHref ?? '');
    expect(manifest.ok()).toBe(true);
    expect(manifest.headers()['content-type']).toContain('application/xml');
    const xml = await manifest.text();
    expect(xml).toMatch(/^<\?xml version="1\.0"/);
    expect(xml).toContain(`<bt:String id="Functions.Namespace" DefaultValue="${SPREADSHEET_NAMESPACE}"/>`);
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return doc.getElementsByTagName('parsererror').length === 0 ? doc.documentElement.localName : 'error';
    }, xml);
    expect(parsed).toBe('OfficeApp');

    const metadataHref = await page.locator('[data-metadata-link]').getAttribute('href');
    const metadata = (await (await request.get(metadataHref ?? '')).json()) as {
      functions: { id: string }[];
    };
    expect(metadata.functions.map((fn) => fn.id)).toEqual(SPREADSHEET_FUNCTIONS.map((fn) => fn.name));
    expect((await request.get('/excel-add-in/icon-32.png')).headers()['content-type']).toBe('image/png');

    // functions.js stands alone: run in a context with only Excel's runtime, it registers every function.
    const script = await request.get('/excel-add-in/functions.js');
    expect(script.headers()['content-type']).toContain('javascript');
    const registered: string[] = [];
    runInNewContext(await script.text(), {
      CustomFunctions: { associate: (id: string) => registered.push(id), Error },
      fetch,
      URLSearchParams,
    });
    expect(registered).toEqual(SPREADSHEET_FUNCTIONS.map((fn) => fn.name));

    // Office on the web frames the task pane, which loads office.js; the site's other pages stay unframeable.
    const pane = await request.get('/excel-add-in/taskpane');
    expect(pane.headers()['x-frame-options']).toBeUndefined();
    expect(pane.headers()['content-security-policy']).toMatch(
      /frame-ancestors [^;]*https:\/\/\*\.officeapps\.live\.com/,
    );
    expect(pane.headers()['content-security-policy']).toMatch(
      /script-src [^;]*https:\/\/appsforoffice\.microsoft\.com/,
    );
    expect((await request.get(PAGE)).headers()['x-frame-options']).toBe('DENY');
  });

  test('a signed-in reader sees their own key in the spreadsheet samples', async ({ page }) => {
    await signInAs(page, { username: 'sheila', apiKey: 's'.repeat(32) });
    await openPage(page, PAGE);
    await expect(page.getByLabel('IMPORTDATA of a price history')).toContainText(`apikey=${'s'.repeat(32)}`);
  });

  test('a developer connects the task pane through the device flow, sees the account and disconnects', async ({
    page,
    browser,
    request,
  }) => {
    test.slow(); // the pane polls every five seconds, as the server asks
    const account = await createAccount(request);
    await page.goto('/excel-add-in/taskpane');
    await expect(page.getByText(`=${SPREADSHEET_NAMESPACE}.QUOTE(symbol, [field])`)).toBeVisible();
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect(page.getByLabel('Your code')).toHaveText(/^[A-Z]{4}-[A-Z]{4}$/);
    const link = await page.getByRole('link', { name: /\/devauth$/ }).getAttribute('href');

    // The owner confirms in a browser of their own, signed in to the site.
    const owner = await browser.newPage();
    await openPage(owner, new URL(link ?? '').pathname + new URL(link ?? '').search);
    await signInThroughApi(owner, account);
    await owner.getByRole('button', { name: 'Continue' }).click();
    await expect(
      owner.getByRole('heading', { name: 'Excel add-in wants access to your API key' }),
    ).toBeVisible();
    await owner.getByRole('button', { name: 'Approve' }).click();
    await expect(owner.getByRole('heading', { name: 'Tool connected' })).toBeVisible();
    await owner.close();

    await expect(page.getByRole('heading', { name: 'Connected' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(account.email)).toBeVisible();
    await expect(page.getByText('Plan: Free')).toBeVisible();
    const stored = await page.evaluate(() =>
      Object.keys(localStorage).some((name) => name.endsWith('-excel-connection')),
    );
    expect(stored).toBe(true);
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await expect(page.getByRole('button', { name: 'Connect' })).toBeVisible();
    await expect(page.getByRole('status')).toContainText('Disconnected');
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`has no accessibility violations (${theme})`, async ({ page }) => {
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      await openPage(page, PAGE);
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    });
  }
});

test.describe('the spreadsheet formula explorer', () => {
  test('a developer narrows the income statement to three fields, previews the rows, and the IMPORTDATA formula they copy answers those columns', async ({
    page,
    context,
    request,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const account = await createAccount(request, { verified: true });
    await openPage(page, '/');
    await signInThroughApi(page, account);
    await openPage(page, EXPLORER);
    await expect(page.getByRole('heading', { level: 1, name: 'Spreadsheet formula explorer' })).toBeVisible();

    await page.getByLabel('Endpoint').selectOption('income-statement');
    const symbol = page.getByRole('combobox', { name: /symbol/ });
    await symbol.fill('MSF');
    await page.getByRole('option', { name: /^MSFT/ }).click();
    await expect(symbol).toHaveValue('MSFT');
    await page.getByRole('button', { name: 'Clear fields' }).click();
    await expect(page.getByText('Choose at least one field to write the formulas.')).toBeVisible();
    for (const field of ['date', 'revenue', 'netIncome']) {
      await page.getByRole('checkbox', { name: field, exact: true }).check();
    }
    await expect(page).toHaveURL(/endpoint=income-statement&symbol=MSFT.*&fields=date,revenue,netIncome/);

    const preview = page.getByRole('region', { name: 'Preview of the rows' });
    await expect(preview.getByRole('columnheader')).toHaveText(['date', 'revenue', 'netIncome']);
    await expect(preview.getByRole('row')).not.toHaveCount(1);
    await expect(page.getByText(/^The first \d+ of \d+ rows?/)).toBeVisible();

    await expect(
      page
        .getByRole('region', { name: 'Formulas' })
        .getByText(
          `=${SPREADSHEET_NAMESPACE}.DATA("income-statement", "symbol=MSFT&period=annual&limit=5", "date,revenue,netIncome")`,
        ),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Copy Google Sheets IMPORTDATA formula' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'copied, with your API key' })).toBeAttached();
    const formula = await page.evaluate(() => navigator.clipboard.readText());
    const address = /^=IMPORTDATA\("(.+)"\)$/.exec(formula)?.[1] ?? '';
    expect(address).toContain('fields=date,revenue,netIncome&datatype=csv&apikey=');
    // On screen the key is masked; the copy carries the whole key, so the address works as it is.
    expect(address).not.toContain('•');
    const csv = await request.get(address);
    expect(csv.status()).toBe(200);
    expect((await csv.text()).split('\r\n')[0]).toBe('date,revenue,netIncome');

    // The address holds the choice: a reload brings the same endpoint, symbol and fields back.
    await page.reload();
    await expect(page.getByLabel('Endpoint')).toHaveValue('income-statement');
    await expect(page.getByRole('checkbox', { name: 'revenue', exact: true })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'grossProfit', exact: true })).not.toBeChecked();

    // Quarterly statements are above the Free plan: the preview shows the API's refusal naming the plan.
    await page.getByRole('combobox', { name: /^period/ }).selectOption('quarter');
    const refusal = page.getByRole('alert').filter({ hasText: '402' });
    await expect(refusal).toContainText('Professional');
    await expect(refusal.getByRole('link', { name: 'Compare plans' })).toBeVisible();
  });

  test('a signed-out visitor previews with the visitor access and gets formulas with the key placeholder', async ({
    page,
  }) => {
    await openPage(page, `${EXPLORER}?endpoint=historical-price-eod/full&symbol=AAPL&fields=date,close`);
    await expect(page.getByText('You are not signed in.')).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Preview of the rows' }).getByRole('columnheader'),
    ).toHaveText(['date', 'close']);
    await expect(page.getByText(/=IMPORTDATA\(".*apikey=YOUR_API_KEY"\)/)).toBeVisible();
    // A JSON-only endpoint gets the add-in formula alone, and says why.
    await page.getByLabel('Endpoint').selectOption('quote');
    await expect(page.getByText('quote answers JSON only')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Copy Google Sheets/ })).toBeHidden();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`has no accessibility violations with a preview shown (${theme})`, async ({ page }) => {
      await page.addInitScript((mode) => {
        localStorage.setItem('themeMode', mode);
      }, theme);
      await openPage(page, `${EXPLORER}?endpoint=historical-price-eod/full&symbol=AAPL`);
      await expect(page.getByRole('region', { name: 'Preview of the rows' })).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    });
  }
});
