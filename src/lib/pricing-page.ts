import { $auth, $signedIn, openAuthPopup } from './stores/auth.ts';
import {
  $checkoutPending,
  $pricing,
  loadPricePlans,
  selectPlan,
  setCouponCode,
  startCheckout,
} from './stores/pricing.ts';
import {
  $planChange,
  $subscription,
  changesSubscription,
  closePlanChange,
  confirmPlanChange,
  loadSubscription,
  planChangeSummary,
  planName,
  previewPlanChange,
  resetPlanChange,
  resetSubscription,
} from './stores/subscription.ts';
import { $user } from './stores/user.ts';

/*
 * What the pricing page does in the browser, without a framework: the plan buttons open the
 * checkout of the plan and billing period chosen (a signed-out visitor first signs up in the pop-up,
 * then goes on to the same checkout), the reader's current plan is marked, and a refused checkout
 * says why. A subscriber choosing another paid plan changes the subscription instead of paying a
 * second checkout: a dialog says what is charged now (an upgrade) or when the plan applies. The prices, limits and the billing switch are the server's HTML and CSS.
 */

/** The plan code a button stands for under the billing period now chosen. */
function chosenCode(button: HTMLElement): string {
  const annual = document.querySelector<HTMLInputElement>('#billing-year')?.checked === true;
  const { planMonth, planYear } = button.dataset;
  return (annual ? (planYear ?? planMonth) : (planMonth ?? planYear)) ?? '';
}

/**
 * Goes on with a chosen plan for a signed-in reader: a subscriber's change of plan (confirmed in a
 * dialog), or else the checkout.
 */
async function proceed(code: string): Promise<void> {
  if (!$subscription.get().loaded) await loadSubscription();
  if (!changesSubscription()) {
    await startCheckout(code);
    return;
  }
  selectPlan('');
  if ($pricing.get().plans.length === 0) void loadPricePlans();
  await previewPlanChange(code);
}

/** Opens the checkout (or the change of plan) now, or after the visitor has an account and is signed in. */
function choose(code: string): void {
  if (code === '') return;
  if ($signedIn.get()) {
    void proceed(code);
    return;
  }
  selectPlan(code);
  openAuthPopup(2);
}

/** Shows the change-plan confirmation as the store says: open or closed, the amount or date, a refusal. */
function wirePlanChange(root: HTMLElement): () => void {
  const dialog = root.querySelector<HTMLDialogElement>('[data-plan-change]');
  const done = root.querySelector<HTMLElement>('[data-plan-change-done]');
  if (dialog === null) return () => undefined;
  const part = (name: string): HTMLElement | null =>
    dialog.querySelector<HTMLElement>(`[data-plan-change-${name}]`);
  const confirm = part('confirm') as HTMLButtonElement | null;
  part('cancel')?.addEventListener('click', closePlanChange);
  confirm?.addEventListener('click', () => {
    void confirmPlanChange();
  });
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    closePlanChange();
  });
  const stops = [$planChange, $pricing, $subscription].map((store) =>
    store.subscribe(() => {
      const state = $planChange.get();
      const current = planName($subscription.get().subscription?.planCode ?? '');
      const target = planName(state.planCode);
      const name = part('name');
      if (name) name.textContent = target;
      const summary = part('summary');
      if (summary) {
        summary.textContent =
          state.quote === null
            ? state.error === ''
              ? 'Working out what the change costs…'
              : ''
            : planChangeSummary(state.quote, current, target);
      }
      const error = part('error');
      if (error) error.textContent = state.error;
      if (confirm) {
        confirm.disabled = state.pending || state.quote === null;
        confirm.textContent = state.pending && state.quote !== null ? 'Changing…' : 'Confirm change';
      }
      if (done) done.textContent = state.done;
      if (state.open && !dialog.open) dialog.showModal();
      if (!state.open && dialog.open) dialog.close();
    }),
  );
  return () => {
    for (const stop of stops) stop();
  };
}

function markCurrentPlan(root: HTMLElement): void {
  const user = $user.get();
  const current = user.authenticated ? user.planCode : '';
  for (const card of root.querySelectorAll<HTMLElement>('[data-plan-card]')) {
    const mine = current !== '' && (card.dataset.planCodes ?? '').split(' ').includes(current);
    const badge = card.querySelector<HTMLElement>('[data-plan-current]');
    if (badge) badge.hidden = !mine;
    card.toggleAttribute('data-current', mine);
  }
}

/** Wires the pricing page once per page view (the client router may bring it back). */
export function startPricingPage(): void {
  const root = document.querySelector<HTMLElement>('[data-pricing]');
  if (root === null || root.dataset.started === 'true') return;
  root.dataset.started = 'true';
  setCouponCode(root.dataset.coupon ?? '');

  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-plan-checkout]')) {
    button.addEventListener('click', () => {
      choose(chosenCode(button));
    });
  }

  const error = root.querySelector<HTMLElement>('[data-pricing-error]');
  const stops = [
    $pricing.subscribe((state) => {
      if (error) error.textContent = state.errorMessage;
    }),
    $checkoutPending.subscribe((pending) => {
      for (const button of root.querySelectorAll<HTMLButtonElement>('[data-plan-checkout]')) {
        button.disabled = pending;
        button.setAttribute('aria-busy', String(pending));
      }
    }),
    $user.subscribe(() => {
      markCurrentPlan(root);
    }),
    // A visitor who chose a plan signed out goes on to its checkout once signed in and the
    // pop-up has closed (the sign-up finishes inside the pop-up first).
    $auth.subscribe((auth) => {
      const pending = $pricing.get().selectedPlanCode;
      if (pending !== '' && $signedIn.get() && auth.authPopup === false) {
        selectPlan('');
        void proceed(pending);
      }
    }),
    wirePlanChange(root),
  ];
  document.addEventListener(
    'astro:before-swap',
    () => {
      for (const stop of stops) stop();
      $pricing.setKey('selectedPlanCode', '');
      resetPlanChange();
      resetSubscription();
    },
    { once: true },
  );
}
