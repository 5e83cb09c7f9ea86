import type { MiddlewareHandler } from 'hono';
import { getDatabase, type Db } from '../db/client.ts';

/** Who is calling: a signed-in user (from a valid access token), or a visitor on the public token or none. */
export type Caller =
  | { kind: 'user'; userId: string; role: string; plan: string; sessionId: string }
  | { kind: 'public' }
  | { kind: 'anonymous' };

/** The accounts API's per-request variables, shared by every route module. */
export interface AccountsEnv {
  Variables: {
    db: Db;
    caller: Caller;
  };
}

/**
 * Puts the process-wide database on the request. Opening it can fail while the database is away;
 * the API's error handler turns that into 503 with Retry-After, and the next request tries again.
 */
export function database(): MiddlewareHandler<AccountsEnv> {
  return async (c, next) => {
    c.set('db', (await getDatabase()).db);
    await next();
  };
}
