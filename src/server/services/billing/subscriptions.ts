import { and, eq, inArray } from 'drizzle-orm';
import { formatCents } from '../../../lib/format.ts';
import { AUTH_LINKS, SITE_NAME } from '../../../lib/routes.ts';
import type { Db } from '../../db/client.ts';
import {
  billingEvents,
  checkoutSessions,
  pricePlans,
  subscriptions,
  type CheckoutSession,
  type PricePlan,
  type Subscription,
  type SubscriptionStatus,
} from '../../db/schema.ts';
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

/** What became of a webhook event. */
export type EventOutcome = 'applied' | 'duplicate' | 'stale' | 'ignored';

/** A subscription as the pricing page reads it. */
export interface SubscriptionView {
  planCode: string;
  status: SubscriptionStatus;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
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
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The receipt's text: what was bought, what was charged (after the coupon), to which card, for which period. */
export function receiptBody(details: {
  planName: string;
  amountCents: number;
  currency: string;
  couponCode: string | null;
  cardLast4: string | null;
  periodStart: Date;
  periodEnd: Date;
  dashboardUrl: string;
}): string {
  return [
    'Hello,',
    '',
    `Thank you for subscribing to ${SITE_NAME} ${details.planName}.`,
    '',
    `Amount charged: ${formatCents(details.amountCents, details.currency)}${details.couponCode ? ` (coupon ${details.couponCode})` : ''}`,
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

async function applyCheckoutCompleted(
  db: Db,
  event: CheckoutCompleted,
  siteUrl: string,
): Promise<EventOutcome> {
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
    provider: checkout.provider,
    providerCustomerId: data.customerId,
    providerSubscriptionId: data.subscriptionId,
    lastEventAt: at,
  };
  await db
    .insert(subscriptions)
    .values({ userId: checkout.userId, ...values })
    .onConflictDoUpdate({ target: subscriptions.userId, set: values });
  await recordInvoice(db, {
    userId: checkout.userId,
    provider: checkout.provider,
    providerInvoiceId: `in_for_${checkout.id}`,
    subscriptionId: null,
    planCode: plan.code,
    status: 'paid',
    currency: data.currency,
    lines: [
      {
        description: `${plan.name}, ${day(values.currentPeriodStart)} to ${day(values.currentPeriodEnd)}`,
        amountCents: checkout.couponCode ? plan.priceCents : data.amountCents,
      },
      ...(checkout.couponCode
        ? [{ description: `Coupon ${checkout.couponCode}`, amountCents: data.amountCents - plan.priceCents }]
        : []),
    ],
    taxCents: 0,
    periodStart: values.currentPeriodStart,
    periodEnd: values.currentPeriodEnd,
    issuedAt: at,
    paidAt: at,
    cardLast4: data.cardLast4,
  });
  const user = await setPlan(db, checkout.userId, plan.code, null);
  if (user) {
    await queueEmail(db, {
      email: user.email,
      kind: 'BILLING_RECEIPT',
      subject: `Your ${SITE_NAME} receipt: ${plan.name}`,
      body: receiptBody({
        planName: plan.name,
        amountCents: data.amountCents,
        currency: data.currency,
        couponCode: checkout.couponCode,
        cardLast4: data.cardLast4,
        periodStart: values.currentPeriodStart,
        periodEnd: values.currentPeriodEnd,
        dashboardUrl: `${siteUrl}${AUTH_LINKS.dashboard}`,
      }),
      link: AUTH_LINKS.dashboard,
    });
  }
  return 'applied';
}

async function applySubscriptionUpdated(db: Db, event: SubscriptionUpdated): Promise<EventOutcome> {
  const { data } = event;
  const at = new Date(event.created);
  const [existing] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, data.subscriptionId));
  if (!existing) return 'ignored';
  if (existing.lastEventAt.getTime() > at.getTime()) return 'stale';
  const plan = await activePlan(db, data.planCode);
  if (!plan) return 'ignored';
  const updated: Partial<Subscription> = {
    planCode: plan.code,
    status: data.status,
    currentPeriodStart: new Date(data.periodStart),
    currentPeriodEnd: new Date(data.periodEnd),
    cancelAtPeriodEnd: data.cancelAtPeriodEnd,
    lastEventAt: at,
  };
  await db.update(subscriptions).set(updated).where(eq(subscriptions.id, existing.id));
  const planCode = GRANTING.includes(data.status) ? plan.code : FREE_PLAN_CODE;
  await setPlan(db, existing.userId, planCode, null);
  return 'applied';
}

/**
 * Applies one verified provider event in one transaction. An event id seen before changes nothing
 * (providers deliver again after a timeout); an event older than the newest one applied to the
 * subscription changes nothing either (deliveries arrive out of order), though its id is recorded.
 */
export function applyBillingEvent(db: Db, event: BillingEvent, siteUrl: string): Promise<EventOutcome> {
  return db.transaction(async (tx) => {
    if (!(await recordEvent(tx, event))) return 'duplicate';
    if (event.type === 'checkout.completed') return applyCheckoutCompleted(tx, event, siteUrl);
    if (event.type === 'subscription.updated') return applySubscriptionUpdated(tx, event);
    return 'ignored';
  });
}
