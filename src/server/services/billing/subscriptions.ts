import { and, eq, inArray } from 'drizzle-orm';
import { formatCents } from '../../../lib/format.ts';
import { AUTH_LINKS, SITE_NAME } from '../../../lib/routes.ts';
import type { Db } from '../../db/client.ts';
import {
  billingEvents,
  checkoutSessions,
  invoices,
  pricePlans,
  subscriptions,
  users,
  type CheckoutSession,
  type InvoiceLine,
  type PricePlan,
  type Subscription,
  type SubscriptionStatus,
} from '../../db/schema.ts';
import { redeemCoupon } from '../coupons.ts';
import { queueEmail } from '../outbox.ts';
import { recordInvoice } from './invoices.ts';
import { setPlan } from '../users.ts';
import type { BillingEvent } from './provider.ts';

/** The free plan every account falls back to when its subscription no longer grants a paid one. */
export const FREE_PLAN_CODE = 'free';

/** Where a paid checkout sends the buyer: the dashboard, which then says the subscription is active. */
export const CHECKOUT_SUCCESS_PATH = `${AUTH_LINKS.dashboard}?checkout=success`;

/** How long a checkout page can be paid after it was opened. */
export const CHECKOUT_LIFETIME_MS = 24 * 60 * 60_000;

/** Statuses that keep the subscribed plan: a payment being retried does not take the data away. */
const GRANTING: readonly SubscriptionStatus[] = ['active', 'past_due'];

/**
 * What became of a webhook event. `deferred`: it concerns a subscription the site does not know yet
 * (an invoice delivered before its checkout), so it is not recorded and the provider delivers it again.
 */
export type EventOutcome = 'applied' | 'duplicate' | 'stale' | 'ignored' | 'deferred';

/** A subscription as the dashboard and the pricing page read it. */
export interface SubscriptionView {
  planCode: string;
  status: SubscriptionStatus;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  /** The plan it moves to when the period ends (a downgrade), or null. */
  scheduledPlanCode: string | null;
  /** When a failed renewal is tried again (status past_due), or null. */
  nextPaymentAttemptAt: string | null;
  /** The provider has a page where the subscriber changes the card on file (Stripe's Customer Portal). */
  cardManagedByProvider: boolean;
}

/** A checkout as its hosted page shows it. */
export interface CheckoutView {
  id: string;
  planCode: string;
  planName: string;
  billingInterval: 'month' | 'year';
  priceCents: number;
  amountCents: number;
  currency: string;
  couponCode: string | null;
  status: CheckoutSession['status'];
  expired: boolean;
  /** The provider whose page takes the payment: only 'test' checkouts are paid on the site's page. */
  provider: string;
}

/** An active catalogue plan by code, or undefined. */
export async function activePlan(db: Db, code: string): Promise<PricePlan | undefined> {
  const [plan] = await db
    .select()
    .from(pricePlans)
    .where(and(eq(pricePlans.code, code), eq(pricePlans.active, true)))
    .limit(1);
  return plan;
}

/** Stores a checkout the buyer is about to pay on the provider's page. */
export async function createCheckout(
  db: Db,
  checkout: Omit<typeof checkoutSessions.$inferInsert, 'status' | 'cardLast4' | 'createdAt'>,
): Promise<CheckoutSession> {
  const [row] = await db.insert(checkoutSessions).values(checkout).returning();
  if (!row) throw new Error('Checkout insert returned no row');
  return row;
}

/** A stored checkout by id. */
export async function findCheckout(db: Db, id: string): Promise<CheckoutSession | undefined> {
  const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).limit(1);
  return row;
}

/** What the hosted page shows of a checkout, or undefined for an unknown id. */
export async function checkoutView(
  db: Db,
  id: string,
  now: Date = new Date(),
): Promise<CheckoutView | undefined> {
  const [row] = await db
    .select({ checkout: checkoutSessions, plan: pricePlans })
    .from(checkoutSessions)
    .innerJoin(pricePlans, eq(pricePlans.code, checkoutSessions.planCode))
    .where(eq(checkoutSessions.id, id))
    .limit(1);
  if (!row) return undefined;
  const { checkout, plan } = row;
  return {
    id: checkout.id,
    planCode: plan.code,
    planName: plan.name,
    billingInterval: plan.billingInterval,
    priceCents: plan.priceCents,
    amountCents: checkout.amountCents,
    currency: checkout.currency,
    couponCode: checkout.couponCode,
    status: checkout.status,
    expired: checkout.expiresAt.getTime() <= now.getTime(),
    provider: checkout.provider,
  };
}

