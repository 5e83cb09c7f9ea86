import type { Page } from '@playwright/test';

export interface TestUser {
  username: string;
  userRole?: 'user' | 'analyst' | 'admin';
  legacy?: boolean;
  apiKey?: string;
}

/**
 * Puts a session into the browser's stored session before the page loads, as a finished sign-in
 * would, so that the shell can be tested without the sign-in flow.
 */
export async function signInAs(page: Page, user: TestUser): Promise<void> {
  const snapshot = {
    accessToken: `test-token-${user.username || 'anonymous'}`,
    user: {
      userid: `id-${user.username}`,
      username: user.username,
      email: `${user.username || 'anonymous'}@example.com`,
      userRole: user.userRole ?? 'user',
      legacy: user.legacy ?? false,
      apiKey: user.apiKey ?? 'k'.repeat(32),
      planCode: 'free',
      isPremium: false,
    },
  };
  await page.addInitScript((value) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('session', value);
      sessionStorage.setItem('seeded', '1');
    }
  }, JSON.stringify(snapshot));
}

/**
 * Opens a page and waits until every island on it is interactive (Astro drops an island's `ssr`
 * attribute once it has hydrated), so a click is never lost on markup that is not live yet.
 */
export async function openPage(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
}
