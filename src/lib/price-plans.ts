/**
 * The price list as the accounts API answers it and the pricing store keeps it: one definition, so
 * the server and the browser cannot drift apart.
 */

/** SPEC §9: the pricing option shown until the visitor picks another one. */
export const DEFAULT_PRICING = 'monthlyT2';

export type PlanType = 'personal' | 'commercial';
export type BillingInterval = 'month' | 'year';

/** One plan as the accounts API lists it, so the pricing page renders the answer without reshaping it. */
export interface PricePlan {
  code: string;
  name: string;
  planType: PlanType;
  billingInterval: BillingInterval;
  priceCents: number;
  /** The price after the accepted coupon, or null when no coupon applies to this plan. */
  discountedPriceCents: number | null;
  currency: string;
  /** Null means no per-minute limit. */
  callsPerMinute: number | null;
  /** Null means no daily limit. */
  callsPerDay: number | null;
  features: string[];
  sortOrder: number;
}

/** SPEC §7 price-plans answer: the code echoes an accepted coupon, the error explains a refused one. */
export interface PricePlansAnswer {
  plans: PricePlan[];
  couponCode: string;
  couponCodeError: string;
}
