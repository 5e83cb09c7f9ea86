import { desc, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { statusChecks, statusDays, type StatusState } from '../db/schema.ts';
import { DAY_MS, isoDay } from '../../lib/iso-date.ts';
import { STATUS_DAYS } from '../../lib/status.ts';

/*
 * Where the status probes' results are kept: each result in status_checks, and the same results
 * counted per component and UTC day in status_days (the uptime bars read at most 90 rows per
 * component). Both are pruned to the last 90 days.
 */

/** One probe result of one component. */
export interface CheckResult {
  component: string;
  checkedAt: Date;
  state: StatusState;
  latencyMs: number;
  /** Why the component is degraded or down (for operators; never in the public answer). */
  detail: string;
}

/** Checks made and passed by one component on one UTC day. */
export interface DayCount {
  component: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  checks: number;
  passed: number;
}

/** The results counted per component and UTC day. */
export function countByDay(results: readonly CheckResult[]): DayCount[] {
  const counts = new Map<string, DayCount>();
  for (const result of results) {
    const day = isoDay(result.checkedAt);
    const key = `${result.component}|${day}`;
    const count = counts.get(key) ?? { component: result.component, day, checks: 0, passed: 0 };
    count.checks += 1;
    if (result.state !== 'down') count.passed += 1;
    counts.set(key, count);
  }
  return [...counts.values()];
}

/** Stores results (one or more rounds) and adds them to their days' counts, in one transaction. */
export async function recordChecks(db: Db, results: readonly CheckResult[]): Promise<void> {
  if (results.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.insert(statusChecks).values(
      results.map((result) => ({
        component: result.component,
        checkedAt: result.checkedAt,
        state: result.state,
        latencyMs: Math.max(0, Math.round(result.latencyMs)),
        detail: result.detail,
      })),
    );
    await tx
      .insert(statusDays)
      .values(countByDay(results))
      .onConflictDoUpdate({
        target: [statusDays.component, statusDays.day],
        set: {
          checks: sql`${statusDays.checks} + excluded.checks`,
          passed: sql`${statusDays.passed} + excluded.passed`,
        },
      });
  });
}

/** The first day kept at `now`: the 90 days shown end today, so the 90th day back is the oldest. */
export function oldestKeptDay(now: Date): string {
  return isoDay(new Date(now.getTime() - (STATUS_DAYS - 1) * DAY_MS));
}

/** Deletes checks and day counts older than the 90 days shown. */
export async function pruneChecks(db: Db, now: Date): Promise<void> {
  const oldest = oldestKeptDay(now);
  await db.delete(statusChecks).where(lt(statusChecks.checkedAt, new Date(`${oldest}T00:00:00.000Z`)));
  await db.delete(statusDays).where(lt(statusDays.day, oldest));
}

/** The day counts of the 90 days shown at `now`, every component. */
export function readDayCounts(db: Db, now: Date): Promise<DayCount[]> {
  return db
    .select({
      component: statusDays.component,
      day: statusDays.day,
      checks: statusDays.checks,
      passed: statusDays.passed,
    })
    .from(statusDays)
    .where(gte(statusDays.day, oldestKeptDay(now)));
}

/** Each component's newest result made since `since`. */
export async function readLatestChecks(db: Db, since: Date): Promise<Map<string, CheckResult>> {
  const rows = await db
    .select({
      component: statusChecks.component,
      checkedAt: statusChecks.checkedAt,
      state: statusChecks.state,
      latencyMs: statusChecks.latencyMs,
      detail: statusChecks.detail,
    })
    .from(statusChecks)
    .where(gte(statusChecks.checkedAt, since))
    .orderBy(desc(statusChecks.checkedAt));
  const latest = new Map<string, CheckResult>();
  for (const row of rows) if (!latest.has(row.component)) latest.set(row.component, row);
  return latest;
}

/** When the newest stored round ran, if any ran since `since`. */
export async function latestCheckAt(db: Db, since: Date): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: sql<Date | string | null>`max(${statusChecks.checkedAt})` })
    .from(statusChecks)
    .where(gte(statusChecks.checkedAt, since));
  const at = row?.at;
  return at === null || at === undefined ? undefined : new Date(at);
}
