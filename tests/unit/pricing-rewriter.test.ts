import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, answerText, NETWORK_ERROR_MESSAGE } from '../../src/lib/http.ts';
import { PRICE_PLANS_ERROR_MESSAGE, SUPPORT_EMAIL } from '../../src/lib/messages.ts';
import { SITE_NAME } from '../../src/lib/routes.ts';
import {
  $pricing,
  clearPrices,
  DEFAULT_PRICING,
  loadPricePlans,
  selectPlan,
  selectPricing,
  setBillingDetails,
  setCouponCode,
  type PricePlan,
  type PricePlansAnswer,
  type PricePlansRequest,
} from '../../src/lib/stores/pricing.ts';
import {
  $rewriter,
  clearRewriter,
  REWRITER_FAILED_MESSAGE,
  rewriterFailed,
  rewriterLoading,
  rewriterSucceeded,
} from '../../src/lib/stores/rewriter.ts';

const INITIAL_PRICING = $pricing.get();

const STARTER: PricePlan = {
  code: 'starter-monthly',
  name: 'Starter',
  planType: 'personal',
  billingInterval: 'month',
  priceCents: 2200,
  discountedPriceCents: null,
  currency: 'usd',
  callsPerMinute: 300,
  callsPerDay: null,
  features: ['US coverage', '5 years of history'],
  sortOrder: 1,
};

const BUSINESS: PricePlan = {
  code: 'business-yearly',
  name: 'Business',
  planType: 'commercial',
  billingInterval: 'year',
  priceCents: 99900,
  discountedPriceCents: 79920,
  currency: 'usd',
  callsPerMinute: null,
  callsPerDay: null,
  features: ['Global coverage'],
  sortOrder: 2,
};

/**
 * Stands in for the portal call (the HTTP client itself is exercised end to end against the real
 * server): every call gets the given answer, and the calls are recorded.
 */
function answering(answer: unknown) {
  return vi.fn<PricePlansRequest>(() => Promise.resolve(answer));
}

/** A portal call refused with the status and body, as the HTTP client reports it (0: unreachable). */
function refusing(status: number, data: unknown) {
  return vi.fn<PricePlansRequest>(() =>
    Promise.reject(new ApiError(status, answerText(data) ?? NETWORK_ERROR_MESSAGE, data)),
  );
}

function plansAnswer(overrides: Partial<PricePlansAnswer> = {}): PricePlansAnswer {
  return { plans: [STARTER, BUSINESS], couponCode: '', couponCodeError: '', ...overrides };
}

beforeEach(() => {
  $pricing.set({ ...INITIAL_PRICING });
  clearRewriter();
});

describe('pricing state', () => {
  it('starts with the SPEC §3 fields and defaults, monthlyT2 selected', () => {
    expect(DEFAULT_PRICING).toBe('monthlyT2');
    expect($pricing.get()).toStrictEqual({
      selectedPlanCode: '',
      selectedProductID: '',
      selectedCouponCode: '',
      selectedPricing: 'monthlyT2',
      billingAddress: null,
      billingName: '',
      activeSubscription: null,
      otherActiveSubscriptions: [],
      legacy: false,
      plans: [],
      errorMessage: '',
      currentPlan: null,
    });
  });

  it('points people at the support address built from the brand name', () => {
    expect(SUPPORT_EMAIL).toBe('support@tickerlake.com');
    expect(SUPPORT_EMAIL).toBe(`support@${SITE_NAME.toLowerCase()}.com`);
    expect(PRICE_PLANS_ERROR_MESSAGE).toBe(
      'Something went wrong, please contact support@tickerlake.com for more details.',
    );
  });

  it('selects a plan together with its product', () => {
    selectPlan('business-yearly', 'prod_42');
    expect($pricing.get()).toMatchObject({
      selectedPlanCode: 'business-yearly',
      selectedProductID: 'prod_42',
    });
  });

  it('forgets the previous product when a plan is selected without one', () => {
    selectPlan('business-yearly', 'prod_42');
    selectPlan('starter-monthly');
    expect($pricing.get()).toMatchObject({ selectedPlanCode: 'starter-monthly', selectedProductID: '' });
  });

  it('switches the pricing option', () => {
    selectPricing('annualT1');
    expect($pricing.get().selectedPricing).toBe('annualT1');
  });

  it('keeps a typed coupon without the spaces around it', () => {
    setCouponCode('  SPRING20 ');
    expect($pricing.get().selectedCouponCode).toBe('SPRING20');
  });

  it('saves the billing name and address separately without losing the other', () => {
    const address = {
      line1: '1 Main St',
      line2: '',
      city: 'Springfield',
      state: 'IL',
      postalCode: '62701',
      country: 'US',
    };
    setBillingDetails({ billingName: 'Ada Lovelace' });
    setBillingDetails({ billingAddress: address });
    expect($pricing.get()).toMatchObject({ billingName: 'Ada Lovelace', billingAddress: address });
    setBillingDetails({ billingAddress: null });
    expect($pricing.get()).toMatchObject({ billingName: 'Ada Lovelace', billingAddress: null });
  });

  it('copies the billing address so later edits to the form object do not leak into the store', () => {
    const address = { line1: 'a', line2: '', city: 'b', state: '', postalCode: 'c', country: 'DE' };
    setBillingDetails({ billingAddress: address });
    address.city = 'changed';
    expect($pricing.get().billingAddress?.city).toBe('b');
  });

  it('clears plan, product and coupon and returns to monthlyT2 when prices are cleared, keeping the plans', () => {
    $pricing.setKey('plans', [STARTER, BUSINESS]);
    selectPlan('business-yearly', 'prod_42');
    setCouponCode('SPRING20');
    selectPricing('annualT1');
    setBillingDetails({ billingName: 'Ada Lovelace' });

    clearPrices();

    expect($pricing.get()).toMatchObject({
      selectedPlanCode: '',
      selectedProductID: '',
      selectedCouponCode: '',
      selectedPricing: 'monthlyT2',
      plans: [STARTER, BUSINESS],
      billingName: 'Ada Lovelace',
    });
  });
});

