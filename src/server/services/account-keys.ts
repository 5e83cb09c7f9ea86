import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { isoDay } from '../../lib/iso-date.ts';
import type { AccountKey, AccountKeys } from '../../lib/dashboard-data.ts';
import { API_KEYS_PAGE } from '../../lib/routes.ts';
import { decrypt, serverSecret } from '../auth/crypto.ts';
import type { Db } from '../db/client.ts';
import { apiKeys, apiUsage, pricePlans, users } from '../db/schema.ts';
import { insertApiKey, rollApiKey, stillWorks, type IssuedApiKey } from './api-keys.ts';
import { audit } from './audit-log.ts';
import { queueEmail } from './outbox.ts';

/*
 * What an account's owner does with its keys on the dashboard's API keys page: list them with their
 * use, replace the primary key with a grace period, end a replaced key early, and add, rename or
 * revoke named additional keys. Every change is audited and mailed to the owner in the transaction
 * that makes it, so neither the record nor the email can disagree with the keys.
 */

/** How long a replaced key may keep working, as the page offers it. */
export const KEY_GRACE_PERIODS = {
  now: 0,
  '1h': 60 * 60 * 1000,
  '24h': 24 * 60 * 60 * 1000,
  '7d': 7 * 24 * 60 * 60 * 1000,
} as const;
export type KeyGracePeriod = keyof typeof KEY_GRACE_PERIODS;

/** Additional keys an account may hold besides its primary key: one on a free plan, five on paid ones. */
export const ADDITIONAL_KEYS = { free: 1, paid: 5 } as const;

/** The longest name of a key. */
export const KEY_NAME_MAX_LENGTH = 60;

/** Why a key change was refused, in the words the page shows. */
export class KeyChangeError extends Error {
  readonly status: 400 | 404 | 409;

  constructor(message: string, status: 400 | 404 | 409) {
    super(message);
    this.status = status;
  }
}

async function additionalAllowed(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ priceCents: pricePlans.priceCents })
    .from(users)
    .innerJoin(pricePlans, eq(pricePlans.code, users.planCode))
    .where(eq(users.id, userId));
  return (row?.priceCents ?? 0) > 0 ? ADDITIONAL_KEYS.paid : ADDITIONAL_KEYS.free;
}

/** The keys that still work, primary first (the current one before a replaced one), then by age. */
export async function listAccountKeys(
  db: Db,
  userId: string,
  options: { secret?: string; now?: Date } = {},
): Promise<AccountKeys> {
  const now = options.now ?? new Date();
  const secret = options.secret ?? serverSecret();
  const today = isoDay(now);
  const rows = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      primary: apiKeys.primary,
      keyCiphertext: apiKeys.keyCiphertext,
      last4: apiKeys.last4,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      expiresAt: apiKeys.expiresAt,
      callsToday:
        sql<number>`coalesce((select sum(${apiUsage.calls}) from ${apiUsage} where ${apiUsage.apiKeyId} = ${apiKeys.id} and ${apiUsage.day} = ${today}), 0)::int`.mapWith(
          Number,
        ),
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), stillWorks(now)))
    .orderBy(desc(apiKeys.primary), sql`${apiKeys.expiresAt} is not null`, asc(apiKeys.createdAt));
  const keys = rows.map((row): AccountKey => ({
    id: row.id,
    name: row.name,
    primary: row.primary,
    key: decrypt(secret, row.keyCiphertext),
    last4: row.last4,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    callsToday: row.callsToday,
  }));
  return {
    keys,
    additionalAllowed: await additionalAllowed(db, userId),
    additionalUsed: keys.filter((key) => !key.primary).length,
  };
}

async function ownerEmail(db: Db, userId: string): Promise<string> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (row === undefined) throw new KeyChangeError('No such account.', 404);
  return row.email;
}

const GRACE_WORDS: Record<KeyGracePeriod, string> = {
  now: 'stopped working at once',
  '1h': 'keeps working for 1 hour',
  '24h': 'keeps working for 24 hours',
  '7d': 'keeps working for 7 days',
};

/**
 * Replaces the primary key; the old one keeps working for the grace period chosen. Audited and
 * mailed, with the new key's last four characters only.
 */
