import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  ADMIN_ROLES,
  ID_PATTERN,
  REASON_MAX_LENGTH,
  USER_PAGE_LIMIT,
  USER_SORTS,
  type AdminUserRow,
} from '../../lib/admin.ts';
import type { AccountsEnv } from '../app/context.ts';
import type { User } from '../db/schema.ts';
import { apiError } from '../app/errors.ts';
import { sendVerificationEmail, setIdentityDisabled } from '../auth/identity.ts';
import { providerUnavailable } from '../auth/sign-in.ts';
import { requireAdmin, requireStaff } from '../middleware/caller.ts';
import { noStore } from '../middleware/security-headers.ts';
import { jsonBody, queryParams } from '../middleware/validate.ts';
import {
  AdminActionError,
  auditVerificationResend,
  endSessionsForAdmin,
  revokeKeyForAdmin,
  setLegacy,
} from '../services/admin-actions.ts';
import { adminOverview, clientErrorGroups } from '../services/admin-overview.ts';
import {
  adminUserRow,
  auditPage,
  searchUsers,
  userDetail,
  AdminQueryError,
} from '../services/admin-users.ts';
import { listClientErrors } from '../services/client-errors.ts';
import { listContactMessages } from '../services/contact-messages.ts';
import { listEnterpriseEnquiries } from '../services/enterprise-enquiries.ts';
import { listJobApplications } from '../services/job-applications.ts';
import { announceAccountKeysChanged } from '../services/key-events.ts';
import { listSupportRequests } from '../services/support-requests.ts';
import { findUserById, setBlocked, setPlan, setRole, UnknownPlanError } from '../services/users.ts';
import { revokeUserSessions } from '../auth/sessions.ts';

export const NO_SUCH_USER_MESSAGE = 'No such user.';
export const SELF_BLOCK_MESSAGE = 'You cannot block your own account.';
export const SELF_ROLE_MESSAGE = 'You cannot change your own role: ask another administrator.';
export const REASON_MESSAGE = 'Give a reason: it is kept in the audit trail.';
export const ALREADY_VERIFIED_MESSAGE = 'This address is already verified.';
export const IDENTITY_NOT_UPDATED_MESSAGE =
  'The account was changed here, but the identity provider could not be updated. Please try again.';

const noQuery = z.strictObject({});
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const flag = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((value) => value === 'true');

/** A page of a newest-first log: how many entries, and the id of the last one already shown. */
const pageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  before: z.string().regex(ID_PATTERN, 'must be the id of a listed entry').optional(),
});

/** The browser error log: a page, optionally of one group (its type and message, as grouped). */
const errorsQuery = pageQuery.extend({
  type: z.string().min(1).max(200).optional(),
  message: z.string().max(3000).optional(),
});

const usersQuery = z.strictObject({
  q: z.string().max(200, 'q can be at most 200 characters').optional(),
  plan: z.string().min(1).max(64).optional(),
  role: z.enum(ADMIN_ROLES, { error: `must be one of ${ADMIN_ROLES.join(', ')}` }).optional(),
  blocked: flag.optional(),
  verified: flag.optional(),
  legacy: flag.optional(),
  from: z.string().regex(DAY, 'must be a date written YYYY-MM-DD').optional(),
  to: z.string().regex(DAY, 'must be a date written YYYY-MM-DD').optional(),
  sort: z.enum(USER_SORTS, { error: `must be one of ${USER_SORTS.join(', ')}` }).optional(),
  order: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).optional(),
  limit: z.coerce.number().int().min(1).max(USER_PAGE_LIMIT).optional(),
  cursor: z.string().max(500).optional(),
});

const daysQuery = z.strictObject({ days: z.coerce.number().int().min(1).max(90).optional() });

const auditQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).optional(),
  before: z.string().max(200).optional(),
  userId: z.string().regex(ID_PATTERN, 'must be a user id').optional(),
});

const reason = z
  .string({ error: REASON_MESSAGE })
  .trim()
  .min(1, { error: REASON_MESSAGE })
  .max(REASON_MAX_LENGTH, { error: `A reason can be at most ${String(REASON_MAX_LENGTH)} characters.` });
const reasonBody = z.strictObject({ reason });
const roleBody = z.strictObject({
  role: z.enum(ADMIN_ROLES, { error: `role must be one of ${ADMIN_ROLES.join(', ')}.` }),
  reason,
});
const planBody = z.strictObject({ planCode: z.string({ error: 'Choose a plan.' }).min(1).max(64), reason });
const legacyBody = z.strictObject({ legacy: z.boolean({ error: 'legacy must be true or false.' }), reason });

