import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CheckoutSession, PricePlan, Subscription } from '../../src/server/db/schema.ts';
import { billingEventSchema } from '../../src/server/services/billing/provider.ts';
import { siteStatus, stripeProductId, StripeProvider } from '../../src/server/services/billing/stripe.ts';
import { startStripeStandIn, type StandInRequest, type StripeStandIn } from '../fixtures/stripe-stand-in.ts';

// Stripe's API cannot be reached from here, so the SDK talks to a local stand-in
// (tests/fixtures/stripe-stand-in.ts) that records each request and answers with objects shaped
// like Stripe's. Webhook deliveries are signed with the SDK's own test-header helper, so the
// signature check is Stripe's code, not ours.

const WEBHOOK_SECRET = 'whsec_test_secret_for_the_provider_tests';
const NOW = new Date('2026-11-26T12:00:00Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);
const PERIOD_START = NOW_S - 86_400;
const PERIOD_END = PERIOD_START + 30 * 86_400;

let standIn: StripeStandIn;
let stripe: Stripe;
let provider: StripeProvider;
let requests: StandInRequest[];
let answers: Map<string, unknown>;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  stripe = standIn.client();
  provider = new StripeProvider(stripe, WEBHOOK_SECRET);
  requests = standIn.requests;
  answers = standIn.answers;
});

afterAll(async () => {
  await standIn.close();
});

beforeEach(() => {
  standIn.reset();
});

const PLAN: PricePlan = {
  code: 'monthlyT2',
  name: 'Professional',
  planType: 'personal',
  billingInterval: 'month',
  priceCents: 3900,
  currency: 'usd',
  callsPerMinute: 120,
  callsPerDay: 50_000,
  features: [],
  sortOrder: 30,
  active: true,
  dataTier: 2,
  historyYears: null,
} as unknown as PricePlan;

const SUBSCRIPTION_ROW = {
  providerSubscriptionId: 'sub_123',
  providerCustomerId: 'cus_123',
  currentPeriodEnd: new Date(PERIOD_END * 1000),
} as Subscription;

function stripeSubscription(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'sub_123',
    object: 'subscription',
    status: 'active',
    cancel_at_period_end: false,
    customer: 'cus_123',
    schedule: null,
    ended_at: null,
    metadata: { planCode: 'monthlyT2', userId: 'user-1', checkoutId: 'cs_1' },
    default_payment_method: { id: 'pm_1', object: 'payment_method', card: { last4: '4242' } },
    items: {
      object: 'list',
      data: [
        {
          id: 'si_1',
          object: 'subscription_item',
          current_period_start: PERIOD_START,
          current_period_end: PERIOD_END,
          price: { id: 'price_old', object: 'price' },
        },
      ],
    },
    ...overrides,
  };
}

function signed(type: string, object: Record<string, unknown>, at = NOW_S): { body: string; header: string } {
  const body = JSON.stringify({
    id: `evt_${type.replaceAll('.', '_')}`,
    object: 'event',
    type,
    created: at,
    api_version: '2026-10-28.endive',
    data: { object },
  });
  return {
    body,
    header: stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: WEBHOOK_SECRET,
      timestamp: at,
    }),
  };
}

function invoice(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'in_1',
    object: 'invoice',
    currency: 'usd',
    billing_reason: 'subscription_cycle',
    attempt_count: 1,
    next_payment_attempt: null,
    last_finalization_error: null,
    period_start: PERIOD_START,
    period_end: PERIOD_START,
    total_taxes: [{ amount: 780, tax_behavior: 'exclusive' }],
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: 'sub_123', metadata: { planCode: 'monthlyT2' } },
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
    ...overrides,
  };
}

