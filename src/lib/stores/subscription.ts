import { computed, map } from 'nanostores';
import { formatCents, formatDay } from '../format.ts';
import { ApiError, portal } from '../http.ts';
import { SUPPORT_EMAIL } from '../messages.ts';
import { $pricing } from './pricing.ts';
import { revalidateSession } from './session.ts';

/** The subscription as GET /api/portal/billing/subscription answers it. */
export interface SubscriptionInfo {
  planCode: string;
  status: 'active' | 'past_due' | 'canceled' | 'incomplete';
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  scheduledPlanCode: string | null;
  nextPaymentAttemptAt: string | null;
  /** The provider has its own page for the card on file (Stripe's Customer Portal). */
  cardManagedByProvider: boolean;
}

/** What a plan change does, as the portal answers its preview and the change itself. */
export interface PlanChangeQuote {
  planCode: string;
  when: 'now' | 'period_end';
  effectiveAt: string;
  amountDueCents: number;
  currency: string;
}

export type NoteType = 'info' | 'success' | 'error';

export interface SubscriptionState {
  /** The subscription has been asked for (and answered) on this page view. */
  loaded: boolean;
  subscription: SubscriptionInfo | null;
  /** A cancellation or resumption is on its way. */
  busy: boolean;
  /** The cancel confirmation dialog is open. */
  confirmingCancel: boolean;
  /** The outcome of the last action, shown beside the buttons; '' when none. */
  note: string;
  noteType: NoteType;
}

const INITIAL: SubscriptionState = {
  loaded: false,
  subscription: null,
  busy: false,
  confirmingCancel: false,
  note: '',
  noteType: 'info',
};

export const $subscription = map<SubscriptionState>({ ...INITIAL });

/** Where the subscriber changes plan, and where the invoices are listed. */
export const CHANGE_PLAN_PAGE = '/developer/docs/pricing';
export const INVOICES_PAGE = '/developer/docs/invoices';

/** The server's words without the field name it starts with (`subscription: …`). */
function refusalText(error: unknown): string {
  if (!(error instanceof ApiError)) return String(error);
  const { field } = error;
  return field !== undefined && error.message.startsWith(`${field}: `)
    ? error.message.slice(field.length + 2)
    : error.message;
}

function subscriptionOf(answer: unknown): SubscriptionInfo | null {
  if (typeof answer !== 'object' || answer === null || !('subscription' in answer)) return null;
  return (answer as { subscription: SubscriptionInfo | null }).subscription;
}

/** Asks the portal; a parameter so tests can answer instead. */
export type SubscriptionRequest = (
  path: 'billing/subscription' | 'billing/cancel' | 'billing/resume',
) => Promise<unknown>;

const request: SubscriptionRequest = (path) =>
  path === 'billing/subscription'
    ? portal<unknown>(path)
    : portal<unknown>(path, { method: 'POST', body: {} });

/** Reads the account's subscription; a failure leaves the card saying nothing rather than something wrong. */
export async function loadSubscription(ask: SubscriptionRequest = request): Promise<void> {
  try {
    const subscription = subscriptionOf(await ask('billing/subscription'));
    $subscription.set({ ...$subscription.get(), loaded: true, subscription });
  } catch {
    $subscription.setKey('loaded', true);
  }
}

/** Forgets the subscription and what was said, for the next page view. */
export function resetSubscription(): void {
  $subscription.set({ ...INITIAL });
}

export function askToCancel(): void {
  $subscription.set({ ...$subscription.get(), confirmingCancel: true, note: '' });
}

export function closeCancelDialog(): void {
  $subscription.setKey('confirmingCancel', false);
}

function planName(code: string): string {
  return $pricing.get().plans.find((plan) => plan.code === code)?.name ?? code;
}

/** What the card says once the cancellation is made. */
export function canceledMessage(planName: string, endsAt: string): string {
  return `Your subscription is canceled. You keep ${planName} until ${formatDay(endsAt)}.`;
}

export const RESUMED_MESSAGE = 'Your subscription is resumed and renews as before.';

