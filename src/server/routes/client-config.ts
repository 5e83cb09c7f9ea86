import { Hono } from 'hono';
import type { AccountsEnv } from '../app/context.ts';
import { authEmulatorUrl, browserDataApiUrl, readConfig } from '../app/config.ts';
import { requestOrigin } from '../app/request.ts';

/** What the browser must learn from the running server rather than from the build. */
export interface ClientConfig {
  /** The Auth emulator the browser SDK must talk to, or null for the real identity provider. */
  authEmulatorUrl: string | null;
  /** Where the browser calls the data API (the API viewer), which the build cannot know either. */
  dataApiUrl: string;
}

/**
 * Run-time settings for the browser (GET /api/client-config). The same build is served against
 * different Auth emulators and data API ports (the development ones, the end-to-end ones), so
 * their addresses cannot be baked in at build time. Never cached: the answer follows the running server.
 */
export const clientConfigRoutes = new Hono<AccountsEnv>().get('/client-config', (c) => {
  const body: ClientConfig = {
    authEmulatorUrl: authEmulatorUrl(readConfig()),
    dataApiUrl: browserDataApiUrl(new URL(requestOrigin(c))),
  };
  c.header('Cache-Control', 'no-store');
  return c.json(body);
});
