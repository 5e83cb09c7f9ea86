import { map } from 'nanostores';
import type { AdminCoupon, CouponState } from '../admin.ts';
import { formatCents } from '../format.ts';
import { adminApi, ApiError, portal } from '../http.ts';
import type { PricePlansAnswer } from '../price-plans.ts';
import { problemText, startStaffPage } from './admin-console.ts';
import { showSnackbar } from './snackbar.ts';

/*
 * The admin console's coupons page: the coupons as the admin API lists them, the paid plans a new
 * coupon can name, the create form (what is typed, then a confirmation that asks for the reason)
 * and the disable confirmation. The server judges every field; its refusal is shown beside the field
 * it names. Analysts read the list; the form and the buttons are for administrators.
 */

/** How a new coupon takes money off. */
export type DiscountKind = 'percent' | 'amount';

/** The create form as typed: text, turned into the API's body only when it is sent. */
export interface CouponDraft {
  code: string;
  kind: DiscountKind;
  /** Percent (1 to 100) or dollars and cents, by `kind`. */
  discount: string;
  planCodes: string[];
  /** The last day the coupon works (YYYY-MM-DD, the administrator's time), or '' for no end. */
  lastDay: string;
  /** Maximum uses, or '' for no limit. */
  maxUses: string;
}

/** The form's fields a refusal can name; `discount` stands for both percentOff and amountOffCents. */
export type DraftField = 'code' | 'discount' | 'planCodes' | 'lastDay' | 'maxUses' | 'reason' | '';

/** A paid plan a coupon can be limited to. */
export interface CouponPlan {
  code: string;
  name: string;
}

/** The confirmation the page asks for, with the reason typed into it. */
export type PendingCouponChange =
  { kind: 'create'; reason: string } | { kind: 'disable'; coupon: AdminCoupon; reason: string } | null;

export interface AdminCouponsState {
  status: 'loading' | 'ready' | 'error';
  error: string;
  coupons: AdminCoupon[];
  plans: CouponPlan[];
  draft: CouponDraft;
  pending: PendingCouponChange;
  /** The last refusal, in the server's words, and the field it names ('' for the form as a whole). */
  problem: { field: DraftField; message: string };
  busy: boolean;
}

export const EMPTY_DRAFT: CouponDraft = {
  code: '',
  kind: 'percent',
  discount: '',
  planCodes: [],
  lastDay: '',
  maxUses: '',
};

const NO_PROBLEM = { field: '' as DraftField, message: '' };

const INITIAL: AdminCouponsState = {
  status: 'loading',
  error: '',
  coupons: [],
  plans: [],
  draft: EMPTY_DRAFT,
  pending: null,
  problem: NO_PROBLEM,
  busy: false,
};

export const $adminCoupons = map<AdminCouponsState>({ ...INITIAL });

/** The words of each state in the list. */
export const COUPON_STATE_LABELS: Readonly<Record<CouponState, string>> = {
  active: 'Active',
  disabled: 'Disabled',
  expired: 'Expired',
  used_up: 'Used up',
};

/** What a coupon takes off, as the list and the confirmation say it ("20% off", "$5.00 off"). */
export function discountText(coupon: Pick<AdminCoupon, 'percentOff' | 'amountOffCents'>): string {
  if (coupon.percentOff !== null) return `${String(coupon.percentOff)}% off`;
  return `${formatCents(coupon.amountOffCents ?? 0, 'usd')} off`;
}

/** The plans a coupon applies to, by name where the catalogue knows them. */
export function plansText(planCodes: readonly string[], plans: readonly CouponPlan[]): string {
  if (planCodes.length === 0) return 'Every paid plan';
  return planCodes.map((code) => plans.find((plan) => plan.code === code)?.name ?? code).join(', ');
}

/** A coupon's uses against its maximum ("3 / 100", "3 / no limit"). */
export function usesText(coupon: Pick<AdminCoupon, 'uses' | 'maxUses'>): string {
  return `${String(coupon.uses)} / ${coupon.maxUses === null ? 'no limit' : String(coupon.maxUses)}`;
}

/** The end of a day in the administrator's time zone, the moment a coupon ending that day stops. */
export function endOfLocalDay(day: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (match === null) return null;
  const end = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999);
  return Number.isNaN(end.getTime()) ? null : end.toISOString();
}

