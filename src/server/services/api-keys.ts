import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { decrypt, encrypt, hmacHex, randomToken, serverSecret } from '../auth/crypto.ts';
import type { Db } from '../db/client.ts';
import { apiKeys, users, type User } from '../db/schema.ts';

/** 32 random bytes: 256 bits, written as 43 base64url characters. */
export const API_KEY_BYTES = 32;

// Longer input cannot be one of our keys; refusing it early saves hashing attacker-sized strings.
const MAX_KEY_LENGTH = 128;

export interface IssuedApiKey {
  id: string;
  /** The key in plain text; shown to the owner, never logged. */
  key: string;
  last4: string;
  createdAt: Date;
}

export type ApiKeyRefusal = 'unknown' | 'revoked' | 'blocked' | 'unverified';

export type ApiKeyCheck = { ok: true; keyId: string; user: User } | { ok: false; reason: ApiKeyRefusal };

interface SecretOption {
  /** Defaults to the server secret; tests pass their own. */
  secret?: string | undefined;
}

/**
 * Issues a new key for an account and revokes the one it had, so an account has one usable key at a time.
 * Only a keyed hash (for lookups) and an encrypted copy (for showing it again) are stored.
 */
export function createApiKey(
  db: Db,
  userId: string,
  options: SecretOption = {},
): Promise<IssuedApiKey | null> {
  const secret = options.secret ?? serverSecret();
  return db.transaction(async (tx) => {
    // Locking the owner serialises concurrent issues, so the one-active-key index is never violated.
    const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    if (!owner) return null;
    await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    const key = randomToken(API_KEY_BYTES);
    const last4 = key.slice(-4);
    const [row] = await tx
      .insert(apiKeys)
      .values({ userId, keyHash: hmacHex(secret, key), keyCiphertext: encrypt(secret, key), last4 })
      .returning({ id: apiKeys.id, createdAt: apiKeys.createdAt });
    if (!row) throw new Error('API key insert returned no row');
    return { id: row.id, key, last4, createdAt: row.createdAt };
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
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
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
    .where(
      and(
        eq(apiKeys.userId, userId),
        isNull(apiKeys.revokedAt),
        eq(users.emailVerified, true),
        eq(users.blocked, false),
      ),
    )
    .orderBy(desc(apiKeys.createdAt))
    .limit(1);
  return row === undefined ? null : decrypt(options.secret ?? serverSecret(), row.keyCiphertext);
}

/** Revokes the account's usable key without issuing another; true when there was one. */
export async function revokeApiKey(db: Db, userId: string): Promise<boolean> {
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return revoked.length > 0;
}

/**
 * Decides whether a data API request may use a key. A key works only while it is the owner's current one,
 * the owner has verified the email and is not blocked; the reason says which check failed.
 */
export async function findActiveKey(db: Db, key: string, options: SecretOption = {}): Promise<ApiKeyCheck> {
  if (key === '' || key.length > MAX_KEY_LENGTH) return { ok: false, reason: 'unknown' };
  const [row] = await db
    .select({ keyId: apiKeys.id, revokedAt: apiKeys.revokedAt, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, hmacHex(options.secret ?? serverSecret(), key)))
    .limit(1);
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.revokedAt) return { ok: false, reason: 'revoked' };
  if (row.user.blocked) return { ok: false, reason: 'blocked' };
  if (!row.user.emailVerified) return { ok: false, reason: 'unverified' };
  return { ok: true, keyId: row.keyId, user: row.user };
}
