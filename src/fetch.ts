import { Hono } from 'hono';
import { astro } from 'astro/hono';
import { accountsApp } from './server/accounts-app.ts';

/** The site's request pipeline: the accounts API under /api, everything else rendered by Astro. */
const app = new Hono();
app.route('/api', accountsApp);
app.use(astro());

export default app;
