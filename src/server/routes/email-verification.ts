import { Hono } from 'hono';
import type { BlankInput } from 'hono/types';
import { z } from 'zod';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { sendVerificationEmail } from '../auth/identity.ts';
import { providerUnavailable } from '../auth/sign-in.ts';
import { requireUser } from '../middleware/caller.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { noStore } from '../middleware/security-headers.ts';
import { jsonBody } from '../middleware/validate.ts';
import { findUserById } from '../services/users.ts';
import { refreshEmailVerified } from '../services/accounts.ts';

export const ALREADY_VERIFIED_MESSAGE = 'Your email address is already verified.';
export const VERIFICATION_EMAIL_FAILED_MESSAGE =
  'We could not send the verification email. Please try again later.';
export const VERIFICATION_EMAIL_LIMIT_MESSAGE =
  'Too many verification emails were requested for this address. Please try again later.';
export const NO_IDENTITY_MESSAGE =
  'Your sign-in account could not be found. Please contact support to verify your address.';

/** Verification emails per account and window: enough to retry a lost mail, too few to spam an inbox. */
export const VERIFICATION_EMAIL_LIMIT = 3;
export const VERIFICATION_EMAIL_WINDOW_MS = 10 * 60_000;

/** How long to wait after the provider's own sending limit refused a mail. */
const PROVIDER_LIMIT_RETRY_AFTER_SECONDS = 60;

/**
 * POST /api/portal/user/send-verification-email: mails the signed-in user a new link to confirm
 * the address, which is what activates the API key. An address the provider already confirmed is
 * recorded on the spot and answered with 409, so the dashboard can show the active key instead.
 */
export const emailVerificationRoutes = new Hono<AccountsEnv>().post(
  '/user/send-verification-email',
  noStore(),
  requireUser(),
  rateLimit<BlankInput, AccountsEnv>({
    name: 'verification-email-user',
    limit: VERIFICATION_EMAIL_LIMIT,
    windowMs: VERIFICATION_EMAIL_WINDOW_MS,
    key: (c) => (c.var.caller.kind === 'user' ? `user:${c.var.caller.userId}` : undefined),
  }),
  jsonBody(z.strictObject({})),
  async (c) => {
    const { db, caller: who } = c.var;
    if (who.kind !== 'user') throw new Error('requireUser let a non-user through');
    const found = await findUserById(db, who.userId);
    if (!found) return apiError(c, 404, NO_IDENTITY_MESSAGE);
    const user = await refreshEmailVerified(db, found);
    if (user.emailVerified) return apiError(c, 409, ALREADY_VERIFIED_MESSAGE);
    const sent = await sendVerificationEmail(user.firebaseUid);
    if (sent.ok) return c.json({ sent: true, email: user.email });
    switch (sent.code) {
      case 'not-found':
        return apiError(c, 404, NO_IDENTITY_MESSAGE);
      case 'too-many-attempts':
        return apiError(
          c,
          429,
          VERIFICATION_EMAIL_LIMIT_MESSAGE,
          {},
          { 'Retry-After': String(PROVIDER_LIMIT_RETRY_AFTER_SECONDS) },
        );
      case 'unavailable':
        return providerUnavailable(c, VERIFICATION_EMAIL_FAILED_MESSAGE);
    }
  },
);
