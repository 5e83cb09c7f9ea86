import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { billingWebhookSecret } from '../../app/config.ts';
import { hmacHex, serverSecret } from '../../auth/crypto.ts';
import type { CheckoutSession, InvoiceLine, PricePlan, Subscription } from '../../db/schema.ts';

// What the site needs from a payment provider, kept small so another provider (Stripe) can be added
// beside the test-mode one: a hosted page to send the buyer to, the changes a subscriber asks for
// after it (cancel or resume at the period end, another plan), and signed events about what
// happened. Everything else (subscriptions, plans, receipts) the site decides from the events: a
// request to the provider changes nothing on the site until its event arrives.

/** The header carrying a webhook event's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'Billing-Signature';

/** How far a signature's time may be from now: older deliveries are refused as possible replays. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const isoTime = z.iso.datetime({ offset: true });

const checkoutCompleted = z.object({
  type: z.literal('checkout.completed'),
  data: z.object({
    checkoutId: z.string().min(1),
    customerId: z.string().min(1),
    subscriptionId: z.string().min(1),
    planCode: z.string().min(1),
    amountCents: z.number().int().nonnegative(),
    currency: z.string().min(1),
    /** Null when the provider does not say which card paid. */
    cardLast4: z
      .string()
      .regex(/^\d{4}$/)
      .nullable(),
    periodStart: isoTime,
    periodEnd: isoTime,
  }),
});

const subscriptionUpdated = z.object({
  type: z.literal('subscription.updated'),
  data: z.object({
    subscriptionId: z.string().min(1),
    planCode: z.string().min(1),
    status: z.enum(['active', 'past_due', 'canceled', 'incomplete']),
    periodStart: isoTime,
    periodEnd: isoTime,
    cancelAtPeriodEnd: z.boolean(),
    /** A plan the subscription moves to when this period ends (a downgrade), or null. */
    scheduledPlanCode: z.string().min(1).nullable().default(null),
  }),
});

const invoiceLine = z.object({ description: z.string().min(1).max(200), amountCents: z.number().int() });

/**
 * A charge that went through: the first payment of a subscription, a renewal, or the prorated
 * difference of an upgrade. The site records the invoice and emails the receipt.
 */
const invoicePaid = z.object({
  type: z.literal('invoice.paid'),
  data: z.object({
    invoiceId: z.string().min(1),
    subscriptionId: z.string().min(1),
    planCode: z.string().min(1),
    reason: z.enum(['subscription_create', 'subscription_cycle', 'subscription_update']),
    currency: z.string().min(1),
    lines: z.array(invoiceLine).min(1),
    taxCents: z.number().int().nonnegative(),
    periodStart: isoTime,
    periodEnd: isoTime,
    cardLast4: z
      .string()
      .regex(/^\d{4}$/)
      .nullable(),
    /** The coupon the first payment was priced with, for the receipt (its discount is a negative line). */
    couponCode: z.string().min(1).max(64).nullable().default(null),
  }),
});

/** A renewal charge that failed: the invoice stays open while the provider retries until `nextAttemptAt`. */
const invoicePaymentFailed = z.object({
  type: z.literal('invoice.payment_failed'),
  data: z.object({
    invoiceId: z.string().min(1),
    subscriptionId: z.string().min(1),
    planCode: z.string().min(1),
    currency: z.string().min(1),
    lines: z.array(invoiceLine).min(1),
    taxCents: z.number().int().nonnegative(),
    periodStart: isoTime,
    periodEnd: isoTime,
    attemptCount: z.number().int().positive(),
    /** When the provider tries again; null when it has given up. */
    nextAttemptAt: isoTime.nullable(),
    /** The card's refusal in the provider's words. */
    message: z.string().min(1).max(300),
  }),
});

/** The subscription ended (canceled at the period end, or unpaid after the retries): the account is back on Free. */
const subscriptionDeleted = z.object({
  type: z.literal('subscription.deleted'),
  data: z.object({
    subscriptionId: z.string().min(1),
    endedAt: isoTime,
  }),
});

/** A provider event as the webhook accepts it: an id (for idempotency), a time (for order) and what happened. */
export const billingEventSchema = z.intersection(
  z.object({ id: z.string().min(1).max(128), created: isoTime }),
  z.discriminatedUnion('type', [
    checkoutCompleted,
    subscriptionUpdated,
    invoicePaid,
    invoicePaymentFailed,
    subscriptionDeleted,
  ]),
);
export type BillingEvent = z.infer<typeof billingEventSchema>;

/** The provider's side of one checkout: where the buyer pays. */
export interface HostedCheckout {
  url: string;
}

/**
 * When a plan change takes effect, as the site decides it: a plan costing more per day at once
 * (with a prorated charge), a cheaper one when the paid period ends.
 */
export type PlanChangeTiming = 'now' | 'period_end';

