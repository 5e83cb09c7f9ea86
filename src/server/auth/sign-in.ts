import type { Context, Input, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { BlankInput } from 'hono/types';
import { BLOCKED_ACCOUNT_MESSAGE, SIGN_IN_FAILED_MESSAGE } from '../../lib/messages.ts';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { clientIp, isHttpsRequest } from '../app/request.ts';
import type { Db } from '../db/client.ts';
import type { User } from '../db/schema.ts';
import { SESSION_EXPIRED_MESSAGE } from '../middleware/caller.ts';
import { ipKey, rateLimit } from '../middleware/rate-limit.ts';
import { blockIfDisabledAtProvider } from '../services/accounts.ts';
import { audit } from '../services/audit-log.ts';
import { findUserById } from '../services/users.ts';
import type { PasswordFailureCode } from './identity.ts';
import {
  findSession,
  forgetSessionChecks,
  revokeMarkedSessions,
  revokeSession,
  revokeSessionByRefreshToken,
  rotateSession,
  startSession,
} from './sessions.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  REFRESH_COOKIE_NAME,
  accessKey,
  clearRefreshCookie,
  refreshCookie,
  signAccessToken,
  verifyAccessToken,
} from './tokens.ts';

// Credential handling the sign-in, refresh and logout routes share: the refresh cookie, the answers
// to refused passwords and blocked accounts, the password-guessing limits, and starting, rotating and
// ending sessions.

/** Attaches the refresh cookie; built by hand because Hono's setCookie refuses the spec's Max-Age. */
export function setRefreshCookie(c: Context, refreshToken: string): void {
  c.header('Set-Cookie', refreshCookie(refreshToken, { secure: isHttpsRequest(c) }), { append: true });
}

/** Tells the browser to drop the refresh cookie. */
export function expireRefreshCookie(c: Context): void {
  c.header('Set-Cookie', clearRefreshCookie({ secure: isHttpsRequest(c) }), { append: true });
}

/** The refresh token of the request's cookie, if any. */
export function refreshTokenCookie(c: Context): string | undefined {
  const value = getCookie(c, REFRESH_COOKIE_NAME);
  return value === undefined || value === '' ? undefined : value;
}

export const INVALID_LOGIN_MESSAGE = 'Invalid email/username or password.';
export const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many sign-in attempts. Please try again later.';

const PROVIDER_RETRY_AFTER_SECONDS = 5;
const PROVIDER_LOCKOUT_RETRY_AFTER_SECONDS = 60;
const USER_AGENT_HEADER = 'user-agent';

/** SPEC §5: a blocked account is refused with this answer wherever it tries to sign in. */
export function blockedAnswer(c: Context): Response {
  return c.json({ error: BLOCKED_ACCOUNT_MESSAGE, blockedAccount: true }, 403);
}

/**
 * The answer to a refused email and password: one message for unknown accounts and wrong passwords,
 * so nobody can find out which addresses or usernames have accounts.
 */
export function passwordRefusal(c: Context, code: PasswordFailureCode): Response {
  switch (code) {
    case 'invalid-credentials':
      return apiError(c, 401, INVALID_LOGIN_MESSAGE);
    case 'user-disabled':
      return blockedAnswer(c);
    case 'too-many-attempts':
      return apiError(
        c,
        429,
        TOO_MANY_ATTEMPTS_MESSAGE,
        {},
        {
          'Retry-After': String(PROVIDER_LOCKOUT_RETRY_AFTER_SECONDS),
        },
      );
    case 'unavailable':
      return providerUnavailable(c);
  }
}

/** The identity provider could not be asked: a retryable 503 with the sign-in screen's fallback text. */
export function providerUnavailable(c: Context, message: string = SIGN_IN_FAILED_MESSAGE): Response {
  return apiError(c, 503, message, {}, { 'Retry-After': String(PROVIDER_RETRY_AFTER_SECONDS) });
}

/** Per client address, over every route that checks a password, so switching routes gains nothing. */
export function passwordIpLimit<I extends Input = BlankInput>(): MiddlewareHandler<AccountsEnv, string, I> {
  return rateLimit<I, AccountsEnv>({ name: 'password-ip', limit: 50, windowMs: 60_000, key: ipKey });
}

