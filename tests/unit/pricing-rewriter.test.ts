import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PORTAL_URL } from '../../src/lib/endpoints.ts';
import { SITE_NAME } from '../../src/lib/routes.ts';
import {
  $pricing,
  clearPrices,
  DEFAULT_PRICING,
  loadPricePlans,
  PRICE_PLANS_ERROR_MESSAGE,
  selectPlan,
  selectPricing,
  setBillingDetails,
  setCouponCode,
  SUPPORT_EMAIL,
  type PricePlan,
  type PricePlansAnswer,
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

const PLANS_URL = `${PORTAL_URL}/account/get-price-plans`;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Stands in for the network: every call gets the given answer, and the calls are recorded. */
function stubFetch(answer: () => Response | Promise<Response>) {
  return vi.fn<typeof fetch>(() => Promise.resolve(answer()));
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
  it('asks the portal with credentials and stores the plans', async () => {
    const fetcher = stubFetch(() => json(plansAnswer()));
    await loadPricePlans(undefined, fetcher);

    expect(fetcher).toHaveBeenCalledOnce();
    const [url, init] = fetcher.mock.calls[0] ?? [];
    expect(url).toBe(PLANS_URL);
    expect(init).toMatchObject({ method: 'GET', credentials: 'include' });
    expect($pricing.get()).toMatchObject({ plans: [STARTER, BUSINESS], errorMessage: '' });
  });

  it('sends the coupon in the query and keeps the coupon the server accepted', async () => {
    const fetcher = stubFetch(() => json(plansAnswer({ couponCode: 'SPRING20' })));
    await loadPricePlans('spring 20', fetcher);

    expect(fetcher.mock.calls[0]?.[0]).toBe(`${PLANS_URL}?couponCode=spring%2020`);
    expect($pricing.get().selectedCouponCode).toBe('SPRING20');
  });

  it('shows why a coupon was refused and drops that coupon while still listing the plans', async () => {
    setCouponCode('OLD10');
    const fetcher = stubFetch(() =>
      json(plansAnswer({ couponCode: '', couponCodeError: 'Coupon code OLD10 has expired.' })),
    );
    await loadPricePlans('OLD10', fetcher);

    expect($pricing.get()).toMatchObject({
      plans: [STARTER, BUSINESS],
      selectedCouponCode: '',
      errorMessage: 'Coupon code OLD10 has expired.',
    });
  });

  it('clears an earlier error once the plans load', async () => {
    $pricing.setKey('errorMessage', 'Coupon code OLD10 has expired.');
    await loadPricePlans(
      '',
      stubFetch(() => json(plansAnswer())),
    );
    expect($pricing.get().errorMessage).toBe('');
  });

  it('shows the text the server answered a failure with', async () => {
    const fetcher = stubFetch(() => new Response('Pricing is down for maintenance.', { status: 503 }));
    await loadPricePlans(undefined, fetcher);
    expect($pricing.get().errorMessage).toBe('Pricing is down for maintenance.');
  });

  it('shows the error field of a JSON failure', async () => {
    const fetcher = stubFetch(() => json({ error: 'Too many requests. Please slow down.' }, 429));
    await loadPricePlans(undefined, fetcher);
    expect($pricing.get().errorMessage).toBe('Too many requests. Please slow down.');
  });

  it('falls back to the support message when a failure has no body', async () => {
    const fetcher = stubFetch(() => new Response(null, { status: 500 }));
    await loadPricePlans(undefined, fetcher);
    expect($pricing.get().errorMessage).toBe(
      'Something went wrong, please contact support@tickerlake.com for more details.',
    );
  });

  it('falls back to the support message when a JSON failure has no error field', async () => {
    await loadPricePlans(
      undefined,
      stubFetch(() => json({ issues: [] }, 400)),
    );
    expect($pricing.get().errorMessage).toBe(PRICE_PLANS_ERROR_MESSAGE);
  });

  it('does not show a proxy error page as the message', async () => {
    const fetcher = stubFetch(
      () =>
        new Response('<html><body>502 Bad Gateway</body></html>', {
          status: 502,
          headers: { 'Content-Type': 'text/html' },
        }),
    );
    await loadPricePlans(undefined, fetcher);
    expect($pricing.get().errorMessage).toBe(PRICE_PLANS_ERROR_MESSAGE);
  });

  it('falls back to the support message when the network call itself fails, keeping the plans shown', async () => {
    $pricing.setKey('plans', [STARTER]);
    const fetcher = vi.fn<typeof fetch>(() => Promise.reject(new TypeError('Failed to fetch')));
    await loadPricePlans(undefined, fetcher);
    expect($pricing.get()).toMatchObject({ plans: [STARTER], errorMessage: PRICE_PLANS_ERROR_MESSAGE });
  });

  it('falls back to the support message when a success is not a price-plans answer', async () => {
    await loadPricePlans(
      undefined,
      stubFetch(() => json({ unexpected: true })),
    );
    expect($pricing.get()).toMatchObject({ plans: [], errorMessage: PRICE_PLANS_ERROR_MESSAGE });
  });

  it('lets only the newest request write, so a slow older answer cannot overwrite it', async () => {
    let answerOlder: (response: Response) => void = () => undefined;
    const older = new Promise<Response>((resolve) => {
      answerOlder = resolve;
    });
    const fetcher = vi
      .fn<typeof fetch>()
      .mockImplementationOnce(() => older)
      .mockImplementationOnce(() => Promise.resolve(json(plansAnswer({ couponCode: 'NEW' }))));

    const first = loadPricePlans('OLD', fetcher);
    await loadPricePlans('NEW', fetcher);
    answerOlder(json(plansAnswer({ plans: [STARTER], couponCode: 'OLD' })));
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
