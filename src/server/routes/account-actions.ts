import type { Context } from 'hono';
import { Hono } from 'hono';
import type { BlankInput } from 'hono/types';
import { z } from 'zod';
import { MISSING_CODE_MESSAGE } from '../../lib/action-link.ts';
import { PASSWORD_MESSAGE } from '../../lib/messages.ts';
import { passwordSchema } from '../../lib/validation.ts';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import {
  applyEmailVerification,
  checkActionCode,
  confirmPasswordReset,
  type ActionCodeFailureCode,
} from '../auth/identity.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { blockedAnswer, providerUnavailable } from '../auth/sign-in.ts';
import type { Db } from '../db/client.ts';
import type { User } from '../db/schema.ts';
import { ipKey, rateLimit, tooManyRequestsMessage } from '../middleware/rate-limit.ts';
import { noStore } from '../middleware/security-headers.ts';
import { jsonBody } from '../middleware/validate.ts';
import { refreshEmailVerified, syncEmailVerified } from '../services/accounts.ts';
import { findUserByFirebaseUid, findUserByLogin } from '../services/users.ts';

export const INVALID_RESET_LINK_MESSAGE = 'This password reset link is not valid or has already been used.';
export const EXPIRED_RESET_LINK_MESSAGE = 'This password reset link has expired.';
export const RESET_UNAVAILABLE_MESSAGE =
  'We could not reset your password right now. Please try again in a moment.';
export const INVALID_VERIFY_LINK_MESSAGE = 'This verification link is not valid or has already been used.';
export const EXPIRED_VERIFY_LINK_MESSAGE = 'This verification link has expired.';
export const VERIFY_UNAVAILABLE_MESSAGE =
  'We could not verify your address right now. Please try again in a moment.';

/** Codes are about 50 characters; anything far longer is not one. */
const MAX_CODE_LENGTH = 1024;

/** How long to wait after the provider's own limit refused a code. */
const PROVIDER_LIMIT_RETRY_AFTER_SECONDS = 60;

/** The field named in refusals of the code itself, so the page can tell them from a refused password. */
const CODE_FIELD = 'oobCode';

const oobCodeSchema = z
  .string({ error: MISSING_CODE_MESSAGE })
  .trim()
  .min(1, { error: MISSING_CODE_MESSAGE })
  .max(MAX_CODE_LENGTH, { error: MISSING_CODE_MESSAGE });

const codeBody = z.strictObject({ oobCode: oobCodeSchema });
const resetBody = z.strictObject({ oobCode: oobCodeSchema, password: passwordSchema });

/** The words for one kind of link: a password reset or an address verification. */
interface LinkTexts {
  invalid: string;
  expired: string;
  unavailable: string;
}

const RESET_TEXTS: LinkTexts = {
  invalid: INVALID_RESET_LINK_MESSAGE,
  expired: EXPIRED_RESET_LINK_MESSAGE,
  unavailable: RESET_UNAVAILABLE_MESSAGE,
};

const VERIFY_TEXTS: LinkTexts = {
  invalid: INVALID_VERIFY_LINK_MESSAGE,
  expired: EXPIRED_VERIFY_LINK_MESSAGE,
  unavailable: VERIFY_UNAVAILABLE_MESSAGE,
};

/**
 * Per client address over all three calls: a reset takes two and the sign-in after it is counted
 * elsewhere, so this leaves room for mistakes while making guessing codes (which are long and
 * random anyway) pointless.
 */
const actionLimit = rateLimit<BlankInput, AccountsEnv>({
  name: 'account-action-ip',
  limit: 30,
  windowMs: 10 * 60_000,
  key: ipKey,
});

