import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/http.ts';
import type { PricePlan } from '../../src/lib/price-plans.ts';
import { $pricing } from '../../src/lib/stores/pricing.ts';
import {
  $subscription,
  $subscriptionCard,
  askToCancel,
  cancelSubscription,
  loadSubscription,
  manageCard,
  planChangeSummary,
  resetSubscription,
  type SubscriptionInfo,
  type SubscriptionRequest,
} from '../../src/lib/stores/subscription.ts';

const ACTIVE: SubscriptionInfo = {
  planCode: 'monthlyT2',
  status: 'active',
  currentPeriodStart: '2026-11-26T12:00:00.000Z',
  currentPeriodEnd: '2026-12-26T12:00:00.000Z',
  cancelAtPeriodEnd: false,
  scheduledPlanCode: null,
  nextPaymentAttemptAt: null,
  cardManagedByProvider: false,
};

const plan = (code: string, name: string): PricePlan => ({ code, name }) as PricePlan;

const answering =
  (subscription: SubscriptionInfo | null): SubscriptionRequest =>
  () =>
    Promise.resolve({ subscription });

describe('the plan and billing card', () => {
  beforeEach(() => {
    resetSubscription();
    $pricing.setKey('plans', [plan('monthlyT2', 'Professional'), plan('starterT1', 'Starter')]);
  });

  it('says when an active subscription renews, and when a scheduled plan takes over', async () => {
    await loadSubscription(answering(ACTIVE));
    expect($subscriptionCard.get()).toMatchObject({
      planName: 'Professional',
      badge: 'Active',
      status: 'Renews on Dec 26, 2026.',
      canCancel: true,
      canResume: false,
    });
    await loadSubscription(answering({ ...ACTIVE, scheduledPlanCode: 'starterT1' }));
    expect($subscriptionCard.get()).toMatchObject({
      status: 'Moves to Starter on Dec 26, 2026, when the next period starts.',
    });
  });

  it('says a canceled subscription keeps the plan until the period ends, and offers to resume', async () => {
    await loadSubscription(answering({ ...ACTIVE, cancelAtPeriodEnd: true }));
    expect($subscriptionCard.get()).toMatchObject({
      badge: 'Cancels on Dec 26, 2026',
      canCancel: false,
      canResume: true,
    });
  });

  it('tells a past-due subscriber when the card is tried again and what to do', async () => {
    await loadSubscription(
      answering({ ...ACTIVE, status: 'past_due', nextPaymentAttemptAt: '2026-12-29T12:00:00.000Z' }),
    );
    const card = $subscriptionCard.get();
    expect(card).toMatchObject({ badge: 'Past due', tone: 'inactive' });
    expect(card.kind === 'subscribed' ? card.status : '').toContain(
      'We will try your card again on Dec 29, 2026, and you keep Professional until then.',
    );
  });

  it('confirms a cancellation with the date, and shows a refusal in the server’s words without the field', async () => {
    askToCancel();
    await cancelSubscription(() => Promise.resolve({ subscription: { ...ACTIVE, cancelAtPeriodEnd: true } }));
    expect($subscription.get()).toMatchObject({
      confirmingCancel: false,
      note: 'Your subscription is canceled. You keep Professional until Dec 26, 2026.',
      noteType: 'success',
    });
    const refuse: SubscriptionRequest = (path) =>
      path === 'billing/subscription'
        ? Promise.resolve({ subscription: null })
        : Promise.reject(
            new ApiError(409, 'subscription: You have no active subscription.', {
              error: 'subscription: You have no active subscription.',
              field: 'subscription',
            }),
          );
    await cancelSubscription(refuse);
    expect($subscription.get()).toMatchObject({
      note: 'You have no active subscription.',
      noteType: 'error',
      subscription: null,
    });
  });
});

describe("the provider's page for the card on file", () => {
  beforeEach(() => {
    resetSubscription();
  });

  it('is offered only when the provider has one', async () => {
    await loadSubscription(answering(ACTIVE));
    expect($subscriptionCard.get()).toMatchObject({ canManageCard: false });
    await loadSubscription(answering({ ...ACTIVE, cardManagedByProvider: true }));
    expect($subscriptionCard.get()).toMatchObject({ canManageCard: true });
  });

  it("sends the subscriber to the provider's page, and says why when it is refused", async () => {
    const visited: string[] = [];
    await manageCard(
      () => Promise.resolve({ url: 'https://billing.example/session/1' }),
      (url) => visited.push(url),
    );
    expect(visited).toEqual(['https://billing.example/session/1']);
    expect($subscription.get().busy).toBe(true);
    resetSubscription();
    await manageCard(
      () =>
        Promise.reject(
          new ApiError(409, 'subscription: No page for this card.', {
            error: 'subscription: No page for this card.',
            field: 'subscription',
          }),
        ),
      (url) => visited.push(url),
    );
    expect(visited).toHaveLength(1);
    expect($subscription.get()).toMatchObject({
      busy: false,
      note: 'No page for this card.',
      noteType: 'error',
    });
  });
});

describe('the change-plan confirmation', () => {
  it('states the amount charged now for an upgrade, and the date for a downgrade', () => {
    expect(
      planChangeSummary(
        { planCode: 'monthlyT3', when: 'now', effectiveAt: '', amountDueCents: 2000, currency: 'usd' },
        'Professional',
        'Power',
      ),
    ).toBe(
      'You move from Professional to Power now. $20.00 is charged to your card today for the rest of the current period (the unused time of Professional is credited).',
    );
    expect(
      planChangeSummary(
        {
          planCode: 'starterT1',
          when: 'period_end',
          effectiveAt: '2026-12-26T12:00:00.000Z',
          amountDueCents: 0,
          currency: 'usd',
        },
        'Professional',
        'Starter',
      ),
    ).toBe('You keep Professional until Dec 26, 2026 and move to Starter then. Nothing is charged now.');
  });
});
