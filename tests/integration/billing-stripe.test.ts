import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database, Db } from '../../src/server/db/client.ts';
import { invoices, outboxEmails, subscriptions, users } from '../../src/server/db/schema.ts';
import { closeSharedRateLimitStore } from '../../src/server/middleware/rate-limit-store.ts';
import {
  checkPaymentSettings,
  STRIPE_WEBHOOK_SECRET_MISSING,
} from '../../src/server/services/billing/payment-provider.ts';
import { startStripeStandIn, type StripeStandIn } from '../fixtures/stripe-stand-in.ts';
import { billingAppOn, post } from './accounts-app.ts';
import { type SignedInAccount, signedInAccount } from './billing-support.ts';
import { databaseTargets } from './databases.ts';

// The Stripe path through the real routes: the checkout call reaches Stripe's API (a local stand-in,
// since Stripe cannot be reached from here; tests/fixtures/stripe-stand-in.ts) and Stripe's webhook
// deliveries are signed with the SDK's test-header helper, so verification is Stripe's own code.

type Json = Record<string, unknown>;
const saved = { ...process.env };
const WEBHOOK_SECRET = 'whsec_integration_stand_in';
const PERIOD_START = Math.floor(Date.now() / 1000) - 60;
const PERIOD_END = PERIOD_START + 30 * 86_400;

let standIn: StripeStandIn;
let stripe: Stripe;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  stripe = standIn.client();
});

afterAll(async () => {
  await standIn.close();
});

beforeEach(async () => {
  process.env.DATA_DIR = 'memory://';
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  process.env.STRIPE_SECRET_KEY = 'sk_test_stand_in';
  process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
  process.env.STRIPE_API_URL = standIn.url;
  standIn.reset();
  await closeSharedRateLimitStore();
});

afterEach(() => {
  process.env = { ...saved };
});