/** Records that the card asked for an extra confirmation step before it can be charged. */
export async function awaitAuthentication(db: Db, id: string, cardLast4: string): Promise<void> {
  await db
    .update(checkoutSessions)
    .set({ status: 'requires_action', cardLast4 })
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'open')));
}

/** Back to an unpaid checkout after a failed confirmation: nothing was charged. */
export async function reopenCheckout(db: Db, id: string): Promise<void> {
  await db
    .update(checkoutSessions)
    .set({ status: 'open' })
    .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.status, 'requires_action')));
}

/**
 * Marks a checkout paid, once: false when it was paid already (a second click, a second tab), so a
 * checkout is never charged twice.
 */
export async function markCheckoutPaid(db: Db, id: string, cardLast4: string): Promise<boolean> {
  const rows = await db
    .update(checkoutSessions)
    .set({ status: 'complete', cardLast4 })
    .where(and(eq(checkoutSessions.id, id), inArray(checkoutSessions.status, ['open', 'requires_action'])))
    .returning({ id: checkoutSessions.id });
  return rows.length === 1;
}

/** An account's subscription for the pricing page, or null when it has none. */
export async function subscriptionOf(db: Db, userId: string): Promise<SubscriptionView | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
  if (!row) return null;
  return {
    planCode: row.planCode,
    status: row.status,
    currentPeriodStart: row.currentPeriodStart.toISOString(),
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    scheduledPlanCode: row.scheduledPlanCode,
    nextPaymentAttemptAt: row.nextPaymentAttemptAt?.toISOString() ?? null,
    cardManagedByProvider: row.provider === 'stripe',
  };
}

/** An account's subscription row, or undefined when it has none. */
export async function subscriptionRow(db: Db, userId: string): Promise<Subscription | undefined> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
  return row;
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Why a receipt was sent: the first payment, a renewal, or an upgrade's prorated charge. */
export type ReceiptReason = 'subscription_create' | 'subscription_cycle' | 'subscription_update';

const RECEIPT_LEADS: Readonly<Record<ReceiptReason, (plan: string) => string>> = {
  subscription_create: (plan) => `Thank you for subscribing to ${SITE_NAME} ${plan}.`,
  subscription_cycle: (plan) => `Your ${SITE_NAME} ${plan} subscription has renewed.`,
  subscription_update: (plan) => `Your subscription has moved to ${SITE_NAME} ${plan}.`,
};

/**
 * The receipt's text: why, the invoice number, what was charged (after the coupon) with the
 * invoice's lines, to which card, for which period.
 */
export function receiptBody(details: {
  reason: ReceiptReason;
  planName: string;
  invoiceNumber: string;
  lines: readonly InvoiceLine[];
  amountCents: number;
  currency: string;
  couponCode: string | null;
  cardLast4: string | null;
  periodStart: Date;
  periodEnd: Date;
  dashboardUrl: string;
}): string {
  const money = (cents: number): string => formatCents(cents, details.currency);
  return [
    'Hello,',
    '',
    RECEIPT_LEADS[details.reason](details.planName),
    '',
    `Invoice: ${details.invoiceNumber}`,
    ...details.lines.map((line) => `  ${line.description}: ${money(line.amountCents)}`),
    `Amount charged: ${money(Math.max(0, details.amountCents))}${details.couponCode ? ` (coupon ${details.couponCode})` : ''}`,
    ...(details.cardLast4 === null ? [] : [`Card: ending in ${details.cardLast4}`]),
    `Period: ${day(details.periodStart)} to ${day(details.periodEnd)}`,
    '',
    `Your plan applies to your API key within a minute. Your dashboard: ${details.dashboardUrl}`,
    '',
    `${SITE_NAME} billing`,
  ].join('\n');
}

async function recordEvent(db: Db, event: BillingEvent): Promise<boolean> {
  const rows = await db
    .insert(billingEvents)
    .values({ id: event.id, type: event.type, occurredAt: new Date(event.created) })
    .onConflictDoNothing()
    .returning({ id: billingEvents.id });
  return rows.length === 1;
}

type CheckoutCompleted = Extract<BillingEvent, { type: 'checkout.completed' }>;
type SubscriptionUpdated = Extract<BillingEvent, { type: 'subscription.updated' }>;

