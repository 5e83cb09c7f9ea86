import { Hono } from 'hono';
import { z } from 'zod';
import type { AccountsEnv } from '../app/context.ts';
import { siteUrl } from '../app/config.ts';
import { apiError } from '../app/errors.ts';
import { requireUser, SIGN_IN_REQUIRED_MESSAGE } from '../middleware/caller.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { jsonBody, type JsonInput } from '../middleware/validate.ts';
import { checkCoupon, couponPrice } from '../services/price-plans.ts';
import { INVOICE_NUMBER_PATTERN, invoiceFilename, isCountryCode } from '../../lib/invoices.ts';
import { billingDetailsOf, saveBillingDetails } from '../services/billing/billing-profiles.ts';
import { invoicePdf } from '../services/billing/invoice-pdf.ts';
import { invoicesOf, readableInvoice } from '../services/billing/invoices.ts';
import { SIGNATURE_HEADER } from '../services/billing/provider.ts';
import {
  activePlan,
  applyBillingEvent,
  CHECKOUT_LIFETIME_MS,
  createCheckout,
  subscriptionOf,
} from '../services/billing/subscriptions.ts';
import { paymentProvider, testId } from '../services/billing/test-mode.ts';

/** Checkouts one account may open per window: plenty for changing one's mind, not for flooding. */
export const CHECKOUT_LIMIT = 20;
/** The window CHECKOUT_LIMIT counts in. */
export const CHECKOUT_WINDOW_MS = 10 * 60_000;

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

/**
 * The signed-in account's billing calls, mounted at /api/portal: opening a checkout for a paid plan
 * (priced with the coupon as get-price-plans prices it), reading the current subscription, the
 * account's invoices (list, one invoice, its PDF; an administrator reads any, anyone else gets 404)
 * and the billing name and address for future invoices.
 */
export const portalBillingRoutes = new Hono<AccountsEnv>()
  .post('/billing/checkout', requireUser(), jsonBody(checkoutBody), checkoutLimit, async (c) => {
    const who = c.var.caller;
    if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
    const { planCode, couponCode } = c.req.valid('json');
    const plan = await activePlan(c.var.db, planCode);
    if (!plan) return apiError(c, 400, `planCode: There is no plan ${planCode}.`, { field: 'planCode' });
    if (plan.priceCents === 0) return apiError(c, 400, FREE_PLAN_CHECKOUT_MESSAGE, { field: 'planCode' });
    const now = new Date();
    let amountCents = plan.priceCents;
    let acceptedCoupon: string | null = null;
    const code = (couponCode ?? '').toUpperCase();
    if (code !== '') {
      const check = await checkCoupon(c.var.db, code, now);
      if (!check.ok) return apiError(c, 400, `couponCode: ${check.error}`, { field: 'couponCode' });
      const price = couponPrice(check.coupon, plan);
      if (price === null) {
        return apiError(c, 400, `couponCode: Coupon code ${code} does not apply to ${plan.name}.`, {
          field: 'couponCode',
        });
      }
      amountCents = price;
      acceptedCoupon = check.coupon.code;
    }
    const provider = paymentProvider();
    const checkout = await createCheckout(c.var.db, {
      id: testId('cs'),
      userId: who.userId,
      planCode: plan.code,
      couponCode: acceptedCoupon,
      amountCents,
      currency: plan.currency,
      provider: provider.name,
      expiresAt: new Date(now.getTime() + CHECKOUT_LIFETIME_MS),
    });
    const hosted = await provider.startCheckout(checkout);
    c.header('Cache-Control', 'no-store');
    return c.json({ url: hosted.url });
  })
  .get('/billing/subscription', requireUser(), async (c) => {
    const who = c.var.caller;
    if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
    c.header('Cache-Control', 'no-store');
    return c.json({ subscription: await subscriptionOf(c.var.db, who.userId) });
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
    const number = c.req.param('number');
    c.header('Cache-Control', 'no-store');
    const invoice = INVOICE_NUMBER_PATTERN.test(number)
      ? await readableInvoice(c.var.db, number, who)
      : undefined;
    if (!invoice) return apiError(c, 404, NO_SUCH_INVOICE_MESSAGE);
    return c.json({ invoice });
  })
  .get('/billing/invoices/:number/pdf', requireUser(), async (c) => {
    const who = c.var.caller;
    if (who.kind !== 'user') return apiError(c, 401, SIGN_IN_REQUIRED_MESSAGE);
    const number = c.req.param('number');
    c.header('Cache-Control', 'no-store');
    const invoice = INVOICE_NUMBER_PATTERN.test(number)
      ? await readableInvoice(c.var.db, number, who)
      : undefined;
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

/** The refusal of a delivery whose signature is not the provider's. */
export const BAD_SIGNATURE_MESSAGE = 'The event signature is missing or invalid.';

/**
 * The payment provider's webhook, mounted at /api/billing: a signed event (signature over the raw
 * body) is applied once, in event-time order; anything unsigned is refused with 400.
 */
export const billingWebhookRoutes = new Hono<AccountsEnv>().post('/webhook', async (c) => {
  const raw = await c.req.text();
  const event = paymentProvider().verifyEvent(raw, c.req.header(SIGNATURE_HEADER), new Date());
  if (event === null) return apiError(c, 400, BAD_SIGNATURE_MESSAGE);
  const outcome = await applyBillingEvent(c.var.db, event, siteUrl());
  return c.json({ received: true, outcome });
});
