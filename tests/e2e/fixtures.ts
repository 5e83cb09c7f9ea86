import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

export interface TestUser {
  username: string;
  userRole?: 'user' | 'analyst' | 'admin';
  legacy?: boolean;
  apiKey?: string;
  planCode?: string;
  /** The plan's data coverage (0 free … 4 commercial). */
  dataTier?: number;
}

/** The end-to-end site's Auth emulator (scripts/e2e-server.ts) and its demo project. */
export const AUTH_EMULATOR_URL = `http://127.0.0.1:${process.env.E2E_AUTH_EMULATOR_PORT ?? '9699'}`;
export const AUTH_PROJECT_ID = 'demo-marketdata';

/** The end-to-end data API (scripts/e2e-server.ts), for stories that call it with a key. */
export const DATA_API_URL = `http://127.0.0.1:${process.env.E2E_DATA_API_PORT ?? '4352'}`;

/**
 * Puts a session into the browser's stored session before the page loads, as a finished sign-in
 * would, so that the shell's reactions to account kinds (admin, legacy, no username) can be tested
 * without creating such accounts. The page checks a stored session with the server on load; for
 * these made-up tokens that check is answered here with the stored user (a stub of the accounts
 * API's access-token call). Real sessions are covered by session.spec.ts.
 */
export async function signInAs(page: Page, user: TestUser): Promise<void> {
  const data = {
    userid: `id-${user.username}`,
    username: user.username,
    email: `${user.username || 'anonymous'}@example.com`,
    userRole: user.userRole ?? 'user',
    legacy: user.legacy ?? false,
    apiKey: user.apiKey ?? 'k'.repeat(32),
    planCode: user.planCode ?? 'free',
    dataTier: user.dataTier ?? 0,
    isPremium: (user.dataTier ?? 0) > 0,
  };
  const snapshot = { accessToken: `test-token-${user.username || 'anonymous'}`, user: data };
  await page.route('**/api/portal/auth/access-token', (route) =>
    route.fulfill({ json: { valid: true, ...data } }),
  );
  await page.addInitScript((value) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('session', value);
      sessionStorage.setItem('seeded', '1');
    }
  }, JSON.stringify(snapshot));
}

/**
 * Opens a page and waits until its script has started (the header, the session) and every island
 * that hydrates on its own is interactive (Astro drops an island's `ssr` attribute once it has
 * hydrated), so a click is never lost on markup that is not live yet. Islands that hydrate on
 * demand (the overlays) are not waited for: they come alive when the page needs them.
 */
export async function openPage(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForLivePage(page);
}

/** Waits until the open page's script has started and its self-hydrating islands are live (see openPage). */
export async function waitForLivePage(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      window.appStores !== undefined &&
      document.querySelectorAll('astro-island[ssr]:not([client="demand"])').length === 0,
  );
}

export interface Account {
  email: string;
  password: string;
  username: string;
  userid: string;
  /** The identity provider's id of the account. */
  uid: string;
}

/** An address no other test uses. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/**
 * Creates a real account as the sign-up does: the identity in the Auth emulator, then the
 * account (with its API key) through the accounts API.
 */