function actorId(c: Context<AccountsEnv>): string {
  const { caller: who } = c.var;
  if (who.kind !== 'user') throw new Error('the admin guard let a non-user through');
  return who.userId;
}

/** The user the path names, or null (an id that is not a UUID names nobody). */
async function pathUser(c: Context<AccountsEnv>): Promise<User | null> {
  const id = c.req.param('id') ?? '';
  return ID_PATTERN.test(id) ? findUserById(c.var.db, id) : null;
}

function done(c: Context<AccountsEnv>, user: User): Response {
  const row: AdminUserRow = adminUserRow(user);
  return c.json({ success: true, user: row });
}

/**
 * Blocks or unblocks an account here (audited with the reason, sessions ended, the data API told)
 * and then at the identity provider. Ours is the record that sign-in obeys, so it changes first; a
 * provider failure answers 503 and a retry, which repeats harmlessly, finishes the job.
 */
async function changeBlocked(c: Context<AccountsEnv>, blocked: boolean, why: string): Promise<Response> {
  const { db } = c.var;
  const id = c.req.param('id') ?? '';
  const actor = actorId(c);
  if (!ID_PATTERN.test(id)) return apiError(c, 404, NO_SUCH_USER_MESSAGE);
  if (blocked && id === actor) return apiError(c, 400, SELF_BLOCK_MESSAGE);
  const user: User | null = await setBlocked(db, id, blocked, actor, { reason: why });
  if (!user) return apiError(c, 404, NO_SUCH_USER_MESSAGE);
  if (blocked) await revokeUserSessions(db, user.id);
  announceAccountKeysChanged(user.id);
  const provider = await setIdentityDisabled(user.firebaseUid, blocked);
  if (!provider.ok && provider.code !== 'not-found') {
    return apiError(c, 503, IDENTITY_NOT_UPDATED_MESSAGE, {}, { 'Retry-After': '5' });
  }
  return done(c, user);
}

/**
 * The admin console's API, mounted at /api/admin: staff (administrators and analysts) read the
 * users, the overview, the logs and the messages; only administrators act, each action with a reason
 * that the audit trail keeps beside who, when and what.
 */
