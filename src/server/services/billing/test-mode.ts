import { createHash, randomBytes } from 'node:crypto';

// The test-mode provider: the site serves its hosted page, the card number decides the outcome as
// Stripe's test cards do, and what happened is sent to the site's webhook as signed events, the same
// path a real provider's events take. No card is ever charged and no card number is stored.

/** Where the test-mode provider's hosted pages live on the site. */
export const TEST_CHECKOUT_PATH = '/billing/checkout';

/**
 * What the card number decides. A card that pays may still decline its renewals (`renewals:
 * 'decline'`): the behaviour of the card on file, kept with the provider's subscription.
 */
export type CardOutcome =
  | { kind: 'success'; renewals?: 'decline' }
  | { kind: 'authenticate' }
  | { kind: 'declined'; code: string; message: string };

/** The provider's messages, in Stripe's words, so the page reads as a real checkout would. */
export const CARD_DECLINED_MESSAGE = 'Your card was declined.';
/** Stripe's words for a card without the money. */
export const INSUFFICIENT_FUNDS_MESSAGE = 'Your card has insufficient funds.';
/** Stripe's words for an expired card. */
export const EXPIRED_CARD_MESSAGE = 'Your card has expired.';
/** A number that fails the Luhn check: a typing mistake, not a decline. */
export const INVALID_NUMBER_MESSAGE = 'Your card number is invalid.';
/** Stripe's words when the extra confirmation fails. */
export const AUTHENTICATION_FAILED_MESSAGE =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';
/** A real card on the test-mode page: declined, and told which cards work. */
export const LIVE_CARD_MESSAGE =
  'Your card was declined. This checkout is in test mode, but used a non-test card. Use one of the test cards.';

/**
 * Stripe's test cards this provider knows (digits only). 4000 0000 0000 0341 deviates from Stripe on
 * purpose: Stripe refuses to attach it, so every charge fails; here it pays the checkout (and plan
 * changes) and declines every renewal, which is what a failed renewal needs to be tried by hand.
 */
export const TEST_CARDS: Readonly<Record<string, CardOutcome>> = {
  '4242424242424242': { kind: 'success' },
  '4000000000000341': { kind: 'success', renewals: 'decline' },
  '4000000000000002': { kind: 'declined', code: 'card_declined', message: CARD_DECLINED_MESSAGE },
  '4000000000009995': { kind: 'declined', code: 'insufficient_funds', message: INSUFFICIENT_FUNDS_MESSAGE },
  '4000000000000069': { kind: 'declined', code: 'expired_card', message: EXPIRED_CARD_MESSAGE },
  '4000002500003155': { kind: 'authenticate' },
};

/** The card number's digits, without the spaces and dashes people type. */
export function cardDigits(number: string): string {
  return number.replace(/[\s-]/g, '');
}

/** The Luhn check every real card number passes, so a mistyped number is told apart from a decline. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** What paying with `number` does: a test card's outcome, an invalid number, or a decline of any other card. */
export function cardOutcome(number: string): CardOutcome {
  const digits = cardDigits(number);
  const known = TEST_CARDS[digits];
  if (known !== undefined) return known;
  if (!luhnValid(digits))
    return { kind: 'declined', code: 'invalid_number', message: INVALID_NUMBER_MESSAGE };
  return { kind: 'declined', code: 'live_card', message: LIVE_CARD_MESSAGE };
}

/** The month and year of an expiry typed as MM / YY (or MM / YYYY), or undefined. */
export function parseExpiry(value: string): { month: number; year: number } | undefined {
  const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(value.trim());
  if (!match) return undefined;
  const month = Number(match[1]);
  const year = Number(match[2]) + ((match[2] ?? '').length === 2 ? 2000 : 0);
  return month >= 1 && month <= 12 ? { month, year } : undefined;
}

/** Whether a card with this expiry still works this month (an unreadable expiry is left to the format check). */
export function expiryInFuture(value: string, now: Date): boolean {
  const expiry = parseExpiry(value);
  if (!expiry) return true; // reported by the format check
  return expiry.year * 12 + expiry.month >= now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

/** A provider-style id: a prefix and 24 random hexadecimal digits. */
export function testId(prefix: 'cs' | 'sub' | 'cus' | 'evt' | 'in'): string {
  return `${prefix}_test_${randomBytes(12).toString('hex')}`;
}

/**
 * A provider-style id that is the same every time for the same parts: a renewal sent again after a
 * failed delivery carries the same event and invoice ids, which the webhook recognises.
 */
export function stableTestId(prefix: 'evt' | 'in', ...parts: string[]): string {
  return `${prefix}_test_${createHash('sha256').update(parts.join('|')).digest('hex').slice(0, 24)}`;
}

/** The end of a billing period that starts at `start`: a calendar month or year later. */
export function periodEnd(start: Date, interval: 'month' | 'year'): Date {
  const end = new Date(start);
  if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}
