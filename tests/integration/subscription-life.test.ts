import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import {
  billingEvents,
  invoices,
  outboxEmails,
  subscriptions,
  testModeSubscriptions,
  users,
} from '../../src/server/db/schema.ts';
import { type BillingEvent, signedDelivery } from '../../src/server/services/billing/provider.ts';
import { runRenewalRound } from '../../src/server/services/billing/renewals.ts';
import { createApiKey } from '../../src/server/services/api-keys.ts';
import { type BillingApp, billingAppOn, post } from './accounts-app.ts';
import { HARNESS_SECRET, openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';
import { signedInAccount, TEST_CARD, useBillingEnvironment } from './billing-support.ts';
import { databaseTargets } from './databases.ts';

type Json = Record<string, unknown>;

const DAY = 86_400_000;

const CARD = TEST_CARD;

/** Pays the checkout and every plan change, declines every renewal. */
const RENEWALS_DECLINED = '4000 0000 0000 0341';

useBillingEnvironment();

async function json(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

interface Subscriber {
  userId: string;
  email: string;
  token: string;
  subscriptionId: string;
}

/** A new account that paid a checkout of `planCode` with `cardNumber`. */
async function subscribe(
  { app }: BillingApp,
  db: Db,
  planCode = 'monthlyT2',
  cardNumber = CARD.cardNumber,
): Promise<Subscriber> {
  const user = await signedInAccount(db, 'subscriber');
  const { token } = user;
  const opened = await app.request(
    '/portal/billing/checkout',
    post({ planCode }, { Authorization: `Bearer ${token}` }),
  );
  const id =
    String((await json(opened)).url)
      .split('/')
      .at(-1) ?? '';
  const paid = await app.request(`/billing/test-checkout/${id}/pay`, post({ ...CARD, cardNumber }));
  expect(paid.status).toBe(200);
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, user.userId));
  return { ...user, subscriptionId: row?.providerSubscriptionId ?? '' };
}

