import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { coupons, pricePlans, type Coupon, type PricePlan } from '../db/schema.ts';

/** SPEC §9: the pricing option selected when nothing else is. */
export const DEFAULT_PRICING_OPTION = 'monthlyT2';

export interface PricePlanView {
  code: string;
  name: string;
  planType: PricePlan['planType'];
  billingInterval: PricePlan['billingInterval'];
  priceCents: number;
  /** The price after the coupon, or null when no coupon applies to this plan. */
  discountedPriceCents: number | null;
  currency: string;
  callsPerMinute: number | null;
  callsPerDay: number | null;
  features: string[];
  sortOrder: number;
}

/** SPEC §7 price-plans answer: the code echoes an accepted coupon, the error explains a refused one. */
export interface PricePlansAnswer {
  plans: PricePlanView[];
  couponCode: string;
  couponCodeError: string;
}

type CouponCheck = { ok: true; coupon: Coupon } | { ok: false; error: string };

async function checkCoupon(db: Db, code: string, now: Date): Promise<CouponCheck> {
  const [coupon] = await db.select().from(coupons).where(eq(coupons.code, code)).limit(1);
  if (!coupon?.active) return { ok: false, error: `Coupon code ${code} is not valid.` };
  if (coupon.validUntil && coupon.validUntil.getTime() <= now.getTime()) {
    return { ok: false, error: `Coupon code ${code} has expired.` };
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

function appliesTo(coupon: Coupon, plan: PricePlan): boolean {
  return plan.priceCents > 0 && (coupon.planCodes.length === 0 || coupon.planCodes.includes(plan.code));
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
  const code = (couponCode ?? '').trim().toUpperCase();
  const [rows, check] = await Promise.all([
    db
      .select()
      .from(pricePlans)
      .where(eq(pricePlans.active, true))
      .orderBy(asc(pricePlans.sortOrder), asc(pricePlans.code)),
    code === '' ? Promise.resolve(null) : checkCoupon(db, code, now),
  ]);
  const coupon = check?.ok ? check.coupon : null;
  return {
    plans: rows.map((plan) => ({
      code: plan.code,
      name: plan.name,
      planType: plan.planType,
      billingInterval: plan.billingInterval,
      priceCents: plan.priceCents,
      discountedPriceCents:
        coupon && appliesTo(coupon, plan) ? discountedPrice(plan.priceCents, coupon) : null,
      currency: plan.currency,
      callsPerMinute: plan.callsPerMinute,
      callsPerDay: plan.callsPerDay,
      features: plan.features,
      sortOrder: plan.sortOrder,
    })),
    couponCode: coupon ? coupon.code : '',
    couponCodeError: check && !check.ok ? check.error : '',
  };
}