async function applyCheckoutCompleted(db: Db, event: CheckoutCompleted): Promise<EventOutcome> {
  const { data } = event;
  const at = new Date(event.created);
  const checkout = await findCheckout(db, data.checkoutId);
  const plan = checkout ? await activePlan(db, data.planCode) : undefined;
  if (!checkout || !plan) return 'ignored';
  const [existing] = await db.select().from(subscriptions).where(eq(subscriptions.userId, checkout.userId));
  if (existing && existing.lastEventAt.getTime() > at.getTime()) return 'stale';
  const values = {
    planCode: plan.code,
    status: 'active' as const,
    currentPeriodStart: new Date(data.periodStart),
    currentPeriodEnd: new Date(data.periodEnd),
    cancelAtPeriodEnd: false,
    scheduledPlanCode: null,
    nextPaymentAttemptAt: null,
    provider: checkout.provider,
    providerCustomerId: data.customerId,
    providerSubscriptionId: data.subscriptionId,
    lastEventAt: at,
  };
  await db
    .insert(subscriptions)
    .values({ userId: checkout.userId, ...values })
    .onConflictDoUpdate({ target: subscriptions.userId, set: values });
  await setPlan(db, checkout.userId, plan.code, null);
  // The coupon's use, counted once per checkout: a replayed event never gets here (its id is recorded),
  // and the same checkout reported again under another id finds its subscription started already.
  const startedBefore = existing?.providerSubscriptionId === data.subscriptionId;
  if (checkout.couponCode !== null && !startedBefore && !(await redeemCoupon(db, checkout.couponCode))) {
    console.warn(
      `[billing] checkout ${checkout.id} was paid with coupon ${checkout.couponCode}, which had no use left; its count stays at the maximum`,
    );
  }
  return 'applied';
}

async function planNamed(db: Db, code: string): Promise<PricePlan | undefined> {
  const [plan] = await db.select().from(pricePlans).where(eq(pricePlans.code, code)).limit(1);
  return plan;
}

async function emailOf(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.email;
}

/** The cancellation's confirmation: the plan stays until the period ends, and how to keep it. */
export function cancellationBody(planName: string, endsAt: Date, dashboardUrl: string): string {
  return [
    'Hello,',
    '',
    `Your ${SITE_NAME} ${planName} subscription is canceled. You keep the plan until ${day(endsAt)}; after that your account moves to the Free plan and nothing more is charged.`,
    '',
    `Changed your mind? Resume the subscription on your dashboard before then: ${dashboardUrl}`,
    '',
    `${SITE_NAME} billing`,
  ].join('\n');
}

/**
 * The subscription a subscription event is about, or why the event changes nothing: 'ignored' for
 * a subscription the site does not hold, 'stale' when a newer event was applied already.
 */
async function subscriptionForEvent(
  db: Db,
  providerSubscriptionId: string,
  at: Date,
): Promise<Subscription | 'ignored' | 'stale'> {
  const [existing] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId));
  if (!existing) return 'ignored';
  return existing.lastEventAt.getTime() > at.getTime() ? 'stale' : existing;
}

async function applySubscriptionUpdated(
  db: Db,
  event: SubscriptionUpdated,
  siteUrl: string,
): Promise<EventOutcome> {
  const { data } = event;
  const at = new Date(event.created);
  const existing = await subscriptionForEvent(db, data.subscriptionId, at);
  if (typeof existing === 'string') return existing;
  const plan = await activePlan(db, data.planCode);
  if (!plan) return 'ignored';
  const scheduled = data.scheduledPlanCode === null ? undefined : await planNamed(db, data.scheduledPlanCode);
  const updated: Partial<Subscription> = {
    planCode: plan.code,
    status: data.status,
    currentPeriodStart: new Date(data.periodStart),
    currentPeriodEnd: new Date(data.periodEnd),
    cancelAtPeriodEnd: data.cancelAtPeriodEnd,
    scheduledPlanCode: scheduled?.code ?? null,
    lastEventAt: at,
    ...(data.status === 'past_due' ? {} : { nextPaymentAttemptAt: null }),
  };
  await db.update(subscriptions).set(updated).where(eq(subscriptions.id, existing.id));
  const granting = GRANTING.includes(data.status);
  const user = await setPlan(db, existing.userId, granting ? plan.code : FREE_PLAN_CODE, null);
  if (user && granting && data.cancelAtPeriodEnd && !existing.cancelAtPeriodEnd) {
    await queueEmail(db, {
      email: user.email,
      kind: 'BILLING_CANCELED',
      subject: `Your ${SITE_NAME} subscription is canceled`,
      body: cancellationBody(plan.name, new Date(data.periodEnd), `${siteUrl}${AUTH_LINKS.dashboard}`),
      link: AUTH_LINKS.dashboard,
    });
  }
  return 'applied';
}

/** Thrown inside the event's transaction to take back its id: the event is for a subscription not known yet. */
class NotYetKnown extends Error {
  override readonly name = 'NotYetKnown';
}

