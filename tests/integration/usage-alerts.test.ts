import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageAlertsState } from '../../src/lib/dashboard-data.ts';
import { outboxEmails, users } from '../../src/server/db/schema.ts';
import { usageAlertRoutes } from '../../src/server/routes/usage-alerts.ts';
import { accessTokenFor, accountsAppOn } from './accounts-app.ts';
import { freeLimits, openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

/*
 * Usage alerts against the real data API and its usage meter: the owner chooses percentages of the
 * plan's daily calls, and reaching one sends one email that day.
 */

let h: DataApiHarness;
const accounts = () => accountsAppOn(() => h.db, [['/portal', usageAlertRoutes]]);

beforeAll(async () => {
  h = await openDataApiHarness();
  // The routes read today's standing on the real clock: the data API's calls are made on the same day.
  h.clock.now = Date.parse(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`);
});

afterAll(async () => {
  await h.close();
});

async function owner() {
  const key = await h.keyFor('free');
  const userId = h.userOf(key);
  const token = await accessTokenFor(h.db, userId, 'free');
  const send = async (method: string, body?: unknown) =>
    accounts().request('/portal/user/usage-alerts', {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const state = async () => (await (await send('GET')).json()) as UsageAlertsState;
  const [row] = await h.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  const mails = () =>
    h.db
      .select({ subject: outboxEmails.subject, body: outboxEmails.body })
      .from(outboxEmails)
      .where(and(eq(outboxEmails.email, row?.email ?? ''), eq(outboxEmails.kind, 'USAGE_ALERT')));
  return { key, send, state, mails };
}

/** `count` answered calls, a minute's budget at a time. */
async function calls(key: string, count: number): Promise<void> {
  const { perMinute } = await freeLimits(h.db);
  for (let call = 0; call < count; call += 1) {
    if (call > 0 && call % perMinute === 0) h.clock.advance(61_000);
    const res = await h.request('/stable/quote', { symbol: 'AAPL', apikey: key });
    expect(res.status).toBe(200);
  }
  h.clock.advance(61_000);
  await h.api.meter.flush();
}

describe('usage alerts', () => {
  it('mails the owner once a day when the day’s calls reach a chosen share of the plan’s daily calls', async () => {
    const me = await owner();
    expect(await me.state()).toMatchObject({ thresholds: [], reachedToday: [], callsToday: 0 });
    const chosen = await me.send('PUT', { thresholds: [25, 10] });
    expect(chosen.status).toBe(200);
    const { perDay } = await freeLimits(h.db);
    expect(((await chosen.json()) as UsageAlertsState).thresholds).toEqual([10, 25]);

    const tenth = Math.ceil(perDay / 10);
    await calls(me.key, tenth - 1);
    expect(await me.mails()).toEqual([]);
    await calls(me.key, 1);
    const [first, ...others] = await me.mails();
    expect(others).toEqual([]);
    expect(first?.subject).toBe("You have used 10% of today's API calls");
    expect(first?.body).toContain(`made ${String(tenth)} of its ${String(perDay)} calls`);
    expect(await me.state()).toMatchObject({ callsToday: tenth, reachedToday: [10] });

    // More calls the same day: the 10% alert is not sent again.
    await calls(me.key, 2);
    expect(await me.mails()).toHaveLength(1);

    // The next UTC day starts afresh.
    h.clock.advance(24 * 60 * 60 * 1000);
    await calls(me.key, tenth);
    expect((await me.mails()).map((mail) => mail.subject)).toEqual([
      "You have used 10% of today's API calls",
      "You have used 10% of today's API calls",
    ]);
  });

  it('takes only the percentages on offer, and none turns the alerts off', async () => {
    const me = await owner();
    const refused = await me.send('PUT', { thresholds: [33] });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('each threshold must be one of 10, 25, 50, 80, 90, 100');
    expect((await me.send('PUT', { thresholds: [] })).status).toBe(200);
    await calls(me.key, 30);
    expect(await me.mails()).toEqual([]);
  });
});
