import Stripe from 'stripe';
import type { CheckoutSession, PricePlan, Subscription } from '../../db/schema.ts';
import type {
  BillingEvent,
  CheckoutContext,
  Delivery,
  HostedCheckout,
  PaymentProvider,
  PlanChangeQuote,
  PlanChangeTiming,
} from './provider.ts';

// The Stripe provider, on Stripe's official SDK, chosen when STRIPE_SECRET_KEY is set. The site keeps
// its own catalogue and coupon rules: each plan is a Stripe product with a fixed id (created on first
// use) and prices are given inline, so nothing has to be copied into Stripe's dashboard by hand. What
// Stripe reports arrives as webhook events, verified with the SDK and translated into the site's
// billing events, so the same handlers serve both providers.

/** The header Stripe signs its webhook deliveries with. */
export const STRIPE_SIGNATURE_HEADER = 'Stripe-Signature';

/** How far a delivery's signature time may be from now (Stripe's default). */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;

/** The Stripe product id of a catalogue plan. */
export function stripeProductId(planCode: string): string {
  return `tickerlake_${planCode}`;
}

type SubscriptionStatus = Extract<BillingEvent, { type: 'subscription.updated' }>['data']['status'];

/** Stripe's subscription statuses in the site's four: unpaid keeps retrying like past_due; trials are active. */
export function siteStatus(status: Stripe.Subscription.Status): SubscriptionStatus {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'incomplete':
    case 'paused':
      return 'incomplete';
    default:
      return 'canceled';
  }
}

function iso(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString();
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : value.id;
}

