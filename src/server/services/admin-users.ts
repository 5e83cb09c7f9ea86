import { and, asc, desc, eq, gte, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  ID_PATTERN,
  USER_PAGE_LIMIT,
  type AdminAuditEntry,
  type AdminKey,
  type AdminSession,
  type AdminUserDetail,
  type AdminUserPage,
  type AdminUserRow,
  type UserSearch,
  type UserSort,
} from '../../lib/admin.ts';
import { DAY_MS, isIsoDate, isoDay, isoDayStart, isoDaysThrough, shiftIsoDays } from '../../lib/iso-date.ts';
import { IMPERSONATION_MARK } from '../auth/sign-in.ts';
import type { Db } from '../db/client.ts';
import {
  apiKeys,
  apiRequests,
  apiUsage,
  auditLog,
  sessions,
  subscriptions,
  users,
  type User,
} from '../db/schema.ts';

/** A console list query the server cannot run (a users search, an audit page), in words. */
export class AdminQueryError extends Error {}

/** How many days of usage, requests and audit entries a user's page shows. */
export const USER_PAGE_DAYS = 30;
const RECENT_REQUESTS = 25;
const RECENT_AUDIT = 50;

/** The one row shape of the list and of every action's answer. */
export function adminUserRow(user: User): AdminUserRow {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    planCode: user.planCode,
    blocked: user.blocked,
    emailVerified: user.emailVerified,
    legacy: user.legacy,
    createdAt: user.createdAt.toISOString(),
  };
}

/** The sort column as SQL; text columns sort without case, matching how they are searched. */
function sortColumn(sort: UserSort): SQL {
  switch (sort) {
    case 'email':
      return sql`lower(${users.email})`;
    case 'username':
      return sql`lower(${users.username})`;
    case 'planCode':
      return sql`${users.planCode}`;
    case 'createdAt':
      return sql`${users.createdAt}`;
  }
}

type Cursor = [value: string, id: string];

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** A cursor this service handed out; `field` names the parameter that brought it back. */
function decodeCursor(raw: string, field: string): Cursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string' &&
      ID_PATTERN.test(parsed[1])
    ) {
      return [parsed[0], parsed[1]];
    }
  } catch {
    // Falls through to the refusal below.
  }
  throw new AdminQueryError(`${field} must be the nextCursor of an earlier page.`);
}

/** A `from`/`to` day (YYYY-MM-DD) as the instant it starts. */
function dayStart(day: string, field: string): Date {
  if (!isIsoDate(day)) throw new AdminQueryError(`${field} must be a date written YYYY-MM-DD.`);
  return new Date(isoDayStart(day));
}

/** Escapes LIKE's wildcards so a search for "a_b" matches that text, not "aXb". */
function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function searchText(q: string): SQL | undefined {
  const text = q.trim().toLowerCase();
  if (text === '') return undefined;
  if (ID_PATTERN.test(text)) return eq(users.id, text);
  const prefix = likePrefix(text);
  return or(sql`lower(${users.email}) like ${prefix}`, sql`lower(${users.username}) like ${prefix}`);
}

/**
 * One page of the console's users list: text matching the start of an address or username (or a
 * whole id), the filters, one sort column with the id breaking ties, and keyset paging so that a page
 * deep in a long list costs what the first one does.
 */
