import { computed } from 'nanostores';
import { $auth, $signedIn, openPremiumPopup } from './auth.ts';
import { $sessionChecked } from './session.ts';
import { $user } from './user.ts';

/**
 * The data coverage the visitor's plan includes (0 = the free sample, as the data API counts it).
 * Signed-out visitors browse at the free level.
 */
export const $dataTier = computed([$signedIn, $user], (signedIn, user) => (signedIn ? user.dataTier : 0));

/** Whether the visitor's plan includes content of `tier`. */
export function includes(tier: number): boolean {
  return $dataTier.get() >= tier;
}

/**
 * Lets the visitor through to content of `tier`, or opens the premium dialog instead and says so:
 * sections beyond the plan upsell rather than fail.
 */
export function requireTier(tier: number): boolean {
  if (includes(tier)) return true;
  openPremiumPopup();
  return false;
}

/**
 * Turns clicks on links and buttons marked `data-premium-tier` into the premium dialog when the
 * plan does not include them. One listener on the document serves every page, also after the
 * client router swaps the content; it listens in the capture phase, ahead of the router's own
 * link handling.
 */
export function guardPremiumLinks(root: Document = document): void {
  root.addEventListener(
    'click',
    (event) => {
      const target = event.target instanceof Element ? event.target.closest('[data-premium-tier]') : null;
      if (target === null) return;
      const tier = Number(target.getAttribute('data-premium-tier'));
      if (!Number.isFinite(tier) || requireTier(tier)) return;
      event.preventDefault();
      event.stopPropagation();
    },
    { capture: true },
  );
}

/**
 * Whether this page view's plan is settled: the stored session restored and confirmed with the
 * server. Only then is a shortfall real rather than a session still loading.
 */
export const $planSettled = computed([$auth, $sessionChecked], (auth, checked) => auth.init && checked);

/** A premium section's state: shown, still waiting for the plan, or beyond the plan. */
export type PremiumContentState = 'open' | 'pending' | 'locked';

/**
 * Premium sections open as soon as the (possibly still stored) plan includes them, so subscribers
 * wait for nothing; they lock only once the settled plan falls short.
 */
export function premiumContentState(tier: number, planTier: number, settled: boolean): PremiumContentState {
  if (planTier >= tier) return 'open';
  return settled ? 'locked' : 'pending';
}

const $premiumAccess = computed([$dataTier, $planSettled, $signedIn], (tier, settled, signedIn) => ({
  tier,
  settled,
  signedIn,
}));

/**
 * Shows the sections marked `data-premium-content="<tier>"` to plans that include them. The server
 * renders them covered (the same HTML for everyone, so pages stay cacheable); a visitor who opens
 * one directly by its address without the plan keeps the cover and is offered a subscription once,
 * as a click on a premium link would. Signing in to a plan that includes them uncovers them.
 * Returns the unsubscribe for the client router's page swaps.
 */
export function watchPremiumContent(root: ParentNode = document): () => void {
  const sections = [...root.querySelectorAll<HTMLElement>('[data-premium-content]')];
  if (sections.length === 0) return () => undefined;
  let offered = false;
  return $premiumAccess.subscribe(({ tier, settled, signedIn }) => {
    for (const section of sections) {
      const state = premiumContentState(Number(section.dataset.premiumContent), tier, settled);
      section.dataset.state = state;
      section.querySelector('[data-premium-data]')?.toggleAttribute('inert', state !== 'open');
      section.querySelector<HTMLElement>('[data-premium-sign-in]')?.toggleAttribute('hidden', signedIn);
      if (state === 'locked' && !offered) {
        offered = true;
        openPremiumPopup();
      }
    }
  });
}