export async function rollAccountKey(
  db: Db,
  userId: string,
  grace: KeyGracePeriod,
  options: { secret?: string; now?: Date } = {},
): Promise<IssuedApiKey> {
  return db.transaction(async (tx) => {
    const email = await ownerEmail(tx, userId);
    const rolled = await rollApiKey(tx, userId, {
      graceMs: KEY_GRACE_PERIODS[grace],
      secret: options.secret,
    });
    if (rolled === null) throw new KeyChangeError('No such account.', 404);
    await audit(tx, {
      actorUserId: userId,
      action: 'api_key_roll',
      targetUserId: userId,
      details: { keyId: rolled.issued.id, replacedKeyId: rolled.previous?.id ?? null, grace },
    });
    await queueEmail(tx, {
      email,
      kind: 'API_KEY_CHANGED',
      subject: 'Your API key was replaced',
      body: `Your primary API key was replaced by a new key ending in ${rolled.issued.last4}. The old key ${GRACE_WORDS[grace]}${rolled.previous === null || grace === 'now' ? '' : ` (until ${rolled.previous.expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC)`}. If you did not do this, sign in, replace the key again and change your password.`,
      link: API_KEYS_PAGE,
    });
    return rolled.issued;
  });
}

function cleanName(name: string): string {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  if (trimmed === '') throw new KeyChangeError('Give the key a name, such as "Production server".', 400);
  if (trimmed.length > KEY_NAME_MAX_LENGTH) {
    throw new KeyChangeError(`A key's name can be at most ${String(KEY_NAME_MAX_LENGTH)} characters.`, 400);
  }
  return trimmed;
}

/** Adds a named key beside the primary one, within the plan's number of additional keys. */
export async function createNamedKey(
  db: Db,
  userId: string,
  name: string,
  options: { secret?: string; now?: Date } = {},
): Promise<IssuedApiKey> {
  const clean = cleanName(name);
  const secret = options.secret ?? serverSecret();
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    // Locking the owner serialises concurrent additions, so the limit holds.
    const [owner] = await tx
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (owner === undefined) throw new KeyChangeError('No such account.', 404);
    const allowed = await additionalAllowed(tx, userId);
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int`.mapWith(Number) })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), eq(apiKeys.primary, false), stillWorks(now)));
    if (count >= allowed) {
      throw new KeyChangeError(
        allowed === ADDITIONAL_KEYS.free
          ? `Your plan includes ${String(allowed)} additional key. Revoke it to add another, or upgrade for up to ${String(ADDITIONAL_KEYS.paid)}.`
          : `Your plan includes ${String(allowed)} additional keys. Revoke one to add another.`,
        409,
      );
    }
    const issued = await insertApiKey(tx, userId, secret, { name: clean, primary: false });
    await audit(tx, {
      actorUserId: userId,
      action: 'api_key_create',
      targetUserId: userId,
      details: { keyId: issued.id, name: clean },
    });
    await queueEmail(tx, {
      email: owner.email,
      kind: 'API_KEY_CHANGED',
      subject: `New API key "${clean}"`,
      body: `A new API key named "${clean}", ending in ${issued.last4}, was added to your account. It shares your plan's limits with your other keys. If you did not do this, revoke it on the API keys page and change your password.`,
      link: API_KEYS_PAGE,
    });
    return issued;
  });
}

/**
 * Ends a key at once: an additional key, or a replaced primary key still in its grace period. The
 * current primary key cannot be revoked here (the account would be left without one): it is replaced.
 */
export async function revokeAccountKey(
  db: Db,
  userId: string,
  keyId: string,
  options: { now?: Date } = {},
): Promise<void> {
  const now = options.now ?? new Date();
  await db.transaction(async (tx) => {
    const email = await ownerEmail(tx, userId);
    const [key] = await tx
      .select({
        id: apiKeys.id,
        name: apiKeys.name,
        primary: apiKeys.primary,
        expiresAt: apiKeys.expiresAt,
        last4: apiKeys.last4,
      })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), stillWorks(now)));
    if (key === undefined) throw new KeyChangeError('This key does not exist or no longer works.', 404);
    if (key.primary && key.expiresAt === null) {
      throw new KeyChangeError('Your primary key cannot be revoked: replace it instead.', 409);
    }
    await tx.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, key.id));
    await audit(tx, {
      actorUserId: userId,
      action: 'api_key_revoke',
      targetUserId: userId,
      details: { keyId: key.id, name: key.name },
    });
    await queueEmail(tx, {
      email,
      kind: 'API_KEY_CHANGED',
      subject: `API key "${key.name}" revoked`,
      body: `The API key "${key.name}", ending in ${key.last4}, was revoked and no longer works. If you did not do this, change your password.`,
      link: API_KEYS_PAGE,
    });
  });
}

/** Renames a key that still works. */
export async function renameAccountKey(
  db: Db,
  userId: string,
  keyId: string,
  name: string,
  options: { now?: Date } = {},
): Promise<void> {
  const clean = cleanName(name);
  const renamed = await db
    .update(apiKeys)
    .set({ name: clean })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), stillWorks(options.now ?? new Date())))
    .returning({ id: apiKeys.id });
  if (renamed.length === 0) throw new KeyChangeError('This key does not exist or no longer works.', 404);
}
