import { randomUUID } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import { serverSecret } from './crypto.ts';
import {
  REFRESH_ABSOLUTE_LIFETIME_SECONDS,
  childRefreshToken,
  hashRefreshToken,
  looksLikeRefreshToken,
  newRefreshToken,
  sessionExpiry,
} from './tokens.ts';

/**
 * How long a just-rotated refresh token is still answered, with the token that replaced it: two tabs
 * or a retried request refreshing at once must not sign the user out. Presented later, it is reuse.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

/** How many rotations one late token may be followed through within the grace. */
const GRACE_HOPS = 3;

/**
 * How long the caller middleware may trust an earlier answer about a session. Revocations made in
 * this process take effect at once; those made by another process are seen within this time.
 */
export const SESSION_CHECK_CACHE_MS = 5000;

const SESSION_CHECK_CACHE_ENTRIES = 10_000;
const CLIENT_FIELD_LIMIT = 512;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where a sign-in came from, kept so a user or support can tell sessions apart. */
export interface SessionClient {
  userAgent?: string | undefined;
  ip?: string | undefined;
}

export interface StartSessionOptions extends SessionClient {
  now?: Date | undefined;
  /** Shorter than the absolute lifetime for sessions that must end early (impersonation). */
  lifetimeSeconds?: number | undefined;
}

/** A new session; the refresh token exists only here and in the client's cookie, never in the database. */
export interface IssuedSession {
  sessionId: string;
  familyId: string;
  refreshToken: string;
}

/** The next link of a rotated session, with the account it belongs to. */
export interface RotatedSession extends IssuedSession {
  userId: string;
}

/** Why a refresh token was refused; 'reused' means a rotated token came back and its family was ended. */
export type RotationFailure = 'unknown' | 'expired' | 'revoked' | 'reused';

export type RotateResult = ({ ok: true } & RotatedSession) | { ok: false; reason: RotationFailure };

/** The account behind a live session, as the caller middleware needs it. */
export interface SessionOwner {
  userId: string;
  role: string;
  planCode: string;
}

interface CachedCheck {
  owner: SessionOwner | null;
  userId: string | null;
  until: number;
}

// Per database, so tests that open several databases in one process never see each other's answers.
const checkCache = new WeakMap<Db, Map<string, CachedCheck>>();

function cacheFor(db: Db): Map<string, CachedCheck> {
  let cache = checkCache.get(db);
  if (!cache) {
    cache = new Map();
    checkCache.set(db, cache);
  }
  return cache;
}

function forgetSessions(db: Db, sessionIds: readonly string[]): void {
  const cache = cacheFor(db);
  for (const id of sessionIds) cache.delete(id);
}

function clip(value: string | undefined): string {
  return (value ?? '').slice(0, CLIENT_FIELD_LIMIT);
}

/**
 * Starts a sign-in: a new family whose first refresh token is returned once. Every later token of
 * the sign-in is a new row of the same family, so the family is the unit that logout and reuse end.
 */
export async function startSession(
  db: Db,
  userId: string,
  options: StartSessionOptions = {},
): Promise<IssuedSession> {
  const now = options.now ?? new Date();
  const lifetime = Math.min(
    options.lifetimeSeconds ?? REFRESH_ABSOLUTE_LIFETIME_SECONDS,
    REFRESH_ABSOLUTE_LIFETIME_SECONDS,
  );
  if (!Number.isInteger(lifetime) || lifetime < 1)
    throw new RangeError('session lifetime must be whole seconds');
  const { token, hash } = newRefreshToken();
  const familyId = randomUUID();
  const [row] = await db
    .insert(sessions)
    .values({
      userId,
      familyId,
      tokenHash: hash,
      createdAt: now,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + lifetime * 1000),
      userAgent: clip(options.userAgent),
      ip: clip(options.ip),
    })
    .returning({ id: sessions.id });
  if (!row) throw new Error('Session insert returned no row');
  return { sessionId: row.id, familyId, refreshToken: token };
}

/** Ends every session of a family; answers the ids it ended so cached answers can be dropped. */
async function revokeFamily(db: Db, familyId: string, now: Date): Promise<string[]> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.familyId, familyId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  const ids = revoked.map((row) => row.id);
  forgetSessions(db, ids);
  return ids;
}

type SessionRow = typeof sessions.$inferSelect;

/**
 * The live session that replaced a token rotated less than the grace ago, with its token, following
 * later rotations within the grace too; undefined when the token is stale or its successor is gone.
 */
