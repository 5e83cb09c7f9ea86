import { and, eq, inArray, sql } from 'drizzle-orm';
import { isoDay } from '../../lib/iso-date.ts';
import { USAGE_ALERT_CHOICES, type UsageAlertsState } from '../../lib/dashboard-data.ts';
import type { Db } from '../db/client.ts';
import { apiKeys, apiUsage, pricePlans, usageAlerts, usageAlertsSent, users } from '../db/schema.ts';
import { queueEmail } from './outbox.ts';

/*
 * Usage alerts: the owner chooses percentages of the plan's daily calls; when the account's answered
 * calls of the UTC day reach one, one email goes to the owner (that day, that threshold) and the
 * dashboard shows a banner. The usage meter asks after each write, for the accounts it wrote; the
 * sent rows' primary key makes each alert once a day across every instance.
 */

/** Where the alert emails point. */
const USAGE_PAGE = '/developer/docs/dashboard';

/** The account's alerts, its plan's daily calls, today's calls and the alerts reached today. */
export async function usageAlertsOf(
  db: Db,
  userId: string,
  now: Date = new Date(),
): Promise<UsageAlertsState> {
  const today = isoDay(now);
  const [account] = await db
    .select({ perDay: pricePlans.callsPerDay, thresholds: usageAlerts.thresholds })
    .from(users)
    .innerJoin(pricePlans, eq(pricePlans.code, users.planCode))
    .leftJoin(usageAlerts, eq(usageAlerts.userId, users.id))
    .where(eq(users.id, userId));
  const [calls] = await db
    .select({ total: sql<number>`coalesce(sum(${apiUsage.calls}), 0)::int`.mapWith(Number) })
    .from(apiUsage)
    .innerJoin(apiKeys, eq(apiKeys.id, apiUsage.apiKeyId))
    .where(and(eq(apiKeys.userId, userId), eq(apiUsage.day, today)));
  const reached = await db
    .select({ threshold: usageAlertsSent.threshold })
    .from(usageAlertsSent)
    .where(and(eq(usageAlertsSent.userId, userId), eq(usageAlertsSent.day, today)));
  return {
    thresholds: [...(account?.thresholds ?? [])].sort((a, b) => a - b),
    choices: [...USAGE_ALERT_CHOICES],
    perDay: account?.perDay ?? null,
    callsToday: calls?.total ?? 0,
    reachedToday: reached.map((row) => row.threshold).sort((a, b) => a - b),
  };
}

/** Keeps the owner's choice of alerts (any of the offered percentages; none turns them off). */
export async function setUsageAlerts(db: Db, userId: string, thresholds: readonly number[]): Promise<void> {
  const chosen = [...new Set(thresholds)].sort((a, b) => a - b);
  await db
    .insert(usageAlerts)
    .values({ userId, thresholds: chosen })
    .onConflictDoUpdate({ target: usageAlerts.userId, set: { thresholds: chosen, updatedAt: sql`now()` } });
}

/**
 * Sends the alerts that the day's calls of these keys' accounts have reached and that were not sent
 * yet today: one email per account, day and threshold, whichever instance gets there first.
 */
export async function sendReachedAlerts(db: Db, apiKeyIds: readonly string[], now: Date): Promise<number> {
  if (apiKeyIds.length === 0) return 0;
  const today = isoDay(now);
  const accounts = await db
    .selectDistinct({
      userId: users.id,
      email: users.email,
      thresholds: usageAlerts.thresholds,
      perDay: pricePlans.callsPerDay,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .innerJoin(usageAlerts, eq(usageAlerts.userId, users.id))
    .innerJoin(pricePlans, eq(pricePlans.code, users.planCode))
    .where(inArray(apiKeys.id, [...apiKeyIds]));
  let sent = 0;
  for (const account of accounts) {
    if (account.perDay === null || account.perDay <= 0 || account.thresholds.length === 0) continue;
    const perDay = account.perDay;
    const [calls] = await db
      .select({ total: sql<number>`coalesce(sum(${apiUsage.calls}), 0)::int`.mapWith(Number) })
      .from(apiUsage)
      .innerJoin(apiKeys, eq(apiKeys.id, apiUsage.apiKeyId))
      .where(and(eq(apiKeys.userId, account.userId), eq(apiUsage.day, today)));
    const total = calls?.total ?? 0;
    const reached = account.thresholds.filter((threshold) => total >= Math.ceil((perDay * threshold) / 100));
    for (const threshold of reached) {
      await db.transaction(async (tx) => {
        const [claimed] = await tx
          .insert(usageAlertsSent)
          .values({ userId: account.userId, day: today, threshold, calls: total })
          .onConflictDoNothing()
          .returning({ threshold: usageAlertsSent.threshold });
        if (claimed === undefined) return;
        sent += 1;
        await queueEmail(tx, {
          email: account.email,
          kind: 'USAGE_ALERT',
          subject: `You have used ${String(threshold)}% of today's API calls`,
          body: `Your account has made ${total.toLocaleString('en-US')} of its ${perDay.toLocaleString('en-US')} calls for ${today} (UTC), reaching your ${String(threshold)}% alert.${threshold >= 100 ? ' Further calls today are refused with 429 until the day ends at midnight UTC.' : ''} Upgrade your plan for more calls a day, or change your alerts on the dashboard.`,
          link: USAGE_PAGE,
        });
      });
    }
  }
  return sent;
}
