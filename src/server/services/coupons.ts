import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { AdminCoupon, CouponState } from '../../lib/admin.ts';
import { formatCents } from '../../lib/format.ts';
import type { Db } from '../db/client.ts';
import { coupons, pricePlans, users, type Coupon } from '../db/schema.ts';
import { audit } from './audit-log.ts';

// The admin console's coupons: listing them with their uses, creating one and disabling one, each
// change audited in its own transaction; and counting a use when a paid checkout starts its
// subscription. Whether a code can be used is judged in price-plans.ts (checkCoupon), where the
// pricing page and checkout ask.

/** A coupon to create, already checked for form by the route (code upper-cased, one discount). */
export interface NewCoupon {
  code: string;
  percentOff: number | null;
  amountOffCents: number | null;
  planCodes: string[];
  expiresAt: Date | null;
  maxUses: number | null;
}

/** Who does a console change and why, for the audit trail. */
export interface CouponAction {
  actorId: string;
  reason: string;
}

/** A coupon change the catalogue or the coupon's state does not allow, with the field it concerns. */
export class CouponError extends Error {
  readonly status: 400 | 404 | 409;
  readonly field: string;

  constructor(message: string, status: 400 | 404 | 409, field = '') {
    super(message);
    this.name = 'CouponError';
    this.status = status;
    this.field = field;
  }
}

export const NO_SUCH_COUPON_MESSAGE = 'No such coupon.';

/** Where a coupon stands at `now`; a disabled coupon is disabled whatever else holds. */
export function couponState(coupon: Coupon, now: Date): CouponState {
  if (!coupon.active) return 'disabled';
  if (coupon.validUntil !== null && coupon.validUntil.getTime() <= now.getTime()) return 'expired';
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions) return 'used_up';
  return 'active';
}

function adminCoupon(coupon: Coupon, createdBy: string | null, now: Date): AdminCoupon {
  return {
    code: coupon.code,
    percentOff: coupon.percentOff,
    amountOffCents: coupon.amountOffCents,
    planCodes: coupon.planCodes,
    expiresAt: coupon.validUntil?.toISOString() ?? null,
    maxUses: coupon.maxRedemptions,
    uses: coupon.timesRedeemed,
    state: couponState(coupon, now),
    createdBy,
    createdAt: coupon.createdAt.toISOString(),
  };
}

/**
 * A coupon's terms as the audit trail keeps them, in one line the console shows as it is: what it
 * takes off, from which plans, until when, how often ("20% off monthlyT2; until 2026-06-30T…; at most
 * 50 uses").
 */
export function couponTerms(coupon: Coupon): string {
  const off =
    coupon.percentOff !== null
      ? `${String(coupon.percentOff)}% off`
      : `${formatCents(coupon.amountOffCents ?? 0, 'usd')} off`;
  return [
    `${off} ${coupon.planCodes.length === 0 ? 'every paid plan' : coupon.planCodes.join(', ')}`,
    coupon.validUntil === null ? 'no end' : `until ${coupon.validUntil.toISOString()}`,
    coupon.maxRedemptions === null ? 'no limit of uses' : `at most ${String(coupon.maxRedemptions)} uses`,
  ].join('; ');
}

/** Every coupon, newest first, with its uses, its state at `now` and who created it. */
export async function listCoupons(db: Db, now: Date = new Date()): Promise<AdminCoupon[]> {
  const rows = await db
    .select({ coupon: coupons, createdBy: users.username })
    .from(coupons)
    .leftJoin(users, eq(users.id, coupons.createdBy))
    .orderBy(desc(coupons.createdAt), asc(coupons.code));
  return rows.map((row) => adminCoupon(row.coupon, row.createdBy, now));
}

/**
 * Refuses plan codes the catalogue does not sell: an unknown (or retired) plan, or a free one, which
 * a discount cannot lower. The first refusal is thrown, naming the plan.
 */
async function checkPlanCodes(db: Db, planCodes: readonly string[]): Promise<void> {
  if (planCodes.length === 0) return;
  const rows = await db
    .select({ code: pricePlans.code, name: pricePlans.name, priceCents: pricePlans.priceCents })
    .from(pricePlans)
    .where(and(inArray(pricePlans.code, [...planCodes]), eq(pricePlans.active, true)));
  for (const code of planCodes) {
    const plan = rows.find((row) => row.code === code);
    if (plan === undefined) throw new CouponError(`planCodes: There is no plan ${code}.`, 400, 'planCodes');
    if (plan.priceCents === 0) {
      throw new CouponError(
        `planCodes: ${plan.name} is free; a coupon applies to paid plans only.`,
        400,
        'planCodes',
      );
    }
  }
}

