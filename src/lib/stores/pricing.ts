import { atom, map } from 'nanostores';
import { ApiError, portal } from '../http.ts';
import { PRICE_PLANS_ERROR_MESSAGE } from '../messages.ts';
import { DEFAULT_PRICING, type PricePlan, type PricePlansAnswer } from '../price-plans.ts';

export { DEFAULT_PRICING };
export type { BillingInterval, PlanType, PricePlan, PricePlansAnswer } from '../price-plans.ts';

/** A postal address for invoices; every part is free text because formats differ by country. */
export interface BillingAddress {
  line1: string;
  line2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
}

/**
 * A subscription the account already holds. Only the identifiers the pricing page compares with
 * its own selection are typed; the rest of the record is not part of the product's contract.
 */
export interface Subscription {
  planCode: string;
  productID: string;
}

/** SPEC §3, pricing state. */
export interface PricingState {
  selectedPlanCode: string;
  selectedProductID: string;
  /** The coupon the server last accepted ('' when none), never one it refused. */
  selectedCouponCode: string;
  selectedPricing: string;
  /** Null until the buyer enters an address, so "not given yet" differs from "given but blank". */
  billingAddress: BillingAddress | null;
  billingName: string;
  activeSubscription: Subscription | null;
  otherActiveSubscriptions: Subscription[];
  legacy: boolean;
  plans: PricePlan[];
  errorMessage: string;
  currentPlan: PricePlan | null;
}

export const $pricing = map<PricingState>({
  selectedPlanCode: '',
  selectedProductID: '',
  selectedCouponCode: '',
  selectedPricing: DEFAULT_PRICING,
  billingAddress: null,
  billingName: '',
  activeSubscription: null,
  otherActiveSubscriptions: [],
  legacy: false,
  plans: [],
  errorMessage: '',
  currentPlan: null,
});

/** The product id is optional because only some checkout paths know it when a plan is picked. */
export function selectPlan(code: string, productId = ''): void {
  $pricing.set({ ...$pricing.get(), selectedPlanCode: code, selectedProductID: productId });
}

/** Switches the billing option (monthly, annual, tier) the plan cards are priced for. */
export function selectPricing(option: string): void {
  $pricing.setKey('selectedPricing', option);
}

/**
 * Records a coupon before the server has judged it, for forms that hold it until checkout;
 * `loadPricePlans` replaces it with whatever the server accepts.
 */
export function setCouponCode(code: string): void {
  $pricing.setKey('selectedCouponCode', code.trim());
}

export interface BillingDetails {
  billingName?: string;
  billingAddress?: BillingAddress | null;
}

/** Updates only the parts given, so the name and address forms can save independently. */
export function setBillingDetails(details: BillingDetails): void {
  const next = { ...$pricing.get() };
  if (details.billingName !== undefined) next.billingName = details.billingName;
  if (details.billingAddress !== undefined) {
    next.billingAddress = details.billingAddress === null ? null : { ...details.billingAddress };
  }
  $pricing.set(next);
}

/**
 * SPEC §4: forgets the visitor's choice (plan, product, coupon) and goes back to monthlyT2, as on
 * logout. The loaded catalogue stays, since it is the same for everyone and refetching it is waste.
 */
export function clearPrices(): void {
  $pricing.set({
    ...$pricing.get(),
    selectedPlanCode: '',
    selectedProductID: '',
    selectedCouponCode: '',
    selectedPricing: DEFAULT_PRICING,
  });
}

/** The string under `key` when the value is an object holding one there, else ''. */
function stringField(value: unknown, key: string): string {
  if (typeof value !== 'object' || value === null || !(key in value)) return '';
  const field: unknown = (value as Record<string, unknown>)[key];
  return typeof field === 'string' ? field : '';
}

