import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type ReactNode, type SubmitEvent } from 'react';
import { BILLING_COUNTRIES } from '../lib/countries.ts';
import { formatCents, formatDay } from '../lib/format.ts';
import { INVOICE_STATUS_LABELS, invoicePagePath, isTestInvoice, type InvoiceView } from '../lib/invoices.ts';
import { AUTH_LINKS } from '../lib/routes.ts';
import {
  $billingProfile,
  $invoiceOwner,
  $invoices,
  downloadInvoicePdf,
  loadBillingProfile,
  loadInvoices,
  PROFILE_FIELDS,
  saveBillingProfile,
  setProfileValue,
  startInvoices,
  type ProfileField,
} from '../lib/stores/invoices.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import './Invoices.css';

function Skeleton({ label }: { label: string }): ReactNode {
  return (
    <div aria-busy="true">
      <p role="status" className="visually-hidden">
        {label}
      </p>
      <span className="skeleton invoices__skeleton" aria-hidden="true" />
    </div>
  );
}

function InvoiceRow({ invoice, downloading }: { invoice: InvoiceView; downloading: string }): ReactNode {
  const money = (cents: number): string => formatCents(cents, invoice.currency);
  return (
    <tr>
      <th scope="row">
        <span className="invoices__number">{invoice.number}</span>
        {isTestInvoice(invoice) && <span className="badge invoices__test">Test</span>}
      </th>
      <td data-label="Date">{formatDay(new Date(invoice.issuedAt))}</td>
      <td data-label="Period" className="invoices__period">
        <span className="invoices__day">{formatDay(new Date(invoice.periodStart))} –</span>{' '}
        <span className="invoices__day">{formatDay(new Date(invoice.periodEnd))}</span>
      </td>
      <td data-label="Plan">{invoice.planName}</td>
      <td data-label="Amount" className="invoices__amount">
        {money(invoice.totalCents)}
        {invoice.taxCents !== 0 && <span className="invoices__tax">incl. tax {money(invoice.taxCents)}</span>}
      </td>
      <td data-label="Status">
        <span className={`invoices__status invoices__status--${invoice.status}`}>
          {INVOICE_STATUS_LABELS[invoice.status]}
        </span>
      </td>
      <td className="invoices__row-actions">
        <div className="invoices__actions">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={downloading !== ''}
            onClick={() => {
              void downloadInvoicePdf(invoice.number);
            }}
          >
            {downloading === invoice.number ? 'Preparing…' : 'Download PDF'}
            <span className="visually-hidden"> of {invoice.number}</span>
          </button>
          <a className="btn btn-secondary btn-sm" href={invoicePagePath(invoice.number)}>
            View<span className="visually-hidden"> {invoice.number}</span>
          </a>
        </div>
      </td>
    </tr>
  );
}

