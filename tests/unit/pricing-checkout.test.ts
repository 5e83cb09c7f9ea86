import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/http.ts';
import { PRICE_PLANS_ERROR_MESSAGE } from '../../src/lib/messages.ts';
import {
  $checkoutPending,
  $pricing,
  clearPrices,
  setCouponCode,
  startCheckout,
  type CheckoutRequest,
} from '../../src/lib/stores/pricing.ts';

describe('choosing a plan on the pricing page', () => {
  beforeEach(() => {
    clearPrices();
    $pricing.setKey('errorMessage', '');
  });

  it('opens the checkout of the plan with the accepted coupon and goes to the payment page', async () => {
    setCouponCode('SPRING20');
    const asked: unknown[] = [];
    const went: string[] = [];
    const request: CheckoutRequest = (body) => {
      asked.push(body);
      return Promise.resolve({ url: '/billing/checkout/abc' });
    };
    await startCheckout('monthlyT2', request, (url) => went.push(url));
    expect(asked).toEqual([{ planCode: 'monthlyT2', couponCode: 'SPRING20' }]);
    expect(went).toEqual(['/billing/checkout/abc']);
    expect($pricing.get().selectedPlanCode).toBe('');
    expect($checkoutPending.get()).toBe(false);
  });

  it('stays on the page with the server’s own words when the checkout is refused', async () => {
    const went: string[] = [];
    const request: CheckoutRequest = () =>
      Promise.reject(new ApiError(400, 'Bad Request', { error: 'The plan free needs no checkout.' }));
    await startCheckout('free', request, (url) => went.push(url));
    expect(went).toEqual([]);
    expect($pricing.get().errorMessage).toBe('The plan free needs no checkout.');
  });

  it('says SPEC’s support message when the server cannot be reached', async () => {
    const request: CheckoutRequest = () => Promise.reject(new ApiError(0, 'Network error', undefined));
    await startCheckout('monthlyT2', request, () => undefined);
    expect($pricing.get().errorMessage).toBe(PRICE_PLANS_ERROR_MESSAGE);
  });

  it('starts one checkout at a time however often the button is pressed', async () => {
    let calls = 0;
    let answer: (value: unknown) => void = () => undefined;
    const request: CheckoutRequest = () => {
      calls += 1;
      return new Promise((resolve) => {
        answer = resolve;
      });
    };
    const first = startCheckout('monthlyT2', request, () => undefined);
    await startCheckout('monthlyT2', request, () => undefined);
    answer({ url: '/billing/checkout/abc' });
    await first;
    expect(calls).toBe(1);
  });
});
