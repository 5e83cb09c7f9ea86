import { Hono, type Context } from 'hono';
import type { BlankInput } from 'hono/types';
import { z } from 'zod';
import type { AccountsEnv } from '../app/context.ts';
import { siteUrl } from '../app/config.ts';
import { apiError } from '../app/errors.ts';
import { requireUser, SIGN_IN_REQUIRED_MESSAGE } from '../middleware/caller.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { jsonBody, type JsonInput } from '../middleware/validate.ts';
import { checkCoupon, couponPrice, notApplicableMessage } from '../services/price-plans.ts';
import { invoiceFilename, isCountryCode } from '../../lib/invoices.ts';
import { billingDetailsOf, saveBillingDetails } from '../services/billing/billing-profiles.ts';
import { invoicePdf } from '../services/billing/invoice-pdf.ts';
import { invoicesOf, readableInvoice } from '../services/billing/invoices.ts';
import type { PricePlan, Subscription } from '../db/schema.ts';
import { changeRefusal, changeTiming } from '../services/billing/plan-changes.ts';
import {
  type PlanChangeQuote,
  type PaymentProvider,
  ProviderRefusal,
  type WebhookTransport,
} from '../services/billing/provider.ts';
import {
  activePlan,
  applyBillingEvent,
  CHECKOUT_LIFETIME_MS,
  CHECKOUT_SUCCESS_PATH,
  createCheckout,
  FREE_PLAN_CODE,
  subscriptionOf,
  subscriptionRow,
} from '../services/billing/subscriptions.ts';
import { testId } from '../services/billing/test-mode.ts';
import { paymentProvider, providerNamed, providerOfDelivery } from '../services/billing/payment-provider.ts';
import { findUserById } from '../services/users.ts';
import { AUTH_LINKS } from '../../lib/routes.ts';

/** Checkouts one account may open per window: plenty for changing one's mind, not for flooding. */
export const CHECKOUT_LIMIT = 20;
/** The window CHECKOUT_LIMIT counts in. */
export const CHECKOUT_WINDOW_MS = 10 * 60_000;

/** A subscriber changes plan instead of paying a second subscription. */
export const ALREADY_SUBSCRIBED_MESSAGE =
  'subscription: You have a subscription already. Change its plan instead of opening a second one.';

/** The free plan is not bought. */
export const FREE_PLAN_CHECKOUT_MESSAGE = 'planCode: The free plan needs no checkout.';

const checkoutBody = z.strictObject({
  planCode: z.string().trim().min(1).max(64),
  couponCode: z.string().trim().max(64).optional(),
});

/** The answer for an invoice the caller may not read or that does not exist: the two look alike. */
export const NO_SUCH_INVOICE_MESSAGE = 'There is no such invoice.';

const line = (label: string, max: number): z.ZodString =>
  z
    .string()
    .trim()
    .min(1, `Enter ${label}.`)
    .max(max, `Shorten ${label} to at most ${String(max)} characters.`);

/** The billing name and address for future invoices, with a message per field the form shows beside it. */
const profileBody = z.strictObject({
  name: line('the name for your invoices', 100),
  address: z.strictObject({
    line1: line('the street address', 200),
    line2: z
      .string()
      .trim()
      .max(200, 'Shorten the second address line to at most 200 characters.')
      .default(''),
    city: line('the city', 100),
    postalCode: line('the postal code', 20),
    country: z.string().trim().toUpperCase().refine(isCountryCode, 'Choose the country.'),
  }),
});

const checkoutLimit = rateLimit<JsonInput<typeof checkoutBody>, AccountsEnv>({
  name: 'billing-checkout',
  limit: CHECKOUT_LIMIT,
  windowMs: CHECKOUT_WINDOW_MS,
  key: (c) => (c.var.caller.kind === 'user' ? `user:${c.var.caller.userId}` : undefined),
});