async function change(path: 'billing/cancel' | 'billing/resume', ask: SubscriptionRequest): Promise<void> {
  if ($subscription.get().busy) return;
  $subscription.set({ ...$subscription.get(), busy: true, note: '' });
  try {
    const subscription = subscriptionOf(await ask(path));
    const note =
      path === 'billing/resume'
        ? RESUMED_MESSAGE
        : subscription
          ? canceledMessage(planName(subscription.planCode), subscription.currentPeriodEnd)
          : '';
    $subscription.set({
      ...$subscription.get(),
      subscription,
      confirmingCancel: false,
      note,
      noteType: 'success',
    });
  } catch (error) {
    $subscription.set({
      ...$subscription.get(),
      confirmingCancel: false,
      note: refusalText(error),
      noteType: 'error',
    });
    await loadSubscription(ask);
  } finally {
    $subscription.setKey('busy', false);
  }
}

/** Cancels at the period end (the plan stays until then). */
export function cancelSubscription(ask: SubscriptionRequest = request): Promise<void> {
  return change('billing/cancel', ask);
}

/**
 * Opens the provider's page for the card on file (Stripe's Customer Portal), which sends the
 * subscriber back to the dashboard; a refusal is said beside the buttons.
 */
export async function manageCard(
  ask: () => Promise<unknown> = () => portal<unknown>('billing/payment-method', { method: 'POST', body: {} }),
  go: (url: string) => void = (url) => window.location.assign(url),
): Promise<void> {
  if ($subscription.get().busy) return;
  $subscription.set({ ...$subscription.get(), busy: true, note: '' });
  try {
    const answer = (await ask()) as { url?: unknown };
    if (typeof answer.url !== 'string') throw new Error('The payment page did not answer with an address.');
    go(answer.url);
  } catch (error) {
    $subscription.set({ ...$subscription.get(), busy: false, note: refusalText(error), noteType: 'error' });
  }
}

/** Takes back a cancellation before the period ends. */
export function resumeSubscription(ask: SubscriptionRequest = request): Promise<void> {
  return change('billing/resume', ask);
}

/** The "Plan and billing" card: what the subscription is doing, and what the subscriber can do. */
export type SubscriptionCardView =
  | { kind: 'loading' }
  | { kind: 'none' }
  | {
      kind: 'subscribed';
      planName: string;
      /** A short badge: Active, Past due, Cancels on …, Ended. */
      badge: string;
      tone: 'active' | 'inactive' | 'neutral';
      /** The sentence that says what happens next (and, when past due, what to do). */
      status: string;
      /** When the current period ends, for the "Renews on" or "Ends on" line; '' when ended. */
      periodEnd: string;
      canCancel: boolean;
      canResume: boolean;
      /** The card on file can be changed on the provider's page. */
      canManageCard: boolean;
    };

/** The card's view, from the subscription and the catalogue's plan names. */
export const $subscriptionCard = computed([$subscription, $pricing], (state): SubscriptionCardView => {
  if (!state.loaded) return { kind: 'loading' };
  const sub = state.subscription;
  if (sub === null) return { kind: 'none' };
  const name = planName(sub.planCode);
  const end = formatDay(sub.currentPeriodEnd);
  if (sub.status === 'canceled' || sub.status === 'incomplete') {
    return {
      kind: 'subscribed',
      planName: name,
      badge: 'Ended',
      tone: 'neutral',
      status:
        'Your subscription has ended and your account is on the Free plan. Choose a plan to subscribe again.',
      periodEnd: '',
      canCancel: false,
      canResume: false,
      canManageCard: false,
    };
  }
  if (sub.status === 'past_due') {
    const retry = sub.nextPaymentAttemptAt === null ? 'soon' : `on ${formatDay(sub.nextPaymentAttemptAt)}`;
    return {
      kind: 'subscribed',
      planName: name,
      badge: 'Past due',
      tone: 'inactive',
      status: `Your renewal payment failed. We will try your card again ${retry}, and you keep ${name} until then. Make sure the card can be charged (your bank can say why it was declined) or write to ${SUPPORT_EMAIL}; if the payments keep failing, the subscription ends and your account moves to the Free plan.`,
      periodEnd: end,
      canCancel: true,
      canResume: false,
      canManageCard: sub.cardManagedByProvider,
    };
  }
  if (sub.cancelAtPeriodEnd) {
    return {
      kind: 'subscribed',
      planName: name,
      badge: `Cancels on ${end}`,
      tone: 'neutral',
      status: `Your subscription cancels on ${end}. You keep ${name} until then; after that your account moves to the Free plan and nothing more is charged.`,
      periodEnd: end,
      canCancel: false,
      canResume: true,
      canManageCard: sub.cardManagedByProvider,
    };
  }
  return {
    kind: 'subscribed',
    planName: name,
    badge: 'Active',
    tone: 'active',
    status:
      sub.scheduledPlanCode === null
        ? `Renews on ${end}.`
        : `Moves to ${planName(sub.scheduledPlanCode)} on ${end}, when the next period starts.`,
    periodEnd: end,
    canCancel: true,
    canResume: false,
    canManageCard: sub.cardManagedByProvider,
  };
});

