import { map } from 'nanostores';
import { api, ApiError, NETWORK_ERROR_MESSAGE } from '../http.ts';

// The test-mode checkout page: the card form's values and where the payment stands. The page's
// address is the checkout; the provider's calls live under /api/billing/test-checkout/<id>.

export type CheckoutStatus = 'idle' | 'authenticate' | 'succeeded';

/** What the buyer types, kept as typed. */
export interface CheckoutValues {
  cardNumber: string;
  expiry: string;
  cvc: string;
  name: string;
  addressLine1: string;
  city: string;
  postalCode: string;
  country: string;
}

export interface CheckoutState {
  status: CheckoutStatus;
  /** A call to the provider is under way: the buttons wait for it. */
  busy: boolean;
  values: CheckoutValues;
  /** The provider's message after a decline or a refused field, shown above the button. */
  message: string;
  /** The field the message is about, if any. */
  field: keyof CheckoutValues | '';
}

const INITIAL: CheckoutState = {
  status: 'idle',
  busy: false,
  values: {
    cardNumber: '',
    expiry: '',
    cvc: '',
    name: '',
    addressLine1: '',
    city: '',
    postalCode: '',
    country: 'US',
  },
  message: '',
  field: '',
};

/** The checkout page's state; reset when the page is left. */
export const $checkout = map<CheckoutState>(INITIAL);

/** Keeps what the buyer typed in one field and clears a message about it. */
export function setCheckoutValue(field: keyof CheckoutValues, value: string): void {
  const state = $checkout.get();
  $checkout.set({
    ...state,
    values: { ...state.values, [field]: value },
    ...(state.field === field ? { message: '', field: '' as const } : {}),
  });
}

/** Back to an empty form. */
export function resetCheckout(): void {
  $checkout.set(INITIAL);
}

interface PaymentAnswer {
  status: 'succeeded' | 'requires_action';
  redirectUrl?: string;
}

function isField(value: string | undefined): value is keyof CheckoutValues {
  return value !== undefined && value in INITIAL.values;
}

function refused(error: unknown): void {
  const failure = error instanceof ApiError ? error : undefined;
  const message = failure?.message ?? NETWORK_ERROR_MESSAGE;
  const field = isField(failure?.field) ? failure.field : '';
  // A decline (402) leaves nothing pending: after a failed confirmation the card form is back.
  const status = failure?.status === 402 ? 'idle' : $checkout.get().status;
  $checkout.set({ ...$checkout.get(), status, busy: false, message, field });
}

function answered(answer: PaymentAnswer, go: (url: string) => void): void {
  if (answer.status === 'requires_action') {
    $checkout.set({ ...$checkout.get(), status: 'authenticate', busy: false, message: '', field: '' });
    return;
  }
  $checkout.set({ ...$checkout.get(), status: 'succeeded', message: '', field: '' });
  go(answer.redirectUrl ?? '/developer/docs/dashboard?checkout=success');
}

function base(checkoutId: string): string {
  return `/api/billing/test-checkout/${encodeURIComponent(checkoutId)}`;
}

/** Sends the card to the provider; a decline keeps the form with the provider's message. */
export async function payCheckout(checkoutId: string, go: (url: string) => void): Promise<void> {
  const state = $checkout.get();
  if (state.busy) return;
  $checkout.set({ ...state, busy: true, message: '', field: '' });
  try {
    const body: Record<string, unknown> = { ...state.values };
    answered(await api<PaymentAnswer>(`${base(checkoutId)}/pay`, { method: 'POST', body }), go);
  } catch (error) {
    refused(error);
  }
}

/** The extra confirmation step some cards ask for: completing it pays, failing it charges nothing. */
export async function authenticateCheckout(
  checkoutId: string,
  outcome: 'complete' | 'fail',
  go: (url: string) => void,
): Promise<void> {
  const state = $checkout.get();
  if (state.busy) return;
  $checkout.set({ ...state, busy: true, message: '', field: '' });
  try {
    const answer = await api<PaymentAnswer>(`${base(checkoutId)}/authenticate`, {
      method: 'POST',
      body: { outcome },
    });
    answered(answer, go);
  } catch (error) {
    refused(error);
  }
}
