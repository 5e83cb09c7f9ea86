import { and, count, desc, gte, sql } from 'drizzle-orm';
import type { AdminOverview, ClientErrorGroup } from '../../lib/admin.ts';
import { DAY_MS, isoDay, isoDaysThrough, shiftIsoDays } from '../../lib/iso-date.ts';
import type { Db } from '../db/client.ts';
import { apiKeys, apiRequests, apiUsage, clientErrors, users } from '../db/schema.ts';
import { stillWorks } from './api-keys.ts';
import { ERROR_MESSAGE_SQL } from './client-errors.ts';

const TOP_ENDPOINTS = 10;
const ERROR_GROUPS = 100;

function perDay(rows: { day: string; count: number }[]): Map<string, number> {
  return new Map(rows.map((row) => [row.day, row.count]));
}

const dayOf = (column: unknown): ReturnType<typeof sql<string>> =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/**
 * The console's overview of the last `days` days: sign-ups, calls and errors (data API answers of
 * 400 and above, and browser errors) per UTC day, the keys that work, the accounts, and the most
 * called endpoints. Days without any are counted as zero, so charts keep their scale.
 */
export async function adminOverview(db: Db, days: number, now: Date = new Date()): Promise<AdminOverview> {
  const today = isoDay(now);
  const dayList = isoDaysThrough(shiftIsoDays(today, 1 - days), today);
  const first = dayList[0] ?? today;
  const since = new Date(`${first}T00:00:00.000Z`);
  const signUpDay = dayOf(users.createdAt);
  const requestDay = dayOf(apiRequests.at);
  const errorDay = dayOf(clientErrors.createdAt);
  const [signUps, calls, apiErrors, browserErrors, keys, total, top] = await Promise.all([
    db
      .select({ day: signUpDay, count: count() })
      .from(users)
      .where(gte(users.createdAt, since))
      .groupBy(signUpDay),
    db
      .select({ day: apiUsage.day, count: sql<number>`sum(${apiUsage.calls})::int`.mapWith(Number) })
      .from(apiUsage)
      .where(gte(apiUsage.day, first))
      .groupBy(apiUsage.day),
    db
      .select({ day: requestDay, count: count() })
      .from(apiRequests)
      .where(and(gte(apiRequests.at, since), gte(apiRequests.status, 400)))
      .groupBy(requestDay),
    db
      .select({ day: errorDay, count: count() })
      .from(clientErrors)
      .where(gte(clientErrors.createdAt, since))
      .groupBy(errorDay),
    db.select({ count: count() }).from(apiKeys).where(stillWorks(now)),
    db.select({ count: count() }).from(users),
    db
      .select({
        endpoint: apiUsage.endpoint,
        calls: sql<number>`sum(${apiUsage.calls})::int`.mapWith(Number),
      })
      .from(apiUsage)
      .where(gte(apiUsage.day, first))
      .groupBy(apiUsage.endpoint)
      .orderBy(desc(sql`sum(${apiUsage.calls})`), apiUsage.endpoint)
      .limit(TOP_ENDPOINTS),
  ]);
  const signUpsByDay = perDay(signUps);
  const callsByDay = perDay(calls);
  const apiErrorsByDay = perDay(apiErrors);
  const browserErrorsByDay = perDay(browserErrors);
  return {
    days,
    signUps: dayList.map((day) => ({ day, count: signUpsByDay.get(day) ?? 0 })),
    calls: dayList.map((day) => ({ day, count: callsByDay.get(day) ?? 0 })),
    errors: dayList.map((day) => ({
      day,
      api: apiErrorsByDay.get(day) ?? 0,
      browser: browserErrorsByDay.get(day) ?? 0,
    })),
    activeKeys: keys[0]?.count ?? 0,
    totalUsers: total[0]?.count ?? 0,
    topEndpoints: top,
  };
}

/**
 * The browser errors of the last `days` days grouped by message (their type and the stack trace's
 * first line, which is the error's message), most frequent first, so one broken page reads as one
 * problem with its count, not a thousand rows.
 */
export async function clientErrorGroups(
  db: Db,
  days: number,
  now: Date = new Date(),
): Promise<ClientErrorGroup[]> {
  const since = new Date(now.getTime() - days * DAY_MS);
  const message = ERROR_MESSAGE_SQL;
  const rows = await db
    .select({
      message,
      type: clientErrors.type,
      count: count(),
      users: sql<number>`count(distinct ${clientErrors.userId})::int`.mapWith(Number),
      firstSeen: sql<Date>`min(${clientErrors.createdAt})`.mapWith((value: string | Date) => new Date(value)),
      lastSeen: sql<Date>`max(${clientErrors.createdAt})`.mapWith((value: string | Date) => new Date(value)),
      latestId: sql<string>`(array_agg(${clientErrors.id} order by ${clientErrors.createdAt} desc))[1]`,
    })
    .from(clientErrors)
    .where(gte(clientErrors.createdAt, since))
    .groupBy(clientErrors.type, message)
    .orderBy(desc(count()), desc(sql`max(${clientErrors.createdAt})`))
    .limit(ERROR_GROUPS);
  return rows.map((row) => ({
    message: row.message,
    type: row.type,
    count: row.count,
    users: row.users,
    firstSeen: row.firstSeen.toISOString(),
    lastSeen: row.lastSeen.toISOString(),
    latestId: row.latestId,
  }));
}
