import { describe, expect, it } from 'vitest';
import {
  couponBody,
  discountText,
  EMPTY_DRAFT,
  endOfLocalDay,
  plansText,
  usesText,
} from '../../src/lib/stores/admin-coupons.ts';

const PLANS = [
  { code: 'monthlyT2', name: 'Professional' },
  { code: 'annualT2', name: 'Professional (annual)' },
];

describe('the coupons page’s words', () => {
  it('says what a coupon takes off: a percent, or an amount in dollars', () => {
    expect(discountText({ percentOff: 20, amountOffCents: null })).toBe('20% off');
    expect(discountText({ percentOff: null, amountOffCents: 550 })).toBe('$5.50 off');
  });

  it('names the plans a coupon applies to, and every paid plan when it names none', () => {
    expect(plansText(['monthlyT2', 'annualT2'], PLANS)).toBe('Professional, Professional (annual)');
    expect(plansText([], PLANS)).toBe('Every paid plan');
    expect(plansText(['retiredT9'], PLANS)).toBe('retiredT9');
  });

  it('counts uses against the maximum, or against no limit', () => {
    expect(usesText({ uses: 3, maxUses: 100 })).toBe('3 / 100');
    expect(usesText({ uses: 3, maxUses: null })).toBe('3 / no limit');
  });
});

describe('the create form’s body', () => {
  it('sends a percent off as a number, the plans ticked, no end and no limit when left empty', () => {
    const body = couponBody(
      { ...EMPTY_DRAFT, code: 'spring20', discount: ' 20 ', planCodes: ['monthlyT2'] },
      'Newsletter',
    );
    expect(body).toEqual({
      code: 'spring20',
      percentOff: 20,
      planCodes: ['monthlyT2'],
      expiresAt: null,
      maxUses: null,
      reason: 'Newsletter',
    });
  });

  it('sends dollars and cents typed as whole cents, and the maximum of uses as a number', () => {
    const body = couponBody({ ...EMPTY_DRAFT, kind: 'amount', discount: '$5.50', maxUses: '25' }, 'Partner');
    expect(body).toMatchObject({ amountOffCents: 550, maxUses: 25 });
    expect(body).not.toHaveProperty('percentOff');
  });

  it('sends what is not a number as typed, so the server’s refusal names the field', () => {
    const body = couponBody({ ...EMPTY_DRAFT, kind: 'amount', discount: 'five', maxUses: 'lots' }, '');
    expect(body).toMatchObject({ amountOffCents: 'five', maxUses: 'lots' });
    expect(couponBody({ ...EMPTY_DRAFT, discount: '' }, '')).not.toHaveProperty('percentOff');
  });

  it('ends a coupon with the last moment of the chosen day in the administrator’s time zone', () => {
    const end = endOfLocalDay('2031-06-30');
    expect(end).not.toBeNull();
    const local = new Date(end ?? '');
    expect([local.getFullYear(), local.getMonth(), local.getDate()]).toEqual([2031, 5, 30]);
    expect([local.getHours(), local.getMinutes(), local.getSeconds()]).toEqual([23, 59, 59]);
    expect(endOfLocalDay('30/06/2031')).toBeNull();
    expect(couponBody({ ...EMPTY_DRAFT, lastDay: '2031-06-30' }, '').expiresAt).toBe(end);
  });
});
