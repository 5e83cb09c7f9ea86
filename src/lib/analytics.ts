/**
 * The analytics data layer (Google Tag Manager's `window.dataLayer`): the site pushes plain event
 * objects and whatever tag manager the page loads picks them up, so the product code never depends
 * on a particular analytics vendor being present.
 */

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

/**
 * The event pushed once per new account (SPEC §4). `sign_up` is the event name Google Analytics
 * recommends for registrations, so reports recognise it without custom mapping; `method` says how
 * the account was created ('Email', or the social provider's id such as 'google.com') and
 * `category` where (the sign-up 'Page' or the 'Popup').
 */
export const SIGN_UP_EVENT = 'sign_up';

export type SignUpCategory = 'Popup' | 'Page';

export interface SignUpEvent {
  event: typeof SIGN_UP_EVENT;
  method: string;
  category: SignUpCategory;
}

/** Appends an entry to the data layer, creating it when no tag manager has yet. */
export function pushToDataLayer(entry: Record<string, unknown>): void {
  if (typeof window === 'undefined') return;
  window.dataLayer ??= [];
  window.dataLayer.push(entry);
}

/** Records a registration: `method` 'Email' or a provider id, `category` where it happened. */
export function pushSignUpEvent(method: string, category: SignUpCategory): void {
  const entry: SignUpEvent = { event: SIGN_UP_EVENT, method, category };
  pushToDataLayer({ ...entry });
}
