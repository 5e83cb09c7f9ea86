import { Hono } from 'hono';
import { z } from 'zod';
import { FILL_ALL_FIELDS_MESSAGE } from '../../lib/messages.ts';
import { MAX_PASSWORD_LENGTH, usernameOrEmailSchema } from '../../lib/validation.ts';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { checkPassword, createCustomToken } from '../auth/identity.ts';
import {
  blockedAnswer,
  endImpersonatedSession,
  endSignIn,
  passwordIpLimit,
  passwordLoginLimit,
  passwordRefusal,
  providerUnavailable,
  refreshSession,
  refreshTokenCookie,
  signInSession,
  startImpersonatedSession,
} from '../auth/sign-in.ts';
import { SIGN_IN_REQUIRED_MESSAGE, requireAdmin } from '../middleware/caller.ts';
import { bearerToken } from '../app/request.ts';
import { accessKey } from '../auth/tokens.ts';
import { ipKey, rateLimit } from '../middleware/rate-limit.ts';
import { sameSiteOnly } from '../middleware/cors.ts';
import { noStore } from '../middleware/security-headers.ts';
import { jsonBody, queryParams, type JsonInput } from '../middleware/validate.ts';
import { DuplicateUserError, findUserById, findUserByLogin, markEmailVerified } from '../services/users.ts';
import { provisionAccount, refreshEmailVerified } from '../services/accounts.ts';
import { forgetReferral, referralCodeOf } from '../app/referral-cookie.ts';
import { signPublicToken } from '../auth/tokens.ts';
import { userData } from '../auth/user-data.ts';

export const NO_SUCH_USER_MESSAGE = 'No such user.';
export const IMPERSONATE_ADMIN_MESSAGE = 'Administrators cannot be impersonated.';
export const IMPERSONATE_BLOCKED_MESSAGE = 'This account is blocked.';
export const NOT_SWITCHED_MESSAGE =
  'This session is not an administrator viewing another account, so there is nothing to return from.';

const noQuery = z.strictObject({});

const signInSchema = z.strictObject({
  login: usernameOrEmailSchema,
  password: z
    .string({ error: FILL_ALL_FIELDS_MESSAGE })
    .min(1, { error: FILL_ALL_FIELDS_MESSAGE })
    .max(MAX_PASSWORD_LENGTH),
});

const codeSignInSchema = z.strictObject({
  switchingUserId: z.uuid({ error: 'switchingUserId must be a user id.' }),
});

/**
 * The app server's session calls of SPEC §7, mounted at /api/app: sign-in, an admin's switch into
 * another user's account and the return from it, logout, refresh from the cookie, and the public
 * token for signed-out visitors.
 */
export const appServerRoutes = new Hono<AccountsEnv>()
  .use(noStore())
  .post(
    '/auth/signin',
    passwordIpLimit(),
    jsonBody(signInSchema),
    passwordLoginLimit<JsonInput<typeof signInSchema>>((c) => c.req.valid('json').login),
    async (c) => {
      const { login, password } = c.req.valid('json');
      const { db } = c.var;
      const found = await findUserByLogin(db, login);
      // An address without an account here is still put to the provider: it takes as long as a
      // wrong password, and a provider account whose registration call was lost gets completed.
      const email = found?.email ?? (login.includes('@') ? login : undefined);
      if (email === undefined) return passwordRefusal(c, 'invalid-credentials');
      const checked = await checkPassword(email, password);
      if (!checked.ok) return passwordRefusal(c, checked.code);
      let account = found;
      if (account === null) {
        try {
          const provisioned = await provisionAccount(
            db,
            { uid: checked.uid, email, emailVerified: checked.emailVerified },
            { referralCode: referralCodeOf(c) },
          );
          if (provisioned.created) forgetReferral(c);
          account = provisioned.user;
        } catch (error) {
          if (error instanceof DuplicateUserError) return passwordRefusal(c, 'invalid-credentials');
          throw error;
        }
      }
      if (account.firebaseUid !== checked.uid) return passwordRefusal(c, 'invalid-credentials');
      if (account.blocked) return blockedAnswer(c);
      const user =
        checked.emailVerified && !account.emailVerified
          ? ((await markEmailVerified(db, account.id)) ?? account)
          : account;
      const firebase = await createCustomToken(user.firebaseUid);
      if (!firebase.ok) return providerUnavailable(c);
      const signedIn = await signInSession(c, user);
      const data = await userData(db, user);
      return c.json({ accessToken: signedIn.accessToken, firebaseAccessToken: firebase.token, ...data });
    },
  )
  .post('/auth/code-signin', requireAdmin(), jsonBody(codeSignInSchema), async (c) => {
    const { db, caller: admin } = c.var;
    if (admin.kind !== 'user') throw new Error('requireAdmin let a non-user through');
    const target = await findUserById(db, c.req.valid('json').switchingUserId);
    if (!target) return apiError(c, 404, NO_SUCH_USER_MESSAGE, { field: 'switchingUserId' });
    if (target.role === 'admin') return apiError(c, 403, IMPERSONATE_ADMIN_MESSAGE);
    if (target.blocked) return apiError(c, 403, IMPERSONATE_BLOCKED_MESSAGE);
    const firebase = await createCustomToken(target.firebaseUid, { impersonatedBy: admin.userId });
    if (!firebase.ok) return providerUnavailable(c);
    const switched = await startImpersonatedSession(c, target, admin.userId, { via: 'code-signin' });
    if (!switched) throw new Error('a switch that has just begun has no time left');
    const { accessToken } = switched;
    const data = await userData(db, target);
    return c.json({ accessToken, firebaseAccessToken: firebase.token, ...data });
  })
  .post('/auth/code-signout', queryParams(noQuery), async (c) => {
    // Read from the bearer here rather than through the caller: a switch that has run out is no
    // caller any more, yet closing it (and recording that it ran out) is what this call is for.
    const token = bearerToken(c);
    const ended = token === undefined ? undefined : await endImpersonatedSession(c.var.db, token);
    if (ended === undefined || ended.kind === 'unknown-token')
      return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
    if (ended.kind === 'not-switched') return apiError(c, 400, NOT_SWITCHED_MESSAGE);
    return c.json({ success: true });
  })
  .get('/auth/logout', sameSiteOnly(), queryParams(noQuery), async (c) => {
    await endSignIn(c);
    return c.json({ success: true });
  })
  .get(
    '/auth/refresh',
    rateLimit({ name: 'refresh-ip', limit: 120, windowMs: 60_000, key: ipKey }),
    queryParams(noQuery),
    async (c) => {
      const refreshed = await refreshSession(c, refreshTokenCookie(c));
      if (!refreshed.ok) return refreshed.response;
      const user = await refreshEmailVerified(c.var.db, refreshed.user);
      return c.json({ accessToken: refreshed.accessToken, ...(await userData(c.var.db, user)) });
    },
  )
  .get(
    '/auth/public-token',
    rateLimit({ name: 'public-token-ip', limit: 30, windowMs: 60_000, key: ipKey }),
    queryParams(noQuery),
    async (c) => c.json({ accessToken: await signPublicToken(accessKey()) }),
  );