async function subscriptionOfEvent(db: Db, providerSubscriptionId: string): Promise<Subscription> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId))
    .limit(1);
  if (!row) throw new NotYetKnown(providerSubscriptionId);
  return row;
}

async function storedInvoiceStatus(
  db: Db,
  provider: string,
  providerInvoiceId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ status: invoices.status })
    .from(invoices)
    .where(and(eq(invoices.provider, provider), eq(invoices.providerInvoiceId, providerInvoiceId)))
    .limit(1);
  return row?.status;
}

type InvoicePaid = Extract<BillingEvent, { type: 'invoice.paid' }>;
type InvoicePaymentFailed = Extract<BillingEvent, { type: 'invoice.payment_failed' }>;
type SubscriptionDeleted = Extract<BillingEvent, { type: 'subscription.deleted' }>;

/** Records a paid invoice (numbered once) and emails its receipt, unless it was paid before. */
async function applyInvoicePaid(db: Db, event: InvoicePaid, siteUrl: string): Promise<EventOutcome> {
  const { data } = event;
  const subscription = await subscriptionOfEvent(db, data.subscriptionId);
  const plan = (await planNamed(db, data.planCode)) ?? (await planNamed(db, subscription.planCode));
  if (!plan) return 'ignored';
  const before = await storedInvoiceStatus(db, subscription.provider, data.invoiceId);
  const at = new Date(event.created);
  const invoice = await recordInvoice(db, {
    userId: subscription.userId,
    provider: subscription.provider,
    providerInvoiceId: data.invoiceId,
    subscriptionId: subscription.id,
    planCode: plan.code,
    status: 'paid',
    currency: data.currency,
    lines: data.lines,
    taxCents: data.taxCents,
    periodStart: new Date(data.periodStart),
    periodEnd: new Date(data.periodEnd),
    issuedAt: at,
    paidAt: at,
    cardLast4: data.cardLast4,
  });
  if (before === 'paid' || before === 'void' || invoice.status !== 'paid') return 'applied';
  if (subscription.nextPaymentAttemptAt !== null) {
    await db
      .update(subscriptions)
      .set({ nextPaymentAttemptAt: null })
      .where(eq(subscriptions.id, subscription.id));
  }
  const email = await emailOf(db, subscription.userId);
  if (email === undefined) return 'applied';
  await queueEmail(db, {
    email,
    kind: 'BILLING_RECEIPT',
    subject: `Your ${SITE_NAME} receipt ${invoice.number}: ${plan.name}`,
    body: receiptBody({
      reason: data.reason,
      planName: plan.name,
      invoiceNumber: invoice.number,
      lines: invoice.lines,
      amountCents: invoice.totalCents,
      currency: invoice.currency,
      couponCode: data.couponCode,
      cardLast4: data.cardLast4,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
      dashboardUrl: `${siteUrl}${AUTH_LINKS.dashboard}`,
    }),
    link: AUTH_LINKS.dashboard,
  });
  return 'applied';
}

/** The failed payment's email: what failed, why, when it is tried again, and that the plan stays until then. */
export function paymentFailedBody(details: {
  planName: string;
  amountCents: number;
  currency: string;
  message: string;
  nextAttemptAt: Date;
  dashboardUrl: string;
}): string {
  return [
    'Hello,',
    '',
    `We could not charge ${formatCents(details.amountCents, details.currency)} for your ${SITE_NAME} ${details.planName} subscription: ${details.message}`,
    '',
    `We will try again on ${day(details.nextAttemptAt)}. Your plan stays active until then. If the payments keep failing, the subscription ends and your account moves to the Free plan.`,
    'Make sure the card can be charged (your bank can tell you why it was declined), or write to us if you need help.',
    '',
    `Your dashboard: ${details.dashboardUrl}`,
    '',
    `${SITE_NAME} billing`,
  ].join('\n');
}

