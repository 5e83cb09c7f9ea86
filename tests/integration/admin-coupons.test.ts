import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AdminCoupon } from '../../src/lib/admin.ts';
import type { PricePlansAnswer } from '../../src/lib/price-plans.ts';
import type { AccountsEnv } from '../../src/server/app/context.ts';
import type { Database, Db } from '../../src/server/db/client.ts';
import { auditLog, coupons, subscriptions, users } from '../../src/server/db/schema.ts';
import {
  ADMIN_ONLY_MESSAGE,
  SIGN_IN_REQUIRED_MESSAGE,
  STAFF_ONLY_MESSAGE,
} from '../../src/server/middleware/caller.ts';
import { REASON_MESSAGE } from '../../src/server/routes/admin.ts';
import {
  AMOUNT_OFF_MESSAGE,
  CODE_CHARACTERS_MESSAGE,
  CODE_LENGTH_MESSAGE,
  CODE_REQUIRED_MESSAGE,
  DISCOUNT_BOTH_MESSAGE,
  DISCOUNT_MISSING_MESSAGE,
  EXPIRY_FORMAT_MESSAGE,
  EXPIRY_PAST_MESSAGE,
  MAX_USES_MESSAGE,
  PERCENT_OFF_MESSAGE,
  adminCouponRoutes,
} from '../../src/server/routes/admin-coupons.ts';
import { billingWebhookRoutes, portalBillingRoutes } from '../../src/server/routes/billing.ts';
import { portalRoutes } from '../../src/server/routes/portal.ts';
import { couponGoneMessage, testCheckoutRoutes } from '../../src/server/routes/test-checkout.ts';
import { type BillingEvent, signedDelivery } from '../../src/server/services/billing/provider.ts';
import { setRole } from '../../src/server/services/users.ts';
import { accountsAppOn, bearer, post } from './accounts-app.ts';
import {
  signedInAccount,
  TEST_CARD,
  useBillingEnvironment,
  type SignedInAccount,
} from './billing-support.ts';
import { databaseTargets } from './databases.ts';

type Json = Record<string, unknown>;

useBillingEnvironment();

