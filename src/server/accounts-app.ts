import { Hono } from 'hono';
import { checkDatabase, healthRoutes } from './health.ts';
import { checkIdentityProvider } from './identity.ts';

/** The accounts API served by the site under /api. */
export const accountsApp = new Hono()
  .route('/', healthRoutes({ database: () => checkDatabase(), identity: () => checkIdentityProvider() }))
  .all('*', (c) => c.json({ error: `No API route for ${c.req.method} ${c.req.path}` }, 404));
