import { describe, expect, it } from 'vitest';
import { signatureMatches, signPayload } from '../../src/server/services/billing/provider.ts';
import {
  cardOutcome,
  INVALID_NUMBER_MESSAGE,
  LIVE_CARD_MESSAGE,
  luhnValid,
  parseExpiry,
  periodEnd,
} from '../../src/server/services/billing/test-mode.ts';

const NOW = new Date('2026-11-26T12:00:00Z');

describe('the test-mode provider', () => {
  it('decides by Stripe test card, ignoring spaces and dashes', () => {
    expect(cardOutcome('4242 4242 4242 4242')).toEqual({ kind: 'success' });
    expect(cardOutcome('4000-0025-0000-3155')).toEqual({ kind: 'authenticate' });
    expect(cardOutcome('4000000000009995')).toMatchObject({ kind: 'declined', code: 'insufficient_funds' });
  });

  it('tells a mistyped number from a real card, which test mode declines', () => {
    expect(cardOutcome('4242 4242 4242 4241')).toMatchObject({ message: INVALID_NUMBER_MESSAGE });
    expect(luhnValid('5555555555554444')).toBe(true);
    expect(cardOutcome('5555 5555 5555 4444')).toMatchObject({ message: LIVE_CARD_MESSAGE });
  });

  it('ends a monthly period a calendar month later and a yearly one a year later', () => {
    expect(periodEnd(NOW, 'month').toISOString()).toBe('2026-12-26T12:00:00.000Z');
    expect(periodEnd(NOW, 'year').toISOString()).toBe('2027-11-26T12:00:00.000Z');
  });

  it('reads an expiry as MM / YY or MM/YYYY and refuses a thirteenth month', () => {
    expect(parseExpiry('12 / 34')).toEqual({ month: 12, year: 2034 });
    expect(parseExpiry('3/2030')).toEqual({ month: 3, year: 2030 });
    expect(parseExpiry('13 / 30')).toBeUndefined();
    expect(parseExpiry('1230')).toBeUndefined();
  });
});

describe('webhook signatures', () => {
  const body = '{"id":"evt_test_1"}';

  it('accepts the signature of the same body and secret made within five minutes', () => {
    const header = signPayload('secret', body, NOW);
    expect(signatureMatches('secret', body, header, new Date(NOW.getTime() + 299_000))).toBe(true);
  });

  it('refuses another secret, another body, an old signature and a garbled header', () => {
    const header = signPayload('secret', body, NOW);
    expect(signatureMatches('other', body, header, NOW)).toBe(false);
    expect(signatureMatches('secret', `${body} `, header, NOW)).toBe(false);
    expect(signatureMatches('secret', body, header, new Date(NOW.getTime() + 301_000))).toBe(false);
    expect(signatureMatches('secret', body, 'v1=abc', NOW)).toBe(false);
    expect(signatureMatches('secret', body, undefined, NOW)).toBe(false);
  });
});