/**
 * Per client address and account name: a few guesses at one account per minute, checked after the
 * body is parsed (`login` reads it), so each account costs a guesser its own budget. A request for
 * which `login` answers undefined checks no password and is not counted.
 */
export function passwordLoginLimit<I extends Input>(
  login: (c: Context<AccountsEnv, string, I>) => string | undefined,
): MiddlewareHandler<AccountsEnv, string, I> {
  return rateLimit<I, AccountsEnv>({
    name: 'password-login',
    limit: 10,
    windowMs: 60_000,
    key: (c) => {
      const name = login(c);
      return name === undefined ? undefined : `${ipKey(c)}|login:${name.toLowerCase()}`;
    },
  });
}

/** A fresh sign-in's credentials: the refresh token (also set as the cookie) and an access token. */
export interface SignedIn {
  sessionId: string;
  refreshToken: string;
  accessToken: string;
}

/** Signs an access token for a session of this account, with its current role and plan. */
export function signSessionToken(
  user: Pick<User, 'id' | 'role' | 'planCode'>,
  sessionId: string,
): Promise<string> {
  return signAccessToken(accessKey(), { userId: user.id, role: user.role, plan: user.planCode, sessionId });
}

/** Starts a session for the account, sets the refresh cookie and signs the first access token. */
export async function signInSession(c: Context<AccountsEnv>, user: User): Promise<SignedIn> {
  const session = await startSession(c.var.db, user.id, {
    userAgent: c.req.header(USER_AGENT_HEADER),
    ip: clientIp(c),
  });
  setRefreshCookie(c, session.refreshToken);
  return {
    sessionId: session.sessionId,
    refreshToken: session.refreshToken,
    accessToken: await signSessionToken(user, session.sessionId),
  };
}

/** A successful refresh: the account and the next credentials, the cookie already set. */
export type Refreshed = { ok: true; user: User } & SignedIn;

/**
 * Rotates a refresh token for the refresh routes. Every refusal clears the cookie: the browser then
 * falls back to the public token (SPEC §4). A blocked account's sign-in ends here too.
 */
export async function refreshSession(
  c: Context<AccountsEnv>,
  refreshToken: string | undefined,
): Promise<Refreshed | { ok: false; response: Response }> {
  const { db } = c.var;
  const expired = (): { ok: false; response: Response } => {
    expireRefreshCookie(c);
    return { ok: false, response: apiError(c, 401, SESSION_EXPIRED_MESSAGE) };
  };
  if (refreshToken === undefined) return expired();
  const rotated = await rotateSession(db, refreshToken);
  if (!rotated.ok) return expired();
  const found = await findUserById(db, rotated.userId);
  const user = found ? await blockIfDisabledAtProvider(db, found) : null;
  if (!user || user.blocked) {
    await revokeSession(db, rotated.sessionId);
    expireRefreshCookie(c);
    return { ok: false, response: user ? blockedAnswer(c) : apiError(c, 401, SESSION_EXPIRED_MESSAGE) };
  }
  setRefreshCookie(c, rotated.refreshToken);
  return {
    ok: true,
    user,
    sessionId: rotated.sessionId,
    refreshToken: rotated.refreshToken,
    accessToken: await signSessionToken(user, rotated.sessionId),
  };
}

/**
 * Ends whatever sign-in the request names: the refresh cookie's family and the bearer's session.
 * Never fails for a missing or stale credential, since logging out must always succeed.
 */
export async function endSignIn(c: Context<AccountsEnv>): Promise<void> {
  const { db, caller: who } = c.var;
  const cookie = refreshTokenCookie(c);
  if (cookie !== undefined) await revokeSessionByRefreshToken(db, cookie);
  if (who.kind === 'user') await revokeSession(db, who.sessionId);
  expireRefreshCookie(c);
}

/** Marks an impersonated session in its user-agent field, so it reads as such wherever sessions are listed. */
export const IMPERSONATION_MARK = 'impersonation by ';

