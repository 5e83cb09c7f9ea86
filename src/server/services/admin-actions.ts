import { and, eq } from 'drizzle-orm';
import { API_KEYS_PAGE } from '../../lib/routes.ts';
import type { Db } from '../db/client.ts';
import { apiKeys, users, type User } from '../db/schema.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { rollApiKey, stillWorks } from './api-keys.ts';
import { audit } from './audit-log.ts';
import { queueEmail } from './outbox.ts';

// The admin console's actions that the user services do not already offer. Each changes the account
// and writes its audit entry (who, what, why) in one transaction; the routes tell the data API.

/** What every console action records beside the change: the administrator's reason. */
export interface ConsoleAction {
  actorId: string;
  reason: string;
}

/** An action the account's state does not allow, in words for the console. */
export class AdminActionError extends Error {
  readonly status: 404 | 409;

  constructor(message: string, status: 404 | 409) {
    super(message);
    this.status = status;
  }
}

export const NO_SUCH_KEY_MESSAGE = 'This account has no such key.';
export const KEY_ALREADY_ENDED_MESSAGE = 'This key no longer works: there is nothing to revoke.';

/** Sets or clears the legacy flag (SPEC §6: it opens the legacy documentation items). */
export function setLegacy(
  db: Db,
  userId: string,
  legacy: boolean,
  action: ConsoleAction,
): Promise<User | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
    if (before === undefined) return null;
    const [row] = await tx.update(users).set({ legacy }).where(eq(users.id, userId)).returning();
    await audit(tx, {
      actorUserId: action.actorId,
      action: 'legacy_change',
      targetUserId: userId,
      details: { reason: action.reason, from: before.legacy, to: legacy },
    });
    return row ?? null;
  });
}

/**
 * Revokes one of an account's keys for an administrator (a leaked key, abuse). The current primary
 * key is replaced rather than only revoked, so the account is never left without a key: it stops at
 * once and the owner is mailed the new key's last four characters. Any other key simply stops.
 */
export async function revokeKeyForAdmin(
  db: Db,
  userId: string,
  keyId: string,
  action: ConsoleAction,
  now: Date = new Date(),
): Promise<{ replacedBy: string | null }> {
  return db.transaction(async (tx) => {
    const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
    const [key] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
      .limit(1);
    if (owner === undefined || key === undefined) throw new AdminActionError(NO_SUCH_KEY_MESSAGE, 404);
    const [working] = await tx
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), stillWorks(now)));
    if (working === undefined) throw new AdminActionError(KEY_ALREADY_ENDED_MESSAGE, 409);
    let replacedBy: string | null = null;
    if (key.primary && key.expiresAt === null) {
      const rolled = await rollApiKey(tx, userId, { graceMs: 0, now });
      replacedBy = rolled?.issued.last4 ?? null;
    } else {
      await tx.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, key.id));
    }
    await audit(tx, {
      actorUserId: action.actorId,
      action: 'api_key_revoke',
      targetUserId: userId,
      details: { reason: action.reason, keyId: key.id, name: key.name, last4: key.last4, replacedBy },
    });
    await queueEmail(tx, {
      email: owner.email,
      kind: 'API_KEY_CHANGED',
      subject: `API key "${key.name}" revoked by support`,
      body: `Our support team revoked your API key "${key.name}", ending in ${key.last4}; it no longer works.${replacedBy === null ? '' : ` Your new primary key ends in ${replacedBy}: sign in to copy it.`} Reason: ${action.reason}`,
      link: API_KEYS_PAGE,
    });
    return { replacedBy };
  });
}

/** Ends every sign-in of the account at once (their access tokens stop at the next call), audited. */
export async function endSessionsForAdmin(db: Db, userId: string, action: ConsoleAction): Promise<number> {
  const ended = await revokeUserSessions(db, userId);
  await audit(db, {
    actorUserId: action.actorId,
    action: 'sessions_end',
    targetUserId: userId,
    details: { reason: action.reason, sessions: ended },
  });
  return ended;
}

/** Records that an administrator had the verification link sent again. */
export async function auditVerificationResend(db: Db, userId: string, action: ConsoleAction): Promise<void> {
  await audit(db, {
    actorUserId: action.actorId,
    action: 'verification_resend',
    targetUserId: userId,
    details: { reason: action.reason },
  });
}