describe.each(databaseTargets())('a subscription’s life on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;
  const billing = billingAppOn(db);
  const { app } = billing;

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  const as = (who: Subscriber): Record<string, string> => ({ Authorization: `Bearer ${who.token}` });

  const portalPost = (who: Subscriber, path: string, body: Json = {}): Promise<Response> =>
    Promise.resolve(app.request(`/portal/billing/${path}`, post(body, as(who))));

  const subscriptionOf = async (who: Subscriber): Promise<Json> =>
    (await json(await app.request('/portal/billing/subscription', { headers: as(who) })))
      .subscription as Json;

  const planOf = async (userId: string): Promise<string> => {
    const [row] = await db().select({ planCode: users.planCode }).from(users).where(eq(users.id, userId));
    return row?.planCode ?? '';
  };

  const emailsTo = async (email: string, kind: string): Promise<(typeof outboxEmails.$inferSelect)[]> =>
    db()
      .select()
      .from(outboxEmails)
      .where(and(eq(outboxEmails.email, email.toLowerCase()), eq(outboxEmails.kind, kind)))
      .orderBy(outboxEmails.createdAt);

  const invoicesOf = async (userId: string): Promise<(typeof invoices.$inferSelect)[]> =>
    db()
      .select()
      .from(invoices)
      .where(eq(invoices.userId, userId))
      .orderBy(invoices.issuedAt, invoices.number);

  const renew = async (now: Date): Promise<void> => {
    const round = await runRenewalRound(database, billing.deliver, now, () => undefined);
    expect(round.kind).toBe('done');
  };

  const periodEndOf = async (who: Subscriber): Promise<Date> =>
    new Date(String((await subscriptionOf(who)).currentPeriodEnd));

  /** Puts the provider's current period of `who` at [now - daysGone, now + daysLeft]. */
  const setPeriod = async (who: Subscriber, daysGone: number, daysLeft: number): Promise<void> => {
    const now = Date.now();
    await db()
      .update(testModeSubscriptions)
      .set({
        currentPeriodStart: new Date(now - daysGone * DAY),
        currentPeriodEnd: new Date(now + daysLeft * DAY),
      })
      .where(eq(testModeSubscriptions.id, who.subscriptionId));
  };

  describe('the first payment', () => {
    it('records the checkout’s invoice from invoice.paid, numbered, with the receipt naming its number', async () => {
      const who = await subscribe(billing, db());
      const [invoice] = await invoicesOf(who.userId);
      expect(invoice).toMatchObject({
        status: 'paid',
        totalCents: 3900,
        planCode: 'monthlyT2',
        cardLast4: '4242',
      });
      expect(invoice?.number).toMatch(/^TEST-\d{6}$/);
      const [receipt] = await emailsTo(who.email, 'BILLING_RECEIPT');
      expect(receipt?.body).toContain(`Invoice: ${invoice?.number ?? ''}`);
      expect(receipt?.body).toContain('Thank you for subscribing');
    });
  });

  describe('changing plan', () => {
    it('upgrades at once and charges the unused and remaining time pro rata, as the preview said', async () => {
      const who = await subscribe(billing, db());
      await setPeriod(who, 15, 15);
      const preview = await app.request('/portal/billing/change-plan/preview?planCode=monthlyT3', {
        headers: as(who),
      });
      expect(preview.status).toBe(200);
      // Half of the period is left: 3900 / 2 credited, 7900 / 2 charged.
      expect(await json(preview)).toMatchObject({ planCode: 'monthlyT3', when: 'now', amountDueCents: 2000 });

      const res = await portalPost(who, 'change-plan', { planCode: 'monthlyT3' });
      expect(res.status).toBe(200);
      const answer = await json(res);
      expect(answer).toMatchObject({ when: 'now', amountDueCents: 2000, currency: 'usd' });
      expect((answer.lines as Json[]).map((line) => line.amountCents)).toEqual([-1950, 3950]);
      expect(String((answer.lines as Json[])[0]?.description)).toMatch(/^Unused time on Professional after /);
      expect(String((answer.lines as Json[])[1]?.description)).toMatch(/^Remaining time on Power after /);

      expect(await planOf(who.userId)).toBe('monthlyT3');
      expect(await subscriptionOf(who)).toMatchObject({
        planCode: 'monthlyT3',
        status: 'active',
        scheduledPlanCode: null,
      });
      const charged = (await invoicesOf(who.userId)).at(-1);
      expect(charged).toMatchObject({
        status: 'paid',
        subtotalCents: 2000,
        totalCents: 2000,
        planCode: 'monthlyT3',
      });
      const receipts = await emailsTo(who.email, 'BILLING_RECEIPT');
      expect(receipts).toHaveLength(2);
      expect(receipts[1]?.body).toContain('Your subscription has moved to Tickerlake Power.');
      expect(receipts[1]?.body).toContain('Amount charged: $20.00');
      expect(receipts[1]?.body).toContain(`Invoice: ${charged?.number ?? ''}`);
    });

    it('restarts the period when the interval changes, charging the whole annual price less the unused time', async () => {
      const who = await subscribe(billing, db());
      await setPeriod(who, 15, 15);
      const res = await portalPost(who, 'change-plan', { planCode: 'annualT3' });
      expect(await json(res)).toMatchObject({ when: 'now', amountDueCents: 79_000 - 1950 });
      const view = await subscriptionOf(who);
      expect(view).toMatchObject({ planCode: 'annualT3' });
      const start = Date.parse(String(view.currentPeriodStart));
      const end = Date.parse(String(view.currentPeriodEnd));
      expect(Math.abs(start - Date.now())).toBeLessThan(60_000);
      expect(end - start).toBeGreaterThanOrEqual(365 * DAY);
    });

    it('schedules a downgrade for the period end: the plan stays until the renewal job runs past the end', async () => {
      const who = await subscribe(billing, db(), 'monthlyT3');
      const end = await periodEndOf(who);
      const res = await portalPost(who, 'change-plan', { planCode: 'monthlyT2' });
      expect(res.status).toBe(200);
      expect(await json(res)).toMatchObject({
        when: 'period_end',
        amountDueCents: 0,
        effectiveAt: end.toISOString(),
      });
      expect(await subscriptionOf(who)).toMatchObject({
        planCode: 'monthlyT3',
        scheduledPlanCode: 'monthlyT2',
      });
      expect(await planOf(who.userId)).toBe('monthlyT3');

      await renew(new Date(end.getTime() - 60_000));
      expect(await planOf(who.userId)).toBe('monthlyT3');

      await renew(new Date(end.getTime() + 1000));
      expect(await planOf(who.userId)).toBe('monthlyT2');
      expect(await subscriptionOf(who)).toMatchObject({
        planCode: 'monthlyT2',
        status: 'active',
        scheduledPlanCode: null,
        currentPeriodStart: end.toISOString(),
      });
      const renewal = (await invoicesOf(who.userId)).at(-1);
      expect(renewal).toMatchObject({ status: 'paid', totalCents: 3900, planCode: 'monthlyT2' });
    });

    it('clears a scheduled downgrade when the current plan is chosen again', async () => {
      const who = await subscribe(billing, db(), 'monthlyT3');
      await portalPost(who, 'change-plan', { planCode: 'starterT1' });
      expect(await subscriptionOf(who)).toMatchObject({ scheduledPlanCode: 'starterT1' });
      const res = await portalPost(who, 'change-plan', { planCode: 'monthlyT3' });
      expect(await json(res)).toMatchObject({ when: 'period_end', amountDueCents: 0 });
      expect(await subscriptionOf(who)).toMatchObject({ planCode: 'monthlyT3', scheduledPlanCode: null });
    });

    it('refuses a second checkout to a subscriber with 409, who changes plan instead', async () => {
      const who = await subscribe(billing, db());
      const res = await portalPost(who, 'checkout', { planCode: 'monthlyT3' });
      expect(res.status).toBe(409);
      expect(await json(res)).toMatchObject({ field: 'subscription' });
    });

    it('treats choosing Free as a cancellation at the period end', async () => {
      const who = await subscribe(billing, db());
      const res = await portalPost(who, 'change-plan', { planCode: 'free' });
      expect(await json(res)).toMatchObject({ planCode: 'free', when: 'period_end', amountDueCents: 0 });
      expect(await subscriptionOf(who)).toMatchObject({ cancelAtPeriodEnd: true, planCode: 'monthlyT2' });
    });

    it.each([
      ['the plan already held', { planCode: 'monthlyT2' }, 400, 'planCode'],
      ['an unknown plan', { planCode: 'platinum' }, 400, 'planCode'],
      ['an unknown field', { planCode: 'monthlyT3', seats: 2 }, 400, 'seats'],
    ])('refuses %s naming the field', async (_label, body, status, field) => {
      const who = await subscribe(billing, db());
      const res = await portalPost(who, 'change-plan', body);
      expect(res.status).toBe(status);
      expect(await json(res)).toMatchObject({ field });
    });

    it('refuses a change, a cancellation or a resumption without a subscription with 409, and a visitor with 401', async () => {
      const who: Subscriber = { ...(await signedInAccount(db(), 'free')), subscriptionId: '' };
      for (const [path, body] of [
        ['change-plan', { planCode: 'monthlyT3' }],
        ['cancel', {}],
        ['resume', {}],
      ] as const) {
        const res = await portalPost(who, path, body);
        expect(res.status).toBe(409);
        expect(await json(res)).toMatchObject({ field: 'subscription' });
      }
      expect((await app.request('/portal/billing/cancel', post({}))).status).toBe(401);
    });
  });

  describe('canceling', () => {
    it('cancels at the period end keeping the plan, emails the date, and resumes', async () => {
      const who = await subscribe(billing, db());
      const end = await periodEndOf(who);
      const res = await portalPost(who, 'cancel');
      expect(res.status).toBe(200);
      expect(await json(res)).toMatchObject({ cancelAtPeriodEnd: true, endsAt: end.toISOString() });
      expect(await subscriptionOf(who)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
      expect(await planOf(who.userId)).toBe('monthlyT2');
      const [canceled] = await emailsTo(who.email, 'BILLING_CANCELED');
      expect(canceled?.body).toContain(`You keep the plan until ${end.toISOString().slice(0, 10)}`);

      const resumed = await portalPost(who, 'resume');
      expect(resumed.status).toBe(200);
      expect(await subscriptionOf(who)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
      expect((await portalPost(who, 'resume')).status).toBe(409);

      await renew(new Date(end.getTime() + 1000));
      expect(await planOf(who.userId)).toBe('monthlyT2');
      expect(await subscriptionOf(who)).toMatchObject({
        status: 'active',
        currentPeriodStart: end.toISOString(),
      });
    });

    it('moves the account to Free when a canceled period ends, with an email', async () => {
      const who = await subscribe(billing, db());
      const end = await periodEndOf(who);
      await portalPost(who, 'cancel');
      await renew(new Date(end.getTime() + 1000));
      expect(await planOf(who.userId)).toBe('free');
      expect(await subscriptionOf(who)).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: false });
      const [ended] = await emailsTo(who.email, 'BILLING_ENDED');
      expect(ended?.body).toContain('has ended, as you asked');
      expect(await invoicesOf(who.userId)).toHaveLength(1);
      expect((await portalPost(who, 'resume')).status).toBe(409);
    });
  });

  describe('renewals', () => {
    it('charges the card on file at the period end: the next period, a new invoice and a receipt', async () => {
      const who = await subscribe(billing, db());
      const end = await periodEndOf(who);
      await renew(new Date(end.getTime() + 1000));
      const view = await subscriptionOf(who);
      expect(view).toMatchObject({ status: 'active', currentPeriodStart: end.toISOString() });
      expect(Date.parse(String(view.currentPeriodEnd)) - end.getTime()).toBeGreaterThan(27 * DAY);
      const billed = await invoicesOf(who.userId);
      expect(billed.map((invoice) => [invoice.status, invoice.totalCents])).toEqual([
        ['paid', 3900],
        ['paid', 3900],
      ]);
      const receipts = await emailsTo(who.email, 'BILLING_RECEIPT');
      expect(receipts).toHaveLength(2);
      expect(receipts[1]?.body).toContain('has renewed');
      expect(receipts[1]?.body).toContain(`Invoice: ${billed[1]?.number ?? ''}`);
    });

    it('declines the renewals of 0341: past due with the plan kept and the retry dated, then Free with the invoice void', async () => {
      const who = await subscribe(billing, db(), 'monthlyT2', RENEWALS_DECLINED);
      const end = await periodEndOf(who);
      await renew(new Date(end.getTime() + 1000));
      expect(await subscriptionOf(who)).toMatchObject({
        status: 'past_due',
        planCode: 'monthlyT2',
        nextPaymentAttemptAt: new Date(end.getTime() + 3 * DAY).toISOString(),
      });
      expect(await planOf(who.userId)).toBe('monthlyT2');
      expect((await invoicesOf(who.userId)).at(-1)).toMatchObject({ status: 'open', totalCents: 3900 });
      const [failed] = await emailsTo(who.email, 'BILLING_PAYMENT_FAILED');
      expect(failed?.body).toContain(
        `We will try again on ${new Date(end.getTime() + 3 * DAY).toISOString().slice(0, 10)}`,
      );

      await renew(new Date(end.getTime() + 3 * DAY + 1000));
      expect(await subscriptionOf(who)).toMatchObject({
        status: 'past_due',
        nextPaymentAttemptAt: new Date(end.getTime() + 5 * DAY).toISOString(),
      });
      await renew(new Date(end.getTime() + 5 * DAY + 1000));
      expect(await emailsTo(who.email, 'BILLING_PAYMENT_FAILED')).toHaveLength(3);
      expect(await planOf(who.userId)).toBe('monthlyT2');

      await renew(new Date(end.getTime() + 7 * DAY + 1000));
      expect(await planOf(who.userId)).toBe('free');
      expect(await subscriptionOf(who)).toMatchObject({ status: 'canceled', nextPaymentAttemptAt: null });
      const billed = await invoicesOf(who.userId);
      expect(billed.map((invoice) => invoice.status)).toEqual(['paid', 'void']);
      const [ended] = await emailsTo(who.email, 'BILLING_ENDED');
      expect(ended?.body).toContain('the unpaid invoice is void');
      expect(await emailsTo(who.email, 'BILLING_PAYMENT_FAILED')).toHaveLength(3);
    });

    it('sends a renewal the webhook refused again under the same ids, so it is applied once', async () => {
      const who = await subscribe(billing, db());
      const end = await periodEndOf(who);
      const refuseOnce = { refused: false };
      const flaky = (init: RequestInit): Promise<Response> => {
        if (
          !refuseOnce.refused &&
          typeof init.body === 'string' &&
          init.body.includes('"subscription.updated"')
        ) {
          refuseOnce.refused = true;
          return Promise.resolve(new Response('busy', { status: 503 }));
        }
        return billing.deliver(init);
      };
      const first = await runRenewalRound(database, flaky, new Date(end.getTime() + 1000), () => undefined);
      expect(first).toMatchObject({ kind: 'done', undelivered: 1 });
      await renew(new Date(end.getTime() + 2000));
      expect(await subscriptionOf(who)).toMatchObject({ currentPeriodStart: end.toISOString() });
      expect(await invoicesOf(who.userId)).toHaveLength(2);
      expect(await emailsTo(who.email, 'BILLING_RECEIPT')).toHaveLength(2);
    });
  });

  describe('the new events at the webhook', () => {
    const eventId = (): string => `evt_test_${randomUUID().replaceAll('-', '').slice(0, 24)}`;

    function invoicePaid(
      subscriptionId: string,
      created: Date,
      invoiceId = `in_test_${randomUUID().slice(0, 8)}`,
    ): BillingEvent {
      return {
        id: eventId(),
        created: created.toISOString(),
        type: 'invoice.paid',
        data: {
          invoiceId,
          subscriptionId,
          planCode: 'monthlyT2',
          reason: 'subscription_cycle',
          currency: 'usd',
          lines: [{ description: 'Professional', amountCents: 3900 }],
          taxCents: 0,
          periodStart: created.toISOString(),
          periodEnd: new Date(created.getTime() + 30 * DAY).toISOString(),
          cardLast4: '4242',
          couponCode: null,
        },
      };
    }

    it('answers 409 to an invoice of a subscription it does not know yet, and applies it when delivered again', async () => {
      const user = await signedInAccount(db(), 'early');
      const { token } = user;
      const opened = await app.request(
        '/portal/billing/checkout',
        post({ planCode: 'monthlyT2' }, { Authorization: `Bearer ${token}` }),
      );
      const checkoutId =
        String((await json(opened)).url)
          .split('/')
          .at(-1) ?? '';
      const subscriptionId = `sub_test_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
      const now = new Date();
      const invoice = invoicePaid(subscriptionId, now);

      const early = await app.request('/billing/webhook', signedDelivery(invoice));
      expect(early.status).toBe(409);
      expect(await db().select().from(billingEvents).where(eq(billingEvents.id, invoice.id))).toHaveLength(0);

      const completed: BillingEvent = {
        id: eventId(),
        created: now.toISOString(),
        type: 'checkout.completed',
        data: {
          checkoutId,
          customerId: 'cus_test_000000000000000000000001',
          subscriptionId,
          planCode: 'monthlyT2',
          amountCents: 3900,
          currency: 'usd',
          cardLast4: '4242',
          periodStart: now.toISOString(),
          periodEnd: new Date(now.getTime() + 30 * DAY).toISOString(),
        },
      };
      expect(await json(await app.request('/billing/webhook', signedDelivery(completed)))).toMatchObject({
        outcome: 'applied',
      });
      const again = await app.request('/billing/webhook', signedDelivery(invoice));
      expect(await json(again)).toEqual({ received: true, outcome: 'applied' });
      expect(await invoicesOf(user.userId)).toHaveLength(1);
      expect(await emailsTo(user.email, 'BILLING_RECEIPT')).toHaveLength(1);
    });

    it('applies a replayed invoice.paid once: one invoice, one receipt', async () => {
      const who = await subscribe(billing, db());
      const event = invoicePaid(who.subscriptionId, new Date(Date.now() + 1000));
      expect(await json(await app.request('/billing/webhook', signedDelivery(event)))).toMatchObject({
        outcome: 'applied',
      });
      expect(await json(await app.request('/billing/webhook', signedDelivery(event)))).toMatchObject({
        outcome: 'duplicate',
      });
      expect(await invoicesOf(who.userId)).toHaveLength(2);
      expect(await emailsTo(who.email, 'BILLING_RECEIPT')).toHaveLength(2);
    });

    it('keeps a paid invoice paid when its older payment failure arrives late, and sends no failure email', async () => {
      const who = await subscribe(billing, db());
      const now = Date.now();
      const paid = invoicePaid(who.subscriptionId, new Date(now + 2000), 'in_test_late_failure');
      await app.request('/billing/webhook', signedDelivery(paid));
      const failed: BillingEvent = {
        id: eventId(),
        created: new Date(now + 1000).toISOString(),
        type: 'invoice.payment_failed',
        data: {
          invoiceId: 'in_test_late_failure',
          subscriptionId: who.subscriptionId,
          planCode: 'monthlyT2',
          currency: 'usd',
          lines: [{ description: 'Professional', amountCents: 3900 }],
          taxCents: 0,
          periodStart: new Date(now).toISOString(),
          periodEnd: new Date(now + 30 * DAY).toISOString(),
          attemptCount: 1,
          nextAttemptAt: new Date(now + 3 * DAY).toISOString(),
          message: 'Your card was declined.',
        },
      };
      expect(await json(await app.request('/billing/webhook', signedDelivery(failed)))).toMatchObject({
        outcome: 'stale',
      });
      expect((await invoicesOf(who.userId)).at(-1)).toMatchObject({ status: 'paid' });
      expect(await emailsTo(who.email, 'BILLING_PAYMENT_FAILED')).toHaveLength(0);
      expect(await subscriptionOf(who)).toMatchObject({ status: 'active', nextPaymentAttemptAt: null });
    });

    it('does not let a late, older subscription.updated undo a subscription.deleted', async () => {
      const who = await subscribe(billing, db());
      const now = Date.now();
      const deleted: BillingEvent = {
        id: eventId(),
        created: new Date(now + 2000).toISOString(),
        type: 'subscription.deleted',
        data: { subscriptionId: who.subscriptionId, endedAt: new Date(now + 2000).toISOString() },
      };
      expect(await json(await app.request('/billing/webhook', signedDelivery(deleted)))).toMatchObject({
        outcome: 'applied',
      });
      expect(await json(await app.request('/billing/webhook', signedDelivery(deleted)))).toMatchObject({
        outcome: 'duplicate',
      });
      const late: BillingEvent = {
        id: eventId(),
        created: new Date(now + 1000).toISOString(),
        type: 'subscription.updated',
        data: {
          subscriptionId: who.subscriptionId,
          planCode: 'monthlyT3',
          status: 'active',
          periodStart: new Date(now).toISOString(),
          periodEnd: new Date(now + 30 * DAY).toISOString(),
          cancelAtPeriodEnd: false,
          scheduledPlanCode: null,
        },
      };
      expect(await json(await app.request('/billing/webhook', signedDelivery(late)))).toMatchObject({
        outcome: 'stale',
      });
      expect(await planOf(who.userId)).toBe('free');
      expect(await subscriptionOf(who)).toMatchObject({ status: 'canceled' });
      expect(await emailsTo(who.email, 'BILLING_ENDED')).toHaveLength(1);
    });
  });
});

describe('plan changes reaching the data API', () => {
  let h: DataApiHarness;

  beforeAll(async () => {
    h = await openDataApiHarness();
  });

  afterAll(async () => {
    await h.close();
  });

  /** A verified subscriber to Professional with an API key, on the harness's database. */
  async function subscriberWithKey(billing: BillingApp): Promise<{ who: Subscriber; key: string }> {
    const who = await subscribe(billing, h.db);
    await h.db.update(users).set({ emailVerified: true }).where(eq(users.id, who.userId));
    const issued = await createApiKey(h.db, who.userId, { secret: HARNESS_SECRET });
    return { who, key: issued?.key ?? '' };
  }

  it('gives an upgraded key the new plan’s limits within 60 seconds', async () => {
    const billing = billingAppOn(() => h.db);
    const { who, key } = await subscriberWithKey(billing);
    const quote = { symbol: 'AAPL', apikey: key };
    const before = await h.request('/stable/quote', quote);
    expect(before.headers.get('RateLimit-Policy')).toContain('"minute";q=120;w=60');

    const res = await billing.app.request(
      '/portal/billing/change-plan',
      post({ planCode: 'monthlyT3' }, { Authorization: `Bearer ${who.token}` }),
    );
    expect(await json(res)).toMatchObject({ when: 'now' });
    h.clock.advance(60_000);
    const after = await h.request('/stable/quote', quote);
    expect(after.status).toBe(200);
    expect(after.headers.get('RateLimit-Policy')).toContain('"minute";q=600;w=60');
  });

  it('closes the Professional endpoints to the key within 60 seconds of the fall back to Free', async () => {
    const billing = billingAppOn(() => h.db);
    const { who, key } = await subscriberWithKey(billing);
    const quarterly = { symbol: 'AAPL', period: 'quarter', apikey: key };
    expect((await h.request('/stable/income-statement', quarterly)).status).toBe(200);

    await billing.app.request('/portal/billing/cancel', post({}, { Authorization: `Bearer ${who.token}` }));
    const [row] = await h.db.select().from(subscriptions).where(eq(subscriptions.userId, who.userId));
    const end = row?.currentPeriodEnd ?? new Date();
    await runRenewalRound(h.database, billing.deliver, new Date(end.getTime() + 1000), () => undefined);

    h.clock.advance(60_000);
    expect((await h.request('/stable/income-statement', quarterly)).status).toBe(402);
    const res = await h.request('/stable/quote', quarterly);
    expect(res.headers.get('RateLimit-Policy')).toBe('"minute";q=30;w=60, "day";q=250;w=86400');
  });
});
