import { Hono } from 'hono';
import { checkDatabase, healthRoutes } from '../health.ts';

/** The market data API (FMP-compatible /stable/*), served on its own port. */
export const dataApiApp = new Hono()
  .route('/', healthRoutes({ database: () => checkDatabase() }))
  .notFound((c) => c.json({ 'Error Message': `Unknown endpoint ${c.req.path}` }, 404));