/** The billing period of a subscription: since API version 2025-03-31 it lives on the items. */
function periodOf(subscription: Stripe.Subscription): { start: string; end: string } {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${subscription.id} has no items`);
  return { start: iso(item.current_period_start), end: iso(item.current_period_end) };
}

function cardLast4(method: string | Stripe.PaymentMethod | null): string | null {
  return typeof method === 'object' && method !== null ? (method.card?.last4 ?? null) : null;
}

/**
 * A plan code the site wrote in Stripe metadata (`planCode`, or `scheduledPlanCode` for a downgrade
 * waiting for the period end); Stripe keeps a cleared value as ''.
 */
function planOf(
  metadata: Stripe.Metadata | null | undefined,
  key: 'planCode' | 'scheduledPlanCode' = 'planCode',
): string | null {
  const code = metadata?.[key];
  return code !== undefined && code !== '' ? code : null;
}

function subscriptionIdOfInvoice(invoice: Stripe.Invoice): string | null {
  return idOf(invoice.parent?.subscription_details?.subscription);
}

function invoiceLines(invoice: Stripe.Invoice): { description: string; amountCents: number }[] {
  return invoice.lines.data.map((line) => ({
    description: (line.description ?? 'Subscription').slice(0, 200),
    amountCents: line.amount,
  }));
}

function taxOf(invoice: Stripe.Invoice): number {
  return (invoice.total_taxes ?? [])
    .filter((tax) => tax.tax_behavior === 'exclusive')
    .reduce((sum, tax) => sum + tax.amount, 0);
}

function invoicePeriod(invoice: Stripe.Invoice): { start: string; end: string } {
  const line = invoice.lines.data[0];
  return line
    ? { start: iso(line.period.start), end: iso(line.period.end) }
    : { start: iso(invoice.period_start), end: iso(invoice.period_end) };
}

const BILLING_REASONS = ['subscription_create', 'subscription_cycle'] as const;

/**
 * The Stripe provider. `stripe` is the SDK client (tests point it at a local stand-in of Stripe's
 * API, which cannot be reached from here); `webhookSecret` is the endpoint's signing secret.
 */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe';
  readonly signatureHeader = STRIPE_SIGNATURE_HEADER;

  private readonly stripe: Stripe;
  private readonly webhookSecret: string;

  constructor(stripe: Stripe, webhookSecret: string) {
    this.stripe = stripe;
    this.webhookSecret = webhookSecret;
  }

  /** The product of a plan, created with a fixed id the first time it is sold. */
  private async ensureProduct(plan: PricePlan): Promise<string> {
    const id = stripeProductId(plan.code);
    try {
      await this.stripe.products.retrieve(id);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.code !== 'resource_missing') {
        throw error;
      }
      await this.stripe.products.create({ id, name: plan.name, metadata: { planCode: plan.code } });
    }
    return id;
  }

  private priceData(plan: PricePlan, product: string): Stripe.SubscriptionItemUpdateParams.PriceData {
    return {
      currency: plan.currency,
      product,
      unit_amount: plan.priceCents,
      recurring: { interval: plan.billingInterval },
    };
  }

  /**
   * A Stripe Checkout Session for a stored checkout: the plan at its list price, the site's coupon
   * (already priced into the checkout) as a one-time amount off, the ids the webhook needs in the
   * metadata.
   */
  async startCheckout(checkout: CheckoutSession, context: CheckoutContext): Promise<HostedCheckout> {
    const { plan } = context;
    const product = await this.ensureProduct(plan);
    const discountCents = plan.priceCents - checkout.amountCents;
    const discounts: Stripe.Checkout.SessionCreateParams.Discount[] = [];
    if (discountCents > 0) {
      const coupon = await this.stripe.coupons.create({
        amount_off: discountCents,
        currency: plan.currency,
        duration: 'once',
        max_redemptions: 1,
        name: checkout.couponCode ?? 'Discount',
      });
      discounts.push({ coupon: coupon.id });
    }
    const metadata = { checkoutId: checkout.id, userId: checkout.userId, planCode: plan.code };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        client_reference_id: checkout.id,
        customer_email: context.email,
        line_items: [{ price_data: this.priceData(plan, product), quantity: 1 }],
        discounts,
        metadata,
        subscription_data: { metadata },
        success_url: context.urls.success,
        cancel_url: context.urls.cancel,
        expires_at: Math.floor(checkout.expiresAt.getTime() / 1000),
      },
      { idempotencyKey: `checkout-${checkout.id}` },
    );
    if (session.url === null) throw new Error(`Stripe answered checkout ${checkout.id} without a URL`);
    return { url: session.url };
  }

  /**
   * Stripe's Customer Portal for the subscription's customer: the card on file, past invoices and
   * cancellation, on Stripe's page, returning to `returnUrl`.
   */
  async portalUrl(subscription: Subscription, returnUrl: string): Promise<string> {
    const session = await this.stripe.billingPortal.sessions.create({
      customer: subscription.providerCustomerId,
      return_url: returnUrl,
    });
    return session.url;
  }

  /** Cancels at the period end, or takes that back. */
  async setCancelAtPeriodEnd(subscription: Subscription, cancel: boolean): Promise<void> {
    await this.stripe.subscriptions.update(subscription.providerSubscriptionId, {
      cancel_at_period_end: cancel,
      metadata: { scheduledPlanCode: '' },
    });
  }

  /** The subscription's one item, which carries its price. */
  private async itemOf(subscription: Subscription): Promise<Stripe.SubscriptionItem> {
    const id = subscription.providerSubscriptionId;
    const current = await this.stripe.subscriptions.retrieve(id);
    const item = current.items.data[0];
    if (!item) throw new Error(`Stripe subscription ${id} has no items`);
    return item;
  }

  /** A change at the period end: nothing is charged now. */
  private laterQuote(subscription: Subscription, plan: PricePlan): PlanChangeQuote {
    return {
      when: 'period_end',
      effectiveAt: subscription.currentPeriodEnd,
      amountDueCents: 0,
      currency: plan.currency,
      lines: [],
    };
  }

  /**
   * What moving to `plan` charges: for a change now, Stripe's own invoice preview with the
   * proration as of `now` (the change itself passes the same proration date, so the charge is the
   * amount shown).
   */
  async previewPlanChange(
    subscription: Subscription,
    plan: PricePlan,
    when: PlanChangeTiming,
    now: Date,
  ): Promise<PlanChangeQuote> {
    if (when === 'period_end') return this.laterQuote(subscription, plan);
    const [product, item] = await Promise.all([this.ensureProduct(plan), this.itemOf(subscription)]);
    const preview = await this.stripe.invoices.createPreview({
      customer: subscription.providerCustomerId,
      subscription: subscription.providerSubscriptionId,
      subscription_details: {
        items: [{ id: item.id, price_data: this.priceData(plan, product) }],
        proration_behavior: 'always_invoice',
        proration_date: Math.floor(now.getTime() / 1000),
      },
    });
    return {
      when: 'now',
      effectiveAt: now,
      amountDueCents: preview.amount_due,
      currency: preview.currency,
      lines: invoiceLines(preview),
    };
  }

  /**
   * Moves a subscription to `plan`: at once with the prorated difference invoiced and charged now
   * (an upgrade), or at the period end (a downgrade), which Stripe does with a subscription
   * schedule whose second phase is the new plan. Stripe then reports the change as events.
   */
  async changePlan(
    subscription: Subscription,
    plan: PricePlan,
    when: PlanChangeTiming,
    now: Date,
  ): Promise<PlanChangeQuote> {
    const id = subscription.providerSubscriptionId;
    const product = await this.ensureProduct(plan);
    const item = await this.itemOf(subscription);
    if (when === 'now') {
      const quote = await this.previewPlanChange(subscription, plan, when, now);
      await this.stripe.subscriptions.update(id, {
        items: [{ id: item.id, price_data: this.priceData(plan, product) }],
        proration_behavior: 'always_invoice',
        proration_date: Math.floor(now.getTime() / 1000),
        payment_behavior: 'error_if_incomplete',
        cancel_at_period_end: false,
        metadata: { planCode: plan.code, scheduledPlanCode: '' },
      });
      return quote;
    }
    const current = await this.stripe.subscriptions.retrieve(id);
    const schedule =
      idOf(current.schedule) ??
      (await this.stripe.subscriptionSchedules.create({ from_subscription: id })).id;
    await this.stripe.subscriptionSchedules.update(schedule, {
      end_behavior: 'release',
      phases: [
        {
          items: [{ price: item.price.id, quantity: 1 }],
          start_date: item.current_period_start,
          end_date: item.current_period_end,
        },
        {
          items: [{ price_data: this.priceData(plan, product), quantity: 1 }],
          metadata: { planCode: plan.code, scheduledPlanCode: '' },
        },
      ],
    });
    await this.stripe.subscriptions.update(id, { metadata: { scheduledPlanCode: plan.code } });
    return this.laterQuote(subscription, plan);
  }

  /**
   * Verifies a delivery with the SDK (signature and age) and translates it. Events the site does not
   * act on are answered as handled, so Stripe does not deliver them again.
   */
  async readEvent(rawBody: string, signature: string | undefined, now: Date): Promise<Delivery> {
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        signature ?? '',
        this.webhookSecret,
        STRIPE_SIGNATURE_TOLERANCE_SECONDS,
        undefined,
        now.getTime(),
      );
    } catch {
      return { ok: false };
    }
    return { ok: true, event: await this.translate(event) };
  }

  private async translate(event: Stripe.Event): Promise<BillingEvent | null> {
    const base = { id: event.id, created: iso(event.created) };
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        const subscriptionId = idOf(session.subscription);
        const customerId = idOf(session.customer);
        const planCode = planOf(session.metadata);
        if (session.mode !== 'subscription' || !subscriptionId || !customerId || !planCode) return null;
        if (session.client_reference_id === null) return null;
        const subscription = await this.stripe.subscriptions.retrieve(subscriptionId, {
          expand: ['default_payment_method'],
        });
        const period = periodOf(subscription);
        return {
          ...base,
          type: 'checkout.completed',
          data: {
            checkoutId: session.client_reference_id,
            customerId,
            subscriptionId,
            planCode,
            amountCents: session.amount_total ?? 0,
            currency: session.currency ?? 'usd',
            cardLast4: cardLast4(subscription.default_payment_method),
            periodStart: period.start,
            periodEnd: period.end,
          },
        };
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated': {
        const subscription = event.data.object;
        const planCode = planOf(subscription.metadata);
        if (!planCode) return null;
        const period = periodOf(subscription);
        return {
          ...base,
          type: 'subscription.updated',
          data: {
            subscriptionId: subscription.id,
            planCode,
            status: siteStatus(subscription.status),
            periodStart: period.start,
            periodEnd: period.end,
            cancelAtPeriodEnd: subscription.cancel_at_period_end,
            scheduledPlanCode: planOf(subscription.metadata, 'scheduledPlanCode'),
          },
        };
      }
      case 'customer.subscription.deleted': {
        const subscription = event.data.object;
        return {
          ...base,
          type: 'subscription.deleted',
          data: {
            subscriptionId: subscription.id,
            endedAt: iso(subscription.ended_at ?? event.created),
          },
        };
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const invoice = event.data.object;
        const subscriptionId = subscriptionIdOfInvoice(invoice);
        const planCode = planOf(invoice.parent?.subscription_details?.metadata);
        if (!subscriptionId || !planCode || invoice.lines.data.length === 0) return null;
        const period = invoicePeriod(invoice);
        const common = {
          invoiceId: invoice.id,
          subscriptionId,
          planCode,
          currency: invoice.currency,
          lines: invoiceLines(invoice),
          taxCents: taxOf(invoice),
          periodStart: period.start,
          periodEnd: period.end,
        };
        if (event.type === 'invoice.paid') {
          const reason = BILLING_REASONS.find((known) => known === invoice.billing_reason);
          return {
            ...base,
            type: 'invoice.paid',
            data: { ...common, reason: reason ?? 'subscription_update', cardLast4: null, couponCode: null },
          };
        }
        return {
          ...base,
          type: 'invoice.payment_failed',
          data: {
            ...common,
            attemptCount: Math.max(1, invoice.attempt_count),
            nextAttemptAt: invoice.next_payment_attempt === null ? null : iso(invoice.next_payment_attempt),
            message: invoice.last_finalization_error?.message ?? 'The payment was declined.',
          },
        };
      }
      default:
        return null;
    }
  }
}