/** Subscription changes (cancel, resume, change plan) one account may ask for per window. */
export const CHANGE_LIMIT = 20;
/** Previews one account may ask for per window: one per plan looked at, with room to spare. */
export const PREVIEW_LIMIT = 60;

const changeBody = z.strictObject({ planCode: z.string().trim().min(1).max(64) });
const emptyBody = z.strictObject({});

const perUser = (c: Context<AccountsEnv>): string | undefined =>
  c.var.caller.kind === 'user' ? `user:${c.var.caller.userId}` : undefined;

const changeLimit = rateLimit<JsonInput<typeof emptyBody>, AccountsEnv>({
  name: 'billing-change',
  limit: CHANGE_LIMIT,
  windowMs: CHECKOUT_WINDOW_MS,
  key: perUser,
});

const planChangeLimit = rateLimit<JsonInput<typeof changeBody>, AccountsEnv>({
  name: 'billing-change',
  limit: CHANGE_LIMIT,
  windowMs: CHECKOUT_WINDOW_MS,
  key: perUser,
});

const previewLimit = rateLimit<BlankInput, AccountsEnv>({
  name: 'billing-preview',
  limit: PREVIEW_LIMIT,
  windowMs: CHECKOUT_WINDOW_MS,
  key: perUser,
});

/** The free plan is reached by canceling: the paid plan stays until the period ends. */
const FREE_VIA_CANCEL = 'cancel';

/** What a plan change will do, as the portal answers it: charged now (with the amount), or scheduled. */
export interface PlanChangeAnswer {
  planCode: string;
  when: 'now' | 'period_end';
  effectiveAt: string;
  amountDueCents: number;
  currency: string;
  lines: PlanChangeQuote['lines'];
}

function changeAnswer(planCode: string, quote: PlanChangeQuote): PlanChangeAnswer {
  return {
    planCode,
    when: quote.when,
    effectiveAt: quote.effectiveAt.toISOString(),
    amountDueCents: quote.amountDueCents,
    currency: quote.currency,
    lines: quote.lines,
  };
}

/** The plan change asked for, checked: the target plan and when it applies, or a refusal (status and message). */
type PlannedChange =
  | {
      ok: true;
      subscription: Subscription;
      plan: PricePlan;
      when: 'now' | 'period_end' | typeof FREE_VIA_CANCEL;
    }
  | { ok: false; status: 400 | 409; error: string; field: string };

async function planChange(c: Context<AccountsEnv>, userId: string, planCode: string): Promise<PlannedChange> {
  const subscription = await subscriptionRow(c.var.db, userId);
  const refusal = changeRefusal(subscription);
  if (refusal !== null || subscription === undefined) {
    return { ok: false, status: 409, error: refusal ?? '', field: 'subscription' };
  }
  const plan = await activePlan(c.var.db, planCode);
  if (!plan)
    return { ok: false, status: 400, error: `planCode: There is no plan ${planCode}.`, field: 'planCode' };
  if (plan.code === FREE_PLAN_CODE || plan.priceCents === 0) {
    return { ok: true, subscription, plan, when: FREE_VIA_CANCEL };
  }
  const current = await activePlan(c.var.db, subscription.planCode);
  const unchanged = plan.code === subscription.planCode;
  if (unchanged && subscription.scheduledPlanCode === null && !subscription.cancelAtPeriodEnd) {
    return { ok: false, status: 400, error: `planCode: You are on ${plan.name} already.`, field: 'planCode' };
  }
  const when = unchanged || !current ? 'period_end' : changeTiming(current, plan);
  if (when === 'now' && subscription.status === 'past_due') {
    return {
      ok: false,
      status: 409,
      error: 'subscription: Your last payment failed. An upgrade can be made once it is paid.',
      field: 'subscription',
    };
  }
  return { ok: true, subscription, plan, when };
}