describe('loading price plans', () => {
  it('asks the portal without a coupon and stores the plans', async () => {
    const request = answering(plansAnswer());
    await loadPricePlans(undefined, request);

    expect(request).toHaveBeenCalledExactlyOnceWith({});
    expect($pricing.get()).toMatchObject({ plans: [STARTER, BUSINESS], errorMessage: '' });
  });

  it('sends the coupon in the query and keeps the coupon the server accepted', async () => {
    const request = answering(plansAnswer({ couponCode: 'SPRING20' }));
    await loadPricePlans(' spring 20 ', request);

    expect(request).toHaveBeenCalledExactlyOnceWith({ couponCode: 'spring 20' });
    expect($pricing.get().selectedCouponCode).toBe('SPRING20');
  });

  it('shows why a coupon was refused and drops that coupon while still listing the plans', async () => {
    setCouponCode('OLD10');
    await loadPricePlans(
      'OLD10',
      answering(plansAnswer({ couponCode: '', couponCodeError: 'Coupon code OLD10 has expired.' })),
    );

    expect($pricing.get()).toMatchObject({
      plans: [STARTER, BUSINESS],
      selectedCouponCode: '',
      errorMessage: 'Coupon code OLD10 has expired.',
    });
  });

  it('clears an earlier error once the plans load', async () => {
    $pricing.setKey('errorMessage', 'Coupon code OLD10 has expired.');
    await loadPricePlans('', answering(plansAnswer()));
    expect($pricing.get().errorMessage).toBe('');
  });

  it('shows the text the server answered a failure with', async () => {
    await loadPricePlans(undefined, refusing(503, 'Pricing is down for maintenance.'));
    expect($pricing.get().errorMessage).toBe('Pricing is down for maintenance.');
  });

  it('shows the error field of a JSON failure', async () => {
    await loadPricePlans(undefined, refusing(429, { error: 'Too many requests. Please slow down.' }));
    expect($pricing.get().errorMessage).toBe('Too many requests. Please slow down.');
  });

  it('falls back to the support message when a failure has no body', async () => {
    await loadPricePlans(undefined, refusing(500, undefined));
    expect($pricing.get().errorMessage).toBe(
      'Something went wrong, please contact support@tickerlake.com for more details.',
    );
  });

  it('falls back to the support message when a JSON failure has no error field', async () => {
    await loadPricePlans(undefined, refusing(400, { issues: [] }));
    expect($pricing.get().errorMessage).toBe(PRICE_PLANS_ERROR_MESSAGE);
  });

  it('does not show a proxy error page as the message', async () => {
    await loadPricePlans(undefined, refusing(502, '<html><body>502 Bad Gateway</body></html>'));
    expect($pricing.get().errorMessage).toBe(PRICE_PLANS_ERROR_MESSAGE);
  });

  it('falls back to the support message when the server cannot be reached, keeping the plans shown', async () => {
    $pricing.setKey('plans', [STARTER]);
    await loadPricePlans(undefined, refusing(0, undefined));
    expect($pricing.get()).toMatchObject({ plans: [STARTER], errorMessage: PRICE_PLANS_ERROR_MESSAGE });
  });

  it('falls back to the support message when a success is not a price-plans answer', async () => {
    await loadPricePlans(undefined, answering({ unexpected: true }));
    expect($pricing.get()).toMatchObject({ plans: [], errorMessage: PRICE_PLANS_ERROR_MESSAGE });
  });

  it('lets only the newest request write, so a slow older answer cannot overwrite it', async () => {
    let answerOlder: (answer: unknown) => void = () => undefined;
    const older = new Promise<unknown>((resolve) => {
      answerOlder = resolve;
    });
    const request = vi
      .fn<PricePlansRequest>()
      .mockImplementationOnce(() => older)
      .mockImplementationOnce(() => Promise.resolve(plansAnswer({ couponCode: 'NEW' })));

    const first = loadPricePlans('OLD', request);
    await loadPricePlans('NEW', request);
    answerOlder(plansAnswer({ plans: [STARTER], couponCode: 'OLD' }));
    await first;

    expect($pricing.get()).toMatchObject({ plans: [STARTER, BUSINESS], selectedCouponCode: 'NEW' });
  });
});

