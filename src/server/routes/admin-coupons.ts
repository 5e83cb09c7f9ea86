import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { COUPON_AMOUNT_OFF_LIMIT, COUPON_MAX_USES_LIMIT, REASON_MAX_LENGTH } from '../../lib/admin.ts';
import { formatCents, formatExactNumber } from '../../lib/format.ts';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { requireAdmin, requireStaff } from '../middleware/caller.ts';
import { noStore } from '../middleware/security-headers.ts';
import { jsonBody, queryParams } from '../middleware/validate.ts';
import { CouponError, createCoupon, disableCoupon, listCoupons } from '../services/coupons.ts';
import { REASON_MESSAGE } from './admin.ts';

export const CODE_REQUIRED_MESSAGE = 'Enter a code.';
export const CODE_LENGTH_MESSAGE = 'A code has 3 to 32 characters.';
export const CODE_CHARACTERS_MESSAGE = 'A code has only letters, digits, - and _.';
export const DISCOUNT_MISSING_MESSAGE = 'Give a percent off or an amount off.';
export const DISCOUNT_BOTH_MESSAGE = 'Give a percent off or an amount off, not both.';
export const PERCENT_OFF_MESSAGE = 'A percent off is a whole number from 1 to 100.';
export const AMOUNT_OFF_MESSAGE = `An amount off is from $0.01 to ${formatCents(COUPON_AMOUNT_OFF_LIMIT, 'usd')}, in whole cents.`;
export const PLAN_CODES_MESSAGE = 'planCodes is a list of plan codes, each named once.';
export const EXPIRY_FORMAT_MESSAGE = 'Give the expiry as a date and time with its offset (ISO 8601).';
export const EXPIRY_PAST_MESSAGE = 'The expiry must be in the future.';
export const MAX_USES_MESSAGE = `Maximum uses is a whole number from 1 to ${formatExactNumber(COUPON_MAX_USES_LIMIT)}, or none for no limit.`;

const reason = z
  .string({ error: REASON_MESSAGE })
  .trim()
  .min(1, { error: REASON_MESSAGE })
  .max(REASON_MAX_LENGTH, { error: `A reason can be at most ${String(REASON_MAX_LENGTH)} characters.` });

const code = z
  .string({ error: CODE_REQUIRED_MESSAGE })
  .trim()
  .toUpperCase()
  .min(1, { error: CODE_REQUIRED_MESSAGE })
  .refine((value) => value.length === 0 || (value.length >= 3 && value.length <= 32), {
    error: CODE_LENGTH_MESSAGE,
  })
  .regex(/^[A-Z0-9_-]*$/, { error: CODE_CHARACTERS_MESSAGE });

const percentOff = z
  .number({ error: PERCENT_OFF_MESSAGE })
  .int({ error: PERCENT_OFF_MESSAGE })
  .min(1, { error: PERCENT_OFF_MESSAGE })
  .max(100, { error: PERCENT_OFF_MESSAGE })
  .nullable()
  .default(null);

const amountOffCents = z
  .number({ error: AMOUNT_OFF_MESSAGE })
  .int({ error: AMOUNT_OFF_MESSAGE })
  .min(1, { error: AMOUNT_OFF_MESSAGE })
  .max(COUPON_AMOUNT_OFF_LIMIT, { error: AMOUNT_OFF_MESSAGE })
  .nullable()
  .default(null);

const planCodes = z
  .array(z.string({ error: PLAN_CODES_MESSAGE }).trim().min(1, { error: PLAN_CODES_MESSAGE }).max(64), {
    error: PLAN_CODES_MESSAGE,
  })
  .max(50, { error: PLAN_CODES_MESSAGE })
  .refine((codes) => new Set(codes).size === codes.length, { error: PLAN_CODES_MESSAGE })
  .default([]);

const expiresAt = z
  .string({ error: EXPIRY_FORMAT_MESSAGE })
  .pipe(z.iso.datetime({ offset: true, error: EXPIRY_FORMAT_MESSAGE }))
  .transform((value) => new Date(value))
  .refine((date) => date.getTime() > Date.now(), { error: EXPIRY_PAST_MESSAGE })
  .nullable()
  .default(null);

const maxUses = z
  .number({ error: MAX_USES_MESSAGE })
  .int({ error: MAX_USES_MESSAGE })
  .min(1, { error: MAX_USES_MESSAGE })
  .max(COUPON_MAX_USES_LIMIT, { error: MAX_USES_MESSAGE })
  .nullable()
  .default(null);

/** A new coupon; exactly one discount, each refusal naming its field (the form shows it beside the field). */
const createBody = z
  .strictObject({ code, percentOff, amountOffCents, planCodes, expiresAt, maxUses, reason })
  .superRefine((body, context) => {
    if (body.percentOff === null && body.amountOffCents === null) {
      context.addIssue({ code: 'custom', path: ['percentOff'], message: DISCOUNT_MISSING_MESSAGE });
    }
    if (body.percentOff !== null && body.amountOffCents !== null) {
      context.addIssue({ code: 'custom', path: ['amountOffCents'], message: DISCOUNT_BOTH_MESSAGE });
    }
  });

const reasonBody = z.strictObject({ reason });

function actorId(c: Context<AccountsEnv>): string {
  const { caller: who } = c.var;
  if (who.kind !== 'user') throw new Error('the admin guard let a non-user through');
  return who.userId;
}

function refusal(c: Context<AccountsEnv>, error: unknown): Response {
  if (error instanceof CouponError) return apiError(c, error.status, error.message, { field: error.field });
  throw error;
}

/**
 * The admin console's coupons, mounted at /api/admin/coupons: staff (administrators and analysts)
 * list them with their uses and state; only administrators create one (a percent or an amount off,
 * the paid plans it applies to, an expiry, a maximum of uses) or disable one, each with a reason the
 * audit trail keeps.
 */
export const adminCouponRoutes = new Hono<AccountsEnv>()
  .use(noStore())
  .use(requireStaff())
  .get('/', queryParams(z.strictObject({})), async (c) => c.json({ coupons: await listCoupons(c.var.db) }))
  .post('/', requireAdmin(), jsonBody(createBody), async (c) => {
    const { reason: why, ...input } = c.req.valid('json');
    try {
      const coupon = await createCoupon(c.var.db, input, { actorId: actorId(c), reason: why });
      return c.json({ coupon }, 201);
    } catch (error) {
      return refusal(c, error);
    }
  })
  .post('/:code/disable', requireAdmin(), jsonBody(reasonBody), async (c) => {
    const target = c.req.param('code').trim().toUpperCase();
    try {
      const coupon = await disableCoupon(c.var.db, target, {
        actorId: actorId(c),
        reason: c.req.valid('json').reason,
      });
      return c.json({ coupon });
    } catch (error) {
      return refusal(c, error);
    }
  });