async function graceSuccessor(
  db: Db,
  rotated: SessionRow,
  token: string,
  now: Date,
): Promise<({ ok: true } & RotatedSession) | undefined> {
  let parent = rotated;
  let parentToken = token;
  for (let hop = 0; hop < GRACE_HOPS; hop += 1) {
    if (parent.replacedAt === null || now.getTime() - parent.replacedAt.getTime() > REFRESH_REUSE_GRACE_MS)
      return undefined;
    const child = childRefreshToken(parentToken, serverSecret());
    const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, child.hash)).limit(1);
    if (!row || row.revokedAt || row.familyId !== parent.familyId) return undefined;
    if (row.replacedAt === null) {
      return {
        ok: true,
        sessionId: row.id,
        familyId: row.familyId,
        userId: row.userId,
        refreshToken: child.token,
      };
    }
    parent = row;
    parentToken = child.token;
  }
  return undefined;
}

/**
 * Exchanges a refresh token for the next one. Rows of a family share created_at (the sign-in) and
 * expires_at, so the absolute limit counts from sign-in while the idle limit counts from the last
 * rotation. The next token is derived from the old one, so a token rotated less than
 * REFRESH_REUSE_GRACE_MS ago is answered with the same next token (racing tabs, retries); presented
 * later it is a stolen copy or a replay and the whole family ends. The old row is claimed with a
 * conditional update, so of concurrent rotations exactly one creates the next session.
 */
export async function rotateSession(
  db: Db,
  refreshToken: string,
  now: Date = new Date(),
): Promise<RotateResult> {
  if (!looksLikeRefreshToken(refreshToken)) return { ok: false, reason: 'unknown' };
  const [row] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.tokenHash, hashRefreshToken(refreshToken)))
    .limit(1);
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.revokedAt) return { ok: false, reason: 'revoked' };
  if (row.replacedAt) {
    const successor = await graceSuccessor(db, row, refreshToken, now);
    if (successor) return successor;
    await revokeFamily(db, row.familyId, now);
    return { ok: false, reason: 'reused' };
  }
  if (
    now.getTime() >= row.expiresAt.getTime() ||
    sessionExpiry(row.createdAt, row.lastUsedAt, now) !== 'valid'
  ) {
    return { ok: false, reason: 'expired' };
  }
  const next = childRefreshToken(refreshToken, serverSecret());
  const rotated = await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(sessions)
      .set({ replacedAt: now })
      .where(and(eq(sessions.id, row.id), isNull(sessions.replacedAt), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    if (!claimed) return null;
    const [inserted] = await tx
      .insert(sessions)
      .values({
        userId: row.userId,
        familyId: row.familyId,
        tokenHash: next.hash,
        createdAt: row.createdAt,
        lastUsedAt: now,
        expiresAt: row.expiresAt,
        userAgent: row.userAgent,
        ip: row.ip,
      })
      .returning({ id: sessions.id });
    if (!inserted) throw new Error('Session insert returned no row');
    return inserted.id;
  });
  if (rotated === null) {
    const [current] = await db.select().from(sessions).where(eq(sessions.id, row.id)).limit(1);
    if (current?.revokedAt) return { ok: false, reason: 'revoked' };
    const successor = current ? await graceSuccessor(db, current, refreshToken, now) : undefined;
    if (successor) return successor;
    await revokeFamily(db, row.familyId, now);
    return { ok: false, reason: 'reused' };
  }
  return {
    ok: true,
    sessionId: rotated,
    familyId: row.familyId,
    userId: row.userId,
    refreshToken: next.token,
  };
}

/** Ends the sign-in a session belongs to (its whole family); false when there was nothing to end. */
export async function revokeSession(db: Db, sessionId: string, now: Date = new Date()): Promise<boolean> {
  if (!UUID_PATTERN.test(sessionId)) return false;
  const [row] = await db
    .select({ familyId: sessions.familyId })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  if (!row) return false;
  return (await revokeFamily(db, row.familyId, now)).length > 0;
}

/** Ends the sign-in a refresh token belongs to, for logout with only the cookie at hand. */
export async function revokeSessionByRefreshToken(
  db: Db,
  refreshToken: string,
  now: Date = new Date(),
): Promise<boolean> {
  if (!looksLikeRefreshToken(refreshToken)) return false;
  const [row] = await db
    .select({ familyId: sessions.familyId })
    .from(sessions)
    .where(eq(sessions.tokenHash, hashRefreshToken(refreshToken)))
    .limit(1);
  if (!row) return false;
  return (await revokeFamily(db, row.familyId, now)).length > 0;
}

/** Ends every sign-in of an account (blocking, password change); answers how many sessions ended. */
export async function revokeUserSessions(db: Db, userId: string, now: Date = new Date()): Promise<number> {
  const cache = cacheFor(db);
  for (const [id, entry] of cache) if (entry.userId === userId) cache.delete(id);
  if (!UUID_PATTERN.test(userId)) return 0;
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  forgetSessions(
    db,
    revoked.map((row) => row.id),
  );
  return revoked.length;
}

