import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AccountsEnv } from '../app/context.ts';
import type { User } from '../db/schema.ts';
import { apiError } from '../app/errors.ts';
import { setIdentityDisabled } from '../auth/identity.ts';
import { requireAdmin } from '../middleware/caller.ts';
import { noStore } from '../middleware/security-headers.ts';
import { queryParams } from '../middleware/validate.ts';
import { listAudit } from '../services/audit-log.ts';
import { listClientErrors } from '../services/client-errors.ts';
import { listEnterpriseEnquiries } from '../services/enterprise-enquiries.ts';
import { listSupportRequests } from '../services/support-requests.ts';
import { findUserById, setBlocked } from '../services/users.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { planDataTier, profileData } from '../auth/user-data.ts';

export const NO_SUCH_USER_MESSAGE = 'No such user.';
export const SELF_BLOCK_MESSAGE = 'You cannot block your own account.';
export const IDENTITY_NOT_UPDATED_MESSAGE =
  'The account was changed here, but the identity provider could not be updated. Please try again.';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const noQuery = z.strictObject({});
const auditQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(500).optional() });
/** A page of a newest-first log: how many entries, and the id of the last one already shown. */
const pageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  before: z.string().regex(UUID_PATTERN, 'must be the id of a listed entry').optional(),
});

function actorId(c: Context<AccountsEnv>): string {
  const { caller: who } = c.var;
  if (who.kind !== 'user') throw new Error('requireAdmin let a non-user through');
  return who.userId;
}

/**
 * Blocks or unblocks an account here (audited, sessions ended) and then at the identity provider.
 * Ours is the record that sign-in obeys, so it changes first; a provider failure answers 503 and a
 * retry, which repeats harmlessly, finishes the job.
 */
async function changeBlocked(c: Context<AccountsEnv>, blocked: boolean): Promise<Response> {
  const { db } = c.var;
  const id = c.req.param('id') ?? '';
  const actor = actorId(c);
  if (!UUID_PATTERN.test(id)) return apiError(c, 404, NO_SUCH_USER_MESSAGE);
  if (blocked && id === actor) return apiError(c, 400, SELF_BLOCK_MESSAGE);
  const user: User | null = await setBlocked(db, id, blocked, actor);
  if (!user) return apiError(c, 404, NO_SUCH_USER_MESSAGE);
  if (blocked) await revokeUserSessions(db, user.id);
  const provider = await setIdentityDisabled(user.firebaseUid, blocked);
  if (!provider.ok && provider.code !== 'not-found') {
    return apiError(c, 503, IDENTITY_NOT_UPDATED_MESSAGE, {}, { 'Retry-After': '5' });
  }
  return c.json({ success: true, userid: user.id, blocked: user.blocked });
}

/** Account administration for role admin, mounted at /api/admin. */
export const adminRoutes = new Hono<AccountsEnv>()
  .use(noStore())
  .use(requireAdmin())
  .post('/users/:id/block', queryParams(noQuery), (c) => changeBlocked(c, true))
  .post('/users/:id/unblock', queryParams(noQuery), (c) => changeBlocked(c, false))
  .get('/audit', queryParams(auditQuery), async (c) => {
    const entries = await listAudit(c.var.db, { limit: c.req.valid('query').limit });
    return c.json({ entries });
  })
  .get('/client-errors', queryParams(pageQuery), async (c) => {
    const { limit, before } = c.req.valid('query');
    return c.json(await listClientErrors(c.var.db, { limit, before }));
  })
  .get('/enterprise-enquiries', queryParams(pageQuery), async (c) => {
    const { limit, before } = c.req.valid('query');
    return c.json(await listEnterpriseEnquiries(c.var.db, { limit, before }));
  })
  .get('/support-requests', queryParams(pageQuery), async (c) => {
    const { limit, before } = c.req.valid('query');
    return c.json(await listSupportRequests(c.var.db, { limit, before }));
  })
  .get('/users/:id', queryParams(noQuery), async (c) => {
    const id = c.req.param('id');
    const user = UUID_PATTERN.test(id) ? await findUserById(c.var.db, id) : null;
    if (!user) return apiError(c, 404, NO_SUCH_USER_MESSAGE);
    const dataTier = await planDataTier(c.var.db, user.planCode);
    return c.json({
      ...profileData(user, dataTier),
      blocked: user.blocked,
      emailVerified: user.emailVerified,
    });
  });
