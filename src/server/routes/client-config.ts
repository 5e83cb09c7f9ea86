import { Hono } from 'hono';
import type { AccountsEnv } from '../app/context.ts';
import { authEmulatorUrl, readConfig } from '../app/config.ts';

/** What the browser must learn from the running server rather than from the build. */
export interface ClientConfig {
  /** The Auth emulator the browser SDK must talk to, or null for the real identity provider. */
  authEmulatorUrl: string | null;
}

/**
 * Run-time settings for the browser (GET /api/client-config). The same build is served against
 * different Auth emulators (the development one, the end-to-end one), so the emulator address
 * cannot be baked in at build time. Never cached: the answer follows the running server.
 */
export const clientConfigRoutes = new Hono<AccountsEnv>().get('/client-config', (c) => {
  const body: ClientConfig = { authEmulatorUrl: authEmulatorUrl(readConfig()) };
  c.header('Cache-Control', 'no-store');
  return c.json(body);
});