/**
 * Ends sign-ins of one account chosen by family: `only` that one, or all `except` that one (the
 * settings page's "sign out" and "sign out other sessions"). Answers the families it ended; the
 * cached answers about their sessions are dropped, so their access tokens stop here at once.
 */
export async function revokeUserFamilies(
  db: Db,
  userId: string,
  choice: { only: string } | { except: string | undefined },
  now: Date = new Date(),
): Promise<string[]> {
  if (!UUID_PATTERN.test(userId)) return [];
  const family =
    'only' in choice
      ? eq(sessions.familyId, choice.only)
      : choice.except === undefined
        ? undefined
        : ne(sessions.familyId, choice.except);
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), family))
    .returning({ id: sessions.id, familyId: sessions.familyId });
  forgetSessions(
    db,
    revoked.map((row) => row.id),
  );
  return [...new Set(revoked.map((row) => row.familyId))];
}

/** One session row as the end of an administrator's switch reads it. */
export interface SessionRecord {
  id: string;
  userId: string;
  userAgent: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

/** The session with this id, live or not; undefined for an unknown or malformed id. */
export async function findSession(db: Db, sessionId: string): Promise<SessionRecord | undefined> {
  if (!UUID_PATTERN.test(sessionId)) return undefined;
  const [row] = await db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
    })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return row;
}

/**
 * Ends every session of an account not yet ended whose client field is exactly `userAgent`: an
 * administrator's switches into an account are marked there, so returning ends each of them (the
 * switch's own and any its identity token started). Run inside the transaction that records the
 * end; the caller then drops the cached answers with {@link forgetSessionChecks}, since the cache
 * is kept per database handle and a transaction's handle is another.
 */
export async function revokeMarkedSessions(
  db: Db,
  userId: string,
  userAgent: string,
  now: Date = new Date(),
): Promise<string[]> {
  if (!UUID_PATTERN.test(userId)) return [];
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), eq(sessions.userAgent, userAgent), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return revoked.map((row) => row.id);
}

/** Drops the cached answers about sessions ended through another handle (a transaction), so they stop at once. */
export function forgetSessionChecks(db: Db, sessionIds: readonly string[]): void {
  forgetSessions(db, sessionIds);
}

/**
 * Whether access tokens naming this session may still be honoured: not revoked and within its
 * absolute end. A rotated row stays active, because access tokens minted before the rotation live
 * on for their few minutes; ending the sign-in revokes every row of the family.
 */
export async function isSessionActive(db: Db, sessionId: string, now: Date = new Date()): Promise<boolean> {
  if (!UUID_PATTERN.test(sessionId)) return false;
  const [row] = await db
    .select({ revokedAt: sessions.revokedAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  if (!row) return false;
  return row.revokedAt === null && now.getTime() < row.expiresAt.getTime();
}

function ownerIfActive(
  row: SessionOwner & { blocked: boolean; revokedAt: Date | null; expiresAt: Date },
  clock: number,
): SessionOwner | null {
  if (row.revokedAt !== null || row.blocked || clock >= row.expiresAt.getTime()) return null;
  return { userId: row.userId, role: row.role, planCode: row.planCode };
}

/**
 * The account behind an active session if that account is not blocked, else null. Role and plan
 * come from the account as it is now, so a demoted admin loses admin rights at once. Answers are
 * cached for {@link SESSION_CHECK_CACHE_MS}, because every signed-in request asks.
 */
export async function sessionOwner(
  db: Db,
  sessionId: string,
  options: { now?: Date | undefined } = {},
): Promise<SessionOwner | null> {
  if (!UUID_PATTERN.test(sessionId)) return null;
  const cache = cacheFor(db);
  const clock = options.now?.getTime() ?? Date.now();
  const cached = options.now === undefined ? cache.get(sessionId) : undefined;
  if (cached && cached.until > clock) return cached.owner;
  const [row] = await db
    .select({
      userId: users.id,
      role: users.role,
      planCode: users.planCode,
      blocked: users.blocked,
      revokedAt: sessions.revokedAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sessionId))
    .limit(1);
  const owner = row ? ownerIfActive(row, clock) : null;
  if (options.now === undefined) {
    cache.delete(sessionId);
    if (cache.size >= SESSION_CHECK_CACHE_ENTRIES) {
      const oldest = cache.keys().next();
      if (oldest.done !== true) cache.delete(oldest.value);
    }
    cache.set(sessionId, { owner, userId: row?.userId ?? null, until: clock + SESSION_CHECK_CACHE_MS });
  }
  return owner;
}
