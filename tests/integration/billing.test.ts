import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signSessionToken } from '../../src/server/auth/sign-in.ts';
import { startSession } from '../../src/server/auth/sessions.ts';
import type { Database, Db } from '../../src/server/db/client.ts';
import {
  billingEvents,
  checkoutSessions,
  coupons,
  outboxEmails,
  pricePlans,
  subscriptions,
  users,
} from '../../src/server/db/schema.ts';
import { CHECKOUT_LIMIT } from '../../src/server/routes/billing.ts';
import { type BillingEvent, signedDelivery } from '../../src/server/services/billing/provider.ts';
import {
  AUTHENTICATION_FAILED_MESSAGE,
  CARD_DECLINED_MESSAGE,
  EXPIRED_CARD_MESSAGE,
  INSUFFICIENT_FUNDS_MESSAGE,
} from '../../src/server/services/billing/test-mode.ts';
import { createApiKey } from '../../src/server/services/api-keys.ts';
import { createUser } from '../../src/server/services/users.ts';
import { billingAppOn, post } from './accounts-app.ts';
import { HARNESS_SECRET, openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';
import { signedInAccount, TEST_CARD, useBillingEnvironment } from './billing-support.ts';
import { databaseTargets } from './databases.ts';

type Json = Record<string, unknown>;

const CARD = TEST_CARD;

useBillingEnvironment();

async function json(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

describe.each(databaseTargets())('billing on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;
  const app = billingAppOn(db).app;

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  async function openCheckout(token: string, body: Json = { planCode: 'monthlyT2' }): Promise<string> {
    const res = await app.request(
      '/portal/billing/checkout',
      post(body, { Authorization: `Bearer ${token}` }),
    );
    expect(res.status).toBe(200);
    const { url } = await json(res);
    expect(String(url)).toMatch(/^\/billing\/checkout\/cs_test_[0-9a-f]{24}$/);
    return String(url).split('/').at(-1) ?? '';
  }

  const pay = (checkoutId: string, card: Json = CARD): Promise<Response> =>
    Promise.resolve(app.request(`/billing/test-checkout/${checkoutId}/pay`, post(card)));

  const planOf = async (userId: string): Promise<{ planCode: string; isPremium: boolean }> => {
    const [row] = await db()
      .select({ planCode: users.planCode, isPremium: users.isPremium })
      .from(users)
      .where(eq(users.id, userId));
    return row ?? { planCode: '', isPremium: false };
  };

  const receiptsTo = async (email: string): Promise<(typeof outboxEmails.$inferSelect)[]> =>
    db().select().from(outboxEmails).where(eq(outboxEmails.email, email.toLowerCase()));

  const subscriptionAnswer = async (token: string): Promise<Json> =>
    json(
      await app.request('/portal/billing/subscription', { headers: { Authorization: `Bearer ${token}` } }),
    );

  describe('POST /portal/billing/checkout', () => {
    it('refuses a visitor who is not signed in with 401', async () => {
      const res = await app.request('/portal/billing/checkout', post({ planCode: 'monthlyT2' }));
      expect(res.status).toBe(401);
    });

    it.each([
      ['an unknown plan', { planCode: 'platinum' }, 'planCode'],
      ['the free plan', { planCode: 'free' }, 'planCode'],
      ['an unknown field', { planCode: 'monthlyT2', seats: 3 }, 'seats'],
      ['an unknown coupon', { planCode: 'monthlyT2', couponCode: 'NOPE' }, 'couponCode'],
    ])('refuses %s with 400 naming the field', async (_label, body, field) => {
      const { token } = await signedInAccount(db(), 'buyer');
      const res = await app.request(
        '/portal/billing/checkout',
        post(body, { Authorization: `Bearer ${token}` }),
      );
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ field });
    });

    it('refuses an inactive plan with 400 naming planCode', async () => {
      await db().update(pricePlans).set({ active: false }).where(eq(pricePlans.code, 'annualT3'));
      const { token } = await signedInAccount(db(), 'buyer');
      const res = await app.request(
        '/portal/billing/checkout',
        post({ planCode: 'annualT3' }, { Authorization: `Bearer ${token}` }),
      );
      await db().update(pricePlans).set({ active: true }).where(eq(pricePlans.code, 'annualT3'));
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ field: 'planCode' });
    });

    it('prices the checkout with a coupon get-price-plans accepts, and charges and receipts that price', async () => {
      const code = `SAVE${randomUUID().slice(0, 6).toUpperCase()}`;
      await db().insert(coupons).values({ code, percentOff: 25 });
      const { token, email } = await signedInAccount(db(), 'buyer');
      const id = await openCheckout(token, { planCode: 'monthlyT2', couponCode: code.toLowerCase() });
      const [checkout] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
      expect(checkout).toMatchObject({ amountCents: 2925, couponCode: code, planCode: 'monthlyT2' });
      expect((await pay(id)).status).toBe(200);
      const [receipt] = await receiptsTo(email);
      expect(receipt?.body).toContain(`Amount charged: $29.25 (coupon ${code})`);
    });
  });

  describe('limits of checkouts', () => {
    it('lets one account open at most CHECKOUT_LIMIT checkouts in the window, then answers 429', async () => {
      const { token } = await signedInAccount(db(), 'buyer');
      for (let i = 0; i < CHECKOUT_LIMIT; i += 1) await openCheckout(token);
      const res = await app.request(
        '/portal/billing/checkout',
        post({ planCode: 'monthlyT2' }, { Authorization: `Bearer ${token}` }),
      );
      expect(res.status).toBe(429);
      expect(res.headers.get('Retry-After')).not.toBeNull();
    });

    it('refuses to charge an expired checkout with 410', async () => {
      const { token, userId } = await signedInAccount(db(), 'buyer');
      const id = await openCheckout(token);
      await db()
        .update(checkoutSessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(checkoutSessions.id, id));
      expect((await pay(id)).status).toBe(410);
      expect(await planOf(userId)).toMatchObject({ planCode: 'free' });
    });

    it('answers 404 for a checkout that does not exist', async () => {
      expect((await pay('cs_test_000000000000000000000000')).status).toBe(404);
    });
  });

  describe('paying on the test-mode checkout', () => {
    it('activates the subscription, moves the account to the plan and emails a receipt after 4242', async () => {
      const { token, userId, email } = await signedInAccount(db(), 'buyer');
      expect(await subscriptionAnswer(token)).toEqual({ subscription: null });
      const id = await openCheckout(token);
      const res = await pay(id);
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({
        status: 'succeeded',
        redirectUrl: '/developer/docs/dashboard?checkout=success',
      });
      expect(await planOf(userId)).toEqual({ planCode: 'monthlyT2', isPremium: true });
      const { subscription } = await subscriptionAnswer(token);
      expect(subscription).toMatchObject({
        planCode: 'monthlyT2',
        status: 'active',
        cancelAtPeriodEnd: false,
      });
      const end = Date.parse(String((subscription as Json).currentPeriodEnd));
      expect(end - Date.now()).toBeGreaterThan(27 * 86_400_000);
      const receipts = await receiptsTo(email);
      expect(receipts).toHaveLength(1);
      expect(receipts[0]).toMatchObject({ kind: 'BILLING_RECEIPT', link: '/developer/docs/dashboard' });
      expect(receipts[0]?.body).toContain('Amount charged: $39.00');
      expect(receipts[0]?.body).toContain('Card: ending in 4242');
    });

    it('charges a checkout once: paying it again is refused with 409', async () => {
      const { token, email } = await signedInAccount(db(), 'buyer');
      const id = await openCheckout(token);
      expect((await pay(id)).status).toBe(200);
      expect((await pay(id)).status).toBe(409);
      expect(await receiptsTo(email)).toHaveLength(1);
    });

    it.each([
      ['4000 0000 0000 0002', CARD_DECLINED_MESSAGE],
      ['4000 0000 0000 9995', INSUFFICIENT_FUNDS_MESSAGE],
      ['4000 0000 0000 0069', EXPIRED_CARD_MESSAGE],
    ])('declines %s with the provider message and charges nothing', async (cardNumber, message) => {
      const { token, userId, email } = await signedInAccount(db(), 'buyer');
      const id = await openCheckout(token);
      const res = await pay(id, { ...CARD, cardNumber });
      expect(res.status).toBe(402);
      expect(await json(res)).toMatchObject({ error: message });
      expect(await planOf(userId)).toEqual({ planCode: 'free', isPremium: false });
      expect(await subscriptionAnswer(token)).toEqual({ subscription: null });
      expect(await receiptsTo(email)).toHaveLength(0);
      const [checkout] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
      expect(checkout?.status).toBe('open');
    });

    it('refuses an expiry in the past naming the field, before any card is tried', async () => {
      const { token } = await signedInAccount(db(), 'buyer');
      const id = await openCheckout(token);
      const res = await pay(id, { ...CARD, expiry: '01 / 20' });
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ field: 'expiry' });
    });

    it('asks for the extra confirmation with 3155, and pays only once it is completed', async () => {
      const { token, userId, email } = await signedInAccount(db(), 'buyer');
      const id = await openCheckout(token);
      const res = await pay(id, { ...CARD, cardNumber: '4000 0025 0000 3155' });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({ status: 'requires_action' });
      expect(await planOf(userId)).toMatchObject({ planCode: 'free' });
      const done = await app.request(
        `/billing/test-checkout/${id}/authenticate`,
        post({ outcome: 'complete' }),
      );
      expect(done.status).toBe(200);
      expect(await planOf(userId)).toMatchObject({ planCode: 'monthlyT2' });
      expect(await receiptsTo(email)).toHaveLength(1);
    });

    it('charges nothing when the extra confirmation of 3155 fails, and the card form can be used again', async () => {
      const { token, userId, email } = await signedInAccount(db(), 'buyer');
      const id = await openCheckout(token);
      await pay(id, { ...CARD, cardNumber: '4000002500003155' });
      const failed = await app.request(
        `/billing/test-checkout/${id}/authenticate`,
        post({ outcome: 'fail' }),
      );
      expect(failed.status).toBe(402);
      expect(await json(failed)).toMatchObject({ error: AUTHENTICATION_FAILED_MESSAGE });
      expect(await planOf(userId)).toMatchObject({ planCode: 'free' });
      expect(await receiptsTo(email)).toHaveLength(0);
      expect((await pay(id)).status).toBe(200);
      expect(await planOf(userId)).toMatchObject({ planCode: 'monthlyT2' });
    });
  });

  describe('POST /billing/webhook', () => {
    async function subscribed(): Promise<{ userId: string; token: string; subscriptionId: string }> {
      const { token, userId } = await signedInAccount(db(), 'buyer');
      await pay(await openCheckout(token));
      const [row] = await db().select().from(subscriptions).where(eq(subscriptions.userId, userId));
      return { userId, token, subscriptionId: row?.providerSubscriptionId ?? '' };
    }

    function update(
      subscriptionId: string,
      status: 'active' | 'past_due' | 'canceled',
      created: Date,
    ): BillingEvent {
      return {
        id: `evt_test_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
        created: created.toISOString(),
        type: 'subscription.updated',
        data: {
          subscriptionId,
          planCode: 'monthlyT2',
          status,
          periodStart: new Date(Date.now() - 86_400_000).toISOString(),
          periodEnd: new Date(Date.now() + 29 * 86_400_000).toISOString(),
          cancelAtPeriodEnd: status === 'canceled',
          scheduledPlanCode: null,
        },
      };
    }

    it('refuses an event signed with another secret, or unsigned, with 400 and changes nothing', async () => {
      const { userId, subscriptionId } = await subscribed();
      const event = update(subscriptionId, 'canceled', new Date(Date.now() + 1000));
      const forged = await app.request('/billing/webhook', signedDelivery(event, 'not-the-provider-secret'));
      expect(forged.status).toBe(400);
      const unsigned = await app.request('/billing/webhook', post(event));
      expect(unsigned.status).toBe(400);
      expect(await planOf(userId)).toMatchObject({ planCode: 'monthlyT2' });
    });

    it('refuses a body changed after signing', async () => {
      const { userId, subscriptionId } = await subscribed();
      const init = signedDelivery(update(subscriptionId, 'active', new Date(Date.now() + 1000)));
      const tampered = init.body.replace('"active"', '"canceled"');
      const res = await app.request('/billing/webhook', { ...init, body: tampered });
      expect(res.status).toBe(400);
      expect(await planOf(userId)).toMatchObject({ planCode: 'monthlyT2' });
    });

    it('applies a replayed event once: the second delivery changes nothing', async () => {
      const { userId, subscriptionId } = await subscribed();
      const canceled = update(subscriptionId, 'canceled', new Date(Date.now() + 1000));
      const first = await app.request('/billing/webhook', signedDelivery(canceled));
      expect(await json(first)).toEqual({ received: true, outcome: 'applied' });
      expect(await planOf(userId)).toMatchObject({ planCode: 'free' });
      // Meanwhile the account is moved back by a newer event; the replay must not cancel it again.
      await app.request(
        '/billing/webhook',
        signedDelivery(update(subscriptionId, 'active', new Date(Date.now() + 2000))),
      );
      const replay = await app.request('/billing/webhook', signedDelivery(canceled));
      expect(replay.status).toBe(200);
      expect(await json(replay)).toEqual({ received: true, outcome: 'duplicate' });
      expect(await planOf(userId)).toMatchObject({ planCode: 'monthlyT2' });
      const [row] = await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(billingEvents)
        .where(eq(billingEvents.id, canceled.id));
      expect(row?.n).toBe(1);
    });

    it('ignores an event older than one already applied, so a late delivery does not undo a newer one', async () => {
      const { userId, token, subscriptionId } = await subscribed();
      const now = Date.now();
      await app.request(
        '/billing/webhook',
        signedDelivery(update(subscriptionId, 'past_due', new Date(now + 2000))),
      );
      const late = await app.request(
        '/billing/webhook',
        signedDelivery(update(subscriptionId, 'canceled', new Date(now + 1000))),
      );
      expect(await json(late)).toEqual({ received: true, outcome: 'stale' });
      expect((await subscriptionAnswer(token)).subscription).toMatchObject({ status: 'past_due' });
      expect(await planOf(userId)).toMatchObject({ planCode: 'monthlyT2' });
    });

    it('moves a canceled subscription back to the free plan', async () => {
      const { userId, token, subscriptionId } = await subscribed();
      await app.request(
        '/billing/webhook',
        signedDelivery(update(subscriptionId, 'canceled', new Date(Date.now() + 1000))),
      );
      expect(await planOf(userId)).toEqual({ planCode: 'free', isPremium: false });
      expect((await subscriptionAnswer(token)).subscription).toMatchObject({
        status: 'canceled',
        cancelAtPeriodEnd: true,
      });
    });

    it('verifies with BILLING_WEBHOOK_SECRET when it is set', async () => {
      process.env.BILLING_WEBHOOK_SECRET = 'whsec_configured_for_this_test';
      const { userId, subscriptionId } = await subscribed();
      const event = update(subscriptionId, 'canceled', new Date(Date.now() + 1000));
      expect(
        (await app.request('/billing/webhook', signedDelivery(event, 'whsec_configured_for_this_test')))
          .status,
      ).toBe(200);
      expect(await planOf(userId)).toMatchObject({ planCode: 'free' });
    });
  });
});

describe('a paid plan reaching the data API', () => {
  let h: DataApiHarness;

  beforeAll(async () => {
    h = await openDataApiHarness();
  });

  afterAll(async () => {
    await h.close();
  });

  it('opens the Professional endpoints to the key within 60 seconds of a paid checkout', async () => {
    const { app } = billingAppOn(() => h.db);
    const user = await createUser(h.db, {
      firebaseUid: `uid-${randomUUID()}`,
      email: `data.${randomUUID().slice(0, 8)}@example.com`,
    });
    await h.db.update(users).set({ emailVerified: true }).where(eq(users.id, user.id));
    const issued = await createApiKey(h.db, user.id, { secret: HARNESS_SECRET });
    const key = issued?.key ?? '';
    const quarterly = { symbol: 'AAPL', period: 'quarter', apikey: key };
    expect((await h.request('/stable/income-statement', quarterly)).status).toBe(402);

    const session = await startSession(h.db, user.id);
    const token = await signSessionToken(user, session.sessionId);
    const opened = await app.request(
      '/portal/billing/checkout',
      post({ planCode: 'monthlyT2' }, { Authorization: `Bearer ${token}` }),
    );
    const id =
      String((await json(opened)).url)
        .split('/')
        .at(-1) ?? '';
    expect((await app.request(`/billing/test-checkout/${id}/pay`, post(CARD))).status).toBe(200);

    h.clock.advance(60_000);
    const res = await h.request('/stable/income-statement', quarterly);
    expect(res.status).toBe(200);
    expect(res.headers.get('RateLimit-Policy')).toBe('"minute";q=120;w=60, "day";q=50000;w=86400');
  });
});