export async function searchUsers(db: Db, search: UserSearch): Promise<AdminUserPage> {
  const sort = search.sort ?? 'createdAt';
  const order = search.order ?? (sort === 'createdAt' ? 'desc' : 'asc');
  const limit = Math.min(Math.max(Math.trunc(search.limit ?? 50), 1), USER_PAGE_LIMIT);
  const column = sortColumn(sort);
  const conditions: (SQL | undefined)[] = [searchText(search.q ?? '')];
  if (search.plan !== undefined) conditions.push(eq(users.planCode, search.plan));
  if (search.role !== undefined) conditions.push(eq(users.role, search.role as User['role']));
  if (search.blocked !== undefined) conditions.push(eq(users.blocked, search.blocked));
  if (search.verified !== undefined) conditions.push(eq(users.emailVerified, search.verified));
  if (search.legacy !== undefined) conditions.push(eq(users.legacy, search.legacy));
  if (search.from !== undefined) conditions.push(gte(users.createdAt, dayStart(search.from, 'from')));
  if (search.to !== undefined) {
    conditions.push(lt(users.createdAt, new Date(dayStart(search.to, 'to').getTime() + DAY_MS)));
  }
  if (search.from !== undefined && search.to !== undefined && search.from > search.to) {
    throw new AdminQueryError('from must not be after to.');
  }
  if (search.cursor !== undefined) {
    const [value, id] = decodeCursor(search.cursor, 'cursor');
    const typed = sort === 'createdAt' ? sql`${value}::timestamptz` : sql`${value}`;
    conditions.push(
      order === 'desc'
        ? sql`(${column}, ${users.id}) < (${typed}, ${id}::uuid)`
        : sql`(${column}, ${users.id}) > (${typed}, ${id}::uuid)`,
    );
  }
  const direction = order === 'desc' ? desc : asc;
  const rows = await db
    .select({
      user: users,
      // The sort value as the database holds it: timestamps keep their microseconds, which a
      // JavaScript Date would drop, so the next page starts exactly after this one.
      sortValue: sql<string>`(${column})::text`,
    })
    .from(users)
    .where(and(...conditions))
    .orderBy(direction(column), direction(users.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last !== undefined ? encodeCursor([last.sortValue, last.user.id]) : null;
  return { users: page.map((row) => adminUserRow(row.user)), nextCursor };
}

function keyStatus(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): AdminKey['status'] {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt === null) return 'active';
  return key.expiresAt.getTime() > now.getTime() ? 'expiring' : 'expired';
}

/**
 * Audit entries newest first with the usernames of both sides, where the accounts still exist, and
 * the cursor after the last one: its time as the database holds it, with microseconds, so a page
 * starts exactly after the one before even when entries share a millisecond.
 */
async function auditRows(
  db: Db,
  where: SQL | undefined,
  limit: number,
  before?: Cursor,
): Promise<{ entries: AdminAuditEntry[]; nextCursor: string | null }> {
  const actor = alias(users, 'actor');
  const target = alias(users, 'target');
  const rows = await db
    .select({
      entry: auditLog,
      actor: actor.username,
      target: target.username,
      at: sql<string>`(${auditLog.createdAt})::text`,
    })
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorUserId))
    .leftJoin(target, eq(target.id, auditLog.targetUserId))
    .where(
      and(
        where,
        before === undefined
          ? undefined
          : sql`(${auditLog.createdAt}, ${auditLog.id}) < (${before[0]}::timestamptz, ${before[1]}::uuid)`,
      ),
    )
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    entries: page.map(({ entry, actor: actorName, target: targetName }) => ({
      id: entry.id,
      action: entry.action,
      actorUserId: entry.actorUserId,
      actor: actorName,
      targetUserId: entry.targetUserId,
      target: targetName,
      details: entry.details,
      createdAt: entry.createdAt.toISOString(),
    })),
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor([last.at, last.entry.id]) : null,
  };
}

/** Entries about or by an account. */
function aboutUser(userId: string): SQL | undefined {
  return or(eq(auditLog.targetUserId, userId), eq(auditLog.actorUserId, userId));
}

/**
 * One page of the console's audit trail, for everyone or about one account; `before` is the
 * `nextCursor` of the page before.
 */
export function auditPage(
  db: Db,
  options: { limit: number; before?: string | undefined; userId?: string | undefined },
): Promise<{ entries: AdminAuditEntry[]; nextCursor: string | null }> {
  const before = options.before === undefined ? undefined : decodeCursor(options.before, 'before');
  return auditRows(
    db,
    options.userId === undefined ? undefined : aboutUser(options.userId),
    options.limit,
    before,
  );
}

