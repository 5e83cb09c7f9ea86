import { and, eq, lte, or, type SQL } from 'drizzle-orm';
import { formatDay } from '../../../lib/format.ts';
import type { Db } from '../../db/client.ts';
import {
  pricePlans,
  testModeSubscriptions,
  type CheckoutSession,
  type InvoiceLine,
  type PricePlan,
  type Subscription,
  type TestCardRenewals,
  type TestModeSubscription,
} from '../../db/schema.ts';
import {
  type BillingEvent,
  type Delivery,
  type HostedCheckout,
  parseEvent,
  type PaymentProvider,
  type PlanChangeQuote,
  type PlanChangeTiming,
  ProviderRefusal,
  SIGNATURE_HEADER,
  signatureMatches,
  signedDelivery,
  type WebhookTransport,
  webhookSecret,
} from './provider.ts';
import { periodEnd, stableTestId, TEST_CHECKOUT_PATH, testId } from './test-mode.ts';

// The test-mode provider's side of a subscription's life, kept in its own table as a real provider
// keeps it on its side: it starts with the paid checkout, changes when the subscriber cancels,
// resumes or changes plan, and renews at each period end (renewTestSubscriptions, run by the
// renewal job). Whatever happens is told to the site only through signed webhook events.

/** What the test-mode provider needs from the site running it: its database and the way to the webhook. */
export interface ProviderIo {
  db: Db;
  deliver: WebhookTransport;
}

/** Days after the period end at which a declined renewal is tried again; the last one ends the grace period. */
export const RENEWAL_RETRY_DAYS = [3, 5, 7] as const;

const DAY_MS = 86_400_000;

/** The card's refusal at a renewal, in Stripe's words. */
export const RENEWAL_DECLINED_MESSAGE = 'Your card was declined.';

/**
 * Sends events to the site's webhook in order, each signed at the time it is sent (a delivery's
 * signature dates the delivery; the event's own time says when it happened). A refusal stops the
 * rest and throws: what was not accepted is sent again by the next attempt, under the same ids.
 */
export async function sendEvents(deliver: WebhookTransport, events: readonly BillingEvent[]): Promise<void> {
  for (const event of events) {
    const delivered = await deliver(signedDelivery(event));
    if (!delivered.ok) {
      throw new Error(
        `The webhook refused event ${event.id} (${event.type}) with ${String(delivered.status)}`,
      );
    }
  }
}

async function planByCode(db: Db, code: string): Promise<PricePlan> {
  const [plan] = await db.select().from(pricePlans).where(eq(pricePlans.code, code)).limit(1);
  if (!plan) throw new Error(`The test-mode provider bills an unknown plan ${code}`);
  return plan;
}

/** A charge's lines and the period the subscription has after it. */
export interface Proration {
  lines: InvoiceLine[];
  periodStart: Date;
  periodEnd: Date;
}

/**
 * Stripe's proration of an immediate plan change: the unused time of the old plan is credited and
 * the rest of the period on the new plan charged, both pro rata to the whole seconds left of the
 * period and rounded to cents. When the billing interval changes (monthly to annual) the period
 * restarts now and the whole new price is charged, less the credit.
 */
export function prorate(
  from: Pick<PricePlan, 'name' | 'priceCents' | 'billingInterval'>,
  to: Pick<PricePlan, 'name' | 'priceCents' | 'billingInterval'>,
  period: { start: Date; end: Date },
  now: Date,
): Proration {
  const totalSeconds = Math.floor((period.end.getTime() - period.start.getTime()) / 1000);
  const leftSeconds = Math.max(0, Math.floor((period.end.getTime() - now.getTime()) / 1000));
  const share = (cents: number): number => Math.round((cents * leftSeconds) / totalSeconds);
  const after = formatDay(now);
  const credit: InvoiceLine = {
    description: `Unused time on ${from.name} after ${after}`,
    amountCents: -share(from.priceCents),
  };
  if (from.billingInterval === to.billingInterval) {
    return {
      lines: [
        credit,
        { description: `Remaining time on ${to.name} after ${after}`, amountCents: share(to.priceCents) },
      ],
      periodStart: period.start,
      periodEnd: period.end,
    };
  }
  const end = periodEnd(now, to.billingInterval);
  return {
    lines: [credit, { description: `${to.name}, ${after} to ${formatDay(end)}`, amountCents: to.priceCents }],
    periodStart: now,
    periodEnd: end,
  };
}

