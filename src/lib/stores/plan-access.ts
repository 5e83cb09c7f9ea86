import { computed } from 'nanostores';
import { $signedIn, openPremiumPopup } from './auth.ts';
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