/** What a plan change does: what is charged now (nothing for a change at the period end) and from when. */
export interface PlanChangeQuote {
  when: PlanChangeTiming;
  /** When the new plan applies: now, or the end of the current period. */
  effectiveAt: Date;
  /** What the card is charged now; 0 for a change at the period end (or one the credit covers). */
  amountDueCents: number;
  currency: string;
  /** The charge's lines: the unused time of the old plan (negative) and the new plan's time. */
  lines: InvoiceLine[];
}

/** How a provider run by the site (test mode) reaches the site's webhook: a POST with the given body and headers. */
export type WebhookTransport = (init: RequestInit) => Promise<Response>;

/** What a hosted checkout needs besides the stored checkout. */
export interface CheckoutContext {
  plan: PricePlan;
  /** The buyer's email address, for the provider's receipt and customer record. */
  email: string;
  /** Where the provider's page sends the buyer back to (absolute URLs). */
  urls: { success: string; cancel: string };
}

/**
 * What became of a webhook delivery: refused (the signature is not the provider's, 400), or
 * accepted with the site event it carries, null for an event the site does not act on (answered
 * as handled so the provider does not deliver it again).
 */
export type Delivery = { ok: false } | { ok: true; event: BillingEvent | null };

/** What the site asks of a payment provider. */
export interface PaymentProvider {
  /** Short name stored with checkouts and subscriptions ('test', 'stripe'). */
  readonly name: string;
  /** The header the provider signs its webhook deliveries with. */
  readonly signatureHeader: string;
  /** Opens the provider's payment page for a checkout the site has stored. */
  startCheckout(checkout: CheckoutSession, context: CheckoutContext): Promise<HostedCheckout>;
  /** Verifies a webhook delivery (signature over the raw body, age) and reads the event it carries. */
  readEvent(rawBody: string, signature: string | undefined, now: Date): Promise<Delivery>;
  /**
   * The provider's own page where the customer manages the card on file, or undefined when the
   * provider has none (test mode: the site's dashboard is the only place).
   */
  portalUrl?(subscription: Subscription, returnUrl: string): Promise<string>;
  /**
   * Ends the subscription when its period ends (true) or keeps it renewing (false). The site learns
   * the outcome from the `subscription.updated` event the provider sends.
   */
  setCancelAtPeriodEnd(subscription: Subscription, cancel: boolean, now: Date): Promise<void>;
  /**
   * What moving to `plan` at `when` would charge, without changing anything, so the subscriber sees
   * the amount before confirming.
   */
  previewPlanChange(
    subscription: Subscription,
    plan: PricePlan,
    when: PlanChangeTiming,
    now: Date,
  ): Promise<PlanChangeQuote>;
  /**
   * Moves the subscription to `plan`: 'now' charges the prorated difference at once and reports
   * `invoice.paid` and `subscription.updated`; 'period_end' schedules the plan for the renewal and
   * reports `subscription.updated` with `scheduledPlanCode` (the subscription's own plan there
   * clears a schedule and a pending cancellation).
   */
  changePlan(
    subscription: Subscription,
    plan: PricePlan,
    when: PlanChangeTiming,
    now: Date,
  ): Promise<PlanChangeQuote>;
}

/** Why a provider could not do what the site asked, in words the subscriber can be shown (409). */
export class ProviderRefusal extends Error {
  override readonly name = 'ProviderRefusal';
}

/** The webhook secret: BILLING_WEBHOOK_SECRET, else one derived from the server secret. */
export function webhookSecret(): string {
  return billingWebhookSecret() ?? hmacHex(serverSecret(), 'billing-webhook-secret');
}

function mac(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret)
    .update(`${String(timestamp)}.${body}`)
    .digest('hex');
}

/** The signature header value for a body, as the provider sends it. */
export function signPayload(secret: string, body: string, now: Date): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${String(timestamp)},v1=${mac(secret, timestamp, body)}`;
}

/**
 * A webhook delivery of `event` as the test-mode provider sends it: the JSON body, signed with
 * `secret` at `now` in the Billing-Signature header.
 */
export function signedDelivery(
  event: BillingEvent,
  secret: string = webhookSecret(),
  now: Date = new Date(),
): RequestInit & { body: string } {
  const body = JSON.stringify(event);
  return {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signPayload(secret, body, now) },
  };
}

/** Whether `header` is a fresh signature of `body` made with `secret`, compared in constant time. */
export function signatureMatches(
  secret: string,
  body: string,
  header: string | undefined,
  now: Date,
): boolean {
  if (header === undefined) return false;
  const parts = new Map(
    header.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  return timingSafeEqual(Buffer.from(mac(secret, timestamp, body), 'hex'), Buffer.from(given, 'hex'));
}

/** The event in a body whose signature checked out, or null when the body is not a valid event. */
export function parseEvent(rawBody: string): BillingEvent | null {
  try {
    const parsed = billingEventSchema.safeParse(JSON.parse(rawBody));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