/** The answer as the store needs it, or undefined when the body is not a price-plans answer. */
function parseAnswer(value: unknown): PricePlansAnswer | undefined {
  if (typeof value !== 'object' || value === null || !('plans' in value) || !Array.isArray(value.plans)) {
    return undefined;
  }
  return {
    plans: value.plans as PricePlan[],
    couponCode: stringField(value, 'couponCode'),
    couponCodeError: stringField(value, 'couponCodeError'),
  };
}

/**
 * The server's own words for a refusal: the `error` field of a JSON body, a JSON string, or plain
 * text. HTML (a proxy's error page) is not a message, and neither is an unreachable server.
 */
function refusalMessage(error: unknown): string {
  if (!(error instanceof ApiError) || error.status === 0) return '';
  const data: unknown = error.data;
  if (typeof data === 'string') return /^\s*</.test(data) ? '' : data.trim();
  return stringField(data, 'error').trim();
}

/** Asks the portal for the catalogue; a parameter of {@link loadPricePlans} so tests can answer instead. */
export type PricePlansRequest = (query: { couponCode?: string }) => Promise<unknown>;

const requestPlans: PricePlansRequest = (query) =>
  portal<unknown>('account/get-price-plans', { query, refreshOn403: false });

let latestRequest = 0;

/**
 * Fetches the catalogue, priced with the coupon when one is given. Only the newest call may write,
 * so a slow answer for an older coupon cannot overwrite a newer one. Failures keep the plans
 * already shown.
 */
export async function loadPricePlans(
  couponCode = '',
  request: PricePlansRequest = requestPlans,
): Promise<void> {
  const call = ++latestRequest;
  const code = couponCode.trim();
  let errorMessage = '';
  let answer: PricePlansAnswer | undefined;
  try {
    answer = parseAnswer(await request(code === '' ? {} : { couponCode: code }));
  } catch (error) {
    errorMessage = refusalMessage(error);
  }
  if (call !== latestRequest) return;
  if (answer) {
    $pricing.set({
      ...$pricing.get(),
      plans: answer.plans,
      selectedCouponCode: answer.couponCode,
      errorMessage: answer.couponCodeError,
    });
    return;
  }
  $pricing.setKey('errorMessage', errorMessage === '' ? PRICE_PLANS_ERROR_MESSAGE : errorMessage);
}

/** The checkout contract's answer: where the provider's payment page is. */
interface CheckoutAnswer {
  url: string;
}

/** Asks the portal to open a checkout; a parameter of {@link startCheckout} so tests can answer instead. */
export type CheckoutRequest = (body: { planCode: string; couponCode?: string }) => Promise<unknown>;

const requestCheckout: CheckoutRequest = (body) =>
  portal<unknown>('billing/checkout', { method: 'POST', body });

/** Whether a checkout is being opened, so the plan buttons can say so and not start a second one. */
export const $checkoutPending = atom(false);

/**
 * Opens the checkout of `planCode` (with the accepted coupon) and goes to the payment page. A
 * refusal keeps the visitor on the pricing page with the server's own words in `errorMessage`.
 */
export async function startCheckout(
  planCode: string,
  request: CheckoutRequest = requestCheckout,
  go: (url: string) => void = (url) => {
    location.assign(url);
  },
): Promise<void> {
  if ($checkoutPending.get()) return;
  $checkoutPending.set(true);
  const { selectedCouponCode } = $pricing.get();
  $pricing.set({ ...$pricing.get(), selectedPlanCode: planCode, errorMessage: '' });
  try {
    const answer = await request(
      selectedCouponCode === '' ? { planCode } : { planCode, couponCode: selectedCouponCode },
    );
    const url = stringField(answer, 'url' satisfies keyof CheckoutAnswer);
    if (url === '') throw new Error('no checkout address');
    // The choice is made: a later visit starts from the default again (SPEC §4).
    $pricing.setKey('selectedPlanCode', '');
    go(url);
  } catch (error) {
    const message = refusalMessage(error);
    $pricing.setKey('errorMessage', message === '' ? PRICE_PLANS_ERROR_MESSAGE : message);
  } finally {
    $checkoutPending.set(false);
  }
}