/* The change of plan from the pricing page, for an account that already subscribes. */

export interface PlanChangeState {
  /** The confirmation dialog is open for `planCode`. */
  open: boolean;
  planCode: string;
  /** What the change does, once the preview answered. */
  quote: PlanChangeQuote | null;
  /** The preview or the change is on its way. */
  pending: boolean;
  /** The refusal of the preview or the change, in the server's words. */
  error: string;
  /** What was done, said on the page after the dialog closes. */
  done: string;
}

const NO_CHANGE: PlanChangeState = {
  open: false,
  planCode: '',
  quote: null,
  pending: false,
  error: '',
  done: '',
};

export const $planChange = map<PlanChangeState>({ ...NO_CHANGE });

/** Whether choosing a paid plan changes the subscription rather than opening a second checkout. */
export function changesSubscription(): boolean {
  const sub = $subscription.get().subscription;
  return sub !== null && (sub.status === 'active' || sub.status === 'past_due');
}

/** What the confirmation says a change does: the amount charged now, or the date it applies. */
export function planChangeSummary(quote: PlanChangeQuote, current: string, target: string): string {
  if (quote.when === 'now') {
    return `You move from ${current} to ${target} now. ${formatCents(quote.amountDueCents, quote.currency)} is charged to your card today for the rest of the current period (the unused time of ${current} is credited).`;
  }
  return `You keep ${current} until ${formatDay(quote.effectiveAt)} and move to ${target} then. Nothing is charged now.`;
}

/** What the page says after a change was made. */
export function planChangedMessage(quote: PlanChangeQuote, target: string): string {
  return quote.when === 'now'
    ? `You are on ${target} now. ${formatCents(quote.amountDueCents, quote.currency)} was charged and the receipt is on its way by email.`
    : `${target} starts on ${formatDay(quote.effectiveAt)}. Until then your current plan stays.`;
}

/** Asks the portal about a plan change; a parameter so tests can answer instead. */
export type PlanChangeRequest = (planCode: string, confirm: boolean) => Promise<unknown>;

const requestChange: PlanChangeRequest = (planCode, confirm) =>
  confirm
    ? portal<unknown>('billing/change-plan', { method: 'POST', body: { planCode } })
    : portal<unknown>('billing/change-plan/preview', { query: { planCode } });

/** Opens the confirmation of a change to `planCode` and asks what it would charge. */
export async function previewPlanChange(
  planCode: string,
  ask: PlanChangeRequest = requestChange,
): Promise<void> {
  $planChange.set({ ...NO_CHANGE, open: true, planCode, pending: true });
  try {
    const quote = (await ask(planCode, false)) as PlanChangeQuote;
    if ($planChange.get().planCode === planCode)
      $planChange.set({ ...$planChange.get(), quote, pending: false });
  } catch (error) {
    $planChange.set({ ...$planChange.get(), error: refusalText(error), pending: false });
  }
}

/** Forgets the change shown, for the next page view. */
export function resetPlanChange(): void {
  $planChange.set({ ...NO_CHANGE });
}

export function closePlanChange(): void {
  $planChange.set({ ...$planChange.get(), open: false, pending: false });
}

/** Makes the change the dialog shows; on success the session is read again so the new plan shows everywhere. */
export async function confirmPlanChange(ask: PlanChangeRequest = requestChange): Promise<void> {
  const { planCode, pending } = $planChange.get();
  if (pending || planCode === '') return;
  $planChange.set({ ...$planChange.get(), pending: true, error: '' });
  try {
    const answer = (await ask(planCode, true)) as PlanChangeQuote & {
      subscription?: SubscriptionInfo | null;
    };
    if (answer.subscription !== undefined) $subscription.setKey('subscription', answer.subscription);
    $planChange.set({
      ...NO_CHANGE,
      done: planChangedMessage(answer, planName(planCode)),
    });
    await revalidateSession();
  } catch (error) {
    $planChange.set({ ...$planChange.get(), error: refusalText(error), pending: false });
  }
}

/** The name of the plan a code stands for, from the loaded catalogue. */
export { planName };