function stripeDelivery(type: string, object: Json): RequestInit {
  const body = JSON.stringify({
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  return {
    method: 'POST',
    body,
    headers: {
      'Content-Type': 'application/json',
      'Stripe-Signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }),
    },
  };
}

function stripeSubscription(id: string, metadata: Json): Json {
  return {
    id,
    object: 'subscription',
    status: 'active',
    cancel_at_period_end: false,
    customer: 'cus_stand_in',
    schedule: null,
    metadata,
    default_payment_method: { id: 'pm_1', object: 'payment_method', card: { last4: '4242' } },
    items: {
      object: 'list',
      data: [
        {
          id: 'si_1',
          object: 'subscription_item',
          current_period_start: PERIOD_START,
          current_period_end: PERIOD_END,
          price: { id: 'price_1', object: 'price' },
        },
      ],
    },
  };
}

describe.each(databaseTargets())('billing through Stripe on $name', (target) => {
  let database: Database;
  const db = (): Db => database.db;
  const { app } = billingAppOn(db);

  beforeAll(async () => {
    database = await target.open();
  });

  afterAll(async () => {
    await database.close();
  });

  const buyer = (): Promise<SignedInAccount> => signedInAccount(db(), 'stripe');

  async function openCheckout(token: string): Promise<{ checkoutId: string; url: string }> {
    standIn.answers.set('POST /v1/products', { id: 'tickerlake_monthlyT2', object: 'product' });
    standIn.answers.set('POST /v1/checkout/sessions', {
      id: 'cs_stripe_1',
      object: 'checkout.session',
      url: 'https://checkout.example/pay/cs_stripe_1',
    });
    const res = await app.request(
      '/portal/billing/checkout',
      post({ planCode: 'monthlyT2' }, { Authorization: `Bearer ${token}` }),
    );
    expect(res.status).toBe(200);
    const session = standIn.requests.find((r) => r.path === '/v1/checkout/sessions');
    return {
      checkoutId: session?.body.get('client_reference_id') ?? '',
      url: String(((await res.json()) as Json).url),
    };
  }

  it("sends the buyer to Stripe's Checkout with the plan, the buyer's email and the site's return addresses", async () => {
    const { email, token } = await buyer();
    const { url } = await openCheckout(token);
    expect(url).toBe('https://checkout.example/pay/cs_stripe_1');
    const session = standIn.requests.find((r) => r.path === '/v1/checkout/sessions')?.body;
    expect(session?.get('customer_email')).toBe(email);
    expect(session?.get('success_url')).toMatch(
      /^https?:\/\/[^/]+\/developer\/docs\/dashboard\?checkout=success$/,
    );
    expect(session?.get('cancel_url')).toMatch(/\/developer\/docs\/pricing$/);
    expect(session?.get('line_items[0][price_data][unit_amount]')).toBe('3900');
  });

  it('does not let a Stripe checkout be paid on the test-mode page', async () => {
    const { token } = await buyer();
    const { checkoutId } = await openCheckout(token);
    const res = await app.request(
      `/billing/test-checkout/${checkoutId}/pay`,
      post({
        cardNumber: '4242 4242 4242 4242',
        expiry: '12 / 34',
        cvc: '123',
        name: 'Ada Lovelace',
        addressLine1: '1 Analytical Way',
        city: 'London',
        postalCode: 'N1 9GU',
        country: 'GB',
      }),
    );
    expect(res.status).toBe(404);
  });

  it("activates the plan from Stripe's signed events and records Stripe's invoice with a receipt", async () => {
    const { userId, email, token } = await buyer();
    const { checkoutId } = await openCheckout(token);
    const subscriptionId = `sub_${randomUUID().slice(0, 8)}`;
    const metadata = { planCode: 'monthlyT2', userId, checkoutId };
    standIn.answers.set(
      `GET /v1/subscriptions/${subscriptionId}`,
      stripeSubscription(subscriptionId, metadata),
    );

    const completed = await app.request(
      '/billing/webhook',
      stripeDelivery('checkout.session.completed', {
        id: 'cs_stripe_1',
        object: 'checkout.session',
        mode: 'subscription',
        client_reference_id: checkoutId,
        customer: 'cus_stand_in',
        subscription: subscriptionId,
        amount_total: 3900,
        currency: 'usd',
        metadata,
      }),
    );
    expect(await completed.json()).toEqual({ received: true, outcome: 'applied' });
    const [account] = await db().select().from(users).where(eq(users.id, userId));
    expect(account).toMatchObject({ planCode: 'monthlyT2', isPremium: true });
    const [subscription] = await db().select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(subscription).toMatchObject({
      provider: 'stripe',
      providerSubscriptionId: subscriptionId,
      status: 'active',
    });

    const paid = await app.request(
      '/billing/webhook',
      stripeDelivery('invoice.paid', {
        id: `in_${randomUUID().slice(0, 8)}`,
        object: 'invoice',
        currency: 'usd',
        billing_reason: 'subscription_create',
        attempt_count: 1,
        next_payment_attempt: null,
        total_taxes: [],
        period_start: PERIOD_START,
        period_end: PERIOD_START,
        parent: {
          type: 'subscription_details',
          subscription_details: { subscription: subscriptionId, metadata },
        },
        lines: {
          object: 'list',
          data: [
            {
              id: 'il_1',
              amount: 3900,
              description: '1 × Professional (at $39.00 / month)',
              period: { start: PERIOD_START, end: PERIOD_END },
            },
          ],
        },
      }),
    );
    expect(paid.status).toBe(200);
    const [invoice] = await db().select().from(invoices).where(eq(invoices.userId, userId));
    expect(invoice).toMatchObject({ provider: 'stripe', status: 'paid', totalCents: 3900 });
    expect(invoice?.number).toMatch(/^TL-\d{6}$/);
    const mail = await db().select().from(outboxEmails).where(eq(outboxEmails.email, email.toLowerCase()));
    expect(mail.map((m) => m.kind)).toContain('BILLING_RECEIPT');
  });

  it("opens Stripe's Customer Portal for a Stripe subscriber's card, and explains its absence in test mode", async () => {
    const { userId, token } = await buyer();
    const { checkoutId } = await openCheckout(token);
    const subscriptionId = `sub_${randomUUID().slice(0, 8)}`;
    const metadata = { planCode: 'monthlyT2', userId, checkoutId };
    standIn.answers.set(
      `GET /v1/subscriptions/${subscriptionId}`,
      stripeSubscription(subscriptionId, metadata),
    );
    await app.request(
      '/billing/webhook',
      stripeDelivery('checkout.session.completed', {
        id: 'cs_stripe_2',
        object: 'checkout.session',
        mode: 'subscription',
        client_reference_id: checkoutId,
        customer: 'cus_stand_in',
        subscription: subscriptionId,
        amount_total: 3900,
        currency: 'usd',
        metadata,
      }),
    );
    const auth = { Authorization: `Bearer ${token}` };
    const state = (await (
      await app.request('/portal/billing/subscription', { headers: auth })
    ).json()) as Json;
    expect(state.subscription).toMatchObject({ cardManagedByProvider: true });
    standIn.answers.set('POST /v1/billing_portal/sessions', {
      id: 'bps_1',
      object: 'billing_portal.session',
      url: 'https://billing.example/session/bps_1',
    });
    const opened = await app.request('/portal/billing/payment-method', post({}, auth));
    expect(await opened.json()).toEqual({ url: 'https://billing.example/session/bps_1' });
    const portal = standIn.requests.find((r) => r.path === '/v1/billing_portal/sessions')?.body;
    expect(portal?.get('customer')).toBe('cus_stand_in');
    expect(portal?.get('return_url')).toMatch(/\/developer\/docs\/dashboard$/);

    const free = await buyer();
    const none = await app.request(
      '/portal/billing/payment-method',
      post({}, { Authorization: `Bearer ${free.token}` }),
    );
    expect(none.status).toBe(409);
  });

  it('answers an event it does not act on as handled, and refuses one not signed by Stripe', async () => {
    const ignored = await app.request(
      '/billing/webhook',
      stripeDelivery('charge.succeeded', { id: 'ch_1', object: 'charge' }),
    );
    expect(await ignored.json()).toEqual({ received: true, outcome: 'ignored' });
    const forged = stripeDelivery('charge.succeeded', { id: 'ch_1', object: 'charge' });
    const refused = await app.request('/billing/webhook', {
      ...forged,
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=00' },
    });
    expect(refused.status).toBe(400);
  });

  it('refuses to start with a Stripe key but no webhook secret, naming the setting to add', () => {
    expect(() => checkPaymentSettings()).not.toThrow();
    delete process.env.STRIPE_WEBHOOK_SECRET;
    expect(() => checkPaymentSettings()).toThrow(STRIPE_WEBHOOK_SECRET_MISSING);
    process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
    process.env.STRIPE_API_URL = 'stand-in';
    expect(() => checkPaymentSettings()).toThrow('STRIPE_API_URL must be an http(s) URL, got "stand-in"');
  });
});
