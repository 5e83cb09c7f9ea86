import { and, desc, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { AccountSession, AccountSettings, SignInMethod } from '../../lib/dashboard-data.ts';
import { DELETE_CONFIRMATION_MESSAGE, usernameProblem } from '../../lib/form-rules.ts';
import { AUTH_LINKS } from '../../lib/routes.ts';
import { getIdentityUser } from '../auth/identity.ts';
import { revokeUserFamilies, revokeUserSessions } from '../auth/sessions.ts';
import type { Db } from '../db/client.ts';
import {
  apiKeys,
  apiRequests,
  apiUsage,
  auditLog,
  billingProfiles,
  campaigns,
  enterpriseEnquiries,
  invoices,
  outboxEmails,
  sessions,
  subscriptions,
  supportRequests,
  surveys,
  usageAlerts,
  users,
  type User,
} from '../db/schema.ts';
import { audit } from './audit-log.ts';
import { queueEmail } from './outbox.ts';

/*
 * What an account's owner manages on the settings page: the profile, the sign-ins that hold a
 * session, a copy of everything the product keeps about them, and deleting the account. Changes at
 * the identity provider (address, password, Google) are the route's part; this module keeps the
 * records here in step and audits each change in the transaction that makes it.
 */

/** Why a settings change was refused, in the words the page shows, and the field it is about. */
export class SettingsError extends Error {
  readonly status: 400 | 403 | 404 | 409;
  readonly field: string | undefined;

  constructor(message: string, status: 400 | 403 | 404 | 409, field?: string) {
    super(message);
    this.status = status;
    this.field = field;
  }
}

export const USERNAME_TAKEN_MESSAGE = 'This username is taken. Please choose another.';
export const NAME_TOO_LONG_MESSAGE = 'Names are at most 100 characters.';
export const DELETE_WITH_SUBSCRIPTION_MESSAGE =
  'Your paid subscription is still running. Cancel it on the Invoices page first; then you can delete the account.';
export const NO_ACCOUNT_MESSAGE = 'This account no longer exists.';
export const NO_SUCH_SIGN_IN_MESSAGE = 'This sign-in has already ended.';

/** The longest first or last name. */
export const NAME_MAX_LENGTH = 100;

const KNOWN_METHODS: readonly SignInMethod[] = ['password', 'google.com'];

async function ownAccount(db: Db, userId: string): Promise<User> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (row === undefined) throw new SettingsError(NO_ACCOUNT_MESSAGE, 404);
  return row;
}

/** The family (sign-in) a session row belongs to, or undefined for an unknown row. */
async function familyOf(db: Db, sessionId: string | undefined): Promise<string | undefined> {
  if (sessionId === undefined) return undefined;
  const [row] = await db
    .select({ familyId: sessions.familyId })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return row?.familyId;
}

/**
 * The account's live sign-ins, most recently active first: one entry per sign-in (a refresh
 * token's family), from its first row's time to its newest row's use.
 */
