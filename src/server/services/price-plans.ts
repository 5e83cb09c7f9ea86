import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { DEFAULT_PRICING, type PricePlan, type PricePlansAnswer } from '../../lib/price-plans.ts';
import { coupons, pricePlans, type Coupon, type PricePlan as PricePlanRow } from '../db/schema.ts';

/** SPEC §9: the pricing option selected when nothing else is. */
export const DEFAULT_PRICING_OPTION = DEFAULT_PRICING;

export type { PricePlansAnswer };
/** One plan as listed to clients. */
export type PricePlanView = PricePlan;

/** A coupon code's verdict: the coupon, or why it is refused (the words get-price-plans answers with). */
type CouponCheck = { ok: true; coupon: Coupon } | { ok: false; error: string };

/** The refusal of a coupon that has been used as often as its maximum allows. */
export function usedUpMessage(code: string): string {
  return `Coupon code ${code} has been fully redeemed.`;
}

/**
 * Whether a coupon code (upper case) can be used now: known and not disabled, not expired, and with
 * a use left (uses are counted when a checkout with it is paid).
 */
export async function checkCoupon(db: Db, code: string, now: Date): Promise<CouponCheck> {
  const [coupon] = await db.select().from(coupons).where(eq(coupons.code, code)).limit(1);
  if (!coupon?.active) return { ok: false, error: `Coupon code ${code} is not valid.` };
  if (coupon.validUntil && coupon.validUntil.getTime() <= now.getTime()) {
    return { ok: false, error: `Coupon code ${code} has expired.` };
  }
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions) {
    return { ok: false, error: usedUpMessage(code) };
  }
  return { ok: true, coupon };
}

/** Price after a discount, in whole cents and never below zero. */
export function discountedPrice(
  priceCents: number,
  coupon: Pick<Coupon, 'percentOff' | 'amountOffCents'>,
): number {
  if (coupon.percentOff !== null) return Math.round((priceCents * (100 - coupon.percentOff)) / 100);
  return Math.max(0, priceCents - (coupon.amountOffCents ?? 0));
}

/** Whether a coupon discounts a plan: paid plans only, and only those it names (all when it names none). */
function appliesTo(coupon: Coupon, plan: PricePlanRow): boolean {
  return plan.priceCents > 0 && (coupon.planCodes.length === 0 || coupon.planCodes.includes(plan.code));
}

/** The price of a plan with a coupon, or null when the coupon does not discount that plan. */
export function couponPrice(coupon: Coupon, plan: PricePlanRow): number | null {
  return appliesTo(coupon, plan) ? discountedPrice(plan.priceCents, coupon) : null;
}

/**
 * Why a coupon does not discount a plan, in the checkout's words: the plan, and the plans it does
 * discount, as the pricing page shows them struck through (only paid plans are ever discounted).
 */
export async function notApplicableMessage(db: Db, coupon: Coupon, plan: PricePlanRow): Promise<string> {
  const refusal = `Coupon code ${coupon.code} does not apply to ${plan.name}`;
  if (plan.priceCents === 0 || coupon.planCodes.length === 0) return `${refusal}.`;
  const named = await db
    .select({ name: pricePlans.name })
    .from(pricePlans)
    .where(and(inArray(pricePlans.code, coupon.planCodes), eq(pricePlans.active, true)))
    .orderBy(asc(pricePlans.sortOrder), asc(pricePlans.code));
  if (named.length === 0) return `${refusal}.`;
  return `${refusal}; it applies to ${named.map((row) => row.name).join(', ')} only.`;
}

/** The active catalogue as stored, with the coupon asked for and its verdict. */
export interface PricedCatalogue {
  /** Active plans in display order, every column. */
  rows: PricePlanRow[];
  /** The usable coupon, or null (none given, or refused). */
  coupon: Coupon | null;
  /** Why the given coupon is refused ('' when it is not). */
  couponCodeError: string;
}

/**
 * Reads the active catalogue in display order and judges the coupon (trimmed, upper case) in one
 * go: the accounts API's price list and the pricing pages both start from it.
 */
export async function pricedCatalogue(
  db: Db,
  couponCode?: string | null,
  now: Date = new Date(),
): Promise<PricedCatalogue> {
  const code = (couponCode ?? '').trim().toUpperCase();
  const [rows, check] = await Promise.all([
    db
      .select()
      .from(pricePlans)
      .where(eq(pricePlans.active, true))
      .orderBy(asc(pricePlans.sortOrder), asc(pricePlans.code)),
    code === '' ? Promise.resolve(null) : checkCoupon(db, code, now),
  ]);
  return {
    rows,
    coupon: check?.ok ? check.coupon : null,
    couponCodeError: check && !check.ok ? check.error : '',
  };
}

/**
 * The active catalogue in display order, priced with the coupon when one is given and usable. A refused
 * coupon still lists the plans (at full price) so the page can show both the plans and the reason.
 */
export async function listPricePlans(
  db: Db,
  couponCode?: string | null,
  now: Date = new Date(),
): Promise<PricePlansAnswer> {
  const { rows, coupon, couponCodeError } = await pricedCatalogue(db, couponCode, now);
  return {
    plans: rows.map((plan) => ({
      code: plan.code,
      name: plan.name,
      planType: plan.planType,
      billingInterval: plan.billingInterval,
      priceCents: plan.priceCents,
      discountedPriceCents: coupon ? couponPrice(coupon, plan) : null,
      currency: plan.currency,
      callsPerMinute: plan.callsPerMinute,
      callsPerDay: plan.callsPerDay,
      features: plan.features,
      sortOrder: plan.sortOrder,
    })),
    couponCode: coupon ? coupon.code : '',
    couponCodeError,
  };
}
