import Stripe from 'stripe';
import { stripeApiUrl, stripeSecretKey, stripeWebhookSecret } from '../../app/config.ts';
import type { PaymentProvider } from './provider.ts';
import { StripeProvider } from './stripe.ts';
import { type ProviderIo, testModeProvider } from './test-mode-provider.ts';

/** Why Stripe cannot be used: a key without the webhook's signing secret would leave payments unseen. */
export const STRIPE_WEBHOOK_SECRET_MISSING =
  'STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not: set the signing secret of the Stripe webhook endpoint (whsec_…), or unset STRIPE_SECRET_KEY to use the test-mode provider.';

let stripeClient: { key: string; apiUrl: string | undefined; provider: StripeProvider } | undefined;

/** The Stripe provider for the configured key, built once per key (the SDK client pools connections). */
function stripeProvider(key: string): StripeProvider {
  const secret = stripeWebhookSecret();
  if (secret === undefined) throw new Error(STRIPE_WEBHOOK_SECRET_MISSING);
  const apiUrl = stripeApiUrl();
  if (stripeClient?.key !== key || stripeClient.apiUrl !== apiUrl) {
    const url = apiUrl === undefined ? undefined : new URL(apiUrl);
    const client = new Stripe(key, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(url && {
        host: url.hostname,
        port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
        protocol: url.protocol === 'http:' ? 'http' : 'https',
      }),
    });
    stripeClient = { key, apiUrl, provider: new StripeProvider(client, secret) };
  }
  return stripeClient.provider;
}

/**
 * The provider new checkouts go to: Stripe when STRIPE_SECRET_KEY is set, else the test-mode
 * provider. `io` is what the test-mode provider needs to change subscriptions and report them.
 */
export function paymentProvider(io?: ProviderIo): PaymentProvider {
  const key = stripeSecretKey();
  return key === undefined ? testModeProvider(io) : stripeProvider(key);
}

/**
 * The provider that holds an existing subscription or checkout, by the name stored with it: a
 * test-mode subscription stays with the test-mode provider after Stripe is configured.
 */
export function providerNamed(name: string, io?: ProviderIo): PaymentProvider {
  if (name === 'stripe') {
    const key = stripeSecretKey();
    if (key === undefined) throw new Error('A Stripe subscription needs STRIPE_SECRET_KEY to be changed.');
    return stripeProvider(key);
  }
  return testModeProvider(io);
}

/**
 * The provider a webhook delivery claims to come from, by its signature header: Stripe's when it
 * carries Stripe-Signature and Stripe is configured, else the test-mode provider, whose secret
 * only the site knows.
 */
export function providerOfDelivery(headers: (name: string) => string | undefined): PaymentProvider {
  const key = stripeSecretKey();
  if (key !== undefined && headers('Stripe-Signature') !== undefined) return stripeProvider(key);
  return testModeProvider();
}

/**
 * Checks the payment settings when the server starts, so a Stripe key without its webhook secret
 * (or an unreadable STRIPE_API_URL) stops the start with the setting to fix, instead of failing
 * the first buyer's checkout.
 */
export function checkPaymentSettings(): void {
  stripeApiUrl();
  if (stripeSecretKey() !== undefined && stripeWebhookSecret() === undefined) {
    throw new Error(STRIPE_WEBHOOK_SECRET_MISSING);
  }
}