export async function listAccountSessions(
  db: Db,
  userId: string,
  currentSessionId: string | undefined,
  now: Date = new Date(),
): Promise<AccountSession[]> {
  const current = await familyOf(db, currentSessionId);
  const rows = await db
    .select({
      familyId: sessions.familyId,
      signedInAt: sql<Date>`min(${sessions.createdAt})`.mapWith(sessions.createdAt),
      lastActiveAt: sql<Date>`max(${sessions.lastUsedAt})`.mapWith(sessions.lastUsedAt),
      userAgent: sql<string>`(array_agg(${sessions.userAgent} order by ${sessions.createdAt} desc))[1]`,
      ip: sql<string>`(array_agg(${sessions.ip} order by ${sessions.createdAt} desc))[1]`,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .groupBy(sessions.familyId)
    .orderBy(desc(sql`max(${sessions.lastUsedAt})`));
  return rows.map((row) => ({
    id: row.familyId,
    current: row.familyId === current,
    signedInAt: row.signedInAt.toISOString(),
    lastActiveAt: row.lastActiveAt.toISOString(),
    userAgent: row.userAgent,
    ip: row.ip,
  }));
}

/**
 * Everything the settings page shows. The sign-in methods come from the identity provider; when it
 * cannot be asked the page still opens, saying it cannot tell.
 */
export async function accountSettings(
  db: Db,
  userId: string,
  currentSessionId: string | undefined,
): Promise<AccountSettings> {
  const user = await ownAccount(db, userId);
  const [identity, signIns] = await Promise.all([
    getIdentityUser(user.firebaseUid),
    listAccountSessions(db, userId, currentSessionId),
  ]);
  return {
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    emailVerified: user.emailVerified,
    createdAt: user.createdAt.toISOString(),
    planCode: user.planCode,
    signInMethods: identity.ok
      ? KNOWN_METHODS.filter((method) => identity.user.providers.includes(method))
      : null,
    sessions: signIns,
  };
}

/** A profile change; fields left out stay as they are. */
export interface ProfileChange {
  username?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

function cleanName(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim().replace(/\s+/g, ' ');
  if (trimmed.length > NAME_MAX_LENGTH) throw new SettingsError(NAME_TOO_LONG_MESSAGE, 400, field);
  return trimmed;
}

/**
 * Changes the username and names. A username is unique whatever its case; it is what the header's
 * avatar letter and sign-in by username use, so the change is audited with the old and new name.
 */
export async function updateProfile(db: Db, userId: string, change: ProfileChange): Promise<User> {
  const username = change.username?.trim();
  if (username !== undefined) {
    const problem = usernameProblem(username);
    if (problem !== undefined) throw new SettingsError(problem, 400, 'username');
  }
  const firstName = cleanName(change.firstName, 'firstName');
  const lastName = cleanName(change.lastName, 'lastName');
  return db.transaction(async (tx) => {
    const before = await ownAccount(tx, userId);
    if (username !== undefined && username.toLowerCase() !== before.username.toLowerCase()) {
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.username}) = ${username.toLowerCase()}`, ne(users.id, userId)))
        .limit(1);
      if (taken !== undefined) throw new SettingsError(USERNAME_TAKEN_MESSAGE, 409, 'username');
    }
    const updated = await tx
      .update(users)
      .set({
        ...(username === undefined ? {} : { username }),
        ...(firstName === undefined ? {} : { firstName }),
        ...(lastName === undefined ? {} : { lastName }),
      })
      .where(eq(users.id, userId))
      .returning()
      .catch((error: unknown) => {
        // Two owners racing for one name: the unique index decides.
        if (String((error as { cause?: unknown }).cause ?? error).includes('users_username_lower_idx')) {
          throw new SettingsError(USERNAME_TAKEN_MESSAGE, 409, 'username');
        }
        throw error;
      });
    const after = updated[0];
    if (after === undefined) throw new SettingsError(NO_ACCOUNT_MESSAGE, 404);
    const changed: Record<string, { from: string; to: string }> = {};
    for (const field of ['username', 'firstName', 'lastName'] as const) {
      if (before[field] !== after[field]) changed[field] = { from: before[field], to: after[field] };
    }
    if (Object.keys(changed).length > 0) {
      await audit(tx, {
        actorUserId: userId,
        action: 'profile_update',
        targetUserId: userId,
        details: changed,
      });
    }
    return after;
  });
}

/** Ends one of the account's sign-ins (a family); false when it had already ended. */
export async function endAccountSession(db: Db, userId: string, familyId: string): Promise<boolean> {
  const ended = await revokeUserFamilies(db, userId, { only: familyId });
  if (ended.length === 0) return false;
  await audit(db, {
    actorUserId: userId,
    action: 'sessions_end',
    targetUserId: userId,
    details: { signIns: 1 },
  });
  return true;
}

/**
 * Ends every sign-in of the account but the one asking ("sign out other sessions"); answers how
 * many sign-ins ended.
 */
export async function endOtherSessions(
  db: Db,
  userId: string,
  currentSessionId: string | undefined,
): Promise<number> {
  const keep = await familyOf(db, currentSessionId);
  const ended = await revokeUserFamilies(db, userId, { except: keep });
  if (ended.length === 0) return 0;
  await audit(db, {
    actorUserId: userId,
    action: 'sessions_end',
    targetUserId: userId,
    details: { signIns: ended.length },
  });
  return ended.length;
}

/** Everything the product keeps about an account, as its owner downloads it. */
export interface AccountExport {
  exportedAt: string;
  account: Omit<User, 'firebaseUid'> & { identityId: string };
  apiKeys: Record<string, unknown>[];
  usage: Record<string, unknown>[];
  requestLog: Record<string, unknown>[];
  usageAlerts: Record<string, unknown>[];
  sessions: Record<string, unknown>[];
  questionnaire: Record<string, unknown>[];
  campaigns: Record<string, unknown>[];
  subscription: Record<string, unknown> | null;
  billingProfile: Record<string, unknown> | null;
  invoices: Record<string, unknown>[];
  supportRequests: Record<string, unknown>[];
  enterpriseEnquiries: Record<string, unknown>[];
  emails: Record<string, unknown>[];
  auditTrail: Record<string, unknown>[];
}

/**
 * A copy of the account's data (GDPR art. 15 and 20): every row kept about the account, without
 * the secrets that stand for it (key and refresh-token hashes, the encrypted key). The export
 * itself is audited, so the owner can see when copies were made.
 */
export async function exportAccount(db: Db, userId: string, now: Date = new Date()): Promise<AccountExport> {
  const user = await ownAccount(db, userId);
  const email = user.email.toLowerCase();
  const keyRows = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      primary: apiKeys.primary,
      last4: apiKeys.last4,
      createdAt: apiKeys.createdAt,
      expiresAt: apiKeys.expiresAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.userId, userId));
  const keyIds = keyRows.map((row) => row.id);
  const [
    usage,
    requestLog,
    alerts,
    signIns,
    questionnaire,
    campaignRows,
    subscription,
    billingProfile,
    invoiceRows,
    support,
    enquiries,
    emails,
    trail,
  ] = await Promise.all([
    keyIds.length === 0
      ? Promise.resolve([])
      : db.select().from(apiUsage).where(inArray(apiUsage.apiKeyId, keyIds)).orderBy(apiUsage.day),
    db.select().from(apiRequests).where(eq(apiRequests.userId, userId)).orderBy(desc(apiRequests.at)),
    db.select().from(usageAlerts).where(eq(usageAlerts.userId, userId)),
    db
      .select({
        familyId: sessions.familyId,
        createdAt: sessions.createdAt,
        lastUsedAt: sessions.lastUsedAt,
        expiresAt: sessions.expiresAt,
        revokedAt: sessions.revokedAt,
        userAgent: sessions.userAgent,
        ip: sessions.ip,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(sessions.createdAt),
    db
      .select()
      .from(surveys)
      .where(sql`lower(${surveys.email}) = ${email}`),
    db
      .select()
      .from(campaigns)
      .where(sql`lower(${campaigns.email}) = ${email}`),
    db.select().from(subscriptions).where(eq(subscriptions.userId, userId)),
    db.select().from(billingProfiles).where(eq(billingProfiles.userId, userId)),
    db.select().from(invoices).where(eq(invoices.userId, userId)),
    db.select().from(supportRequests).where(eq(supportRequests.userId, userId)),
    db.select().from(enterpriseEnquiries).where(eq(enterpriseEnquiries.userId, userId)),
    db.select().from(outboxEmails).where(eq(outboxEmails.email, email)).orderBy(outboxEmails.createdAt),
    db
      .select({ action: auditLog.action, at: auditLog.createdAt, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.targetUserId, userId))
      .orderBy(auditLog.createdAt),
  ]);
  await audit(db, { actorUserId: userId, action: 'data_export', targetUserId: userId });
  const { firebaseUid, ...account } = user;
  return {
    exportedAt: now.toISOString(),
    account: { ...account, identityId: firebaseUid },
    apiKeys: keyRows,
    usage,
    requestLog,
    usageAlerts: alerts,
    sessions: signIns,
    questionnaire,
    campaigns: campaignRows,
    subscription: subscription[0] ?? null,
    billingProfile: billingProfile[0] ?? null,
    invoices: invoiceRows,
    supportRequests: support,
    enterpriseEnquiries: enquiries,
    emails,
    auditTrail: trail,
  };
}

/** Whether a paid subscription still renews, which deleting the account would leave charging. */
async function renewingSubscription(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ status: subscriptions.status, cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd })
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId));
  return (
    row !== undefined && (row.status === 'active' || row.status === 'past_due') && !row.cancelAtPeriodEnd
  );
}

/** Refuses a deletion that must not go ahead: a wrong confirmation or a subscription still renewing. */
export async function checkDeletion(db: Db, userId: string, confirmation: string): Promise<User> {
  const user = await ownAccount(db, userId);
  if (confirmation.trim() !== user.username) {
    throw new SettingsError(DELETE_CONFIRMATION_MESSAGE, 400, 'confirmation');
  }
  if (await renewingSubscription(db, userId)) throw new SettingsError(DELETE_WITH_SUBSCRIPTION_MESSAGE, 409);
  return user;
}

/**
 * Deletes the account here, in one transaction: keys revoked (and then removed with the account),
 * sessions ended, every row about the owner removed, and the audit trail kept without personal
 * data (its rows about the account lose their link and any address or name in their details).
 * One last email says it is done. The identity at the provider is the route's part, done first.
 */
export async function deleteAccount(db: Db, user: User, now: Date = new Date()): Promise<void> {
  const email = user.email.toLowerCase();
  await db.transaction(async (tx) => {
    await tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.userId, user.id), isNull(apiKeys.revokedAt)));
    await tx
      .update(auditLog)
      .set({ details: sql`${auditLog.details} - 'email' - 'from' - 'to' - 'username' - 'name'` })
      .where(eq(auditLog.targetUserId, user.id));
    await tx.delete(surveys).where(sql`lower(${surveys.email}) = ${email}`);
    await tx.delete(campaigns).where(sql`lower(${campaigns.email}) = ${email}`);
    await tx.delete(supportRequests).where(eq(supportRequests.userId, user.id));
    await tx.delete(enterpriseEnquiries).where(eq(enterpriseEnquiries.userId, user.id));
    await tx.delete(outboxEmails).where(eq(outboxEmails.email, email));
    await audit(tx, {
      actorUserId: user.id,
      action: 'account_delete',
      targetUserId: user.id,
      details: { deletedUserId: user.id, plan: user.planCode },
    });
    // Keys, usage, the request log, sessions, alerts, billing and invoices go with the account.
    await tx.delete(users).where(eq(users.id, user.id));
    await queueEmail(tx, {
      email,
      kind: 'ACCOUNT_DELETED',
      subject: 'Your account was deleted',
      body: 'Your account and its API keys were deleted at your request. The keys stopped working at once, and the data we kept about you has been removed. If you did not do this, write to us at once from the help page.',
      link: AUTH_LINKS.signUp,
    });
  });
  // The rows went with the account; this drops the answers about them cached in this process.
  await revokeUserSessions(db, user.id, now);
}