function InvoiceList(): ReactNode {
  const { status, invoices, error, downloading, note, noteType } = useStore($invoices);
  const headingId = useId();
  let body: ReactNode;
  if (status === 'error') {
    body = (
      <div className="invoices__problem" role="alert">
        <p>Your invoices could not be loaded: {error}</p>
        <button
          type="button"
          className="btn btn-primary btn-sm"
          onClick={() => {
            void loadInvoices();
          }}
        >
          Try again
        </button>
      </div>
    );
  } else if (status !== 'ready') {
    body = <Skeleton label="Loading your invoices…" />;
  } else if (invoices.length === 0) {
    body = (
      <div className="invoices__empty">
        <p className="invoices__empty-title">No invoices yet</p>
        <p className="invoices__text">
          An invoice is issued each time a paid plan is charged.{' '}
          <a href={AUTH_LINKS.pricing}>See the plans</a>.
        </p>
      </div>
    );
  } else {
    body = (
      <div className="invoices__scroll">
        <table className="invoices__table">
          <caption>Your invoices, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Date</th>
              <th scope="col">Period</th>
              <th scope="col">Plan</th>
              <th scope="col" className="invoices__amount">
                Amount
              </th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {invoices.map((invoice) => (
              <InvoiceRow key={invoice.number} invoice={invoice} downloading={downloading} />
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  return (
    <section className="invoices__card" aria-labelledby={headingId}>
      <h2 id={headingId}>Your invoices</h2>
      {body}
      <p role="status" className={`invoices__note invoices__note--${noteType}`}>
        {note}
      </p>
    </section>
  );
}

interface FieldSpec {
  field: ProfileField;
  label: string;
  autoComplete: string;
  optional?: boolean;
  wide?: boolean;
}

const FIELDS: readonly FieldSpec[] = [
  { field: 'name', label: 'Name or company', autoComplete: 'organization', wide: true },
  { field: 'line1', label: 'Address line 1', autoComplete: 'address-line1', wide: true },
  {
    field: 'line2',
    label: 'Address line 2 (optional)',
    autoComplete: 'address-line2',
    optional: true,
    wide: true,
  },
  { field: 'city', label: 'City', autoComplete: 'address-level2' },
  { field: 'postalCode', label: 'Postal code', autoComplete: 'postal-code' },
];

function BillingDetails(): ReactNode {
  const { status, values, errors, saving, message, messageType, attempt } = useStore($billingProfile);
  const hydrated = useHydrated();
  const headingId = useId();
  const baseId = useId();
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (attempt === 0) return;
    const first = PROFILE_FIELDS.find((field) => errors[field] !== undefined);
    if (first !== undefined) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }, [attempt, errors]);

  const submit = (event: SubmitEvent<HTMLFormElement>): void => {
    event.preventDefault();
    void saveBillingProfile();
  };

  const describedBy = (field: ProfileField): string | undefined =>
    errors[field] === undefined ? undefined : `${baseId}-${field}-error`;

  const fieldError = (field: ProfileField): ReactNode =>
    errors[field] === undefined ? null : (
      <p id={`${baseId}-${field}-error`} className="invoices__field-error">
        {errors[field]}
      </p>
    );

  const countries = BILLING_COUNTRIES.some(([code]) => code === values.country)
    ? BILLING_COUNTRIES
    : [...BILLING_COUNTRIES, [values.country, values.country] as const];

  let body: ReactNode;
  if (status === 'error') {
    body = (
      <div className="invoices__problem" role="alert">
        <p>Your billing details could not be loaded: {message}</p>
        <button
          type="button"
          className="btn btn-primary btn-sm"
          onClick={() => {
            void loadBillingProfile();
          }}
        >
          Try again
        </button>
      </div>
    );
  } else if (status !== 'ready') {
    body = <Skeleton label="Loading your billing details…" />;
  } else {
    body = (
      <form ref={formRef} className="invoices__form" noValidate onSubmit={submit} aria-labelledby={headingId}>
        <div className="invoices__grid">
          {FIELDS.map((spec) => {
            const id = `${baseId}-${spec.field}`;
            return (
              <div
                key={spec.field}
                className={`invoices__field${spec.wide === true ? ' invoices__field--wide' : ''}`}
              >
                <label htmlFor={id}>{spec.label}</label>
                <input
                  id={id}
                  name={spec.field}
                  type="text"
                  value={values[spec.field]}
                  autoComplete={spec.autoComplete}
                  required={spec.optional !== true}
                  aria-invalid={errors[spec.field] !== undefined}
                  aria-describedby={describedBy(spec.field)}
                  onChange={(event) => {
                    setProfileValue(spec.field, event.currentTarget.value);
                  }}
                />
                {fieldError(spec.field)}
              </div>
            );
          })}
          <div className="invoices__field">
            <label htmlFor={`${baseId}-country`}>Country</label>
            <select
              id={`${baseId}-country`}
              name="country"
              value={values.country}
              aria-invalid={errors.country !== undefined}
              aria-describedby={describedBy('country')}
              onChange={(event) => {
                setProfileValue('country', event.currentTarget.value);
              }}
            >
              {countries.map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
            {fieldError('country')}
          </div>
        </div>
        <div className="invoices__form-end">
          <button type="submit" className="btn btn-primary" disabled={!hydrated || saving}>
            {saving ? 'Saving…' : 'Save billing details'}
          </button>
          <p
            role={messageType === 'error' ? 'alert' : 'status'}
            className={`invoices__note invoices__note--${messageType}`}
          >
            {message}
          </p>
        </div>
      </form>
    );
  }
  return (
    <section className="invoices__card" aria-labelledby={headingId}>
      <h2 id={headingId}>Billing details</h2>
      <p className="invoices__text">
        The name and address printed on your future invoices. Invoices already issued keep the details they
        were issued with.
      </p>
      {body}
    </section>
  );
}

/**
 * The invoices page (/developer/docs/invoices): the account's invoices with a PDF download and a
 * printable view each, and the billing details for future invoices. Nothing of the account shows
 * before the session is confirmed; signed-out visitors are sent away by the session's route guard.
 */
export function Invoices(): ReactNode {
  const owner = useStore($invoiceOwner);
  const hydrated = useHydrated();

  useEffect(() => startInvoices(), []);

  return (
    <div className="invoices">
      <div className="invoices__head">
        <h1>Invoices</h1>
        <a className="invoices__back" href={AUTH_LINKS.dashboard}>
          Back to the dashboard
        </a>
      </div>
      {!hydrated || owner === '' ? (
        <Skeleton label="Loading your invoices…" />
      ) : (
        <>
          <InvoiceList />
          <BillingDetails />
        </>
      )}
    </div>
  );
}
