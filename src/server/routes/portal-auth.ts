import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  AGREEMENT_MESSAGE,
  CREATE_USER_FAILED_MESSAGE,
  OTHER_CREDENTIAL_MESSAGE,
  SIGN_IN_FAILED_MESSAGE,
  USER_EXISTS_MESSAGE,
} from '../../lib/messages.ts';
import { emailSchema, normalizeEmail, passwordSchema, utmShape } from '../../lib/validation.ts';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { checkPassword, verifyIdToken, type IdTokenFailureCode } from '../auth/identity.ts';
import { foreignBearer, SESSION_EXPIRED_MESSAGE, SIGN_IN_REQUIRED_MESSAGE } from '../middleware/caller.ts';
import {
  blockedAnswer,
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
import { bearerToken } from '../app/request.ts';
import { forgetReferral, referralCodeOf } from '../app/referral-cookie.ts';
import { ipKey, rateLimit } from '../middleware/rate-limit.ts';
import { sameSiteOnly } from '../middleware/cors.ts';
import { noStore } from '../middleware/security-headers.ts';
import { jsonBody, queryParams, type JsonInput } from '../middleware/validate.ts';
import {
  provisionAccount,
  refreshEmailVerified,
  syncEmailVerified,
  type ProvenIdentity,
  type Provisioned,
} from '../services/accounts.ts';
import { signupAnswersSchema, submitSurvey } from '../services/surveys.ts';
import { DuplicateUserError, findUserByFirebaseUid, findUserById } from '../services/users.ts';
import { isSessionActive } from '../auth/sessions.ts';
import { userData } from '../auth/user-data.ts';

export const SIGN_UP_UNVERIFIED_MESSAGE = 'We could not confirm this sign-up. Please try again.';
export const SIGN_UP_MISMATCH_MESSAGE = 'This sign-up does not match the signed-in account.';
export const ID_TOKEN_REFUSED_MESSAGE = 'Your sign-in could not be verified. Please sign in again.';
export const NO_EMAIL_MESSAGE = 'Your sign-in account has no email address.';

/**
 * The header the web apps send with refresh-token calls (`X-App: apps`). It is accepted, not
 * required: the answer is the same for every client, and the refresh token is honoured from the
 * query (`refreshToken`), this `X-Refresh-Token` header or the refresh cookie, in that order.
 */
export const APP_MARKER_HEADER = 'X-App';
export const REFRESH_TOKEN_HEADER = 'X-Refresh-Token';

/** Firebase ID tokens are about 1 kB; anything much longer is not one. */
const ID_TOKEN_LIMIT = 8192;
const idTokenSchema = z.string().min(1).max(ID_TOKEN_LIMIT);
const noQuery = z.strictObject({});

const cloudLoginSchema = z.strictObject({
  email: emailSchema,
  password: z.string().min(1).max(4096),
});

const registerSchema = z.strictObject({
  email: emailSchema,
  /** Proves the sign-up when no ID token is sent; checked with the provider, never stored. */
  password: passwordSchema.optional(),
  idToken: idTokenSchema.optional(),
  firebaseIdToken: idTokenSchema.optional(),
  agreement: z.boolean().optional(),
  survey: signupAnswersSchema.optional(),
  campaign: z.strictObject({ ...utmShape, email: z.string().max(254).optional() }).optional(),
});

type RegisterBody = z.output<typeof registerSchema>;

function idTokenRefusal(c: Context, code: IdTokenFailureCode, unavailableMessage: string): Response {
  switch (code) {
    case 'user-disabled':
      return blockedAnswer(c);
    case 'unavailable':
      return providerUnavailable(c, unavailableMessage);
    case 'invalid-token':
    case 'expired-token':
    case 'revoked-token':
      return apiError(c, 401, ID_TOKEN_REFUSED_MESSAGE);
  }
}

/** Proves who is registering: a Firebase ID token when one is sent, else the email and password. */
async function proveSignUp(
  c: Context<AccountsEnv>,
  body: RegisterBody,
): Promise<{ ok: true; identity: ProvenIdentity } | { ok: false; response: Response }> {
  const idToken = body.idToken ?? body.firebaseIdToken ?? foreignBearer(c);
  if (idToken !== undefined) {
    const verified = await verifyIdToken(idToken);
    if (!verified.ok) {
      return { ok: false, response: idTokenRefusal(c, verified.code, CREATE_USER_FAILED_MESSAGE) };
    }
    if (verified.email === null || normalizeEmail(verified.email) !== body.email) {
      return { ok: false, response: apiError(c, 403, SIGN_UP_MISMATCH_MESSAGE, { field: 'email' }) };
    }
    const identity = { uid: verified.uid, email: body.email, emailVerified: verified.emailVerified };
    return { ok: true, identity };
  }
  if (body.password === undefined)
    return { ok: false, response: apiError(c, 401, SIGN_UP_UNVERIFIED_MESSAGE) };
  const checked = await checkPassword(body.email, body.password);
  if (!checked.ok) {
    const response =
      checked.code === 'invalid-credentials'
        ? apiError(c, 401, SIGN_UP_UNVERIFIED_MESSAGE)
        : passwordRefusal(c, checked.code);
    return { ok: false, response };
  }
  return {
    ok: true,
    identity: { uid: checked.uid, email: body.email, emailVerified: checked.emailVerified },
  };
}

/**
 * The portal's sign-in and registration calls of SPEC §7, mounted at /api/portal. Every answer
 * carries tokens or account data, so none may be cached.
 */
export const portalAuthRoutes = new Hono<AccountsEnv>()
  .use(noStore())
  .post(
    '/auth/cloud-login',
    passwordIpLimit(),
    jsonBody(cloudLoginSchema),
    passwordLoginLimit<JsonInput<typeof cloudLoginSchema>>((c) => c.req.valid('json').email),
    async (c) => {
      const { email, password } = c.req.valid('json');
      const checked = await checkPassword(email, password);
      if (!checked.ok) return passwordRefusal(c, checked.code);
      const found = await findUserByFirebaseUid(c.var.db, checked.uid);
      if (!found) return passwordRefusal(c, 'invalid-credentials');
      if (found.blocked) return blockedAnswer(c);
      const user = await syncEmailVerified(c.var.db, found, checked.emailVerified);
      return c.json(await userData(c.var.db, user));
    },
  )
  .post(
    '/user/register-user',
    rateLimit({ name: 'register-ip', limit: 30, windowMs: 60_000, key: ipKey }),
    jsonBody(registerSchema),
    passwordLoginLimit<JsonInput<typeof registerSchema>>((c) => {
      const body = c.req.valid('json');
      const proofByPassword = body.idToken === undefined && body.firebaseIdToken === undefined;
      return proofByPassword && body.password !== undefined ? body.email : undefined;
    }),
    async (c) => {
      const body = c.req.valid('json');
      if (body.agreement === false) return apiError(c, 400, AGREEMENT_MESSAGE, { field: 'agreement' });
      const proof = await proveSignUp(c, body);
      if (!proof.ok) return proof.response;
      const { db } = c.var;
      let provisioned: Provisioned;
      try {
        provisioned = await provisionAccount(db, proof.identity, {
          ...body,
          referralCode: referralCodeOf(c),
        });
      } catch (error) {
        if (error instanceof DuplicateUserError)
          return apiError(c, 409, USER_EXISTS_MESSAGE, { field: 'email' });
        throw error;
      }
      const { user, created } = provisioned;
      if (created) forgetReferral(c);
      if (user.blocked) return blockedAnswer(c);
      // A social sign-up registers after its questionnaire, for an account validate-user created.
      if (!created && body.survey) {
        await submitSurvey(db, { email: user.email, type: 'signup', answers: body.survey });
      }
      await syncEmailVerified(db, user, proof.identity.emailVerified);
      return c.json({ success: true, userid: user.id, username: user.username });
    },
  )
  .get('/auth/log-out', sameSiteOnly(), queryParams(noQuery), async (c) => {
    await endSignIn(c);
    return c.json({ success: true });
  })
  .get(
    '/auth/refresh-token',
    rateLimit({ name: 'refresh-ip', limit: 120, windowMs: 60_000, key: ipKey }),
    queryParams(z.strictObject({ refreshToken: z.string().max(256).optional() })),
    async (c) => {
      const token =
        c.req.valid('query').refreshToken ?? c.req.header(REFRESH_TOKEN_HEADER) ?? refreshTokenCookie(c);
      const refreshed = await refreshSession(c, token);
      if (!refreshed.ok) return refreshed.response;
      const data = await userData(c.var.db, refreshed.user);
      return c.json({ refreshToken: refreshed.refreshToken, accessToken: refreshed.accessToken, ...data });
    },
  )
  .get('/auth/access-token', queryParams(noQuery), async (c) => {
    const { db, caller: who } = c.var;
    const refused = (): Response => c.json({ valid: false, error: SESSION_EXPIRED_MESSAGE }, 401);
    if (who.kind === 'public' || (who.kind === 'anonymous' && bearerToken(c) === undefined)) {
      return c.json({ valid: false, error: SIGN_IN_REQUIRED_MESSAGE }, 401);
    }
    if (who.kind !== 'user') return refused();
    if (!(await isSessionActive(db, who.sessionId))) return refused();
    const found = await findUserById(db, who.userId);
    if (!found || found.blocked) return refused();
    const user = await refreshEmailVerified(db, found);
    return c.json({ valid: true, ...(await userData(db, user)) });
  })
  .get(
    '/auth/validate-user',
    rateLimit({ name: 'validate-user-ip', limit: 60, windowMs: 60_000, key: ipKey }),
    queryParams(z.strictObject({ accessToken: idTokenSchema.optional() })),
    async (c) => {
      const idToken = c.req.valid('query').accessToken ?? foreignBearer(c);
      if (idToken === undefined) return apiError(c, 401, ID_TOKEN_REFUSED_MESSAGE);
      const verified = await verifyIdToken(idToken);
      if (!verified.ok) return idTokenRefusal(c, verified.code, SIGN_IN_FAILED_MESSAGE);
      if (verified.email === null) return apiError(c, 400, NO_EMAIL_MESSAGE);
      const { db } = c.var;
      let provisioned: Provisioned;
      try {
        provisioned = await provisionAccount(
          db,
          {
            uid: verified.uid,
            email: normalizeEmail(verified.email),
            emailVerified: verified.emailVerified,
          },
          { referralCode: referralCodeOf(c) },
        );
      } catch (error) {
        if (error instanceof DuplicateUserError) return apiError(c, 409, OTHER_CREDENTIAL_MESSAGE);
        throw error;
      }
      if (provisioned.created) forgetReferral(c);
      if (provisioned.user.blocked) return blockedAnswer(c);
      const user = await syncEmailVerified(db, provisioned.user, verified.emailVerified);
      if (verified.impersonation !== undefined) {
        // An administrator's switch into this account: it stays switched, short and audited here too.
        const switched = await startImpersonatedSession(c, user, verified.impersonation.by, {
          began: verified.impersonation.began,
          via: 'validate-user',
        });
        if (!switched) return apiError(c, 401, ID_TOKEN_REFUSED_MESSAGE);
        return c.json({
          accessToken: switched.accessToken,
          ...(await userData(db, user)),
          isNewUser: false,
          impersonated: true,
        });
      }
      const signedIn = await signInSession(c, user);
      const data = await userData(db, user);
      return c.json({
        refreshToken: signedIn.refreshToken,
        accessToken: signedIn.accessToken,
        ...data,
        isNewUser: provisioned.created,
      });
    },
  );