/** Runs a provider call, turning its refusal into 409 with the provider's words. */
async function askProvider<T>(
  c: Context<AccountsEnv>,
  call: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; response: Response }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (error instanceof ProviderRefusal) {
      return {
        ok: false,
        response: apiError(c, 409, `subscription: ${error.message}`, { field: 'subscription' }),
      };
    }
    throw error;
  }
}

/**
 * The signed-in account's billing calls, mounted at /api/portal: opening a checkout for a paid plan
 * (priced with the coupon as get-price-plans prices it), reading the current subscription, the
 * subscriber's changes, the account's invoices (list, one invoice, its PDF; an administrator reads
 * any, anyone else gets 404) and the billing name and address for future invoices. The site decides
 * what a change does (an upgrade at once, a downgrade or the Free plan at the period end) and asks
 * the provider, whose events then change the subscription; `deliver` is how a provider run by the
 * site (test mode) reaches the webhook.
 */
export function portalBillingRoutes(deliver: WebhookTransport) {
  /** The provider of an existing subscription, by the name stored with it. */
  const provider = (c: Context<AccountsEnv>, subscription: Subscription): PaymentProvider =>
    providerNamed(subscription.provider, { db: c.var.db, deliver });
  return new Hono<AccountsEnv>()
    .post('/billing/checkout', requireUser(), jsonBody(checkoutBody), checkoutLimit, async (c) => {
      const who = c.var.caller;
      if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
      const { planCode, couponCode } = c.req.valid('json');
      const plan = await activePlan(c.var.db, planCode);
      if (!plan) return apiError(c, 400, `planCode: There is no plan ${planCode}.`, { field: 'planCode' });
      if (plan.priceCents === 0) return apiError(c, 400, FREE_PLAN_CHECKOUT_MESSAGE, { field: 'planCode' });
      if (changeRefusal(await subscriptionRow(c.var.db, who.userId)) === null) {
        return apiError(c, 409, ALREADY_SUBSCRIBED_MESSAGE, { field: 'subscription' });
      }
      const now = new Date();
      let amountCents = plan.priceCents;
      let acceptedCoupon: string | null = null;
      const code = (couponCode ?? '').toUpperCase();
      if (code !== '') {
        const check = await checkCoupon(c.var.db, code, now);
        if (!check.ok) return apiError(c, 400, `couponCode: ${check.error}`, { field: 'couponCode' });
        const price = couponPrice(check.coupon, plan);
        if (price === null) {
          const refusal = await notApplicableMessage(c.var.db, check.coupon, plan);
          return apiError(c, 400, `couponCode: ${refusal}`, { field: 'couponCode' });
        }
        amountCents = price;
        acceptedCoupon = check.coupon.code;
      }
      const seller = paymentProvider({ db: c.var.db, deliver });
      const buyer = await findUserById(c.var.db, who.userId);
      if (!buyer) return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
      const checkout = await createCheckout(c.var.db, {
        id: testId('cs'),
        userId: who.userId,
        planCode: plan.code,
        couponCode: acceptedCoupon,
        amountCents,
        currency: plan.currency,
        provider: seller.name,
        expiresAt: new Date(now.getTime() + CHECKOUT_LIFETIME_MS),
      });
      const site = siteUrl();
      const hosted = await seller.startCheckout(checkout, {
        plan,
        email: buyer.email,
        urls: { success: `${site}${CHECKOUT_SUCCESS_PATH}`, cancel: `${site}${AUTH_LINKS.pricing}` },
      });
      c.header('Cache-Control', 'no-store');
      return c.json({ url: hosted.url });
    })
    .get('/billing/subscription', requireUser(), async (c) => {
      const who = c.var.caller;
      if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
      c.header('Cache-Control', 'no-store');
      return c.json({ subscription: await subscriptionOf(c.var.db, who.userId) });
    })
    .post('/billing/cancel', requireUser(), jsonBody(emptyBody), changeLimit, async (c) => {
      const who = c.var.caller;
      if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
      const subscription = await subscriptionRow(c.var.db, who.userId);
      const refusal = changeRefusal(subscription);
      if (refusal !== null || subscription === undefined) {
        return apiError(c, 409, refusal ?? '', { field: 'subscription' });
      }
      const asked = await askProvider(c, () =>
        provider(c, subscription).setCancelAtPeriodEnd(subscription, true, new Date()),
      );
      if (!asked.ok) return asked.response;
      c.header('Cache-Control', 'no-store');
      return c.json({
        cancelAtPeriodEnd: true,
        endsAt: subscription.currentPeriodEnd.toISOString(),
        subscription: await subscriptionOf(c.var.db, who.userId),
      });
    })
    .post('/billing/resume', requireUser(), jsonBody(emptyBody), changeLimit, async (c) => {
      const who = c.var.caller;
      if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
      const subscription = await subscriptionRow(c.var.db, who.userId);
      const refusal = changeRefusal(subscription);
      if (refusal !== null || subscription === undefined) {
        return apiError(c, 409, refusal ?? '', { field: 'subscription' });
      }
      if (!subscription.cancelAtPeriodEnd) {
        return apiError(
          c,
          409,
          'subscription: Your subscription is not set to end; there is nothing to resume.',
          {
            field: 'subscription',
          },
        );
      }
      const asked = await askProvider(c, () =>
        provider(c, subscription).setCancelAtPeriodEnd(subscription, false, new Date()),
      );
      if (!asked.ok) return asked.response;
      c.header('Cache-Control', 'no-store');
      return c.json({ cancelAtPeriodEnd: false, subscription: await subscriptionOf(c.var.db, who.userId) });
    })
    .post('/billing/payment-method', requireUser(), jsonBody(emptyBody), changeLimit, async (c) => {
      const who = c.var.caller;
      if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
      const subscription = await subscriptionRow(c.var.db, who.userId);
      const seller = subscription && provider(c, subscription);
      if (!subscription || !seller?.portalUrl) {
        return apiError(c, 409, NO_CARD_PAGE_MESSAGE, { field: 'subscription' });
      }
      const url = await seller.portalUrl(subscription, `${siteUrl()}${AUTH_LINKS.dashboard}`);
      c.header('Cache-Control', 'no-store');
      return c.json({ url });
    })
    .get('/billing/change-plan/preview', requireUser(), previewLimit, async (c) => {
      const who = c.var.caller;
      if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
      const planCode = (c.req.query('planCode') ?? '').trim().slice(0, 64);
      if (planCode === '') return apiError(c, 400, 'planCode: Choose a plan.', { field: 'planCode' });
      const change = await planChange(c, who.userId, planCode);
      if (!change.ok) return apiError(c, change.status, change.error, { field: change.field });
      c.header('Cache-Control', 'no-store');
      if (change.when === FREE_VIA_CANCEL) {
        const quote: PlanChangeQuote = {
          when: 'period_end',
          effectiveAt: change.subscription.currentPeriodEnd,
          amountDueCents: 0,
          currency: change.plan.currency,
          lines: [],
        };
        return c.json(changeAnswer(change.plan.code, quote));
      }
      const { subscription, plan, when } = change;
      const asked = await askProvider(c, () =>
        provider(c, subscription).previewPlanChange(subscription, plan, when, new Date()),
      );
      if (!asked.ok) return asked.response;
      return c.json(changeAnswer(plan.code, asked.value));
    })
    .post('/billing/change-plan', requireUser(), jsonBody(changeBody), planChangeLimit, async (c) => {
      const who = c.var.caller;
      if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
      const change = await planChange(c, who.userId, c.req.valid('json').planCode);
      if (!change.ok) return apiError(c, change.status, change.error, { field: change.field });
      c.header('Cache-Control', 'no-store');
      const { subscription, plan, when } = change;
      if (when === FREE_VIA_CANCEL) {
        const asked = await askProvider(c, () =>
          provider(c, subscription).setCancelAtPeriodEnd(subscription, true, new Date()),
        );
        if (!asked.ok) return asked.response;
        const quote: PlanChangeQuote = {
          when: 'period_end',
          effectiveAt: subscription.currentPeriodEnd,
          amountDueCents: 0,
          currency: plan.currency,
          lines: [],
        };
        return c.json({
          ...changeAnswer(plan.code, quote),
          subscription: await subscriptionOf(c.var.db, who.userId),
        });
      }
      const asked = await askProvider(c, () =>
        provider(c, subscription).changePlan(subscription, plan, when, new Date()),
      );
      if (!asked.ok) return asked.response;
      return c.json({
        ...changeAnswer(plan.code, asked.value),
        subscription: await subscriptionOf(c.var.db, who.userId),
      });
    })
    .get('/billing/invoices', requireUser(), async (c) => {
      const who = c.var.caller;
      if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
      c.header('Cache-Control', 'no-store');
      return c.json({ invoices: await invoicesOf(c.var.db, who.userId) });
    })
    .get('/billing/invoices/:number', requireUser(), async (c) => {
      const who = c.var.caller;
      if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
      c.header('Cache-Control', 'no-store');
      const invoice = await readableInvoice(c.var.db, c.req.param('number'), who);
      if (!invoice) return apiError(c, 404, NO_SUCH_INVOICE_MESSAGE);
      return c.json({ invoice });
    })
    .get('/billing/invoices/:number/pdf', requireUser(), async (c) => {
      const who = c.var.caller;
      if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
      c.header('Cache-Control', 'no-store');
      const invoice = await readableInvoice(c.var.db, c.req.param('number'), who);
      if (!invoice) return apiError(c, 404, NO_SUCH_INVOICE_MESSAGE);
      const pdf = await invoicePdf(invoice);
      return c.body(new Uint8Array(pdf), 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${invoiceFilename(invoice.number)}"`,
      });
    })
    .get('/billing/profile', requireUser(), async (c) => {
      const who = c.var.caller;
      if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
      c.header('Cache-Control', 'no-store');
      return c.json({ profile: await billingDetailsOf(c.var.db, who.userId) });
    })
    .put('/billing/profile', requireUser(), jsonBody(profileBody), async (c) => {
      const who = c.var.caller;
      if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
      c.header('Cache-Control', 'no-store');
      return c.json({ profile: await saveBillingDetails(c.var.db, who.userId, c.req.valid('json')) });
    });
}

