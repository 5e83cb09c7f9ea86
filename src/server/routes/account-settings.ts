import { eq, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { BlankInput } from 'hono/types';
import { z } from 'zod';
import { MISSING_CODE_MESSAGE } from '../../lib/action-link.ts';
import { PASSWORD_MESSAGE, USER_EXISTS_MESSAGE } from '../../lib/messages.ts';
import { AUTH_LINKS, SETTINGS_PAGE } from '../../lib/routes.ts';
import { emailSchema, MAX_PASSWORD_LENGTH, normalizeEmail, passwordSchema } from '../../lib/validation.ts';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import {
  applyEmailChange,
  checkActionCode,
  checkPassword,
  createCustomToken,
  deleteIdentityUser,
  getIdentityUser,
  sendEmailChangeLink,
  setIdentityPassword,
  unlinkIdentityProvider,
  type ActionCodeFailureCode,
} from '../auth/identity.ts';
import { expireRefreshCookie, providerUnavailable } from '../auth/sign-in.ts';
import { userData } from '../auth/user-data.ts';
import { users, type User } from '../db/schema.ts';
import { requireUser } from '../middleware/caller.ts';
import { ipKey, rateLimit } from '../middleware/rate-limit.ts';
import { noStore } from '../middleware/security-headers.ts';
import { jsonBody } from '../middleware/validate.ts';
import {
  accountSettings,
  checkDeletion,
  deleteAccount,
  endAccountSession,
  endOtherSessions,
  exportAccount,
  NAME_MAX_LENGTH,
  NO_ACCOUNT_MESSAGE,
  NO_SUCH_SIGN_IN_MESSAGE,
  SettingsError,
  updateProfile,
} from '../services/account-settings.ts';
import { audit } from '../services/audit-log.ts';
import { queueEmail } from '../services/outbox.ts';
import { announceAccountKeysChanged } from '../services/key-events.ts';
import { findUserByFirebaseUid, findUserById, findUserByLogin } from '../services/users.ts';

export const WRONG_PASSWORD_MESSAGE = 'Your current password is not correct.';
export const SAME_EMAIL_MESSAGE = 'This is already your address.';
export const SAME_PASSWORD_MESSAGE = 'The new password must differ from the current one.';
export const NO_PASSWORD_MESSAGE =
  'Your account signs in with Google and has no password. Google keeps your password.';
export const LAST_METHOD_MESSAGE =
  'Google is the only way you sign in. Add a password first, or you could not sign in again.';
export const GOOGLE_NOT_LINKED_MESSAGE = 'No Google account is linked to your account yet.';
export const INVALID_CHANGE_LINK_MESSAGE = 'This address change link is not valid or has already been used.';
export const EXPIRED_CHANGE_LINK_MESSAGE = 'This address change link has expired.';
export const SETTINGS_UNAVAILABLE_MESSAGE =
  'We could not reach the sign-in service to make this change. Nothing was changed; please try again in a moment.';

const GOOGLE = 'google.com';

const profileBody = z.strictObject({
  username: z.string().max(200).optional(),
  firstName: z
    .string()
    .max(NAME_MAX_LENGTH * 4)
    .optional(),
  lastName: z
    .string()
    .max(NAME_MAX_LENGTH * 4)
    .optional(),
});
const currentPassword = z.string().max(MAX_PASSWORD_LENGTH);
const emailBody = z.strictObject({ email: emailSchema, currentPassword: currentPassword.optional() });
const passwordBody = z.strictObject({ currentPassword, newPassword: passwordSchema });
const deleteBody = z.strictObject({ confirmation: z.string().max(200) });
const codeBody = z.strictObject({
  oobCode: z
    .string({ error: MISSING_CODE_MESSAGE })
    .trim()
    .min(1, { error: MISSING_CODE_MESSAGE })
    .max(1024, { error: MISSING_CODE_MESSAGE }),
});
const familyId = z.uuid();

/**
 * Changes that check a password or reach the identity provider, per account: room for mistakes,
 * none for guessing the current password through this form.
 */
const sensitiveLimit = rateLimit<BlankInput, AccountsEnv>({
  name: 'account-settings-user',
  limit: 20,
  windowMs: 10 * 60_000,
  key: (c) => (c.var.caller.kind === 'user' ? `user:${c.var.caller.userId}` : ipKey(c)),
});

function signedInUser(c: Context<AccountsEnv>): { userId: string; sessionId: string | undefined } {
  const { caller } = c.var;
  if (caller.kind !== 'user') throw new Error('requireUser let a non-user through');
  return { userId: caller.userId, sessionId: caller.sessionId };
}

/** The signed-in owner's account, or the refusal to answer with when it is gone. */
async function ownUser(c: Context<AccountsEnv>): Promise<User | Response> {
  const found = await findUserById(c.var.db, signedInUser(c).userId);
  return found ?? apiError(c, 404, NO_ACCOUNT_MESSAGE);
}

/** A refused change as the page shows it; anything else is the API's own error. */
function refused(c: Context<AccountsEnv>, error: unknown): Response {
  if (error instanceof SettingsError) {
    return apiError(c, error.status, error.message, error.field === undefined ? {} : { field: error.field });
  }
  throw error;
}

/**
 * The signed-in owner's account with its sign-in methods at the provider ('password',
 * 'google.com'), or the refusal to answer with: the account is gone or the provider cannot be asked.
 */
async function ownerWithMethods(
  c: Context<AccountsEnv>,
): Promise<{ user: User; methods: string[] } | Response> {
  const user = await ownUser(c);
  if (user instanceof Response) return user;
  const identity = await getIdentityUser(user.firebaseUid);
  if (!identity.ok) return providerUnavailable(c, SETTINGS_UNAVAILABLE_MESSAGE);
  return { user, methods: identity.user.providers };
}

/** Checks the current password of a password account; a refusal to answer with, or null. */
async function passwordRefusal(
  c: Context<AccountsEnv>,
  user: User,
  password: string,
): Promise<Response | null> {
  const checked = await checkPassword(user.email, password);
  if (checked.ok && checked.uid === user.firebaseUid) return null;
  if (!checked.ok && checked.code === 'unavailable')
    return providerUnavailable(c, SETTINGS_UNAVAILABLE_MESSAGE);
  if (!checked.ok && checked.code === 'too-many-attempts') {
    return apiError(c, 429, 'Too many attempts. Please wait a moment and try again.', {
      field: 'currentPassword',
    });
  }
  return apiError(c, 400, WRONG_PASSWORD_MESSAGE, { field: 'currentPassword' });
}

/** Mails the owner about a change of their sign-in, so a change they did not make does not go unnoticed. */
async function mailChange(
  c: Context<AccountsEnv>,
  email: string,
  subject: string,
  body: string,
): Promise<void> {
  await queueEmail(c.var.db, { email, kind: 'ACCOUNT_CHANGED', subject, body, link: SETTINGS_PAGE });
}

const NOT_YOU = 'If you did not do this, reset your password at once and sign out your other sessions.';

function changeLinkRefusal(c: Context, code: ActionCodeFailureCode): Response {
  switch (code) {
    case 'expired-code':
      return apiError(c, 400, EXPIRED_CHANGE_LINK_MESSAGE, { field: 'oobCode' });
    case 'unavailable':
    case 'too-many-attempts':
      return providerUnavailable(c, SETTINGS_UNAVAILABLE_MESSAGE);
    default:
      return apiError(c, 400, INVALID_CHANGE_LINK_MESSAGE, { field: 'oobCode' });
  }
}

/**
 * The settings page's calls (mounted at /api/portal): the profile, the address, the password,
 * Google as a sign-in method, the sign-ins that hold a session, a copy of the account's data and
 * deleting the account. Every change is audited; changes to how the owner signs in are also
 * mailed to them.
 */
export const accountSettingsRoutes = new Hono<AccountsEnv>()
  .use(noStore())
  .get('/user/account', requireUser(), async (c) => {
    const { userId, sessionId } = signedInUser(c);
    try {
      return c.json(await accountSettings(c.var.db, userId, sessionId));
    } catch (error) {
      return refused(c, error);
    }
  })
  .patch('/user/profile', requireUser(), jsonBody(profileBody), async (c) => {
    try {
      const user = await updateProfile(c.var.db, signedInUser(c).userId, c.req.valid('json'));
      return c.json(await userData(c.var.db, user));
    } catch (error) {
      return refused(c, error);
    }
  })
  .post('/user/email', requireUser(), sensitiveLimit, jsonBody(emailBody), async (c) => {
    const { db } = c.var;
    const { email, currentPassword: password } = c.req.valid('json');
    const owner = await ownerWithMethods(c);
    if (owner instanceof Response) return owner;
    const { user, methods } = owner;
    if (normalizeEmail(user.email) === email) return apiError(c, 400, SAME_EMAIL_MESSAGE, { field: 'email' });
    if (methods.includes('password')) {
      if (password === undefined || password === '') {
        return apiError(c, 400, WRONG_PASSWORD_MESSAGE, { field: 'currentPassword' });
      }
      const refusal = await passwordRefusal(c, user, password);
      if (refusal) return refusal;
    }
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1);
    if (taken !== undefined) return apiError(c, 409, USER_EXISTS_MESSAGE, { field: 'email' });
    const sent = await sendEmailChangeLink(user.firebaseUid, email);
    if (!sent.ok) {
      if (sent.code === 'email-exists') return apiError(c, 409, USER_EXISTS_MESSAGE, { field: 'email' });
      return providerUnavailable(c, SETTINGS_UNAVAILABLE_MESSAGE);
    }
    await audit(db, {
      actorUserId: user.id,
      action: 'email_change_request',
      targetUserId: user.id,
      details: { to: email },
    });
    await mailChange(
      c,
      user.email,
      'A change of your address was asked for',
      `Someone signed in to your account asked to move it to ${email}. Nothing changes until the link we sent to that address is followed. ${NOT_YOU}`,
    );
    return c.json({ sent: true, email }, 202);
  })
  .post('/auth/change-email', sensitiveLimit, jsonBody(codeBody), async (c) => {
    const { db } = c.var;
    const { oobCode } = c.req.valid('json');
    const checked = await checkActionCode(oobCode);
    if (!checked.ok) return changeLinkRefusal(c, checked.code);
    if (checked.requestType !== 'VERIFY_AND_CHANGE_EMAIL') return changeLinkRefusal(c, 'invalid-code');
    const before = await findUserByLogin(db, checked.email);
    const applied = await applyEmailChange(oobCode);
    if (!applied.ok) return changeLinkRefusal(c, applied.code);
    const account =
      applied.uid === undefined ? before : ((await findUserByFirebaseUid(db, applied.uid)) ?? before);
    if (account === null) return c.json({ changed: true, email: applied.email });
    const previous = account.email;
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ email: applied.email, emailVerified: true })
        .where(eq(users.id, account.id));
      await audit(tx, {
        actorUserId: account.id,
        action: 'email_change',
        targetUserId: account.id,
        details: { from: previous, to: applied.email },
      });
    });
    await mailChange(
      c,
      previous,
      'Your address was changed',
      `Your account now uses ${applied.email}; this address no longer signs in. ${NOT_YOU}`,
    );
    return c.json({ changed: true, email: applied.email });
  })
  .post('/user/password', requireUser(), sensitiveLimit, jsonBody(passwordBody), async (c) => {
    const { db } = c.var;
    const { currentPassword: current, newPassword } = c.req.valid('json');
    const owner = await ownerWithMethods(c);
    if (owner instanceof Response) return owner;
    const { user, methods } = owner;
    if (!methods.includes('password')) return apiError(c, 409, NO_PASSWORD_MESSAGE);
    const refusal = await passwordRefusal(c, user, current);
    if (refusal) return refusal;
    if (current === newPassword) return apiError(c, 400, SAME_PASSWORD_MESSAGE, { field: 'newPassword' });
    const set = await setIdentityPassword(user.firebaseUid, newPassword);
    if (!set.ok) {
      return set.code === 'invalid-argument'
        ? apiError(c, 400, PASSWORD_MESSAGE, { field: 'newPassword' })
        : providerUnavailable(c, SETTINGS_UNAVAILABLE_MESSAGE);
    }
    // Whoever knew the old password is signed out everywhere else; this sign-in stays.
    const ended = await endOtherSessions(db, user.id, signedInUser(c).sessionId);
    await audit(db, { actorUserId: user.id, action: 'password_change', targetUserId: user.id });
    await mailChange(
      c,
      user.email,
      'Your password was changed',
      `The password of your account was changed${ended > 0 ? ` and your ${ended} other sign-in${ended === 1 ? ' was' : 's were'} ended` : ''}. ${NOT_YOU}`,
    );
    return c.json({ changed: true, endedSessions: ended });
  })
  .post('/user/sign-in-methods/token', requireUser(), sensitiveLimit, async (c) => {
    const user = await ownUser(c);
    if (user instanceof Response) return user;
    // The browser signs in to the identity SDK as this account to link Google to it there.
    const minted = await createCustomToken(user.firebaseUid);
    if (!minted.ok) return providerUnavailable(c, SETTINGS_UNAVAILABLE_MESSAGE);
    return c.json({ customToken: minted.token });
  })
  .post('/user/sign-in-methods/google', requireUser(), sensitiveLimit, async (c) => {
    const owner = await ownerWithMethods(c);
    if (owner instanceof Response) return owner;
    const { user, methods } = owner;
    if (!methods.includes(GOOGLE)) return apiError(c, 409, GOOGLE_NOT_LINKED_MESSAGE);
    await audit(c.var.db, {
      actorUserId: user.id,
      action: 'sign_in_method_link',
      targetUserId: user.id,
      details: { provider: GOOGLE },
    });
    await mailChange(
      c,
      user.email,
      'Google sign-in was added to your account',
      `You can now sign in to your account with Google as well. ${NOT_YOU}`,
    );
    return c.json({ linked: true });
  })
  .delete('/user/sign-in-methods/google', requireUser(), sensitiveLimit, async (c) => {
    const owner = await ownerWithMethods(c);
    if (owner instanceof Response) return owner;
    const { user, methods } = owner;
    if (!methods.includes(GOOGLE)) return apiError(c, 409, GOOGLE_NOT_LINKED_MESSAGE);
    if (!methods.includes('password')) return apiError(c, 409, LAST_METHOD_MESSAGE);
    const unlinked = await unlinkIdentityProvider(user.firebaseUid, GOOGLE);
    if (!unlinked.ok) return providerUnavailable(c, SETTINGS_UNAVAILABLE_MESSAGE);
    await audit(c.var.db, {
      actorUserId: user.id,
      action: 'sign_in_method_unlink',
      targetUserId: user.id,
      details: { provider: GOOGLE },
    });
    await mailChange(
      c,
      user.email,
      'Google sign-in was removed from your account',
      `Your account no longer signs in with Google; sign in with your email and password. ${NOT_YOU}`,
    );
    return c.json({ unlinked: true });
  })
  .post('/user/sessions/sign-out-others', requireUser(), async (c) => {
    const { userId, sessionId } = signedInUser(c);
    return c.json({ ended: await endOtherSessions(c.var.db, userId, sessionId) });
  })
  .delete('/user/sessions/:id', requireUser(), async (c) => {
    const id = familyId.safeParse(c.req.param('id'));
    if (!id.success) return apiError(c, 404, NO_SUCH_SIGN_IN_MESSAGE);
    const ended = await endAccountSession(c.var.db, signedInUser(c).userId, id.data);
    if (!ended) return apiError(c, 404, NO_SUCH_SIGN_IN_MESSAGE);
    return c.body(null, 204);
  })
  .get('/user/export', requireUser(), sensitiveLimit, async (c) => {
    try {
      const data = await exportAccount(c.var.db, signedInUser(c).userId);
      const day = data.exportedAt.slice(0, 10);
      c.header('Content-Disposition', `attachment; filename="account-${data.account.username}-${day}.json"`);
      return c.json(data);
    } catch (error) {
      return refused(c, error);
    }
  })
  .delete('/user/account', requireUser(), sensitiveLimit, jsonBody(deleteBody), async (c) => {
    const { db } = c.var;
    let user: User;
    try {
      user = await checkDeletion(db, signedInUser(c).userId, c.req.valid('json').confirmation);
    } catch (error) {
      return refused(c, error);
    }
    // The identity goes first: were it left, the owner could sign in again to a half-deleted account.
    const removed = await deleteIdentityUser(user.firebaseUid);
    if (!removed.ok) return providerUnavailable(c, SETTINGS_UNAVAILABLE_MESSAGE);
    await deleteAccount(db, user);
    // The data API drops its cached verdicts on the account's keys, so they stop at once.
    announceAccountKeysChanged(user.id);
    expireRefreshCookie(c);
    return c.json({ deleted: true, signIn: AUTH_LINKS.signIn });
  });
