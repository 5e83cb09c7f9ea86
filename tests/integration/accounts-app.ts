import { Hono, type Schema } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import type { AccountsEnv } from '../../src/server/app/context.ts';
import type { Db } from '../../src/server/db/client.ts';
import { handleApiError } from '../../src/server/app/errors.ts';
import { startSession } from '../../src/server/auth/sessions.ts';
import { accessKey, signAccessToken } from '../../src/server/auth/tokens.ts';
import { caller } from '../../src/server/middleware/caller.ts';
import { billingWebhookRoutes, portalBillingRoutes } from '../../src/server/routes/billing.ts';
import { testCheckoutRoutes } from '../../src/server/routes/test-checkout.ts';

/**
 * A route module of the accounts API and the path it is served under. Route modules are chains of
 * route calls, which Hono types as its base class rather than as `Hono`.
 */
export type Mount = readonly [path: string, routes: HonoBase<AccountsEnv, Schema, string, string>];

/**
 * The accounts API cut down to the routes under test, on a database of the test's choosing: the
 * served app reads the process-wide database and adds the site's protection layer, which would hide
 * the database target and turn test requests away. The database is read on every request, so the
 * app can be built before the database is opened.
 */
export function accountsAppOn(db: () => Db, mounts: readonly Mount[]): Hono<AccountsEnv> {
  const app = new Hono<AccountsEnv>();
  app.use(async (c, next) => {
    c.set('db', db());
    await next();
  });
  app.use(caller());
  for (const [path, routes] of mounts) app.route(path, routes);
  app.onError(handleApiError);
  return app;
}

/**
 * The refresh token an answer set as a cookie, or undefined when it set none or cleared it: the
 * browser receives the token only in the HttpOnly cookie, so a session can be carried on only
 * with the token read from there.
 */
export function refreshCookieOf(res: Response): string | undefined {
  for (const header of res.headers.getSetCookie()) {
    const match = /^refreshToken=([^;]*)/.exec(header);
    if (match?.[1] !== undefined && match[1] !== '') return match[1];
  }
  return undefined;
}

/** A JSON POST as the accounts API's clients send it, with any extra headers. */
export function post(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...headers },
  };
}

/** A request carrying an access token (or any bearer credential). */
export function bearer(token: string): RequestInit {
  return { headers: { Authorization: `Bearer ${token}` } };
}

/** The billing routes on a database, with the test-mode provider's webhook deliveries. */
export interface BillingApp {
  app: Hono<AccountsEnv>;
  /** Delivers a provider event to the webhook through the same app, as the provider does. */
  deliver: (init: RequestInit) => Promise<Response>;
}

/**
 * The accounts API's billing routes (portal, webhook, the test-mode checkout) on `db`; the test-mode
 * provider reaches the webhook through the same app, the path a real provider's delivery takes.
 */
export function billingAppOn(db: () => Db): BillingApp {
  const deliver = (init: RequestInit): Promise<Response> =>
    Promise.resolve(app.request('/billing/webhook', init));
  const app = accountsAppOn(db, [
    ['/portal', portalBillingRoutes(deliver)],
    ['/billing', billingWebhookRoutes],
    ['/billing', testCheckoutRoutes(deliver)],
  ]);
  return { app, deliver };
}

/** A signed-in session's access token for the account, as a sign-in would hand it out. */
export async function accessTokenFor(db: Db, userId: string, plan: string): Promise<string> {
  const session = await startSession(db, userId);
  return signAccessToken(accessKey(), { userId, role: 'user', plan, sessionId: session.sessionId });
}