/**
 * The customer's credit applied to a charge: a charge is lowered by the credit held (a line
 * "Applied balance"), and a negative one (more unused time than the new plan costs) keeps the rest
 * as credit (a line that brings the invoice to zero). Answers the lines and the credit left.
 */
export function applyBalance(
  lines: readonly InvoiceLine[],
  balanceCents: number,
): {
  lines: InvoiceLine[];
  balanceCents: number;
} {
  const total = lines.reduce((sum, line) => sum + line.amountCents, 0);
  if (total < 0) {
    return {
      lines: [...lines, { description: 'Credit kept for your next invoices', amountCents: -total }],
      balanceCents: balanceCents - total,
    };
  }
  const applied = Math.min(balanceCents, total);
  if (applied === 0) return { lines: [...lines], balanceCents };
  return {
    lines: [...lines, { description: 'Applied balance', amountCents: -applied }],
    balanceCents: balanceCents - applied,
  };
}

function totalOf(lines: readonly InvoiceLine[]): number {
  return lines.reduce((sum, line) => sum + line.amountCents, 0);
}

function updatedEvent(row: TestModeSubscription, id: string, now: Date): BillingEvent {
  return {
    id,
    created: now.toISOString(),
    type: 'subscription.updated',
    data: {
      subscriptionId: row.id,
      planCode: row.planCode,
      status: row.status,
      periodStart: row.currentPeriodStart.toISOString(),
      periodEnd: row.currentPeriodEnd.toISOString(),
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      scheduledPlanCode: row.scheduledPlanCode,
    },
  };
}

function paidEvent(
  row: TestModeSubscription,
  invoice: {
    id: string;
    reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
    lines: InvoiceLine[];
  },
  eventId: string,
  now: Date,
  couponCode: string | null = null,
): BillingEvent {
  return {
    id: eventId,
    created: now.toISOString(),
    type: 'invoice.paid',
    data: {
      invoiceId: invoice.id,
      subscriptionId: row.id,
      planCode: row.planCode,
      reason: invoice.reason,
      currency: row.currency,
      lines: invoice.lines,
      taxCents: 0,
      periodStart: row.currentPeriodStart.toISOString(),
      periodEnd: row.currentPeriodEnd.toISOString(),
      cardLast4: row.cardLast4,
      couponCode,
    },
  };
}

/** What starting a subscription from a paid checkout needs beyond the checkout. */
export interface SubscriptionStart {
  plan: Pick<PricePlan, 'name' | 'priceCents' | 'billingInterval'>;
  cardLast4: string;
  cardRenewals: TestCardRenewals;
  now: Date;
}

/**
 * Starts the provider's subscription for a paid checkout and tells the site: `checkout.completed`,
 * then `invoice.paid` for the first payment (a coupon's discount as a negative line).
 */
export async function startTestSubscription(
  io: ProviderIo,
  checkout: CheckoutSession,
  start: SubscriptionStart,
): Promise<void> {
  const { plan, now } = start;
  const [row] = await io.db
    .insert(testModeSubscriptions)
    .values({
      id: testId('sub'),
      customerId: testId('cus'),
      planCode: checkout.planCode,
      status: 'active',
      currentPeriodStart: now,
      currentPeriodEnd: periodEnd(now, plan.billingInterval),
      currency: checkout.currency,
      cardLast4: start.cardLast4,
      cardRenewals: start.cardRenewals,
    })
    .returning();
  if (!row) throw new Error('Test-mode subscription insert returned no row');
  const lines: InvoiceLine[] = [
    {
      description: `${plan.name}, ${formatDay(row.currentPeriodStart)} to ${formatDay(row.currentPeriodEnd)}`,
      amountCents: plan.priceCents,
    },
  ];
  if (checkout.amountCents !== plan.priceCents) {
    lines.push({
      description: `Coupon ${checkout.couponCode ?? ''}`.trim(),
      amountCents: checkout.amountCents - plan.priceCents,
    });
  }
  const completed: BillingEvent = {
    id: testId('evt'),
    created: now.toISOString(),
    type: 'checkout.completed',
    data: {
      checkoutId: checkout.id,
      customerId: row.customerId,
      subscriptionId: row.id,
      planCode: row.planCode,
      amountCents: checkout.amountCents,
      currency: row.currency,
      cardLast4: row.cardLast4,
      periodStart: row.currentPeriodStart.toISOString(),
      periodEnd: row.currentPeriodEnd.toISOString(),
    },
  };
  const invoice = { id: testId('in'), reason: 'subscription_create' as const, lines };
  await sendEvents(io.deliver, [completed, paidEvent(row, invoice, testId('evt'), now, checkout.couponCode)]);
}

