import { $auth, $signedIn, openAuthPopup } from './stores/auth.ts';
import { $checkoutPending, $pricing, selectPlan, setCouponCode, startCheckout } from './stores/pricing.ts';
import { $user } from './stores/user.ts';

/*
 * What the pricing page does in the browser, without a framework: the plan buttons open the
 * checkout of the plan and billing period chosen (a signed-out visitor first signs up in the pop-up,
 * then goes on to the same checkout), the reader's current plan is marked, and a refused checkout
 * says why. The prices, limits and the billing switch are the server's HTML and CSS.
 */

/** The plan code a button stands for under the billing period now chosen. */
function chosenCode(button: HTMLElement): string {
  const annual = document.querySelector<HTMLInputElement>('#billing-year')?.checked === true;
  const { planMonth, planYear } = button.dataset;
  return (annual ? (planYear ?? planMonth) : (planMonth ?? planYear)) ?? '';
}

/** Opens the checkout now, or after the visitor has an account and is signed in. */
function choose(code: string): void {
  if (code === '') return;
  if ($signedIn.get()) {
    void startCheckout(code);
    return;
  }
  selectPlan(code);
  openAuthPopup(2);
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
      if (pending !== '' && $signedIn.get() && auth.authPopup === false) void startCheckout(pending);
    }),
  ];
  document.addEventListener(
    'astro:before-swap',
    () => {
      for (const stop of stops) stop();
      $pricing.setKey('selectedPlanCode', '');
    },
    { once: true },
  );
}