describe('Stripe webhook deliveries', () => {
  it('refuses a delivery signed with another secret, changed after signing, or too old', async () => {
    const { body, header } = signed('customer.subscription.updated', stripeSubscription());
    const other = stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: 'whsec_other',
      timestamp: NOW_S,
    });
    expect(await provider.readEvent(body, other, NOW)).toEqual({ ok: false });
    expect(await provider.readEvent(body.replace('monthlyT2', 'monthlyT3'), header, NOW)).toEqual({
      ok: false,
    });
    expect(await provider.readEvent(body, undefined, NOW)).toEqual({ ok: false });
    const later = new Date(NOW.getTime() + 301_000);
    expect(await provider.readEvent(body, header, later)).toEqual({ ok: false });
    expect((await provider.readEvent(body, header, NOW)).ok).toBe(true);
  });

  it('turns a completed Checkout Session into the site checkout event, with the period and card from the subscription', async () => {
    answers.set('GET /v1/subscriptions/sub_123', stripeSubscription());
    const { body, header } = signed('checkout.session.completed', {
      id: 'cs_stripe_1',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: 'cs_test_site_checkout',
      customer: 'cus_123',
      subscription: 'sub_123',
      amount_total: 3120,
      currency: 'usd',
      metadata: { planCode: 'monthlyT2', userId: 'user-1', checkoutId: 'cs_test_site_checkout' },
    });
    const delivery = await provider.readEvent(body, header, NOW);
    expect(delivery).toEqual({
      ok: true,
      event: {
        id: 'evt_checkout_session_completed',
        created: NOW.toISOString(),
        type: 'checkout.completed',
        data: {
          checkoutId: 'cs_test_site_checkout',
          customerId: 'cus_123',
          subscriptionId: 'sub_123',
          planCode: 'monthlyT2',
          amountCents: 3120,
          currency: 'usd',
          cardLast4: '4242',
          periodStart: new Date(PERIOD_START * 1000).toISOString(),
          periodEnd: new Date(PERIOD_END * 1000).toISOString(),
        },
      },
    });
    expect(requests.at(-1)?.query.get('expand[0]')).toBe('default_payment_method');
    if (delivery.ok) expect(billingEventSchema.safeParse(delivery.event).success).toBe(true);
  });

  it('reports a subscription update with its status, cancellation and scheduled downgrade', async () => {
    const { body, header } = signed(
      'customer.subscription.updated',
      stripeSubscription({
        status: 'past_due',
        cancel_at_period_end: true,
        metadata: { planCode: 'monthlyT2', scheduledPlanCode: 'starterT1' },
      }),
    );
    const delivery = await provider.readEvent(body, header, NOW);
    expect(delivery.ok && delivery.event).toMatchObject({
      type: 'subscription.updated',
      data: {
        subscriptionId: 'sub_123',
        planCode: 'monthlyT2',
        status: 'past_due',
        cancelAtPeriodEnd: true,
        scheduledPlanCode: 'starterT1',
      },
    });
  });

  it('maps Stripe subscription statuses onto the four the site keeps', () => {
    expect(siteStatus('trialing')).toBe('active');
    expect(siteStatus('unpaid')).toBe('past_due');
    expect(siteStatus('incomplete_expired')).toBe('canceled');
    expect(siteStatus('incomplete')).toBe('incomplete');
  });

  it('reports an ended subscription with the time it ended', async () => {
    const endedAt = NOW_S - 60;
    const { body, header } = signed(
      'customer.subscription.deleted',
      stripeSubscription({ status: 'canceled', ended_at: endedAt }),
    );
    const delivery = await provider.readEvent(body, header, NOW);
    expect(delivery.ok && delivery.event).toMatchObject({
      type: 'subscription.deleted',
      data: { subscriptionId: 'sub_123', endedAt: new Date(endedAt * 1000).toISOString() },
    });
  });

  it('reports a paid renewal invoice with its lines, the exclusive tax and the reason', async () => {
    const { body, header } = signed('invoice.paid', invoice());
    const delivery = await provider.readEvent(body, header, NOW);
    expect(delivery.ok && delivery.event).toMatchObject({
      type: 'invoice.paid',
      data: {
        invoiceId: 'in_1',
        subscriptionId: 'sub_123',
        planCode: 'monthlyT2',
        reason: 'subscription_cycle',
        lines: [{ description: '1 × Professional (at $39.00 / month)', amountCents: 3900 }],
        taxCents: 780,
        periodStart: new Date(PERIOD_START * 1000).toISOString(),
        periodEnd: new Date(PERIOD_END * 1000).toISOString(),
      },
    });
  });

  it('reports a proration invoice as a subscription update, credit line included', async () => {
    const { body, header } = signed(
      'invoice.paid',
      invoice({
        billing_reason: 'subscription_update',
        total_taxes: [],
        lines: {
          object: 'list',
          data: [
            {
              id: 'il_1',
              amount: -1950,
              description: 'Unused time on Professional',
              period: { start: NOW_S, end: PERIOD_END },
            },
            {
              id: 'il_2',
              amount: 3950,
              description: 'Remaining time on Power',
              period: { start: NOW_S, end: PERIOD_END },
            },
          ],
        },
      }),
    );
    const delivery = await provider.readEvent(body, header, NOW);
    expect(delivery.ok && delivery.event).toMatchObject({
      type: 'invoice.paid',
      data: {
        reason: 'subscription_update',
        taxCents: 0,
        lines: [
          { description: 'Unused time on Professional', amountCents: -1950 },
          { description: 'Remaining time on Power', amountCents: 3950 },
        ],
      },
    });
  });

  it('reports a failed renewal with the attempt count and the next retry', async () => {
    const retry = NOW_S + 3 * 86_400;
    const { body, header } = signed(
      'invoice.payment_failed',
      invoice({
        attempt_count: 2,
        next_payment_attempt: retry,
        last_finalization_error: { message: 'Your card was declined.' },
      }),
    );
    const delivery = await provider.readEvent(body, header, NOW);
    expect(delivery.ok && delivery.event).toMatchObject({
      type: 'invoice.payment_failed',
      data: {
        attemptCount: 2,
        nextAttemptAt: new Date(retry * 1000).toISOString(),
        message: 'Your card was declined.',
      },
    });
  });

  it('acknowledges an event the site does not act on without turning it into one', async () => {
    const { body, header } = signed('charge.succeeded', { id: 'ch_1', object: 'charge' });
    expect(await provider.readEvent(body, header, NOW)).toEqual({ ok: true, event: null });
  });
});