describe('rewriter state', () => {
  it('starts with the SPEC §3 fields at their defaults', () => {
    expect($rewriter.get()).toStrictEqual({
      usedTokens: 0,
      maxTokens: 0,
      totalCost: 0,
      rewriterOpen: false,
      autoDDFields: {},
      contentGrid: [],
      useContentGrid: false,
      contentLoading: false,
      errorObj: null,
      errorMessage: '',
    });
  });

  it('opens and shows loading when a rewrite starts, hiding an earlier failure', () => {
    rewriterFailed(new Error('Quota exceeded.'));
    rewriterLoading();
    expect($rewriter.get()).toMatchObject({
      rewriterOpen: true,
      contentLoading: true,
      errorObj: null,
      errorMessage: '',
    });
  });

  it('stores the content, cost and token counts when a rewrite succeeds, and stops loading', () => {
    rewriterLoading();
    rewriterSucceeded({
      content: ['First passage', 'Second passage'],
      cost: 0.12,
      usedTokens: 800,
      maxTokens: 10_000,
    });
    expect($rewriter.get()).toMatchObject({
      rewriterOpen: true,
      contentLoading: false,
      contentGrid: ['First passage', 'Second passage'],
      totalCost: 0.12,
      usedTokens: 800,
      maxTokens: 10_000,
    });
  });

  it('adds each rewrite’s cost to the total, replaces the content and keeps the quota when none is sent', () => {
    rewriterSucceeded({ content: ['One'], cost: 0.25, usedTokens: 500, maxTokens: 10_000 });
    rewriterSucceeded({ content: ['Two'], cost: 0.5, usedTokens: 1200 });
    expect($rewriter.get()).toMatchObject({
      contentGrid: ['Two'],
      totalCost: 0.75,
      usedTokens: 1200,
      maxTokens: 10_000,
    });
  });

  it('closes and keeps the message when a rewrite fails', () => {
    rewriterLoading();
    const error = new Error('Quota exceeded.');
    rewriterFailed(error);
    expect($rewriter.get()).toMatchObject({
      rewriterOpen: false,
      contentLoading: false,
      errorObj: error,
      errorMessage: 'Quota exceeded.',
    });
  });

  it('takes the message from a server error body and keeps it as an Error', () => {
    const body = { error: 'The text is too long to rewrite.' };
    rewriterFailed(body);
    const { errorObj, errorMessage } = $rewriter.get();
    expect(errorMessage).toBe('The text is too long to rewrite.');
    expect(errorObj).toBeInstanceOf(Error);
    expect(errorObj?.message).toBe('The text is too long to rewrite.');
    expect(errorObj?.cause).toBe(body);
  });

  it('falls back to a general message when a failure says nothing', () => {
    rewriterFailed(new Error(''));
    expect($rewriter.get().errorMessage).toBe(REWRITER_FAILED_MESSAGE);
    rewriterFailed(undefined);
    expect($rewriter.get().errorMessage).toBe(REWRITER_FAILED_MESSAGE);
  });

  it('resets everything, the running cost included, when cleared', () => {
    rewriterLoading();
    rewriterSucceeded({ content: ['One'], cost: 0.25, usedTokens: 500, maxTokens: 10_000 });
    $rewriter.set({ ...$rewriter.get(), useContentGrid: true, autoDDFields: { title: 'Better title' } });
    rewriterFailed('Quota exceeded.');

    clearRewriter();

    expect($rewriter.get()).toStrictEqual({
      usedTokens: 0,
      maxTokens: 0,
      totalCost: 0,
      rewriterOpen: false,
      autoDDFields: {},
      contentGrid: [],
      useContentGrid: false,
      contentLoading: false,
      errorObj: null,
      errorMessage: '',
    });
  });
});