/**
 * Creates a coupon for an administrator and audits it (`coupon_create`: the code, the terms, the
 * reason) in the same transaction. A code in use already is refused with 409, also when two
 * administrators create it at the same moment (the primary key decides).
 */
export async function createCoupon(
  db: Db,
  input: NewCoupon,
  action: CouponAction,
  now: Date = new Date(),
): Promise<AdminCoupon> {
  await checkPlanCodes(db, input.planCodes);
  const created = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(coupons)
      .values({
        code: input.code,
        percentOff: input.percentOff,
        amountOffCents: input.amountOffCents,
        planCodes: input.planCodes,
        validUntil: input.expiresAt,
        maxRedemptions: input.maxUses,
        createdBy: action.actorId,
      })
      .onConflictDoNothing({ target: coupons.code })
      .returning();
    if (row === undefined) {
      throw new CouponError(
        `code: There is a coupon ${input.code} already. Choose another code.`,
        409,
        'code',
      );
    }
    await audit(tx, {
      actorUserId: action.actorId,
      action: 'coupon_create',
      targetUserId: null,
      details: { code: row.code, terms: couponTerms(row), reason: action.reason },
    });
    return row;
  });
  const [actor] = await db
    .select({ username: users.username })
    .from(users)
    .where(eq(users.id, action.actorId))
    .limit(1);
  return adminCoupon(created, actor?.username ?? null, now);
}

/**
 * Disables a coupon for an administrator and audits it (`coupon_disable`: the code, the terms, its
 * uses, the reason) in the same transaction. The pricing page and new checkouts refuse it from then
 * on; checkouts already opened with it keep the price they showed. A disabled coupon stays listed.
 */
export async function disableCoupon(
  db: Db,
  code: string,
  action: CouponAction,
  now: Date = new Date(),
): Promise<AdminCoupon> {
  const disabled = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(coupons).where(eq(coupons.code, code)).for('update').limit(1);
    if (before === undefined) throw new CouponError(NO_SUCH_COUPON_MESSAGE, 404);
    if (!before.active) throw new CouponError(`Coupon ${code} is disabled already.`, 409);
    const [row] = await tx.update(coupons).set({ active: false }).where(eq(coupons.code, code)).returning();
    if (row === undefined) throw new Error('Coupon update returned no row');
    await audit(tx, {
      actorUserId: action.actorId,
      action: 'coupon_disable',
      targetUserId: null,
      details: { code, terms: couponTerms(row), uses: row.timesRedeemed, reason: action.reason },
    });
    return row;
  });
  const [creator] =
    disabled.createdBy === null
      ? []
      : await db.select({ username: users.username }).from(users).where(eq(users.id, disabled.createdBy));
  return adminCoupon(disabled, creator?.username ?? null, now);
}

/**
 * Counts one use of a coupon, inside the transaction that starts the subscription of a checkout
 * paid with it. The increment is one conditional UPDATE, so it never passes the coupon's maximum:
 * PostgreSQL holds the row while one transaction counts, and a second one waiting for it checks the
 * condition again against the committed count (PGlite runs one transaction at a time). Returns false
 * when the coupon had no use left (two checkouts opened for its last use and both paid) or is gone:
 * the subscription still starts at the price that was paid, and the count stays at the maximum.
 */
export async function redeemCoupon(db: Db, code: string): Promise<boolean> {
  const rows = await db
    .update(coupons)
    .set({ timesRedeemed: sql`${coupons.timesRedeemed} + 1` })
    .where(
      and(
        eq(coupons.code, code),
        or(isNull(coupons.maxRedemptions), lt(coupons.timesRedeemed, coupons.maxRedemptions)),
      ),
    )
    .returning({ code: coupons.code });
  return rows.length === 1;
}

/** Whether a coupon has been used as often as it may be (an unknown code has not). */
export async function couponUsedUp(db: Db, code: string): Promise<boolean> {
  const [row] = await db
    .select({ max: coupons.maxRedemptions, uses: coupons.timesRedeemed })
    .from(coupons)
    .where(eq(coupons.code, code))
    .limit(1);
  return row !== undefined && row.max !== null && row.uses >= row.max;
}