export async function createAccount(
  request: APIRequestContext,
  options: { email?: string; password?: string; verified?: boolean } = {},
): Promise<Account> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct-horse-42';
  const created = await request.post(
    `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
    { data: { email, password, returnSecureToken: true } },
  );
  if (!created.ok()) throw new Error(`the emulator refused the account: ${await created.text()}`);
  const { localId: uid } = (await created.json()) as { localId: string };
  if (options.verified === true) await updateIdentity(request, uid, { emailVerified: true });
  const registered = await request.post('/api/portal/user/register-user', { data: { email, password } });
  if (!registered.ok()) throw new Error(`registration failed: ${await registered.text()}`);
  const { userid, username } = (await registered.json()) as { userid: string; username: string };
  return { email, password, username, userid, uid };
}

/** Changes an identity in the emulator with its administrator credential (e.g. disables it). */
export async function updateIdentity(
  request: APIRequestContext,
  uid: string,
  changes: { disableUser?: boolean; emailVerified?: boolean },
): Promise<void> {
  const answer = await request.post(
    `${AUTH_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/projects/${AUTH_PROJECT_ID}/accounts:update`,
    { data: { localId: uid, ...changes }, headers: { Authorization: 'Bearer owner' } },
  );
  if (!answer.ok()) throw new Error(`the emulator refused the change: ${await answer.text()}`);
}

/** The end-to-end site's data directory: scripts/e2e-server.ts names it after the site's port. */
export const E2E_DATA_DIR = path.join(tmpdir(), `e2e-data-${process.env.E2E_SITE_PORT ?? '4351'}`);

/**
 * Gives a real account a role with `npm run user:role`, as an operator makes the first admin: the
 * command finds the running end-to-end server in its data directory and changes the role in that
 * server's process. Rejects with the command's own message when it fails.
 */
export function setRole(email: string, role: 'user' | 'analyst' | 'admin'): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: E2E_DATA_DIR };
  delete env.DATABASE_URL;
  delete env.DATABASE_SCHEMA;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['scripts/user-role.ts', email, role],
      { env, timeout: 60_000 },
      (error, _stdout, stderr) => {
        if (error === null) resolve();
        else reject(new Error(`npm run user:role failed: ${stderr.trim() || error.message}`));
      },
    );
  });
}

/**
 * Signs the browser in through the accounts API from the page itself, so the refresh cookie lands in
 * the browser, and hands the answer to the session store as the sign-in form does. The page must be
 * open (and hydrated) on the site.
 */
export async function signInThroughApi(page: Page, account: Account): Promise<void> {
  await page.waitForFunction(() => window.appStores !== undefined);
  await page.evaluate(
    async ({ login, password }) => {
      const response = await fetch('/api/app/auth/signin', {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ login, password }),
      });
      if (!response.ok) throw new Error(`sign-in refused: ${await response.text()}`);
      const answer = (await response.json()) as { accessToken: string } & Record<string, unknown>;
      window.appStores?.signedIn(answer.accessToken, answer);
    },
    { login: account.email, password: account.password },
  );
}

/** Fills the test-mode checkout's card form with `cardNumber` and a valid expiry, CVC, name and address. */
export async function fillCard(page: Page, cardNumber: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Card details' });
  await form.getByLabel('Card number').fill(cardNumber);
  await form.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await form.getByLabel('CVC').fill('123');
  await form.getByLabel('Name on card').fill('Ada Lovelace');
  await form.getByLabel('Address').fill('1 Analytical Way');
  await form.getByLabel('City').fill('London');
  await form.getByLabel('Postal code').fill('N1 9GU');
}

/**
 * Signs a new, verified account in and opens a checkout for `planCode` through the accounts API, as
 * the pricing page does, leaving the browser on the test-mode checkout page.
 */
export async function startCheckout(
  page: Page,
  request: APIRequestContext,
  planCode: string,
): Promise<Account> {
  const account = await createAccount(request, { verified: true });
  await openPage(page, '/');
  await signInThroughApi(page, account);
  const { url } = await page.evaluate(
    (code) =>
      window.appStores?.api<{ url: string }>('/api/portal/billing/checkout', {
        method: 'POST',
        body: { planCode: code },
      }) ?? Promise.reject(new Error('no stores')),
    planCode,
  );
  expect(url).toMatch(/^\/billing\/checkout\/cs_test_/);
  await openPage(page, url);
  return account;
}

/** The first option of each question of the sign-up questionnaire, in order. */
export const FIRST_OPTIONS = [
  'Investment Analysis',
  'Live Stock Data',
  'Affordability',
  'Developer',
  'Search Engine',
] as const;

/** Answers the five questions with their first options and submits them. */
export async function answerQuestionnaire(scope: Locator): Promise<void> {
  for (const option of FIRST_OPTIONS) await scope.getByRole('button', { name: option, exact: true }).click();
  await scope.getByRole('button', { name: 'Submit' }).click();
}
