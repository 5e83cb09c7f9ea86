import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createAccount, openPage, signInAs, signInThroughApi, type Account } from './fixtures.ts';

const run = promisify(execFile);

/** One verified Free account for the whole file: signing up costs more than the stories themselves. */
let account: Account;

test.beforeAll(async ({ request }) => {
  account = await createAccount(request, { verified: true });
});

async function openSignedIn(page: Page, path: string): Promise<void> {
  await openPage(page, '/');
  await signInThroughApi(page, account);
  await openPage(page, path);
}

const answerRegion = (page: Page) => page.getByRole('region', { name: 'Answer' });

async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('the API viewer', () => {
  test('a developer picks the income statement, finds AAPL by typing, sends it and reads the answer as JSON and as a table', async ({
    page,
  }) => {
    await openSignedIn(page, '/playground');
    await expect(page.getByRole('heading', { level: 1, name: 'API viewer' })).toBeVisible();
    await expect(page.getByText(/^With your key /)).toBeVisible();

    await page.getByLabel('Find an endpoint').fill('income');
    await page
      .getByRole('navigation', { name: 'Endpoints' })
      .getByRole('button', { name: 'Income statement income-statement', exact: true })
      .click();
    await expect(page).toHaveURL(/\/playground\?endpoint=income-statement&symbol=AAPL/);
    await expect(page.getByRole('heading', { level: 2, name: 'Income statement' })).toBeVisible();

    const symbol = page.getByRole('combobox', { name: /symbol/ });
    await symbol.fill('AAP');
    await page.getByRole('option', { name: /^AAPL/ }).click();
    await expect(symbol).toHaveValue('AAPL');

    await page.getByRole('button', { name: 'Send request' }).click();
    const answer = answerRegion(page);
    await expect(answer.getByText('200 OK')).toBeVisible();
    await expect(answer.getByText(/^\d+ rows$/)).toBeVisible();
    const budgets = answer.getByRole('definition').first();
    await expect(answer.getByLabel('Call budget headers')).toContainText('ratelimit');
    await expect(budgets).toBeVisible();
    const tree = answer.getByRole('tree', { name: 'Answer as JSON' });
    await expect(tree.getByRole('treeitem')).toHaveCount(4);
    await tree.getByRole('treeitem', { name: /^0: / }).click();
    await expect(tree).toContainText('revenue');

    await answer.getByRole('tab', { name: 'Table' }).click();
    const table = answer.getByRole('table');
    await expect(table.getByRole('columnheader', { name: /revenue/ })).toBeVisible();
    await expect(table.getByRole('row').nth(1)).toContainText('AAPL');

    await answer.getByRole('tab', { name: /^Headers/ }).click();
    await expect(answer.getByRole('row', { name: /ratelimit-policy/i })).toContainText('Call budget');
  });

  test('a developer charts a price history, copies its curl command and running it answers the same rows', async ({
    page,
    context,
  }) => {
    // Five years of daily rows, drawn, then a second request from the shell.
    test.slow();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openSignedIn(page, '/playground?endpoint=historical-price-eod/full&symbol=AAPL');
    await expect(page.getByRole('heading', { level: 2, name: 'Daily prices, full' })).toBeVisible();
    const answered = page.waitForResponse((response) =>
      response.url().includes('/stable/historical-price-eod/full'),
    );
    await page.getByRole('button', { name: 'Send request' }).click();
    const rows = (await (await answered).json()) as unknown[];
    expect(rows.length).toBeGreaterThan(1);
    const answer = answerRegion(page);
    await expect(answer.getByText('200 OK')).toBeVisible();
    await answer.getByRole('tab', { name: 'Chart' }).click();
    await expect(answer.getByRole('img', { name: /^Price chart of the answer/ })).toBeVisible();

    const code = page.getByRole('region', { name: 'Request as code' });
    await code.getByRole('tab', { name: 'curl' }).click();
    await expect(code.getByRole('tabpanel')).toContainText('apikey=');
    await expect(code.getByRole('tabpanel')).toContainText('••••');
    await code.getByRole('button', { name: 'Copy curl' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'curl request copied, with your API key.' }),
    ).toBeAttached();
    const command = await page.evaluate(() => navigator.clipboard.readText());
    expect(command).not.toContain('•');
    expect(command).not.toContain('YOUR_API_KEY');
    const { stdout } = await run('sh', ['-c', command.replaceAll('\\\n', ' ')]);
    expect(JSON.parse(stdout)).toEqual(rows);
  });

  test('a Free developer sends a Professional endpoint and is shown the refusal with the plan that opens it', async ({
    page,
  }) => {
    await openSignedIn(page, '/playground?endpoint=income-statement&symbol=AAPL&period=quarter');
    await page.getByRole('button', { name: 'Send request' }).click();
    const answer = answerRegion(page);
    await expect(answer.getByText('402 Payment Required')).toBeVisible();
    const refusal = answer.getByRole('alert');
    await expect(refusal).toContainText('Professional');
    await expect(refusal.getByRole('link', { name: 'See plans and pricing' })).toHaveAttribute(
      'href',
      '/developer/docs/pricing',
    );
  });

  test('a developer reads the Excel report’s reference, tries it in the viewer and saves the workbook it names', async ({
    page,
  }) => {
    await openSignedIn(page, '/developer/docs/stable/financial-reports-xlsx');
    await expect(page.getByRole('heading', { level: 1, name: 'Financial report (Excel)' })).toBeVisible();
    await expect(
      page.getByText(/^An Excel workbook \(Content-Type: application\/vnd\.openxml/),
    ).toBeVisible();
    const income = page.getByRole('region', { name: 'Table: first rows of the Income Statement sheet' });
    await expect(income.getByRole('cell', { name: 'Revenue', exact: true })).toBeVisible();

    await page.getByRole('link', { name: 'Try it in the API viewer' }).click();
    await expect(page).toHaveURL(
      /\/playground\?endpoint=financial-reports-xlsx&symbol=AAPL&year=2025&period=FY$/,
    );
    await page.getByRole('button', { name: 'Send request' }).click();
    const answer = answerRegion(page);
    await expect(answer.getByText('200 OK')).toBeVisible();
    await expect(answer.getByText(/^The answer is a file, AAPL-2025-FY\.xlsx/)).toBeVisible();
    const saving = page.waitForEvent('download');
    await answer.getByRole('button', { name: 'Download AAPL-2025-FY.xlsx' }).click();
    const download = await saving;
    expect(download.suggestedFilename()).toBe('AAPL-2025-FY.xlsx');
    // An .xlsx file is a zip archive: it starts with "PK".
    expect(
      readFileSync(await download.path())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
  });

  test('a shared address reopens the same request, back and forward return to earlier ones, and the form checks values before sending', async ({
    page,
  }) => {
    await openSignedIn(page, '/playground?endpoint=batch-quote&symbols=MSFT,AAPL');
    await expect(page.getByRole('heading', { level: 2, name: 'Quotes of several symbols' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: /symbols/ })).toHaveValue('MSFT,AAPL');

    await page
      .getByRole('navigation', { name: 'Endpoints' })
      .getByRole('button', { name: 'Income statement income-statement', exact: true })
      .click();
    await expect(page).toHaveURL(/endpoint=income-statement/);
    const limit = page.getByLabel(/limit/);
    await limit.fill('500');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByText('limit must be a whole number from 1 to 100')).toBeVisible();
    await expect(page.getByText('Nothing was sent: correct the marked parameters first.')).toBeVisible();
    await expect(answerRegion(page)).toHaveCount(0);
    await expect(page).toHaveURL(/limit=500/);

    await page.goBack();
    await expect(page).toHaveURL(/endpoint=batch-quote&symbols=MSFT,AAPL$/);
    await expect(page.getByRole('combobox', { name: /symbols/ })).toHaveValue('MSFT,AAPL');
    await page.goForward();
    await expect(page.getByLabel(/limit/)).toHaveValue('500');
  });

  test('a visitor without a key tries the API with the visitor access and is offered a free key', async ({
    page,
  }) => {
    await openPage(page, '/playground/stable');
    await expect(page.getByRole('heading', { level: 1, name: 'Stable API viewer' })).toBeVisible();
    const note = page.getByRole('complementary', { name: 'Trying the API without a key' });
    await expect(note).toContainText(/10 calls a minute and 100 a day/);
    await expect(note.getByRole('link', { name: 'Get a free API key' })).toHaveAttribute('href', '/register');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(answerRegion(page).getByText('200 OK')).toBeVisible();
  });

  test('the legacy viewer puts the symbol in the path for a legacy user, and explains itself to others', async ({
    page,
  }) => {
    await openPage(page, '/playground/legacy');
    await expect(page.getByText('Your account does not have legacy access.')).toBeVisible();

    await signInAs(page, { username: 'lena', legacy: true });
    await openPage(page, '/playground/legacy?endpoint=quote&symbol=MSFT');
    await expect(page.getByText('Your account has legacy access')).toBeVisible();
    await expect(page.getByText('Your account does not have legacy access.')).toBeHidden();
    await expect(page.getByText(/\/api\/v3\/quote\/MSFT\?apikey=/).first()).toBeVisible();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`has no accessibility violations with an answer shown, ${theme}`, async ({ page }) => {
      // Two months of prices: every part of the answer's views, without axe walking years of rows.
      const to = new Date();
      const from = new Date(to.getTime() - 60 * 86_400_000);
      const day = (date: Date): string => date.toISOString().slice(0, 10);
      await page.emulateMedia({ colorScheme: theme });
      await openSignedIn(
        page,
        `/playground?endpoint=historical-price-eod/light&symbol=AAPL&from=${day(from)}&to=${day(to)}`,
      );
      await page.getByRole('button', { name: 'Send request' }).click();
      await expect(answerRegion(page).getByText('200 OK')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await answerRegion(page).getByRole('tab', { name: 'Table' }).click();
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});