async function providerRow(db: Db, subscription: Subscription): Promise<TestModeSubscription> {
  const [row] = await db
    .select()
    .from(testModeSubscriptions)
    .where(eq(testModeSubscriptions.id, subscription.providerSubscriptionId))
    .limit(1);
  if (!row) throw new ProviderRefusal('The payment provider does not know this subscription.');
  if (row.status === 'canceled') throw new ProviderRefusal('This subscription has ended.');
  return row;
}

/** Stores the provider's new state of a subscription; answers it. */
async function save(
  db: Db,
  id: string,
  changes: Partial<TestModeSubscription>,
): Promise<TestModeSubscription> {
  const [row] = await db
    .update(testModeSubscriptions)
    .set(changes)
    .where(eq(testModeSubscriptions.id, id))
    .returning();
  if (!row) throw new Error(`Test-mode subscription ${id} vanished`);
  return row;
}

/** What changing `row` to `plan` at `when` charges, with the state it leaves. */
async function quote(
  db: Db,
  row: TestModeSubscription,
  plan: PricePlan,
  when: PlanChangeTiming,
  now: Date,
): Promise<{ quote: PlanChangeQuote; next: Partial<TestModeSubscription> }> {
  if (when === 'period_end' || plan.code === row.planCode) {
    return {
      quote: {
        when: 'period_end',
        effectiveAt: row.currentPeriodEnd,
        amountDueCents: 0,
        currency: row.currency,
        lines: [],
      },
      next: {
        scheduledPlanCode: plan.code === row.planCode ? null : plan.code,
        cancelAtPeriodEnd: false,
      },
    };
  }
  const from = await planByCode(db, row.planCode);
  const proration = prorate(from, plan, { start: row.currentPeriodStart, end: row.currentPeriodEnd }, now);
  const charged = applyBalance(proration.lines, row.balanceCents);
  return {
    quote: {
      when: 'now',
      effectiveAt: now,
      amountDueCents: Math.max(0, totalOf(charged.lines)),
      currency: row.currency,
      lines: charged.lines,
    },
    next: {
      planCode: plan.code,
      currentPeriodStart: proration.periodStart,
      currentPeriodEnd: proration.periodEnd,
      scheduledPlanCode: null,
      cancelAtPeriodEnd: false,
      balanceCents: charged.balanceCents,
    },
  };
}

/** Applies a plan change on the provider's side and reports it (a charge first, as Stripe does). */
async function changePlan(
  io: ProviderIo,
  subscription: Subscription,
  plan: PricePlan,
  when: PlanChangeTiming,
  now: Date,
): Promise<PlanChangeQuote> {
  const before = await providerRow(io.db, subscription);
  const change = await quote(io.db, before, plan, when, now);
  const row = await save(io.db, before.id, change.next);
  const events: BillingEvent[] = [];
  if (change.quote.when === 'now') {
    const invoiceId = stableTestId('in', row.id, 'update', before.planCode, plan.code, now.toISOString());
    events.push(
      paidEvent(
        row,
        { id: invoiceId, reason: 'subscription_update', lines: change.quote.lines },
        testId('evt'),
        now,
      ),
    );
  }
  events.push(updatedEvent(row, testId('evt'), now));
  await sendEvents(io.deliver, events);
  return change.quote;
}

/** Sets or clears the cancellation at the period end (a cancellation also drops a scheduled plan) and reports it. */
async function setCancelAtPeriodEnd(
  io: ProviderIo,
  subscription: Subscription,
  cancel: boolean,
  now: Date,
): Promise<void> {
  const before = await providerRow(io.db, subscription);
  const row = await save(io.db, before.id, {
    cancelAtPeriodEnd: cancel,
    scheduledPlanCode: cancel ? null : before.scheduledPlanCode,
  });
  await sendEvents(io.deliver, [updatedEvent(row, testId('evt'), now)]);
}

/** What one renewal step did to a subscription. */
export type RenewalStep = 'renewed' | 'declined' | 'ended';

