import { useStore } from '@nanostores/react';
import { useEffect, type ReactNode } from 'react';
import { formatCents, formatDay } from '../lib/format.ts';
import {
  addressLines,
  INVOICE_STATUS_LABELS,
  invoicePeriod,
  isTestInvoice,
  TEST_MODE_NOTE,
  type InvoiceView,
} from '../lib/invoices.ts';
import { SUPPORT_EMAIL } from '../lib/messages.ts';
import { AUTH_LINKS, SITE_NAME } from '../lib/routes.ts';
import { $invoicePage, loadInvoice, startInvoicePage } from '../lib/stores/invoices.ts';
import { useHydrated } from './parts/use-hydrated.ts';
import './InvoiceDocument.css';

function Actions(): ReactNode {
  return (
    <div className="invoice-doc__actions">
      <a href={AUTH_LINKS.invoices}>Back to invoices</a>
      <button
        type="button"
        className="btn btn-primary btn-sm"
        onClick={() => {
          window.print();
        }}
      >
        Print
      </button>
    </div>
  );
}

function Paper({ invoice }: { invoice: InvoiceView }): ReactNode {
  const money = (cents: number): string => formatCents(cents, invoice.currency);
  const address = addressLines(invoice.billingAddress);
  return (
    <article className="invoice-doc" aria-labelledby="invoice-title">
      <header className="invoice-doc__head">
        <div>
          <p className="invoice-doc__seller">{SITE_NAME}</p>
          <p className="invoice-doc__muted">{SUPPORT_EMAIL}</p>
        </div>
        <div className="invoice-doc__title">
          <h1 id="invoice-title">
            Invoice <span className="invoice-doc__number">{invoice.number}</span>
          </h1>
          <p>
            <span className={`invoice-doc__status invoice-doc__status--${invoice.status}`}>
              {INVOICE_STATUS_LABELS[invoice.status]}
            </span>
          </p>
        </div>
      </header>
      {isTestInvoice(invoice) && (
        <p className="invoice-doc__test" role="note">
          {TEST_MODE_NOTE}
        </p>
      )}
      <div className="invoice-doc__parties">
        <section aria-labelledby="invoice-bill-to">
          <h2 id="invoice-bill-to">Bill to</h2>
          <p>{invoice.billingName.trim() === '' ? 'No billing name given' : invoice.billingName}</p>
          {address.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </section>
        <dl className="invoice-doc__facts">
          <dt>Invoice number</dt>
          <dd>{invoice.number}</dd>
          <dt>Issued</dt>
          <dd>{formatDay(new Date(invoice.issuedAt))}</dd>
          {invoice.paidAt !== null && (
            <>
              <dt>Paid</dt>
              <dd>{formatDay(new Date(invoice.paidAt))}</dd>
            </>
          )}
          <dt>Plan</dt>
          <dd>{invoice.planName}</dd>
          <dt>Period</dt>
          <dd>{invoicePeriod(invoice)}</dd>
        </dl>
      </div>
      <table className="invoice-doc__lines">
        <caption className="visually-hidden">What this invoice charges</caption>
        <thead>
          <tr>
            <th scope="col">Description</th>
            <th scope="col">Amount</th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((line, index) => (
            <tr key={`${String(index)}-${line.description}`}>
              <td>{line.description}</td>
              <td>{money(line.amountCents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Subtotal</th>
            <td>{money(invoice.subtotalCents)}</td>
          </tr>
          {invoice.taxCents !== 0 && (
            <tr>
              <th scope="row">Tax</th>
              <td>{money(invoice.taxCents)}</td>
            </tr>
          )}
          <tr className="invoice-doc__total">
            <th scope="row">Total ({invoice.currency.toUpperCase()})</th>
            <td>{money(invoice.totalCents)}</td>
          </tr>
        </tfoot>
      </table>
      <p className="invoice-doc__muted">
        {invoice.status === 'paid' && invoice.paidAt !== null
          ? `Paid on ${formatDay(new Date(invoice.paidAt))}${invoice.cardLast4 === null ? '' : ` with the card ending in ${invoice.cardLast4}`}. Thank you.`
          : invoice.status === 'open'
            ? 'This invoice is not paid yet.'
            : 'This invoice is void: nothing is owed on it.'}{' '}
        Questions about this invoice: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
      </p>
    </article>
  );
}

/**
 * The printable page of one invoice (/developer/docs/invoices/<number>): the same content as its PDF,
 * laid out for paper, with a Print button. Read with the session's token once the session is
 * confirmed; an invoice that is not the account's reads as not found.
 */
export function InvoiceDocument({ number }: { number: string }): ReactNode {
  const { page } = useStore($invoicePage);
  const hydrated = useHydrated();

  useEffect(() => startInvoicePage(number), [number]);

  if (!hydrated || page.status === 'loading') {
    return (
      <div aria-busy="true">
        <p role="status" className="visually-hidden">
          Loading invoice {number}…
        </p>
        <span className="skeleton invoice-doc__skeleton" aria-hidden="true" />
      </div>
    );
  }
  if (page.status === 'missing') {
    return (
      <div className="invoice-doc__problem">
        <h1>Invoice not found</h1>
        <p>
          There is no invoice {number} on your account. Your invoices are listed on the{' '}
          <a href={AUTH_LINKS.invoices}>invoices page</a>.
        </p>
      </div>
    );
  }
  if (page.status === 'error') {
    return (
      <div className="invoice-doc__problem" role="alert">
        <h1>Invoice {number}</h1>
        <p>The invoice could not be loaded: {page.error}</p>
        <button
          type="button"
          className="btn btn-primary btn-sm"
          onClick={() => {
            void loadInvoice(number);
          }}
        >
          Try again
        </button>
      </div>
    );
  }
  return (
    <>
      <Actions />
      <Paper invoice={page.invoice} />
    </>
  );
}
