import { describe, expect, it } from 'vitest';
import { billingRenewalIntervalMs } from '../../src/server/app/config.ts';
import { changeTiming } from '../../src/server/services/billing/plan-changes.ts';
import { signatureMatches, signPayload } from '../../src/server/services/billing/provider.ts';
import { applyBalance, prorate } from '../../src/server/services/billing/test-mode-provider.ts';
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

  it('lets 0341 pay the checkout and keeps that its renewals are declined', () => {
    expect(cardOutcome('4000 0000 0000 0341')).toEqual({ kind: 'success', renewals: 'decline' });
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

const PROFESSIONAL = { name: 'Professional', priceCents: 3900, billingInterval: 'month' as const };
const POWER = { name: 'Power', priceCents: 7900, billingInterval: 'month' as const };
const POWER_ANNUAL = { name: 'Power (annual)', priceCents: 79000, billingInterval: 'year' as const };
const PROFESSIONAL_ANNUAL = {
  name: 'Professional (annual)',
  priceCents: 39000,
  billingInterval: 'year' as const,
};
const NOVEMBER = { start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') };

describe('proration of an upgrade', () => {
  it('credits the unused time of the old plan and charges the rest of the period on the new one', () => {
    // 10 of the 30 days left: 3900 / 3 = 1300 credited, 7900 / 3 = 2633.33 charged.
    const {
      lines,
      periodStart,
      periodEnd: end,
    } = prorate(PROFESSIONAL, POWER, NOVEMBER, new Date('2026-11-21T00:00:00Z'));
    expect(lines).toEqual([
      { description: 'Unused time on Professional after Nov 21, 2026', amountCents: -1300 },
      { description: 'Remaining time on Power after Nov 21, 2026', amountCents: 2633 },
    ]);
    expect([periodStart, end]).toEqual([NOVEMBER.start, NOVEMBER.end]);
  });

  it('counts the whole seconds left and rounds each line to cents', () => {
    // 836,985 of 2,592,000 seconds left: 3900 × 0.32291 = 1259.35, 7900 × 0.32291 = 2551.00.
    const { lines } = prorate(PROFESSIONAL, POWER, NOVEMBER, new Date('2026-11-21T07:30:15.600Z'));
    expect(lines.map((line) => line.amountCents)).toEqual([-1259, 2551]);
  });

  it('restarts the period on an interval change and charges the whole new price less the credit', () => {
    const now = new Date('2026-11-21T00:00:00Z');
    const { lines, periodStart, periodEnd: end } = prorate(PROFESSIONAL, POWER_ANNUAL, NOVEMBER, now);
    expect(lines).toEqual([
      { description: 'Unused time on Professional after Nov 21, 2026', amountCents: -1300 },
      { description: 'Power (annual), Nov 21, 2026 to Nov 21, 2027', amountCents: 79000 },
    ]);
    expect(periodStart).toEqual(now);
    expect(end.toISOString()).toBe('2027-11-21T00:00:00.000Z');
  });

  it('keeps a credit larger than the charge for later invoices, and takes it off the next charge', () => {
    const kept = applyBalance(
      [
        { description: 'Unused', amountCents: -5000 },
        { description: 'New', amountCents: 3900 },
      ],
      0,
    );
    expect(kept.lines.at(-1)).toEqual({
      description: 'Credit kept for your next invoices',
      amountCents: 1100,
    });
    expect(kept.balanceCents).toBe(1100);
    const used = applyBalance([{ description: 'Renewal', amountCents: 3900 }], 1100);
    expect(used.lines.at(-1)).toEqual({ description: 'Applied balance', amountCents: -1100 });
    expect(used.balanceCents).toBe(0);
    expect(applyBalance([{ description: 'Renewal', amountCents: 3900 }], 0).lines).toHaveLength(1);
  });
});

describe('when a plan change applies', () => {
  it('upgrades at once to a plan costing more per day, and waits for the period end otherwise', () => {
    expect(changeTiming(PROFESSIONAL, POWER)).toBe('now');
    expect(changeTiming(POWER, PROFESSIONAL)).toBe('period_end');
    expect(changeTiming(PROFESSIONAL, POWER_ANNUAL)).toBe('now');
    // Annual billing costs less per day than monthly: moving to it waits for the paid month to end.
    expect(changeTiming(PROFESSIONAL, PROFESSIONAL_ANNUAL)).toBe('period_end');
    expect(changeTiming(PROFESSIONAL_ANNUAL, PROFESSIONAL)).toBe('now');
  });

  it('renews once a minute by default and as often as BILLING_RENEWAL_INTERVAL_MS says, at least every second', () => {
    expect(billingRenewalIntervalMs({})).toBe(60_000);
    expect(billingRenewalIntervalMs({ BILLING_RENEWAL_INTERVAL_MS: '5000' })).toBe(5_000);
    expect(() => billingRenewalIntervalMs({ BILLING_RENEWAL_INTERVAL_MS: '10' })).toThrow(
      'BILLING_RENEWAL_INTERVAL_MS',
    );
  });
});
