import type { PricePlan, Subscription } from '../../db/schema.ts';
import type { PlanChangeTiming } from './provider.ts';

/** What a plan costs a year, so plans billed monthly and yearly compare per day. */
export function yearlyCents(plan: Pick<PricePlan, 'priceCents' | 'billingInterval'>): number {
  return plan.billingInterval === 'year' ? plan.priceCents : plan.priceCents * 12;
}

/**
 * When the site has a plan change take effect: a plan costing more per day is an upgrade and
 * applies at once (the provider charges the prorated difference); one costing the same or less
 * waits for the period end, which the subscriber has paid for.
 */
export function changeTiming(
  current: Pick<PricePlan, 'priceCents' | 'billingInterval'>,
  target: Pick<PricePlan, 'priceCents' | 'billingInterval'>,
): PlanChangeTiming {
  return yearlyCents(target) > yearlyCents(current) ? 'now' : 'period_end';
}

/** Why a subscription cannot be changed by its subscriber now, or null when it can. */
export function changeRefusal(subscription: Subscription | undefined): string | null {
  if (subscription === undefined || !['active', 'past_due'].includes(subscription.status)) {
    return 'subscription: You have no active subscription. Choose a plan on the pricing page.';
  }
  return null;
}