/** A subscription whose provider has no page for the card on file (test mode charges the checkout's card). */
export const NO_CARD_PAGE_MESSAGE =
  'subscription: The card on file of a test-mode subscription is the one paid with at checkout and cannot be changed; cancel and subscribe again to use another.';

/** The refusal of a delivery whose signature is not the provider's. */
export const BAD_SIGNATURE_MESSAGE = 'The event signature is missing or invalid.';

/** The refusal of an invoice event that came before its subscription's: the provider delivers it again. */
export const NOT_YET_KNOWN_MESSAGE =
  'The subscription of this event is not known yet; deliver it again later.';

/**
 * The payment provider's webhook, mounted at /api/billing: a signed event (signature over the raw
 * body) is applied once, in event-time order; anything unsigned is refused with 400.
 */
export const billingWebhookRoutes = new Hono<AccountsEnv>().post('/webhook', async (c) => {
  const raw = await c.req.text();
  const provider = providerOfDelivery((name) => c.req.header(name));
  const delivery = await provider.readEvent(raw, c.req.header(provider.signatureHeader), new Date());
  if (!delivery.ok) return apiError(c, 400, BAD_SIGNATURE_MESSAGE);
  if (delivery.event === null) return c.json({ received: true, outcome: 'ignored' });
  const outcome = await applyBillingEvent(c.var.db, delivery.event, siteUrl());
  if (outcome === 'deferred') return apiError(c, 409, NOT_YET_KNOWN_MESSAGE);
  return c.json({ received: true, outcome });
});
