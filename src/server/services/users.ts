import { CHOSEN_USERNAME_MAX_LENGTH, USERNAME_PATTERN, USERNAME_RULE_MESSAGE } from '../../lib/form-rules.ts';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pricePlans, sessions, users, type User, type UserRole } from '../db/schema.ts';
import { audit } from './audit-log.ts';

export interface CreateUserInput {
  firebaseUid: string;
  email: string;
  /** Chosen name; derived from the email when absent. */
  username?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  emailVerified?: boolean | undefined;
  referralCode?: string | null | undefined;
}

/** An account with this email or identity already exists; the caller answers 'User already exists.'. */
export class DuplicateUserError extends Error {
  readonly field: 'email' | 'firebaseUid' | 'username';

  constructor(field: 'email' | 'firebaseUid' | 'username') {
    super(`A user with this ${field} already exists`);
    this.name = 'DuplicateUserError';
    this.field = field;
  }
}

/** setPlan was given a code that is not in the catalogue. */
export class UnknownPlanError extends Error {
  constructor(planCode: string) {
    super(`Unknown plan code ${planCode}`);
    this.name = 'UnknownPlanError';
  }
}

const USERNAME_MAX = CHOSEN_USERNAME_MAX_LENGTH;
const CREATE_ATTEMPTS = 5;

/** Sign-in accepts either; an '@' can only be an email, because usernames never contain one. */
export async function findUserByLogin(db: Db, login: string): Promise<User | null> {
  const value = login.trim();
  if (value === '') return null;
  const column = value.includes('@') ? users.email : users.username;
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${column}) = lower(${value})`)
    .limit(1);
  return row ?? null;
}

/** The account behind a verified identity-provider token. */
export async function findUserByFirebaseUid(db: Db, firebaseUid: string): Promise<User | null> {
  const [row] = await db.select().from(users).where(eq(users.firebaseUid, firebaseUid)).limit(1);
  return row ?? null;
}

export async function findUserById(db: Db, userId: string): Promise<User | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/** The readable base of a username made from an address: 'Jo.Smith+x@…' gives 'jo.smith'. */
export function usernameBase(email: string): string {
  const local = (email.split('@')[0] ?? '').split('+')[0] ?? '';
  const cleaned = local
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '')
    .replace(/^[._-]+/, '')
    .slice(0, USERNAME_MAX - 6);
  return cleaned === '' ? 'user' : cleaned;
}

/** The first free name among base, base2, base3…, looking at what is taken rather than trying one by one. */
async function freeUsername(db: Db, base: string): Promise<string> {
  const pattern = `${base.replace(/[\\%_]/g, '\\$&')}%`;
  const taken = await db
    .select({ username: users.username })
    .from(users)
    .where(sql`lower(${users.username}) like ${pattern}`);
  const names = new Set(taken.map((row) => row.username.toLowerCase()));
  if (!names.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}${n}`;
    if (!names.has(candidate)) return candidate;
  }
}

async function duplicateField(db: Db, input: CreateUserInput): Promise<'email' | 'firebaseUid' | null> {
  const [row] = await db
    .select({ email: users.email, firebaseUid: users.firebaseUid })
    .from(users)
    .where(or(eq(users.firebaseUid, input.firebaseUid), sql`lower(${users.email}) = lower(${input.email})`))
    .limit(1);
  if (!row) return null;
  return row.firebaseUid === input.firebaseUid ? 'firebaseUid' : 'email';
}

/**
 * Creates the local account for an identity. Without a chosen username one is made from the email, with
 * digits appended when taken; a race for the same name just moves on to the next number.
 */
export async function createUser(db: Db, input: CreateUserInput): Promise<User> {
  const email = input.email.trim();
  const chosen = input.username?.trim();
  if (chosen !== undefined && (!USERNAME_PATTERN.test(chosen) || chosen.length > USERNAME_MAX)) {
    throw new RangeError(USERNAME_RULE_MESSAGE);
  }
  for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt += 1) {
    const username = chosen ?? (await freeUsername(db, usernameBase(email)));
    const [row] = await db
      .insert(users)
      .values({
        firebaseUid: input.firebaseUid,
        email,
        username,
        firstName: input.firstName ?? '',
        lastName: input.lastName ?? '',
        emailVerified: input.emailVerified ?? false,
        referralCode: input.referralCode ?? null,
      })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
    const duplicate = await duplicateField(db, { ...input, email });
    if (duplicate) throw new DuplicateUserError(duplicate);
    if (chosen !== undefined) throw new DuplicateUserError('username');
  }
  throw new Error(`No free username found after ${CREATE_ATTEMPTS} attempts`);
}

/** Records that the identity provider has confirmed the address, which is what lets API keys work. */
export async function markEmailVerified(db: Db, userId: string): Promise<User | null> {
  const [row] = await db.update(users).set({ emailVerified: true }).where(eq(users.id, userId)).returning();
  return row ?? null;
}

async function lockUser(db: Db, userId: string): Promise<User | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
  return row ?? null;
}

/**
 * What an audit entry records beside the change itself: why (an administrator's reason) and through
 * what (the console, the command line).
 */
export type AuditExtra = Record<string, unknown>;

/**
 * Blocks or unblocks an account, audited in the same transaction. Blocking also revokes every refresh
 * token, so existing sign-ins end at their next refresh rather than when they expire.
 */
export function setBlocked(
  db: Db,
  userId: string,
  blocked: boolean,
  actorId: string | null,
  extra: AuditExtra = {},
): Promise<User | null> {
  return db.transaction(async (tx) => {
    const before = await lockUser(tx, userId);
    if (!before) return null;
    const [row] = await tx.update(users).set({ blocked }).where(eq(users.id, userId)).returning();
    if (blocked) {
      await tx
        .update(sessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    }
    await audit(tx, {
      actorUserId: actorId,
      action: blocked ? 'block' : 'unblock',
      targetUserId: userId,
      details: { ...extra, from: before.blocked, to: blocked },
    });
    return row ?? null;
  });
}

/** Changes an account's role, audited in the same transaction. */
export function setRole(
  db: Db,
  userId: string,
  role: UserRole,
  actorId: string | null,
  extra: AuditExtra = {},
): Promise<User | null> {
  return db.transaction(async (tx) => {
    const before = await lockUser(tx, userId);
    if (!before) return null;
    const [row] = await tx.update(users).set({ role }).where(eq(users.id, userId)).returning();
    await audit(tx, {
      actorUserId: actorId,
      action: 'role_change',
      targetUserId: userId,
      details: { ...extra, from: before.role, to: role },
    });
    return row ?? null;
  });
}

/**
 * Moves an account to another catalogue plan, audited in the same transaction. Premium follows the plan:
 * any paid plan is premium, the free one is not.
 */
export function setPlan(
  db: Db,
  userId: string,
  planCode: string,
  actorId: string | null,
  extra: AuditExtra = {},
): Promise<User | null> {
  return db.transaction(async (tx) => {
    const [plan] = await tx.select().from(pricePlans).where(eq(pricePlans.code, planCode)).limit(1);
    if (!plan) throw new UnknownPlanError(planCode);
    const before = await lockUser(tx, userId);
    if (!before) return null;
    const isPremium = plan.priceCents > 0;
    const [row] = await tx.update(users).set({ planCode, isPremium }).where(eq(users.id, userId)).returning();
    await audit(tx, {
      actorUserId: actorId,
      action: 'plan_change',
      targetUserId: userId,
      details: { ...extra, from: before.planCode, to: planCode },
    });
    return row ?? null;
  });
}