const DAY_MS = 86_400_000;
const inDays = (days: number): string => new Date(Date.now() + days * DAY_MS).toISOString();
/** A code no other test uses, so every story starts from a coupon of its own. */
const freshCode = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8).toUpperCase()}`;

describe.each(databaseTargets())('coupons in the admin console on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;
  /** Every event the test-mode provider delivered, so a story can deliver one again. */
  const delivered: BillingEvent[] = [];
  const deliver = (init: RequestInit): Promise<Response> => {
    if (typeof init.body === 'string') delivered.push(JSON.parse(init.body) as BillingEvent);
    return Promise.resolve(app.request('/billing/webhook', init));
  };
  const app: Hono<AccountsEnv> = accountsAppOn(db, [
    ['/admin/coupons', adminCouponRoutes],
    ['/portal', portalRoutes],
    ['/portal', portalBillingRoutes(deliver)],
    ['/billing', billingWebhookRoutes],
    ['/billing', testCheckoutRoutes(deliver)],
  ]);
  let admin: SignedInAccount & { username: string };
  let analyst: SignedInAccount;
  let ordinary: SignedInAccount;

  beforeAll(async () => {
    // The accounts are signed in before the first test's environment is set: the same one.
    process.env.DATA_DIR = 'memory://';
    process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('authEmulatorHost');
    delete process.env.DATABASE_URL;
    delete process.env.REDIS_URL;
    delete process.env.BILLING_WEBHOOK_SECRET;
    database = await target.open();
    const made = await signedInAccount(db(), 'admin', 'admin');
    const [row] = await db()
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, made.userId));
    admin = { ...made, username: row?.username ?? '' };
    analyst = await signedInAccount(db(), 'analyst');
    await setRole(db(), analyst.userId, 'analyst', null);
    ordinary = await signedInAccount(db(), 'user');
  });

  afterAll(async () => {
    await database.close();
  });

  const as = (who: SignedInAccount, body: unknown): RequestInit =>
    post(body, { Authorization: `Bearer ${who.token}` });

  const create = async (body: Json, who: SignedInAccount = admin): Promise<Response> =>
    app.request('/admin/coupons', as(who, { reason: 'Spring campaign', ...body }));

  async function created(body: Json): Promise<AdminCoupon> {
    const res = await create(body);
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { coupon: AdminCoupon }).coupon;
  }

  const disable = (
    code: string,
    body: Json = { reason: 'Leaked on a forum' },
    who: SignedInAccount = admin,
  ): Promise<Response> =>
    Promise.resolve(app.request(`/admin/coupons/${encodeURIComponent(code)}/disable`, as(who, body)));

  async function listed(who: SignedInAccount = admin): Promise<AdminCoupon[]> {
    const res = await app.request('/admin/coupons', bearer(who.token));
    expect(res.status).toBe(200);
    return ((await res.json()) as { coupons: AdminCoupon[] }).coupons;
  }

  const couponNamed = async (code: string): Promise<AdminCoupon | undefined> =>
    (await listed()).find((coupon) => coupon.code === code);

  async function pricePlans(couponCode: string): Promise<PricePlansAnswer> {
    const res = await app.request(
      `/portal/account/get-price-plans?couponCode=${encodeURIComponent(couponCode)}`,
    );
    expect(res.status).toBe(200);
    return (await res.json()) as PricePlansAnswer;
  }

  const openCheckout = (who: SignedInAccount, planCode: string, couponCode: string): Promise<Response> =>
    Promise.resolve(app.request('/portal/billing/checkout', as(who, { planCode, couponCode })));

  async function checkoutId(who: SignedInAccount, planCode: string, couponCode: string): Promise<string> {
    const res = await openCheckout(who, planCode, couponCode);
    expect(res.status, await res.clone().text()).toBe(200);
    const { url } = (await res.json()) as { url: string };
    return url.split('/').at(-1) ?? '';
  }

  const pay = (id: string): Promise<Response> =>
    Promise.resolve(app.request(`/billing/test-checkout/${id}/pay`, post(TEST_CARD)));

  const planOf = async (userId: string): Promise<string> => {
    const [row] = await db().select({ planCode: users.planCode }).from(users).where(eq(users.id, userId));
    return row?.planCode ?? '';
  };

  const couponAudit = (action: 'coupon_create' | 'coupon_disable', code: string) =>
    db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.actorUserId, admin.userId)))
      .then((rows) => rows.filter((row) => row.details.code === code));

  describe('who may read and who may act', () => {
    it('lets administrators and analysts list coupons, and refuses ordinary users (403) and visitors (401)', async () => {
      expect(Array.isArray(await listed(admin))).toBe(true);
      expect(Array.isArray(await listed(analyst))).toBe(true);
      const refused = await app.request('/admin/coupons', bearer(ordinary.token));
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: STAFF_ONLY_MESSAGE });
      const visitor = await app.request('/admin/coupons');
      expect(visitor.status).toBe(401);
      expect(await visitor.json()).toMatchObject({ error: SIGN_IN_REQUIRED_MESSAGE });
    });

    it('refuses creating and disabling to analysts and ordinary users, and changes nothing', async () => {
      const code = freshCode('STAFF');
      for (const who of [analyst, ordinary]) {
        const creating = await create({ code, percentOff: 10 }, who);
        expect(creating.status).toBe(403);
        expect(await creating.json()).toMatchObject({
          error: who === analyst ? ADMIN_ONLY_MESSAGE : STAFF_ONLY_MESSAGE,
        });
      }
      expect(await couponNamed(code)).toBeUndefined();
      await created({ code, percentOff: 10 });
      for (const who of [analyst, ordinary]) {
        expect((await disable(code, { reason: 'No' }, who)).status).toBe(403);
      }
      expect((await app.request(`/admin/coupons/${code}/disable`, post({ reason: 'No' }))).status).toBe(401);
      expect(await couponNamed(code)).toMatchObject({ state: 'active' });
    });
  });

  describe('creating a coupon', () => {
    it('creates a percent-off coupon with its plans, expiry and maximum of uses, lists it first and audits it', async () => {
      const code = freshCode('spring');
      const expiresAt = inDays(30);
      const coupon = await created({
        code: ` ${code.toLowerCase()} `,
        percentOff: 20,
        planCodes: ['monthlyT2', 'annualT2'],
        expiresAt,
        maxUses: 5,
      });
      expect(coupon).toMatchObject({
        code: code.toUpperCase(),
        percentOff: 20,
        amountOffCents: null,
        planCodes: ['monthlyT2', 'annualT2'],
        expiresAt,
        maxUses: 5,
        uses: 0,
        state: 'active',
        createdBy: admin.username,
      });
      const [first] = await listed(analyst);
      expect(first).toEqual(coupon);
      const [entry] = await couponAudit('coupon_create', code.toUpperCase());
      expect(entry).toMatchObject({
        targetUserId: null,
        details: {
          code: code.toUpperCase(),
          reason: 'Spring campaign',
          terms: `20% off monthlyT2, annualT2; until ${expiresAt}; at most 5 uses`,
        },
      });
    });

    it('creates an amount-off coupon for every paid plan with no expiry and no limit', async () => {
      const code = freshCode('FIVE');
      const coupon = await created({ code, amountOffCents: 500 });
      expect(coupon).toMatchObject({ amountOffCents: 500, percentOff: null, planCodes: [], expiresAt: null });
      expect(coupon.maxUses).toBeNull();
      const { plans } = await pricePlans(code);
      expect(plans.find((plan) => plan.code === 'starterT1')?.discountedPriceCents).toBe(1400);
      expect(plans.find((plan) => plan.code === 'free')?.discountedPriceCents).toBeNull();
    });

    it.each([
      ['no code', { code: undefined }, 'code', 'Required'],
      ['an empty code', { code: '  ' }, 'code', CODE_REQUIRED_MESSAGE],
      ['a code of 2 characters', { code: 'AB' }, 'code', CODE_LENGTH_MESSAGE],
      ['a code of 33 characters', { code: 'A'.repeat(33) }, 'code', CODE_LENGTH_MESSAGE],
      ['a code with a space', { code: 'SAVE 20' }, 'code', CODE_CHARACTERS_MESSAGE],
      ['a code with a percent sign', { code: 'SAVE20%' }, 'code', CODE_CHARACTERS_MESSAGE],
      ['no discount', { percentOff: undefined }, 'percentOff', DISCOUNT_MISSING_MESSAGE],
      ['both discounts', { amountOffCents: 500 }, 'amountOffCents', DISCOUNT_BOTH_MESSAGE],
      ['0 percent off', { percentOff: 0 }, 'percentOff', PERCENT_OFF_MESSAGE],
      ['101 percent off', { percentOff: 101 }, 'percentOff', PERCENT_OFF_MESSAGE],
      ['12.5 percent off', { percentOff: 12.5 }, 'percentOff', PERCENT_OFF_MESSAGE],
      ['a percent off as text', { percentOff: '20' }, 'percentOff', PERCENT_OFF_MESSAGE],
      ['0 cents off', { percentOff: undefined, amountOffCents: 0 }, 'amountOffCents', AMOUNT_OFF_MESSAGE],
      [
        'a negative amount off',
        { percentOff: undefined, amountOffCents: -5 },
        'amountOffCents',
        AMOUNT_OFF_MESSAGE,
      ],
      ['an unknown plan', { planCodes: ['platinum'] }, 'planCodes', 'There is no plan platinum.'],
      [
        'the free plan',
        { planCodes: ['free'] },
        'planCodes',
        'Free is free; a coupon applies to paid plans only.',
      ],
      ['an expiry in the past', { expiresAt: inDays(-1) }, 'expiresAt', EXPIRY_PAST_MESSAGE],
      ['an expiry that is not a time', { expiresAt: 'next Friday' }, 'expiresAt', EXPIRY_FORMAT_MESSAGE],
      ['0 maximum uses', { maxUses: 0 }, 'maxUses', MAX_USES_MESSAGE],
      ['1.5 maximum uses', { maxUses: 1.5 }, 'maxUses', MAX_USES_MESSAGE],
      ['no reason', { reason: '' }, 'reason', REASON_MESSAGE],
      [
        'a reason of 501 characters',
        { reason: 'x'.repeat(501) },
        'reason',
        'A reason can be at most 500 characters.',
      ],
      ['an unknown field', { seats: 3 }, 'seats', 'Unknown field: seats'],
    ])(
      'refuses %s with 400 naming the field, and creates nothing',
      async (_label, change, field, message) => {
        const code = freshCode('BAD');
        const res = await create({ code, percentOff: 15, ...change });
        expect(res.status).toBe(400);
        const body = (await res.json()) as { error: string; field: string };
        expect(body.field).toBe(field);
        expect(body.error).toBe(message.startsWith('Unknown field') ? message : `${field}: ${message}`);
        expect(await couponNamed(code)).toBeUndefined();
      },
    );

    it('refuses a code in use already, whatever its case, with 409 and leaves the first coupon as it was', async () => {
      const code = freshCode('TWICE');
      await created({ code, percentOff: 10 });
      const res = await create({ code: code.toLowerCase(), amountOffCents: 100 });
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({
        field: 'code',
        error: `code: There is a coupon ${code} already. Choose another code.`,
      });
      expect(await couponNamed(code)).toMatchObject({ percentOff: 10, amountOffCents: null });
      expect(await couponAudit('coupon_create', code)).toHaveLength(1);
    });
  });

  describe('disabling a coupon', () => {
    it('disables a coupon, audits it with its terms and uses, and the pricing page and checkout refuse it', async () => {
      const code = freshCode('OFF');
      await created({ code, percentOff: 30, maxUses: 10 });
      const res = await disable(code.toLowerCase());
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        coupon: { code, state: 'disabled', createdBy: admin.username },
      });
      expect(await couponNamed(code)).toMatchObject({ state: 'disabled' });
      const [entry] = await couponAudit('coupon_disable', code);
      expect(entry).toMatchObject({
        targetUserId: null,
        details: {
          code,
          reason: 'Leaked on a forum',
          uses: 0,
          terms: '30% off every paid plan; no end; at most 10 uses',
        },
      });
      const answer = await pricePlans(code);
      expect(answer).toMatchObject({ couponCode: '', couponCodeError: `Coupon code ${code} is not valid.` });
      expect(answer.plans.every((plan) => plan.discountedPriceCents === null)).toBe(true);
      const buyer = await signedInAccount(db(), 'buyer');
      const refused = await openCheckout(buyer, 'monthlyT2', code);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        field: 'couponCode',
        error: `couponCode: Coupon code ${code} is not valid.`,
      });
    });

    it('answers 409 for a coupon disabled already, 404 for an unknown one and 400 without a reason', async () => {
      const code = freshCode('AGAIN');
      await created({ code, percentOff: 5 });
      expect((await disable(code)).status).toBe(200);
      const again = await disable(code);
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ error: `Coupon ${code} is disabled already.` });
      const unknown = await disable('NO-SUCH-COUPON');
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: 'No such coupon.' });
      const other = freshCode('KEEP');
      await created({ code: other, percentOff: 5 });
      const unexplained = await disable(other, {});
      expect(unexplained.status).toBe(400);
      expect(await unexplained.json()).toMatchObject({ field: 'reason' });
      expect(await couponNamed(other)).toMatchObject({ state: 'active' });
      expect(await couponAudit('coupon_disable', code)).toHaveLength(1);
    });
  });

  describe('the rules at the pricing page and at checkout', () => {
    it('refuses an expired coupon at the price-plan endpoint and at checkout, and lists it as expired', async () => {
      const code = freshCode('GONE');
      await created({ code, percentOff: 10, expiresAt: inDays(1) });
      await db()
        .update(coupons)
        .set({ validUntil: new Date(Date.now() - 1000) })
        .where(eq(coupons.code, code));
      expect(await couponNamed(code)).toMatchObject({ state: 'expired' });
      expect(await pricePlans(code)).toMatchObject({ couponCodeError: `Coupon code ${code} has expired.` });
      const buyer = await signedInAccount(db(), 'buyer');
      const refused = await openCheckout(buyer, 'monthlyT2', code);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: `couponCode: Coupon code ${code} has expired.` });
    });

    it('refuses a coupon at checkout for a plan it does not apply to, naming the plans it does', async () => {
      const code = freshCode('PRO');
      await created({ code, percentOff: 20, planCodes: ['monthlyT2'] });
      const { plans } = await pricePlans(code);
      expect(plans.find((plan) => plan.code === 'monthlyT2')?.discountedPriceCents).toBe(3120);
      expect(plans.find((plan) => plan.code === 'starterT1')?.discountedPriceCents).toBeNull();
      const buyer = await signedInAccount(db(), 'buyer');
      const refused = await openCheckout(buyer, 'starterT1', code);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        field: 'couponCode',
        error: `couponCode: Coupon code ${code} does not apply to Starter; it applies to Professional only.`,
      });
    });

    it('counts a use per paid checkout; a used-up coupon is refused at the price-plan endpoint and at checkout', async () => {
      const code = freshCode('ONCE');
      await created({ code, percentOff: 20, planCodes: ['monthlyT2'], maxUses: 1 });
      const first = await signedInAccount(db(), 'buyer');
      const id = await checkoutId(first, 'monthlyT2', code);
      expect(await couponNamed(code)).toMatchObject({ uses: 0, state: 'active' });
      expect((await pay(id)).status).toBe(200);
      expect(await planOf(first.userId)).toBe('monthlyT2');
      expect(await couponNamed(code)).toMatchObject({ uses: 1, maxUses: 1, state: 'used_up' });
      const answer = await pricePlans(code);
      expect(answer).toMatchObject({
        couponCode: '',
        couponCodeError: `Coupon code ${code} has been fully redeemed.`,
      });
      expect(answer.plans.find((plan) => plan.code === 'monthlyT2')?.discountedPriceCents).toBeNull();
      const second = await signedInAccount(db(), 'buyer');
      const refused = await openCheckout(second, 'monthlyT2', code);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        field: 'couponCode',
        error: `couponCode: Coupon code ${code} has been fully redeemed.`,
      });
    });

    it('refuses to charge a checkout whose coupon was used up after it opened, and charges nothing', async () => {
      const code = freshCode('LAST');
      await created({ code, amountOffCents: 1000, maxUses: 1 });
      const first = await signedInAccount(db(), 'buyer');
      const second = await signedInAccount(db(), 'buyer');
      const firstId = await checkoutId(first, 'monthlyT2', code);
      const secondId = await checkoutId(second, 'monthlyT2', code);
      expect((await pay(firstId)).status).toBe(200);
      const refused = await pay(secondId);
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({ error: couponGoneMessage(code) });
      expect(await planOf(second.userId)).toBe('free');
      expect(await couponNamed(code)).toMatchObject({ uses: 1 });
    });

    it('counts a checkout once when the provider reports its completion again, under the same or another event id', async () => {
      const code = freshCode('REPLAY');
      await created({ code, percentOff: 10 });
      const buyer = await signedInAccount(db(), 'buyer');
      const id = await checkoutId(buyer, 'monthlyT2', code);
      expect((await pay(id)).status).toBe(200);
      const completed = delivered.find(
        (event) => event.type === 'checkout.completed' && event.data.checkoutId === id,
      );
      if (completed === undefined) throw new Error('the provider reported no completion');
      const replay = await app.request('/billing/webhook', signedDelivery(completed));
      expect(await replay.json()).toEqual({ received: true, outcome: 'duplicate' });
      const renamed = { ...completed, id: `evt_test_${randomUUID().replaceAll('-', '').slice(0, 24)}` };
      const again = await app.request('/billing/webhook', signedDelivery(renamed));
      expect(again.status).toBe(200);
      expect(await couponNamed(code)).toMatchObject({ uses: 1 });
    });

    it('never counts past the maximum when completions of several checkouts arrive at once', async () => {
      const code = freshCode('RUSH');
      await created({ code, percentOff: 50, maxUses: 2 });
      const buyers = await Promise.all([1, 2, 3, 4].map(() => signedInAccount(db(), 'buyer')));
      const ids = await Promise.all(buyers.map((buyer) => checkoutId(buyer, 'monthlyT2', code)));
      // As a provider paying on its own page reports them: every checkout paid, the events at once.
      const now = new Date();
      const events: BillingEvent[] = ids.map((checkoutId) => ({
        id: `evt_test_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
        created: now.toISOString(),
        type: 'checkout.completed',
        data: {
          checkoutId,
          customerId: `cus_test_${randomUUID().slice(0, 8)}`,
          subscriptionId: `sub_test_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
          planCode: 'monthlyT2',
          amountCents: 1950,
          currency: 'usd',
          cardLast4: '4242',
          periodStart: now.toISOString(),
          periodEnd: inDays(30),
        },
      }));
      const answers = await Promise.all(
        events.map((event) => Promise.resolve(app.request('/billing/webhook', signedDelivery(event)))),
      );
      for (const answer of answers)
        expect(await answer.json()).toEqual({ received: true, outcome: 'applied' });
      // The buyers paid: their subscriptions start, and the count stops at the maximum.
      for (const buyer of buyers) expect(await planOf(buyer.userId)).toBe('monthlyT2');
      const started = await db().select().from(subscriptions);
      expect(started.filter((row) => buyers.some((buyer) => buyer.userId === row.userId))).toHaveLength(4);
      expect(await couponNamed(code)).toMatchObject({ uses: 2, state: 'used_up' });
    });
  });
});
