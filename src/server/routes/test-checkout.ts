import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { ipKey, rateLimit } from '../middleware/rate-limit.ts';
import { jsonBody } from '../middleware/validate.ts';
import { rememberCheckoutBillingDetails } from '../services/billing/billing-profiles.ts';
import type { WebhookTransport } from '../services/billing/provider.ts';
import {
  awaitAuthentication,
  CHECKOUT_SUCCESS_PATH,
  checkoutView,
  type CheckoutView,
  findCheckout,
  markCheckoutPaid,
  reopenCheckout,
} from '../services/billing/subscriptions.ts';
import {
  AUTHENTICATION_FAILED_MESSAGE,
  cardDigits,
  cardOutcome,
  expiryInFuture,
  parseExpiry,
} from '../services/billing/test-mode.ts';
import { startTestSubscription } from '../services/billing/test-mode-provider.ts';
import { couponUsedUp } from '../services/coupons.ts';
import { usedUpMessage } from '../services/price-plans.ts';
import type { CheckoutSession, TestCardRenewals } from '../db/schema.ts';

export type { WebhookTransport };

/** The card form's refusals, in the words the page shows beside the field or above the button. */
export const EXPIRY_FORMAT_MESSAGE = 'Enter the expiry date as MM / YY.';
export const EXPIRY_PAST_MESSAGE = "Your card's expiration date is in the past.";
export const CHECKOUT_GONE_MESSAGE = 'This checkout has expired. Start again from the pricing page.';
export const CHECKOUT_PAID_MESSAGE = 'This checkout has already been paid.';
export const NO_AUTHENTICATION_MESSAGE = 'This payment is not waiting for authentication.';

/** A checkout whose coupon was used up by other checkouts after it opened: nothing is charged. */
export function couponGoneMessage(code: string): string {
  return `${usedUpMessage(code)} Nothing was charged; start again from the pricing page.`;
}

const required = (label: string, max: number): z.ZodString =>
  z.string().trim().min(1, `Enter ${label}.`).max(max, `${label} is too long.`);

const payBody = z.strictObject({
  cardNumber: z
    .string()
    .trim()
    .min(1, 'Enter the card number.')
    .max(30)
    .regex(/^[\d\s-]+$/, 'The card number has only digits.'),
  expiry: z
    .string()
    .refine((value) => parseExpiry(value) !== undefined, EXPIRY_FORMAT_MESSAGE)
    .refine((value) => expiryInFuture(value, new Date()), EXPIRY_PAST_MESSAGE),
  cvc: z
    .string()
    .trim()
    .regex(/^\d{3,4}$/, 'The security code is 3 or 4 digits.'),
  name: required('the name on the card', 100),
  addressLine1: required('the billing address', 200),
  city: required('the city', 100),
  postalCode: required('the postal code', 20),
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'Choose the country.'),
});

const authenticateBody = z.strictObject({ outcome: z.enum(['complete', 'fail']) });

/** Payment attempts one client address may make per window: enough to try every test card, not to guess cards. */
const payLimit = rateLimit({
  name: 'test-checkout-pay',
  limit: 30,
  windowMs: 10 * 60_000,
  key: ipKey,
});

/** A paid checkout's answer: where the page sends the buyer. */
interface Paid {
  status: 'succeeded';
  redirectUrl: string;
}

/** A checkout that can be paid now: what its page shows and the stored row, read once per request. */
interface Payable {
  view: CheckoutView;
  checkout: CheckoutSession;
}

/** Charges the checkout (once) and has the provider report it to the site's webhook. */
async function completePayment(
  c: Context<AccountsEnv>,
  { view, checkout }: Payable,
  card: { last4: string; renewals: TestCardRenewals },
  deliver: WebhookTransport,
): Promise<Response> {
  const db = c.var.db;
  if (!(await markCheckoutPaid(db, checkout.id, card.last4))) return apiError(c, 409, CHECKOUT_PAID_MESSAGE);
  await startTestSubscription({ db, deliver }, checkout, {
    plan: { name: view.planName, priceCents: view.priceCents, billingInterval: view.billingInterval },
    cardLast4: card.last4,
    cardRenewals: card.renewals,
    now: new Date(),
  });
  const answer: Paid = { status: 'succeeded', redirectUrl: CHECKOUT_SUCCESS_PATH };
  return c.json(answer);
}

/** The checkout when it can be paid now, else the refusal (unknown or another provider's, paid, expired). */
async function payable(c: Context<AccountsEnv>, id: string): Promise<Payable | Response> {
  const [view, checkout] = await Promise.all([checkoutView(c.var.db, id), findCheckout(c.var.db, id)]);
  if (view?.provider !== 'test' || !checkout) return apiError(c, 404, 'No such checkout.');
  if (view.status === 'complete') return apiError(c, 409, CHECKOUT_PAID_MESSAGE);
  if (view.expired) return apiError(c, 410, CHECKOUT_GONE_MESSAGE);
  // The coupon's last use went to another checkout since this one opened: its price no longer holds.
  if (checkout.couponCode !== null && (await couponUsedUp(c.var.db, checkout.couponCode))) {
    return apiError(c, 409, couponGoneMessage(checkout.couponCode));
  }
  return { view, checkout };
}

/**
 * The test-mode provider's payment calls behind its hosted page, mounted at /api/billing. The page's
 * address is the credential (like a hosted checkout link); the card number decides the outcome, a
 * decline charges nothing and answers 402 with the provider's message, and a paid checkout is
 * reported to the site's webhook through `deliver`. The name and address of an accepted card become
 * the account's billing details when it has none yet (the card number is never kept). The return
 * type is inferred: a chain of route calls is typed as Hono's base class, which keeps the routes'
 * types.
 */
export function testCheckoutRoutes(deliver: WebhookTransport) {
  return new Hono<AccountsEnv>()
    .post('/test-checkout/:id/pay', payLimit, jsonBody(payBody), async (c) => {
      const found = await payable(c, c.req.param('id') ?? '');
      if (found instanceof Response) return found;
      const { cardNumber, name, addressLine1, city, postalCode, country } = c.req.valid('json');
      const last4 = cardDigits(cardNumber).slice(-4);
      const outcome = cardOutcome(cardNumber);
      if (outcome.kind === 'declined') {
        return c.json({ error: outcome.message, code: outcome.code, field: 'cardNumber' }, 402);
      }
      await rememberCheckoutBillingDetails(c.var.db, found.checkout.userId, {
        name,
        address: { line1: addressLine1, line2: '', city, postalCode, country: country.toUpperCase() },
      });
      if (outcome.kind === 'authenticate') {
        await awaitAuthentication(c.var.db, found.checkout.id, last4);
        return c.json({ status: 'requires_action' });
      }
      return completePayment(c, found, { last4, renewals: outcome.renewals ?? 'pay' }, deliver);
    })
    .post('/test-checkout/:id/authenticate', payLimit, jsonBody(authenticateBody), async (c) => {
      const found = await payable(c, c.req.param('id') ?? '');
      if (found instanceof Response) return found;
      const { checkout } = found;
      if (checkout.status !== 'requires_action' || checkout.cardLast4 === null) {
        return apiError(c, 409, NO_AUTHENTICATION_MESSAGE);
      }
      if (c.req.valid('json').outcome === 'fail') {
        await reopenCheckout(c.var.db, checkout.id);
        return c.json({ error: AUTHENTICATION_FAILED_MESSAGE, code: 'authentication_failed' }, 402);
      }
      return completePayment(c, found, { last4: checkout.cardLast4, renewals: 'pay' }, deliver);
    });
}