describe('Stripe API calls', () => {
  const checkout = {
    id: 'cs_test_site_checkout',
    userId: 'user-1',
    planCode: 'monthlyT2',
    couponCode: 'LAUNCH20',
    amountCents: 3120,
    currency: 'usd',
    provider: 'stripe',
    status: 'open',
    cardLast4: null,
    expiresAt: new Date(NOW.getTime() + 86_400_000),
    createdAt: NOW,
  } satisfies CheckoutSession;

  it('opens a subscription Checkout Session at the list price with the coupon as a one-time amount off, once per checkout', async () => {
    answers.set(`POST /v1/products`, { id: stripeProductId('monthlyT2'), object: 'product' });
    answers.set('POST /v1/coupons', { id: 'coupon_once', object: 'coupon' });
    answers.set('POST /v1/checkout/sessions', {
      id: 'cs_stripe_1',
      object: 'checkout.session',
      url: 'https://checkout.example/pay/cs_stripe_1',
    });
    const hosted = await provider.startCheckout(checkout, {
      plan: PLAN,
      email: 'ada@example.com',
      urls: { success: 'http://site/dashboard?checkout=success', cancel: 'http://site/pricing' },
    });
    expect(hosted).toEqual({ url: 'https://checkout.example/pay/cs_stripe_1' });
    const product = requests.find((r) => r.method === 'POST' && r.path === '/v1/products');
    expect(product?.body.get('id')).toBe('tickerlake_monthlyT2');
    const coupon = requests.find((r) => r.path === '/v1/coupons');
    expect(coupon?.body.get('amount_off')).toBe('780');
    expect(coupon?.body.get('duration')).toBe('once');
    const session = requests.find((r) => r.path === '/v1/checkout/sessions');
    expect(session?.body.get('mode')).toBe('subscription');
    expect(session?.body.get('client_reference_id')).toBe('cs_test_site_checkout');
    expect(session?.body.get('line_items[0][price_data][unit_amount]')).toBe('3900');
    expect(session?.body.get('line_items[0][price_data][recurring][interval]')).toBe('month');
    expect(session?.body.get('discounts[0][coupon]')).toBe('coupon_once');
    expect(session?.body.get('subscription_data[metadata][planCode]')).toBe('monthlyT2');
    expect(session?.idempotencyKey).toBe('checkout-cs_test_site_checkout');
  });

  const POWER = { ...PLAN, code: 'monthlyT3', name: 'Power', priceCents: 7900 };

  function previewAnswer(): Record<string, unknown> {
    return invoice({
      id: undefined,
      amount_due: 2000,
      billing_reason: 'subscription_update',
      lines: {
        object: 'list',
        data: [
          {
            id: 'il_1',
            amount: -1950,
            description: 'Unused time on Professional',
            period: { start: NOW_S, end: PERIOD_END },
          },
          {
            id: 'il_2',
            amount: 3950,
            description: 'Remaining time on Power',
            period: { start: NOW_S, end: PERIOD_END },
          },
        ],
      },
    });
  }

  it("quotes an upgrade with Stripe's own invoice preview, prorated as of now", async () => {
    answers.set(`GET /v1/products/${stripeProductId('monthlyT3')}`, {
      id: stripeProductId('monthlyT3'),
      object: 'product',
    });
    answers.set('GET /v1/subscriptions/sub_123', stripeSubscription());
    answers.set('POST /v1/invoices/create_preview', previewAnswer());
    const quote = await provider.previewPlanChange(SUBSCRIPTION_ROW, POWER, 'now', NOW);
    expect(quote).toEqual({
      when: 'now',
      effectiveAt: NOW,
      amountDueCents: 2000,
      currency: 'usd',
      lines: [
        { description: 'Unused time on Professional', amountCents: -1950 },
        { description: 'Remaining time on Power', amountCents: 3950 },
      ],
    });
    const preview = requests.find((r) => r.path === '/v1/invoices/create_preview')?.body;
    expect(preview?.get('subscription')).toBe('sub_123');
    expect(preview?.get('subscription_details[proration_date]')).toBe(String(NOW_S));
    expect(preview?.get('subscription_details[items][0][price_data][unit_amount]')).toBe('7900');
    expect(requests.some((r) => r.method === 'POST' && r.path === '/v1/subscriptions/sub_123')).toBe(false);
  });

  it('quotes a downgrade as nothing due now, applying when the period ends', async () => {
    const quote = await provider.previewPlanChange(SUBSCRIPTION_ROW, PLAN, 'period_end', NOW);
    expect(quote).toMatchObject({
      when: 'period_end',
      amountDueCents: 0,
      effectiveAt: new Date(PERIOD_END * 1000),
    });
    expect(requests).toEqual([]);
  });

  it('charges an upgrade at once with the prorated difference it quoted', async () => {
    answers.set(`GET /v1/products/${stripeProductId('monthlyT3')}`, {
      id: stripeProductId('monthlyT3'),
      object: 'product',
    });
    answers.set('GET /v1/subscriptions/sub_123', stripeSubscription());
    answers.set('POST /v1/invoices/create_preview', previewAnswer());
    answers.set('POST /v1/subscriptions/sub_123', stripeSubscription());
    const quote = await provider.changePlan(SUBSCRIPTION_ROW, POWER, 'now', NOW);
    expect(quote.amountDueCents).toBe(2000);
    const update = requests.find((r) => r.method === 'POST' && r.path === '/v1/subscriptions/sub_123');
    expect(update?.body.get('proration_behavior')).toBe('always_invoice');
    expect(update?.body.get('proration_date')).toBe(String(NOW_S));
    expect(update?.body.get('items[0][id]')).toBe('si_1');
    expect(update?.body.get('items[0][price_data][unit_amount]')).toBe('7900');
    expect(update?.body.get('metadata[planCode]')).toBe('monthlyT3');
    expect(requests.some((r) => r.path.startsWith('/v1/subscription_schedules'))).toBe(false);
  });

  it('schedules a downgrade for the period end, the current plan kept until then', async () => {
    answers.set(`GET /v1/products/${stripeProductId('starterT1')}`, {
      id: stripeProductId('starterT1'),
      object: 'product',
    });
    answers.set('GET /v1/subscriptions/sub_123', stripeSubscription());
    answers.set('POST /v1/subscription_schedules', { id: 'sub_sched_1', object: 'subscription_schedule' });
    answers.set('POST /v1/subscription_schedules/sub_sched_1', {
      id: 'sub_sched_1',
      object: 'subscription_schedule',
    });
    answers.set('POST /v1/subscriptions/sub_123', stripeSubscription());
    await provider.changePlan(
      SUBSCRIPTION_ROW,
      { ...PLAN, code: 'starterT1', name: 'Starter', priceCents: 1900 },
      'period_end',
      NOW,
    );
    const phases = requests.find((r) => r.path === '/v1/subscription_schedules/sub_sched_1')?.body;
    expect(phases?.get('phases[0][items][0][price]')).toBe('price_old');
    expect(phases?.get('phases[0][end_date]')).toBe(String(PERIOD_END));
    expect(phases?.get('phases[1][items][0][price_data][unit_amount]')).toBe('1900');
    const marked = requests.find((r) => r.method === 'POST' && r.path === '/v1/subscriptions/sub_123');
    expect(marked?.body.get('metadata[scheduledPlanCode]')).toBe('starterT1');
  });

  it("opens Stripe's Customer Portal for the subscription's customer, returning to the site", async () => {
    answers.set('POST /v1/billing_portal/sessions', {
      id: 'bps_1',
      object: 'billing_portal.session',
      url: 'https://billing.example/session/bps_1',
    });
    const url = await provider.portalUrl(SUBSCRIPTION_ROW, 'http://site/developer/docs/dashboard');
    expect(url).toBe('https://billing.example/session/bps_1');
    expect(requests[0]?.body.get('customer')).toBe('cus_123');
    expect(requests[0]?.body.get('return_url')).toBe('http://site/developer/docs/dashboard');
  });

  it('cancels at the period end, and takes it back', async () => {
    answers.set('POST /v1/subscriptions/sub_123', stripeSubscription());
    await provider.setCancelAtPeriodEnd(SUBSCRIPTION_ROW, true);
    await provider.setCancelAtPeriodEnd(SUBSCRIPTION_ROW, false);
    expect(requests.map((r) => r.body.get('cancel_at_period_end'))).toEqual(['true', 'false']);
  });
});
