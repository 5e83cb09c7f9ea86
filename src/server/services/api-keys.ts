import { and, desc, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import { decrypt, encrypt, hmacHex, serverSecret } from '../auth/crypto.ts';
import type { Db } from '../db/client.ts';
import { apiKeys, users, type User } from '../db/schema.ts';
import { keyShape, newApiKey } from './key-format.ts';

// Longer input cannot be one of our keys; refusing it early saves hashing attacker-sized strings.
const MAX_KEY_LENGTH = 128;

export interface IssuedApiKey {
  id: string;
  /** The key in plain text; shown to the owner, never logged. */
  key: string;
  last4: string;
  createdAt: Date;
}

export type ApiKeyRefusal = 'unknown' | 'mistyped' | 'revoked' | 'blocked' | 'unverified';

export type ApiKeyCheck =
  | {
      ok: true;
      keyId: string;
      user: User;
      /** When the key stops working (a replaced key's grace), or null. */
      expiresAt: Date | null;
    }
  | { ok: false; reason: ApiKeyRefusal };

/** A key that still works at `now` (the database's clock by default): not revoked, not past its grace. */
export function stillWorks(now: Date | SQL = sql`now()`): SQL | undefined {
  return and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)));
}

/** The account's current primary key: usable, primary and not on its way out. */
function currentPrimary(userId: string): SQL | undefined {
  return and(
    eq(apiKeys.userId, userId),
    isNull(apiKeys.revokedAt),
    isNull(apiKeys.expiresAt),
    eq(apiKeys.primary, true),
  );
}

interface SecretOption {
  /** Defaults to the server secret; tests pass their own. */
  secret?: string | undefined;
}

/**
 * Issues a new primary key for an account and revokes the primary key it had at once (a replacement
 * with a grace period is {@link rollApiKey}). Only a keyed hash (for lookups) and an encrypted copy
 * (for showing it again) are stored.
 */
export function createApiKey(
  db: Db,
  userId: string,
  options: SecretOption = {},
): Promise<IssuedApiKey | null> {
  return rollApiKey(db, userId, { ...options, graceMs: 0 }).then((rolled) => rolled?.issued ?? null);
}

/**
 * Stores a new key for the account (its keyed hash, its ciphertext and its last four characters,
 * never the key) and hands the key back once.
 */
export async function insertApiKey(
  db: Db,
  userId: string,
  secret: string,
  fields: { name: string; primary: boolean },
): Promise<IssuedApiKey> {
  const key = newApiKey();
  const last4 = key.slice(-4);
  const [row] = await db
    .insert(apiKeys)
    .values({
      userId,
      keyHash: hmacHex(secret, key),
      keyCiphertext: encrypt(secret, key),
      last4,
      name: fields.name,
      primary: fields.primary,
    })
    .returning({ id: apiKeys.id, createdAt: apiKeys.createdAt });
  if (!row) throw new Error('API key insert returned no row');
  return { id: row.id, key, last4, createdAt: row.createdAt };
}

/** A primary key replaced: the new key, and when the old one stops working (null: it had none). */
export interface RolledApiKey {
  issued: IssuedApiKey;
  previous: { id: string; expiresAt: Date } | null;
}

/**
 * Replaces the account's primary key. The old one keeps working for `graceMs` (0 revokes it at
 * once), so the owner can move every program to the new key before the old one stops.
 */
export function rollApiKey(
  db: Db,
  userId: string,
  options: SecretOption & { graceMs: number; name?: string; now?: Date },
): Promise<RolledApiKey | null> {
  const secret = options.secret ?? serverSecret();
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    // Locking the owner serialises concurrent issues, so the one-primary-key index is never violated.
    const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    if (!owner) return null;
    const ends = options.graceMs > 0 ? new Date(now.getTime() + options.graceMs) : null;
    const [replaced] = await tx
      .update(apiKeys)
      .set(ends === null ? { revokedAt: now } : { expiresAt: ends })
      .where(currentPrimary(userId))
      .returning({
        id: apiKeys.id,
        name: apiKeys.name,
        expiresAt: apiKeys.expiresAt,
        revokedAt: apiKeys.revokedAt,
      });
    const issued = await insertApiKey(tx, userId, secret, {
      name: options.name ?? replaced?.name ?? 'Default key',
      primary: true,
    });
    const stops = replaced === undefined ? null : (replaced.expiresAt ?? replaced.revokedAt);
    return {
      issued,
      previous: replaced === undefined || stops === null ? null : { id: replaced.id, expiresAt: stops },
    };
  });
}

/** The account's usable key in plain text, for the dashboard; null when it has none. */
export async function revealApiKey(
  db: Db,
  userId: string,
  options: SecretOption = {},
): Promise<IssuedApiKey | null> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(currentPrimary(userId))
    .orderBy(desc(apiKeys.createdAt))
    .limit(1);
  if (!row) return null;
  const key = decrypt(options.secret ?? serverSecret(), row.keyCiphertext);
  return { id: row.id, key, last4: row.last4, createdAt: row.createdAt };
}

/**
 * The account's key in plain text when the data API would accept it (current, owner verified and
 * not blocked), else null: the site's own data calls are made with it on the signed-in user's behalf.
 */
export async function acceptedApiKey(
  db: Db,
  userId: string,
  options: SecretOption = {},
): Promise<string | null> {
  const [row] = await db
    .select({ keyCiphertext: apiKeys.keyCiphertext })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(currentPrimary(userId), eq(users.emailVerified, true), eq(users.blocked, false)))
    .orderBy(desc(apiKeys.createdAt))
    .limit(1);
  return row === undefined ? null : decrypt(options.secret ?? serverSecret(), row.keyCiphertext);
}

/** Revokes every key of the account that still works, without issuing another; true when there was one. */
export async function revokeApiKey(db: Db, userId: string): Promise<boolean> {
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.userId, userId), stillWorks()))
    .returning({ id: apiKeys.id });
  return revoked.length > 0;
}

/**
 * Decides whether a data API request may use a key. A key works only while it is the owner's current one,
 * the owner has verified the email and is not blocked; the reason says which check failed.
 */
export async function findActiveKey(
  db: Db,
  key: string,
  options: SecretOption & { now?: Date } = {},
): Promise<ApiKeyCheck> {
  if (key === '' || key.length > MAX_KEY_LENGTH) return { ok: false, reason: 'unknown' };
  // A key of the current shape whose checksum fails cannot exist: no lookup is needed to say so.
  if (keyShape(key) === 'mistyped') return { ok: false, reason: 'mistyped' };
  const [row] = await db
    .select({ keyId: apiKeys.id, revokedAt: apiKeys.revokedAt, expiresAt: apiKeys.expiresAt, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, hmacHex(options.secret ?? serverSecret(), key)))
    .limit(1);
  if (!row) return { ok: false, reason: 'unknown' };
  const now = options.now ?? new Date();
  if (row.revokedAt || (row.expiresAt !== null && row.expiresAt <= now))
    return { ok: false, reason: 'revoked' };
  if (row.user.blocked) return { ok: false, reason: 'blocked' };
  if (!row.user.emailVerified) return { ok: false, reason: 'unverified' };
  return { ok: true, keyId: row.keyId, user: row.user, expiresAt: row.expiresAt };
}