/** How long a switch into another account lasts, from the moment it began, whichever call it reaches. */
export const IMPERSONATION_SECONDS = ACCESS_TOKEN_TTL_SECONDS;

/**
 * Starts the session of an administrator switched into an account: no refresh cookie (the session
 * ends with its access token and the administrator's own cookie stays), a lifetime that ends
 * IMPERSONATION_SECONDS after the switch began, and an audit entry in the same transaction. Answers
 * undefined when the switch has already run out.
 */
export async function startImpersonatedSession(
  c: Context<AccountsEnv>,
  target: User,
  adminId: string,
  options: { began?: Date; via: string },
): Promise<{ sessionId: string; accessToken: string } | undefined> {
  const began = options.began ?? new Date();
  const remaining = Math.floor((began.getTime() + IMPERSONATION_SECONDS * 1000 - Date.now()) / 1000);
  if (remaining < 1) return undefined;
  const session = await c.var.db.transaction(async (tx) => {
    const started = await startSession(tx, target.id, {
      userAgent: `${IMPERSONATION_MARK}${adminId}`,
      ip: clientIp(c),
      lifetimeSeconds: remaining,
    });
    await audit(tx, {
      actorUserId: adminId,
      action: 'impersonate',
      targetUserId: target.id,
      details: { sessionId: started.sessionId, via: options.via },
    });
    return started;
  });
  return { sessionId: session.sessionId, accessToken: await signSessionToken(target, session.sessionId) };
}

/**
 * How long after its access token ran out a switch can still be closed with that token: a browser
 * that slept through the end of a switch closes it, and has it recorded, when it wakes.
 */
export const IMPERSONATION_END_GRACE_SECONDS = 24 * 3600;

/** What ending a switch found: the switch it ended, or why there was none to end. */
export type ImpersonationEnd =
  | {
      kind: 'ended';
      adminId: string;
      userId: string;
      sessionId: string;
      /** From the switch to its end (now, or when it ran out). */
      durationSeconds: number;
      /** Whether the switch had already run out when it was closed. */
      ranOut: boolean;
    }
  | { kind: 'already-ended' }
  | { kind: 'not-switched' }
  | { kind: 'unknown-token' };

/**
 * Ends the administrator's switch whose access token this is (code-signout): every session of that
 * administrator's switch into the account stops at once, and the end is audited as
 * 'impersonate_end' with how long the switch lasted and whether it had run out. The token may have
 * run out (within {@link IMPERSONATION_END_GRACE_SECONDS}), since closing a switch that is over is
 * the point; a switch closed before is answered as such and not audited again. The
 * administrator's own sign-in (the refresh cookie's session) is not touched.
 */
export async function endImpersonatedSession(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<ImpersonationEnd> {
  const claims = await verifyAccessToken(accessKey(), token, {
    now,
    expiredForSeconds: IMPERSONATION_END_GRACE_SECONDS,
  });
  if (claims?.scope !== 'user') return { kind: 'unknown-token' };
  const session = await findSession(db, claims.sessionId);
  if (session?.userId !== claims.userId) return { kind: 'unknown-token' };
  if (!session.userAgent.startsWith(IMPERSONATION_MARK)) return { kind: 'not-switched' };
  if (session.revokedAt !== null) return { kind: 'already-ended' };
  const adminId = session.userAgent.slice(IMPERSONATION_MARK.length);
  const ranOut = now.getTime() >= session.expiresAt.getTime();
  const endedAt = Math.min(now.getTime(), session.expiresAt.getTime());
  const durationSeconds = Math.max(0, Math.round((endedAt - session.createdAt.getTime()) / 1000));
  const ended = await db.transaction(async (tx) => {
    const ids = await revokeMarkedSessions(tx, session.userId, session.userAgent, now);
    await audit(tx, {
      actorUserId: adminId,
      action: 'impersonate_end',
      targetUserId: session.userId,
      details: { sessionId: session.id, durationSeconds, ranOut, sessionsEnded: ids.length },
    });
    return ids;
  });
  forgetSessionChecks(db, ended);
  return { kind: 'ended', adminId, userId: session.userId, sessionId: session.id, durationSeconds, ranOut };
}