/** The invoice of the period that starts at `row.currentPeriodStart` (after a renewal), same on every attempt. */
function renewalInvoice(
  row: TestModeSubscription,
  plan: PricePlan,
): { id: string; lines: InvoiceLine[]; balanceCents: number } {
  const charged = applyBalance(
    [
      {
        description: `${plan.name}, ${formatDay(row.currentPeriodStart)} to ${formatDay(row.currentPeriodEnd)}`,
        amountCents: plan.priceCents,
      },
    ],
    row.balanceCents,
  );
  return {
    id: stableTestId('in', row.id, 'cycle', row.currentPeriodStart.toISOString()),
    lines: charged.lines,
    balanceCents: charged.balanceCents,
  };
}

/** The id of a renewal step's event: the same when the step is sent again. */
function stepEventId(row: TestModeSubscription, step: string): string {
  return stableTestId('evt', row.id, step, row.currentPeriodStart.toISOString(), String(row.failedAttempts));
}

/**
 * One renewal step of a due subscription, events first and the provider's state after: a step
 * whose events were not all accepted is done again by the next round with the same ids. At the
 * period end a cancellation ends the subscription, otherwise the next period starts (on the
 * scheduled plan, if any) and the card on file is charged; a declined renewal is tried again
 * RENEWAL_RETRY_DAYS after the period end, and the last decline ends the subscription.
 */
export async function renewStep(io: ProviderIo, due: TestModeSubscription, now: Date): Promise<RenewalStep> {
  const { db, deliver } = io;
  const guard = and(
    eq(testModeSubscriptions.id, due.id),
    eq(testModeSubscriptions.currentPeriodEnd, due.currentPeriodEnd),
    eq(testModeSubscriptions.failedAttempts, due.failedAttempts),
  );
  const store = (changes: Partial<TestModeSubscription>): Promise<unknown> =>
    db.update(testModeSubscriptions).set(changes).where(guard);

  if (due.status === 'active' && due.cancelAtPeriodEnd) {
    const ended: BillingEvent = {
      id: stepEventId(due, 'deleted'),
      created: now.toISOString(),
      type: 'subscription.deleted',
      data: { subscriptionId: due.id, endedAt: due.currentPeriodEnd.toISOString() },
    };
    await sendEvents(deliver, [ended]);
    await store({ status: 'canceled', nextAttemptAt: null });
    return 'ended';
  }

  let row = due;
  if (due.status === 'active') {
    // The next period starts, on the scheduled plan if there is one, whether or not the card pays.
    const plan = await planByCode(db, due.scheduledPlanCode ?? due.planCode);
    row = {
      ...due,
      planCode: plan.code,
      scheduledPlanCode: null,
      currentPeriodStart: due.currentPeriodEnd,
      currentPeriodEnd: periodEnd(due.currentPeriodEnd, plan.billingInterval),
    };
  }
  const plan = await planByCode(db, row.planCode);
  const invoice = renewalInvoice(row, plan);
  const attempt = row.failedAttempts + 1;
  const pays = row.cardRenewals === 'pay' || totalOf(invoice.lines) <= 0;
  const renewed = {
    planCode: row.planCode,
    scheduledPlanCode: null,
    currentPeriodStart: row.currentPeriodStart,
    currentPeriodEnd: row.currentPeriodEnd,
  };

  if (pays) {
    const active = { ...row, status: 'active' as const };
    await sendEvents(deliver, [
      paidEvent(
        active,
        { id: invoice.id, reason: 'subscription_cycle', lines: invoice.lines },
        stepEventId(due, 'paid'),
        now,
      ),
      updatedEvent(active, stepEventId(due, 'updated'), now),
    ]);
    await store({
      ...renewed,
      status: 'active',
      balanceCents: invoice.balanceCents,
      failedAttempts: 0,
      nextAttemptAt: null,
    });
    return 'renewed';
  }

  const retryDays = RENEWAL_RETRY_DAYS[attempt - 1];
  const nextAttemptAt =
    retryDays === undefined ? null : new Date(row.currentPeriodStart.getTime() + retryDays * DAY_MS);
  const failed: BillingEvent = {
    id: stepEventId(due, 'failed'),
    created: now.toISOString(),
    type: 'invoice.payment_failed',
    data: {
      invoiceId: invoice.id,
      subscriptionId: row.id,
      planCode: row.planCode,
      currency: row.currency,
      lines: invoice.lines,
      taxCents: 0,
      periodStart: row.currentPeriodStart.toISOString(),
      periodEnd: row.currentPeriodEnd.toISOString(),
      attemptCount: attempt,
      nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
      message: RENEWAL_DECLINED_MESSAGE,
    },
  };
  if (nextAttemptAt === null) {
    const ended: BillingEvent = {
      id: stepEventId(due, 'deleted'),
      created: now.toISOString(),
      type: 'subscription.deleted',
      data: { subscriptionId: row.id, endedAt: now.toISOString() },
    };
    await sendEvents(deliver, [failed, ended]);
    await store({ status: 'canceled', failedAttempts: attempt, nextAttemptAt: null });
    return 'ended';
  }
  const pastDue = { ...row, status: 'past_due' as const };
  await sendEvents(
    deliver,
    due.status === 'active' ? [failed, updatedEvent(pastDue, stepEventId(due, 'updated'), now)] : [failed],
  );
  await store({ ...renewed, status: 'past_due', failedAttempts: attempt, nextAttemptAt });
  return 'declined';
}

