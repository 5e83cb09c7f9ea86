import { useStore } from '@nanostores/react';
import { useEffect, useId, type ReactNode, type SubmitEvent } from 'react';
import {
  $checkout,
  authenticateCheckout,
  payCheckout,
  resetCheckout,
  setCheckoutValue,
  type CheckoutValues,
} from '../lib/stores/checkout.ts';
import { BILLING_COUNTRIES } from '../lib/countries.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import './CheckoutForm.css';

interface CheckoutFormProps {
  checkoutId: string;
  /** The amount as the button says it, e.g. "$49.00". */
  amount: string;
}

function go(url: string): void {
  window.location.assign(url);
}

interface InputSpec {
  field: keyof CheckoutValues;
  label: string;
  autoComplete: string;
  inputMode?: 'numeric' | 'text';
  placeholder?: string;
  /** Takes the whole row: long values (a card number, a street) are read in full. */
  wide?: boolean;
}

const CARD_FIELDS: readonly InputSpec[] = [
  {
    field: 'cardNumber',
    label: 'Card number',
    autoComplete: 'cc-number',
    inputMode: 'numeric',
    placeholder: '4242 4242 4242 4242',
    wide: true,
  },
  { field: 'expiry', label: 'Expiry (MM / YY)', autoComplete: 'cc-exp', placeholder: 'MM / YY' },
  { field: 'cvc', label: 'CVC', autoComplete: 'cc-csc', inputMode: 'numeric', placeholder: '123' },
  { field: 'name', label: 'Name on card', autoComplete: 'cc-name', wide: true },
];

const ADDRESS_FIELDS: readonly InputSpec[] = [
  { field: 'addressLine1', label: 'Address', autoComplete: 'address-line1', wide: true },
  { field: 'city', label: 'City', autoComplete: 'address-level2' },
  { field: 'postalCode', label: 'Postal code', autoComplete: 'postal-code' },
];

/** The extra confirmation step of the 3155 test card, as a bank's page would ask for it. */
function Authenticate({ checkoutId, busy }: { checkoutId: string; busy: boolean }): ReactNode {
  return (
    <section className="checkout-form__auth" aria-labelledby="checkout-auth-title">
      <h2 id="checkout-auth-title">Confirm this payment</h2>
      <p>Your bank asks you to confirm this payment. In test mode, choose what the bank answers.</p>
      <div className="checkout-form__auth-actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy}
          onClick={() => void authenticateCheckout(checkoutId, 'complete', go)}
        >
          Complete authentication
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy}
          onClick={() => void authenticateCheckout(checkoutId, 'fail', go)}
        >
          Fail authentication
        </button>
      </div>
    </section>
  );
}

/**
 * The test-mode provider's card form: card, expiry, CVC, name and billing address. A decline keeps
 * everything typed and shows the provider's message; a paid checkout goes on to the dashboard.
 */
export function CheckoutForm({ checkoutId, amount }: CheckoutFormProps): ReactNode {
  const { status, busy: calling, values, message, field } = useStore($checkout);
  const hydrated = useHydrated();
  const baseId = useId();
  const busy = calling || status === 'succeeded';

  useEffect(() => resetCheckout, []);

  const submit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    void payCheckout(checkoutId, go);
  };

  const input = (spec: InputSpec): ReactNode => {
    const id = `${baseId}-${spec.field}`;
    const wrong = field === spec.field;
    return (
      <div
        className={`checkout-form__field${spec.wide === true ? ' checkout-form__field--wide' : ''}`}
        key={spec.field}
      >
        <label htmlFor={id}>{spec.label}</label>
        <input
          id={id}
          name={spec.field}
          type="text"
          value={values[spec.field]}
          autoComplete={spec.autoComplete}
          inputMode={spec.inputMode}
          placeholder={spec.placeholder}
          required
          aria-invalid={wrong}
          aria-describedby={wrong ? `${baseId}-message` : undefined}
          onChange={(event) => {
            setCheckoutValue(spec.field, event.currentTarget.value);
          }}
        />
      </div>
    );
  };

  return (
    <form className="checkout-form" noValidate onSubmit={submit} aria-label="Card details">
      <fieldset className="checkout-form__group" disabled={busy || status === 'authenticate'}>
        <legend>Card</legend>
        <div className="checkout-form__grid">{CARD_FIELDS.map(input)}</div>
      </fieldset>
      <fieldset className="checkout-form__group" disabled={busy || status === 'authenticate'}>
        <legend>Billing address</legend>
        <div className="checkout-form__grid">
          {ADDRESS_FIELDS.map(input)}
          <div className="checkout-form__field">
            <label htmlFor={`${baseId}-country`}>Country</label>
            <select
              id={`${baseId}-country`}
              name="country"
              value={values.country}
              onChange={(event) => {
                setCheckoutValue('country', event.currentTarget.value);
              }}
            >
              {BILLING_COUNTRIES.map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        </div>
      </fieldset>
      {status === 'authenticate' ? <Authenticate checkoutId={checkoutId} busy={busy} /> : null}
      <p id={`${baseId}-message`} role="alert" className="checkout-form__message">
        {message}
      </p>
      {status === 'authenticate' ? null : (
        <button type="submit" className="btn btn-primary checkout-form__pay" disabled={!hydrated || busy}>
          {status === 'succeeded' ? 'Paid' : calling ? 'Paying…' : `Pay ${amount}`}
        </button>
      )}
    </form>
  );
}