/** The answer to a code the provider refused, in the words of the link it came in. */
function codeRefusal(c: Context, code: ActionCodeFailureCode, texts: LinkTexts): Response {
  switch (code) {
    case 'invalid-code':
      return apiError(c, 400, texts.invalid, { field: CODE_FIELD });
    case 'expired-code':
      return apiError(c, 400, texts.expired, { field: CODE_FIELD });
    case 'weak-password':
      return apiError(c, 400, PASSWORD_MESSAGE, { field: 'password' });
    case 'user-disabled':
      return blockedAnswer(c);
    case 'too-many-attempts':
      return apiError(
        c,
        429,
        tooManyRequestsMessage(PROVIDER_LIMIT_RETRY_AFTER_SECONDS),
        {},
        { 'Retry-After': String(PROVIDER_LIMIT_RETRY_AFTER_SECONDS) },
      );
    case 'unavailable':
      return providerUnavailable(c, texts.unavailable);
  }
}

/** A password-reset code that may be used: whose address it names, and that address's account here. */
type ResetCodeCheck = { ok: true; email: string; account: User | null } | { ok: false; response: Response };

/**
 * Checks that a code is an unused password-reset code of an account that is not blocked: a
 * blocked account cannot sign in, so a new password would only mislead its owner.
 */
async function checkResetCode(c: Context, db: Db, oobCode: string): Promise<ResetCodeCheck> {
  const checked = await checkActionCode(oobCode);
  if (!checked.ok) return { ok: false, response: codeRefusal(c, checked.code, RESET_TEXTS) };
  if (checked.requestType !== 'PASSWORD_RESET') {
    return { ok: false, response: codeRefusal(c, 'invalid-code', RESET_TEXTS) };
  }
  const account = await findUserByLogin(db, checked.email);
  if (account?.blocked === true) return { ok: false, response: blockedAnswer(c) };
  return { ok: true, email: checked.email, account };
}

/**
 * The site's side of the links in the identity provider's emails (the page at /auth/action calls
 * these): checking and using a password-reset code, and confirming an address. The provider owns
 * the codes; these calls keep the accounts here in step, so a new password ends every session of
 * the account and a confirmed address activates its API key at once, signed in or not.
 */
export const accountActionRoutes = new Hono<AccountsEnv>()
  .post('/auth/password-reset/check', noStore(), actionLimit, jsonBody(codeBody), async (c) => {
    const checked = await checkResetCode(c, c.var.db, c.req.valid('json').oobCode);
    if (!checked.ok) return checked.response;
    return c.json({ email: checked.email });
  })
  .post('/auth/password-reset', noStore(), actionLimit, jsonBody(resetBody), async (c) => {
    const { db } = c.var;
    const { oobCode, password } = c.req.valid('json');
    const checked = await checkResetCode(c, db, oobCode);
    if (!checked.ok) return checked.response;
    const reset = await confirmPasswordReset(oobCode, password);
    if (!reset.ok) return codeRefusal(c, reset.code, RESET_TEXTS);
    if (checked.account !== null) {
      // Whoever knew the old password is signed out everywhere; the owner signs in with the new one.
      await revokeUserSessions(db, checked.account.id);
      // Following the emailed link proved the address, which the provider records.
      await refreshEmailVerified(db, checked.account);
    }
    return c.json({ reset: true, email: reset.email });
  })
  .post('/auth/verify-email', noStore(), actionLimit, jsonBody(codeBody), async (c) => {
    const { db } = c.var;
    const { oobCode } = c.req.valid('json');
    const checked = await checkActionCode(oobCode);
    if (!checked.ok) return codeRefusal(c, checked.code, VERIFY_TEXTS);
    if (checked.requestType !== 'VERIFY_EMAIL') return codeRefusal(c, 'invalid-code', VERIFY_TEXTS);
    const applied = await applyEmailVerification(oobCode);
    if (!applied.ok) return codeRefusal(c, applied.code, VERIFY_TEXTS);
    const account =
      applied.uid === undefined
        ? await findUserByLogin(db, applied.email)
        : await findUserByFirebaseUid(db, applied.uid);
    if (account !== null) await syncEmailVerified(db, account, applied.emailVerified);
    return c.json({ verified: true, email: applied.email });
  });