/** The subscriptions with a renewal step due at `now`: a period that ended, or a retry whose time came. */
export function dueCondition(now: Date): SQL | undefined {
  return or(
    and(eq(testModeSubscriptions.status, 'active'), lte(testModeSubscriptions.currentPeriodEnd, now)),
    and(eq(testModeSubscriptions.status, 'past_due'), lte(testModeSubscriptions.nextAttemptAt, now)),
  );
}

/** At most this many steps per round, so a long outage is caught up over a few rounds rather than in one. */
const STEPS_PER_ROUND = 500;

/** What a renewal round did. */
export interface RenewalSummary {
  renewed: number;
  declined: number;
  ended: number;
  /** Steps whose events the webhook did not accept; they are tried again next round. */
  undelivered: number;
}

/**
 * Renews every test-mode subscription due at `now`, step after step until none is due (a
 * subscription behind by several periods or retries catches up in one round). A step that cannot
 * be delivered is left for the next round; the others go on.
 */
export async function renewTestSubscriptions(
  io: ProviderIo,
  now: Date,
  log: (line: string) => void = (line) => console.warn(line),
): Promise<RenewalSummary> {
  const summary: RenewalSummary = { renewed: 0, declined: 0, ended: 0, undelivered: 0 };
  const failed = new Set<string>();
  for (let steps = 0; steps < STEPS_PER_ROUND;) {
    const due = (
      await io.db
        .select()
        .from(testModeSubscriptions)
        .where(dueCondition(now))
        .orderBy(testModeSubscriptions.currentPeriodEnd)
        .limit(100)
    ).filter((row) => !failed.has(row.id));
    if (due.length === 0) break;
    for (const row of due) {
      steps += 1;
      try {
        summary[await renewStep(io, row, now)] += 1;
      } catch (error) {
        failed.add(row.id);
        summary.undelivered += 1;
        log(
          `[billing] renewal of ${row.id} not delivered: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
  return summary;
}

/**
 * The test-mode provider: the default here and in tests. Checkouts and verification need nothing
 * else; the changes a subscriber asks for need `io`, the database holding the provider's records
 * and the way to the site's webhook.
 */
export function testModeProvider(io?: ProviderIo): PaymentProvider {
  const needIo = (): ProviderIo => {
    if (io === undefined)
      throw new Error(
        'The test-mode provider changes subscriptions only with a database and a webhook transport',
      );
    return io;
  };
  return {
    name: 'test',
    startCheckout(checkout: CheckoutSession): Promise<HostedCheckout> {
      return Promise.resolve({ url: `${TEST_CHECKOUT_PATH}/${checkout.id}` });
    },
    signatureHeader: SIGNATURE_HEADER,
    readEvent(rawBody: string, signature: string | undefined, now: Date): Promise<Delivery> {
      if (!signatureMatches(webhookSecret(), rawBody, signature, now)) return Promise.resolve({ ok: false });
      const event = parseEvent(rawBody);
      return Promise.resolve(event === null ? { ok: false } : { ok: true, event });
    },
    setCancelAtPeriodEnd(subscription, cancel, now) {
      return setCancelAtPeriodEnd(needIo(), subscription, cancel, now);
    },
    async previewPlanChange(subscription, plan, when, now) {
      const { db } = needIo();
      return (await quote(db, await providerRow(db, subscription), plan, when, now)).quote;
    },
    changePlan(subscription, plan, when, now) {
      return changePlan(needIo(), subscription, plan, when, now);
    },
  };
}