/** The session rows an account holds now: not ended, not replaced by a refresh, not expired. */
function liveSessions(userId: string, now: Date): SQL | undefined {
  return and(
    eq(sessions.userId, userId),
    isNull(sessions.revokedAt),
    isNull(sessions.replacedAt),
    sql`${sessions.expiresAt} > ${now.toISOString()}::timestamptz`,
  );
}

/**
 * Everything the console's user page shows about one account: profile, plan and subscription, keys
 * (last four characters only), 30 days of usage, recent requests, the sign-ins that hold a session,
 * and the audit trail about or by the account. Null for an unknown id.
 */
export async function userDetail(
  db: Db,
  userId: string,
  now: Date = new Date(),
): Promise<AdminUserDetail | null> {
  if (!ID_PATTERN.test(userId)) return null;
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (user === undefined) return null;
  const days = isoDaysThrough(shiftIsoDays(isoDay(now), 1 - USER_PAGE_DAYS), isoDay(now));
  const since = days[0] ?? isoDay(now);
  const [subscription, keys, usageRows, requests, sessionRows, audit] = await Promise.all([
    db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1),
    db
      .select({
        id: apiKeys.id,
        name: apiKeys.name,
        last4: apiKeys.last4,
        primary: apiKeys.primary,
        createdAt: apiKeys.createdAt,
        lastUsedAt: apiKeys.lastUsedAt,
        expiresAt: apiKeys.expiresAt,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .where(eq(apiKeys.userId, userId))
      .orderBy(desc(apiKeys.createdAt)),
    db
      .select({ day: apiUsage.day, calls: sql<number>`sum(${apiUsage.calls})::int`.mapWith(Number) })
      .from(apiUsage)
      .innerJoin(apiKeys, eq(apiKeys.id, apiUsage.apiKeyId))
      .where(and(eq(apiKeys.userId, userId), gte(apiUsage.day, since)))
      .groupBy(apiUsage.day),
    db
      .select({
        at: apiRequests.at,
        endpoint: apiRequests.endpoint,
        status: apiRequests.status,
        latencyMs: apiRequests.latencyMs,
      })
      .from(apiRequests)
      .where(eq(apiRequests.userId, userId))
      .orderBy(desc(apiRequests.at))
      .limit(RECENT_REQUESTS),
    db.select().from(sessions).where(liveSessions(userId, now)).orderBy(desc(sessions.lastUsedAt)),
    auditRows(db, aboutUser(userId), RECENT_AUDIT),
  ]);
  const callsByDay = new Map(usageRows.map((row) => [row.day, row.calls]));
  const usage = days.map((day) => ({ day, calls: callsByDay.get(day) ?? 0 }));
  const sub = subscription[0];
  return {
    user: { ...adminUserRow(user), isPremium: user.isPremium, updatedAt: user.updatedAt.toISOString() },
    subscription:
      sub === undefined
        ? null
        : {
            planCode: sub.planCode,
            status: sub.status,
            currentPeriodEnd: sub.currentPeriodEnd.toISOString(),
            cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
          },
    keys: keys.map((key) => ({
      id: key.id,
      name: key.name,
      last4: key.last4,
      primary: key.primary,
      status: keyStatus(key, now),
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      expiresAt: key.expiresAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
    })),
    usage,
    requests: requests.map((request) => ({
      at: request.at.toISOString(),
      endpoint: request.endpoint,
      status: request.status,
      durationMs: request.latencyMs,
    })),
    sessions: sessionRows.map((session): AdminSession => ({
      id: session.id,
      createdAt: session.createdAt.toISOString(),
      lastUsedAt: session.lastUsedAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
      userAgent: session.userAgent.startsWith(IMPERSONATION_MARK) ? '' : session.userAgent,
      ip: session.ip,
      impersonatedBy: session.userAgent.startsWith(IMPERSONATION_MARK)
        ? session.userAgent.slice(IMPERSONATION_MARK.length)
        : null,
    })),
    audit: audit.entries,
  };
}
