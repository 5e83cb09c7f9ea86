import type { Context, MiddlewareHandler } from 'hono';
import { isStaffRole } from '../../lib/admin.ts';
import type { AccountsEnv, Caller } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { bearerToken } from '../app/request.ts';
import { sessionOwner } from '../auth/sessions.ts';
import { accessKey, verifyAccessToken } from '../auth/tokens.ts';

// The request's caller, decided once, and the guards routes put in front of themselves. Signing in,
// refreshing and signing out live in `src/server/auth/sign-in.ts`.

export const SIGN_IN_REQUIRED_MESSAGE = 'Please sign in to continue.';
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';
export const ADMIN_ONLY_MESSAGE = 'Only administrators can do this.';
export const STAFF_ONLY_MESSAGE = 'Only administrators and analysts can see this.';

const ANONYMOUS: Caller = { kind: 'anonymous' };

async function identify(c: Context<AccountsEnv>, token: string): Promise<Caller> {
  const claims = await verifyAccessToken(accessKey(), token);
  if (claims === null) return ANONYMOUS;
  if (claims.scope === 'public') return { kind: 'public' };
  const owner = await sessionOwner(c.var.db, claims.sessionId);
  if (owner?.userId !== claims.userId) return ANONYMOUS;
  return {
    kind: 'user',
    userId: owner.userId,
    role: owner.role,
    plan: owner.planCode,
    sessionId: claims.sessionId,
  };
}

/**
 * The one place that decides who is calling: a signed-in user (valid access token, session still
 * active, account not blocked), a visitor on the public token, or anonymous for anything else.
 * Expects the database on the request (the `database()` middleware runs first).
 */
export function caller(): MiddlewareHandler<AccountsEnv> {
  return async (c, next) => {
    const token = bearerToken(c);
    c.set('caller', token === undefined ? ANONYMOUS : await identify(c, token));
    await next();
  };
}

/** The refusal for a request without a usable user token, or null when a user is calling. */
function userRefusal(c: Context<AccountsEnv>): Response | null {
  const { caller: who } = c.var;
  if (who.kind === 'user') return null;
  if (who.kind === 'anonymous' && bearerToken(c) !== undefined)
    return apiError(c, 403, SESSION_EXPIRED_MESSAGE);
  return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
}

/**
 * Lets only signed-in users through. A request that presented a token we no longer honour gets 403,
 * which tells the browser to refresh once and retry (SPEC §4); without a user token at all, 401.
 */
export function requireUser(): MiddlewareHandler<AccountsEnv> {
  return async (c, next) => userRefusal(c) ?? next();
}

/** Lets only administrators through: like requireUser without a user, and 403 for everyone else. */
export function requireAdmin(): MiddlewareHandler<AccountsEnv> {
  return async (c, next) => {
    const refusal = userRefusal(c);
    if (refusal !== null) return refusal;
    if (c.var.caller.kind !== 'user' || c.var.caller.role !== 'admin') {
      return apiError(c, 403, ADMIN_ONLY_MESSAGE);
    }
    return next();
  };
}

/**
 * Lets staff through (administrators, and analysts: a role containing 'analyst', SPEC §6), who read
 * the admin console; like requireUser without a user, and 403 for everyone else. Writes stay behind
 * requireAdmin.
 */
export function requireStaff(): MiddlewareHandler<AccountsEnv> {
  return async (c, next) => {
    const refusal = userRefusal(c);
    if (refusal !== null) return refusal;
    if (c.var.caller.kind !== 'user' || !isStaffRole(c.var.caller.role)) {
      return apiError(c, 403, STAFF_ONLY_MESSAGE);
    }
    return next();
  };
}

/** A bearer credential that is not one of our own tokens, which can only be a Firebase ID token. */
export function foreignBearer(c: Context<AccountsEnv>): string | undefined {
  return c.var.caller.kind === 'anonymous' ? bearerToken(c) : undefined;
}
