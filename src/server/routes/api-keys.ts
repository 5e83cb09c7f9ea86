import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { requireUser } from '../middleware/caller.ts';
import { noStore } from '../middleware/security-headers.ts';
import { jsonBody } from '../middleware/validate.ts';
import {
  createNamedKey,
  KEY_GRACE_PERIODS,
  KEY_NAME_MAX_LENGTH,
  KeyChangeError,
  listAccountKeys,
  renameAccountKey,
  revokeAccountKey,
  rollAccountKey,
  type KeyGracePeriod,
} from '../services/account-keys.ts';
import { announceAccountKeysChanged } from '../services/key-events.ts';

const graces = Object.keys(KEY_GRACE_PERIODS) as [KeyGracePeriod, ...KeyGracePeriod[]];
const rollBody = z.object({
  grace: z.enum(graces, { error: `grace must be one of ${graces.join(', ')}` }),
});
const nameBody = z.object({
  name: z.string({ error: 'name is required' }).max(KEY_NAME_MAX_LENGTH * 4, 'name is too long'),
});
const keyId = z.uuid();

function userIdOf(c: Context<AccountsEnv>): string {
  const { caller } = c.var;
  if (caller.kind !== 'user') throw new Error('requireUser let a non-user through');
  return caller.userId;
}

/** A refused change as the page shows it; anything else is the API's own error. */
function refused(c: Context<AccountsEnv>, error: unknown): Response {
  if (error instanceof KeyChangeError) return apiError(c, error.status, error.message);
  throw error;
}

/**
 * The signed-in owner's API keys (the dashboard's API keys page): the list with each key's use,
 * replacing the primary key with a grace period, named additional keys, renaming and revoking.
 * Every change is audited and mailed to the owner by the service.
 */
export const apiKeyRoutes = new Hono<AccountsEnv>()
  .get('/user/api-keys', noStore(), requireUser(), async (c) => {
    return c.json(await listAccountKeys(c.var.db, userIdOf(c)));
  })
  .post('/user/api-keys/roll', noStore(), requireUser(), jsonBody(rollBody), async (c) => {
    try {
      const issued = await rollAccountKey(c.var.db, userIdOf(c), c.req.valid('json').grace);
      announceAccountKeysChanged(userIdOf(c));
      return c.json({ id: issued.id, last4: issued.last4 }, 201);
    } catch (error) {
      return refused(c, error);
    }
  })
  .post('/user/api-keys', noStore(), requireUser(), jsonBody(nameBody), async (c) => {
    try {
      const issued = await createNamedKey(c.var.db, userIdOf(c), c.req.valid('json').name);
      return c.json({ id: issued.id, last4: issued.last4 }, 201);
    } catch (error) {
      return refused(c, error);
    }
  })
  .patch('/user/api-keys/:id', noStore(), requireUser(), jsonBody(nameBody), async (c) => {
    const id = keyId.safeParse(c.req.param('id'));
    if (!id.success) return apiError(c, 404, 'This key does not exist or no longer works.');
    try {
      await renameAccountKey(c.var.db, userIdOf(c), id.data, c.req.valid('json').name);
      return c.body(null, 204);
    } catch (error) {
      return refused(c, error);
    }
  })
  .delete('/user/api-keys/:id', noStore(), requireUser(), async (c) => {
    const id = keyId.safeParse(c.req.param('id'));
    if (!id.success) return apiError(c, 404, 'This key does not exist or no longer works.');
    try {
      await revokeAccountKey(c.var.db, userIdOf(c), id.data);
      announceAccountKeysChanged(userIdOf(c));
      return c.body(null, 204);
    } catch (error) {
      return refused(c, error);
    }
  });