export const adminRoutes = new Hono<AccountsEnv>()
  .use(noStore())
  .use(requireStaff())
  .get('/users', queryParams(usersQuery), async (c) => {
    try {
      return c.json(await searchUsers(c.var.db, c.req.valid('query')));
    } catch (error) {
      if (error instanceof AdminQueryError) return apiError(c, 400, error.message);
      throw error;
    }
  })
  .get('/users/:id', queryParams(noQuery), async (c) => {
    const detail = await userDetail(c.var.db, c.req.param('id'));
    if (!detail) return apiError(c, 404, NO_SUCH_USER_MESSAGE);
    return c.json(detail);
  })
  .get('/overview', queryParams(daysQuery), async (c) =>
    c.json(await adminOverview(c.var.db, c.req.valid('query').days ?? 30)),
  )
  .get('/audit', queryParams(auditQuery), async (c) => {
    const { limit = 100, before, userId } = c.req.valid('query');
    try {
      return c.json(await auditPage(c.var.db, { limit, before, userId }));
    } catch (error) {
      if (error instanceof AdminQueryError) return apiError(c, 400, error.message);
      throw error;
    }
  })
  .get('/client-errors', queryParams(errorsQuery), async (c) => {
    const { limit, before, type, message } = c.req.valid('query');
    if ((type === undefined) !== (message === undefined)) {
      return apiError(c, 400, 'type and message name an error group together: give both or neither.');
    }
    const group = type !== undefined && message !== undefined ? { type, message } : undefined;
    return c.json(await listClientErrors(c.var.db, { limit, before, group }));
  })
  .get('/client-errors/groups', queryParams(daysQuery), async (c) =>
    c.json({ groups: await clientErrorGroups(c.var.db, c.req.valid('query').days ?? 7) }),
  )
  .get('/enterprise-enquiries', queryParams(pageQuery), async (c) => {
    const { limit, before } = c.req.valid('query');
    return c.json(await listEnterpriseEnquiries(c.var.db, { limit, before }));
  })
  .get('/support-requests', queryParams(pageQuery), async (c) => {
    const { limit, before } = c.req.valid('query');
    return c.json(await listSupportRequests(c.var.db, { limit, before }));
  })
  .get('/contact-messages', queryParams(pageQuery), async (c) => {
    const { limit, before } = c.req.valid('query');
    return c.json(await listContactMessages(c.var.db, { limit, before }));
  })
  .get('/job-applications', queryParams(pageQuery), async (c) => {
    const { limit, before } = c.req.valid('query');
    return c.json(await listJobApplications(c.var.db, { limit, before }));
  })
  .post('/users/:id/block', requireAdmin(), jsonBody(reasonBody), (c) =>
    changeBlocked(c, true, c.req.valid('json').reason),
  )
  .post('/users/:id/unblock', requireAdmin(), jsonBody(reasonBody), (c) =>
    changeBlocked(c, false, c.req.valid('json').reason),
  )
  .post('/users/:id/role', requireAdmin(), jsonBody(roleBody), async (c) => {
    const { role, reason: why } = c.req.valid('json');
    const id = c.req.param('id');
    if (id === actorId(c)) return apiError(c, 400, SELF_ROLE_MESSAGE);
    const user = ID_PATTERN.test(id)
      ? await setRole(c.var.db, id, role, actorId(c), { reason: why, via: 'console' })
      : null;
    if (!user) return apiError(c, 404, NO_SUCH_USER_MESSAGE);
    return done(c, user);
  })
  .post('/users/:id/plan', requireAdmin(), jsonBody(planBody), async (c) => {
    const { planCode, reason: why } = c.req.valid('json');
    const id = c.req.param('id');
    let user: User | null;
    try {
      user = ID_PATTERN.test(id)
        ? await setPlan(c.var.db, id, planCode, actorId(c), { reason: why, via: 'console' })
        : null;
    } catch (error) {
      if (error instanceof UnknownPlanError)
        return apiError(c, 400, `There is no plan ${planCode}.`, { field: 'planCode' });
      throw error;
    }
    if (!user) return apiError(c, 404, NO_SUCH_USER_MESSAGE);
    // The data API's cached verdicts about the account's keys carry its plan: they go at once.
    announceAccountKeysChanged(user.id);
    return done(c, user);
  })
  .post('/users/:id/legacy', requireAdmin(), jsonBody(legacyBody), async (c) => {
    const { legacy, reason: why } = c.req.valid('json');
    const id = c.req.param('id');
    const user = ID_PATTERN.test(id)
      ? await setLegacy(c.var.db, id, legacy, { actorId: actorId(c), reason: why })
      : null;
    if (!user) return apiError(c, 404, NO_SUCH_USER_MESSAGE);
    announceAccountKeysChanged(user.id);
    return done(c, user);
  })
  .post('/users/:id/resend-verification', requireAdmin(), jsonBody(reasonBody), async (c) => {
    const user = await pathUser(c);
    if (!user) return apiError(c, 404, NO_SUCH_USER_MESSAGE);
    if (user.emailVerified) return apiError(c, 409, ALREADY_VERIFIED_MESSAGE);
    const sent = await sendVerificationEmail(user.firebaseUid);
    if (!sent.ok) {
      if (sent.code === 'not-found') {
        return apiError(c, 409, 'The identity provider has no account for this address.');
      }
      if (sent.code === 'too-many-attempts') {
        return apiError(
          c,
          429,
          'The identity provider refuses more links for now. Try again later.',
          {},
          {
            'Retry-After': '60',
          },
        );
      }
      return providerUnavailable(c);
    }
    await auditVerificationResend(c.var.db, user.id, {
      actorId: actorId(c),
      reason: c.req.valid('json').reason,
    });
    return done(c, user);
  })
  .post('/users/:id/keys/:keyId/revoke', requireAdmin(), jsonBody(reasonBody), async (c) => {
    const user = await pathUser(c);
    if (!user) return apiError(c, 404, NO_SUCH_USER_MESSAGE);
    const keyId = c.req.param('keyId');
    if (!ID_PATTERN.test(keyId)) return apiError(c, 404, 'This account has no such key.');
    try {
      await revokeKeyForAdmin(c.var.db, user.id, keyId, {
        actorId: actorId(c),
        reason: c.req.valid('json').reason,
      });
    } catch (error) {
      if (error instanceof AdminActionError) return apiError(c, error.status, error.message);
      throw error;
    }
    announceAccountKeysChanged(user.id);
    return done(c, user);
  })
  .post('/users/:id/sessions/end', requireAdmin(), jsonBody(reasonBody), async (c) => {
    const user = await pathUser(c);
    if (!user) return apiError(c, 404, NO_SUCH_USER_MESSAGE);
    await endSessionsForAdmin(c.var.db, user.id, { actorId: actorId(c), reason: c.req.valid('json').reason });
    return done(c, user);
  });