/** Records the open invoice of a failed renewal and emails when it is tried again (not for the last attempt). */
async function applyInvoicePaymentFailed(
  db: Db,
  event: InvoicePaymentFailed,
  siteUrl: string,
): Promise<EventOutcome> {
  const { data } = event;
  const subscription = await subscriptionOfEvent(db, data.subscriptionId);
  const plan = (await planNamed(db, data.planCode)) ?? (await planNamed(db, subscription.planCode));
  if (!plan) return 'ignored';
  const before = await storedInvoiceStatus(db, subscription.provider, data.invoiceId);
  if (before === 'paid' || before === 'void') return 'stale';
  const at = new Date(event.created);
  const invoice = await recordInvoice(db, {
    userId: subscription.userId,
    provider: subscription.provider,
    providerInvoiceId: data.invoiceId,
    subscriptionId: subscription.id,
    planCode: plan.code,
    status: 'open',
    currency: data.currency,
    lines: data.lines,
    taxCents: data.taxCents,
    periodStart: new Date(data.periodStart),
    periodEnd: new Date(data.periodEnd),
    issuedAt: at,
    paidAt: null,
    cardLast4: null,
  });
  const nextAttemptAt = data.nextAttemptAt === null ? null : new Date(data.nextAttemptAt);
  await db
    .update(subscriptions)
    .set({ nextPaymentAttemptAt: nextAttemptAt })
    .where(eq(subscriptions.id, subscription.id));
  const email = await emailOf(db, subscription.userId);
  if (nextAttemptAt === null || email === undefined) return 'applied';
  await queueEmail(db, {
    email,
    kind: 'BILLING_PAYMENT_FAILED',
    subject: `Your ${SITE_NAME} payment failed`,
    body: paymentFailedBody({
      planName: plan.name,
      amountCents: invoice.totalCents,
      currency: invoice.currency,
      message: data.message,
      nextAttemptAt,
      dashboardUrl: `${siteUrl}${AUTH_LINKS.dashboard}`,
    }),
    link: AUTH_LINKS.dashboard,
  });
  return 'applied';
}

/** The email that says the subscription has ended: unpaid after the retries, or as the subscriber asked. */
export function endedBody(planName: string, unpaid: boolean, pricingUrl: string): string {
  return [
    'Hello,',
    '',
    unpaid
      ? `We could not collect the payment for your ${SITE_NAME} ${planName} subscription, so it has ended and the unpaid invoice is void.`
      : `Your ${SITE_NAME} ${planName} subscription has ended, as you asked.`,
    'Your account is on the Free plan now, and your API key keeps working within its limits.',
    '',
    `You can subscribe again at any time: ${pricingUrl}`,
    '',
    `${SITE_NAME} billing`,
  ].join('\n');
}

/** Ends the subscription: the account back on Free, its open invoices void, and an email. */
async function applySubscriptionDeleted(
  db: Db,
  event: SubscriptionDeleted,
  siteUrl: string,
): Promise<EventOutcome> {
  const { data } = event;
  const at = new Date(event.created);
  const existing = await subscriptionForEvent(db, data.subscriptionId, at);
  if (typeof existing === 'string') return existing;
  await db
    .update(subscriptions)
    .set({
      status: 'canceled',
      cancelAtPeriodEnd: false,
      scheduledPlanCode: null,
      nextPaymentAttemptAt: null,
      lastEventAt: at,
    })
    .where(eq(subscriptions.id, existing.id));
  const open = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.subscriptionId, existing.id), eq(invoices.status, 'open')));
  for (const invoice of open) {
    await recordInvoice(db, { ...invoice, status: 'void', paidAt: null });
  }
  const user = await setPlan(db, existing.userId, FREE_PLAN_CODE, null);
  if (user && GRANTING.includes(existing.status)) {
    const plan = await planNamed(db, existing.planCode);
    await queueEmail(db, {
      email: user.email,
      kind: 'BILLING_ENDED',
      subject: `Your ${SITE_NAME} subscription has ended`,
      body: endedBody(plan?.name ?? existing.planCode, open.length > 0, `${siteUrl}${AUTH_LINKS.pricing}`),
      link: AUTH_LINKS.pricing,
    });
  }
  return 'applied';
}

/**
 * Applies one verified provider event in one transaction. An event id seen before changes nothing
 * (providers deliver again after a timeout); an event older than the newest one applied to the
 * subscription changes nothing either (deliveries arrive out of order), though its id is recorded.
 * An invoice event for a subscription the site does not know yet is `deferred`: its id is taken
 * back with the transaction, so the provider's next delivery applies it.
 */
export async function applyBillingEvent(db: Db, event: BillingEvent, siteUrl: string): Promise<EventOutcome> {
  try {
    return await db.transaction(async (tx) => {
      if (!(await recordEvent(tx, event))) return 'duplicate';
      switch (event.type) {
        case 'checkout.completed':
          return applyCheckoutCompleted(tx, event);
        case 'subscription.updated':
          return applySubscriptionUpdated(tx, event, siteUrl);
        case 'invoice.paid':
          return applyInvoicePaid(tx, event, siteUrl);
        case 'invoice.payment_failed':
          return applyInvoicePaymentFailed(tx, event, siteUrl);
        case 'subscription.deleted':
          return applySubscriptionDeleted(tx, event, siteUrl);
      }
    });
  } catch (error) {
    if (error instanceof NotYetKnown) return 'deferred';
    throw error;
  }
}