/** A typed number as the API takes it; anything else is sent as typed, for the server to name. */
function numberOrText(text: string): number | string {
  const trimmed = text.trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** Dollars and cents typed ("5", "5.50") as whole cents; anything else as typed, for the server to name. */
function centsOrText(text: string): number | string {
  const trimmed = text.trim().replace(/^\$/, '');
  return /^\d+(\.\d{1,2})?$/.test(trimmed) ? Math.round(Number(trimmed) * 100) : trimmed;
}

/**
 * The API's body (AdminCouponInput in src/lib/admin.ts) for the draft and the reason. Text that is not a
 * number where one is due is sent as typed, so the server's refusal names the field.
 */
export function couponBody(draft: CouponDraft, reason: string): Record<string, unknown> {
  const discount = draft.discount.trim();
  const lastDay = draft.lastDay.trim();
  const maxUses = draft.maxUses.trim();
  return {
    code: draft.code,
    ...(discount === ''
      ? {}
      : draft.kind === 'percent'
        ? { percentOff: numberOrText(discount) }
        : { amountOffCents: centsOrText(discount) }),
    planCodes: draft.planCodes,
    expiresAt: lastDay === '' ? null : (endOfLocalDay(lastDay) ?? lastDay),
    maxUses: maxUses === '' ? null : numberOrText(maxUses),
    reason,
  };
}

const FIELD_OF: Readonly<Record<string, DraftField>> = {
  code: 'code',
  percentOff: 'discount',
  amountOffCents: 'discount',
  planCodes: 'planCodes',
  expiresAt: 'lastDay',
  maxUses: 'maxUses',
  reason: 'reason',
};

/** A refusal as the page shows it: the message without the field's name in front, and the form's field. */
function problemOf(error: unknown, fallback: string): AdminCouponsState['problem'] {
  const message = problemText(error, fallback);
  const field = error instanceof ApiError ? (error.field ?? '') : '';
  return {
    field: FIELD_OF[field] ?? '',
    message: field !== '' && message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message,
  };
}

/** Reads the coupons and the paid plans a coupon can name (again after a failure: the retry). */
export async function loadCoupons(): Promise<void> {
  $adminCoupons.set({ ...$adminCoupons.get(), status: 'loading', error: '' });
  try {
    const [list, catalogue] = await Promise.all([
      adminApi<{ coupons: AdminCoupon[] }>('coupons'),
      portal<PricePlansAnswer>('account/get-price-plans'),
    ]);
    $adminCoupons.set({
      ...$adminCoupons.get(),
      status: 'ready',
      coupons: list.coupons,
      plans: catalogue.plans
        .filter((plan) => plan.priceCents > 0)
        .map((plan) => ({ code: plan.code, name: plan.name })),
    });
  } catch (error) {
    $adminCoupons.set({
      ...$adminCoupons.get(),
      status: 'error',
      error: problemText(error, 'The coupons could not be loaded. Please try again.'),
    });
  }
}

/**
 * Starts the page: the session, then the coupons once it is confirmed as staff's (the session's route
 * guard sends anyone else away). Returns the island's cleanup.
 */
export function startAdminCoupons(): () => void {
  const stop = startStaffPage(() => {
    void loadCoupons();
  });
  return () => {
    stop();
    $adminCoupons.set({ ...INITIAL });
  };
}

/** Changes the create form; a refusal shown beside the changed field goes. */
export function editDraft(change: Partial<CouponDraft>): void {
  const { draft, problem } = $adminCoupons.get();
  const touched = Object.keys(change).some((key) => (key === 'kind' ? 'discount' : key) === problem.field);
  $adminCoupons.set({
    ...$adminCoupons.get(),
    draft: { ...draft, ...change },
    problem: touched ? NO_PROBLEM : problem,
  });
}

/** Ticks or unticks a plan the new coupon applies to. */
export function togglePlan(code: string, on: boolean): void {
  const { planCodes } = $adminCoupons.get().draft;
  const next = on
    ? [...planCodes.filter((item) => item !== code), code]
    : planCodes.filter((item) => item !== code);
  editDraft({ planCodes: next });
}

/** Asks for a confirmation (with its reason), or closes it. */
export function askFor(change: PendingCouponChange): void {
  $adminCoupons.set({ ...$adminCoupons.get(), pending: change, problem: NO_PROBLEM });
}

/** The reason typed into the open confirmation. */
export function setReason(reason: string): void {
  const { pending, problem } = $adminCoupons.get();
  if (pending === null) return;
  $adminCoupons.set({
    ...$adminCoupons.get(),
    pending: { ...pending, reason },
    problem: problem.field === 'reason' ? NO_PROBLEM : problem,
  });
}

/**
 * Creates the coupon of the form with the confirmation's reason. A refusal of the reason keeps the
 * confirmation open; a refusal of a field closes it, so the message shows beside that field.
 */
export async function createCoupon(): Promise<boolean> {
  const state = $adminCoupons.get();
  if (state.busy || state.pending?.kind !== 'create') return false;
  $adminCoupons.set({ ...state, busy: true, problem: NO_PROBLEM });
  try {
    const { coupon } = await adminApi<{ coupon: AdminCoupon }>('coupons', {
      method: 'POST',
      body: couponBody(state.draft, state.pending.reason),
    });
    $adminCoupons.set({
      ...$adminCoupons.get(),
      busy: false,
      pending: null,
      draft: EMPTY_DRAFT,
      coupons: [coupon, ...$adminCoupons.get().coupons.filter((item) => item.code !== coupon.code)],
    });
    showSnackbar(`Coupon ${coupon.code} created.`, { type: 'success' });
    return true;
  } catch (error) {
    const problem = problemOf(error, 'The coupon could not be created. Please try again.');
    const keepOpen = problem.field === 'reason' || problem.field === '';
    $adminCoupons.set({
      ...$adminCoupons.get(),
      busy: false,
      problem,
      pending: keepOpen ? $adminCoupons.get().pending : null,
    });
    return false;
  }
}

/** Disables the coupon of the open confirmation, with its reason; the list shows it disabled. */
export async function disableCoupon(): Promise<boolean> {
  const state = $adminCoupons.get();
  if (state.busy || state.pending?.kind !== 'disable') return false;
  const { coupon, reason } = state.pending;
  $adminCoupons.set({ ...state, busy: true, problem: NO_PROBLEM });
  try {
    const answer = await adminApi<{ coupon: AdminCoupon }>(
      `coupons/${encodeURIComponent(coupon.code)}/disable`,
      { method: 'POST', body: { reason } },
    );
    $adminCoupons.set({
      ...$adminCoupons.get(),
      busy: false,
      pending: null,
      coupons: $adminCoupons.get().coupons.map((item) => (item.code === coupon.code ? answer.coupon : item)),
    });
    showSnackbar(`Coupon ${coupon.code} disabled.`, { type: 'success' });
    return true;
  } catch (error) {
    $adminCoupons.set({
      ...$adminCoupons.get(),
      busy: false,
      problem: problemOf(error, 'The coupon could not be disabled. Please try again.'),
    });
    return false;
  }
}
