import { formatDay } from './format.ts';
import { AUTH_LINKS, SITE_NAME } from './routes.ts';

/**
 * Invoices as the accounts API answers them and as every view of one words it (the invoices page,
 * the printable page, the PDF), so the three never disagree about a period, an address or a status.
 */

export type InvoiceStatus = 'paid' | 'open' | 'void';

/** A postal address as an invoice prints it; `country` is an ISO 3166-1 alpha-2 code. */
export interface InvoiceAddress {
  line1: string;
  line2: string;
  city: string;
  postalCode: string;
  country: string;
}

/** One line of an invoice; a credit (a discount, unused time) is negative. */
export interface InvoiceLineView {
  description: string;
  amountCents: number;
}

/** An invoice as `GET /api/portal/billing/invoices` lists it: dates as ISO strings, the plan by name. */
export interface InvoiceView {
  number: string;
  /** The payment provider's short name: 'test' invoices are marked TEST MODE wherever they are shown. */
  provider: string;
  status: InvoiceStatus;
  planCode: string;
  planName: string;
  currency: string;
  lines: InvoiceLineView[];
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
  periodStart: string;
  periodEnd: string;
  issuedAt: string;
  paidAt: string | null;
  cardLast4: string | null;
  /** The billing name and address as they were when the invoice was issued. */
  billingName: string;
  billingAddress: InvoiceAddress | null;
}

/** The billing name and address for future invoices, as `GET/PUT /api/portal/billing/profile` carry them. */
export interface BillingProfileView {
  name: string;
  address: InvoiceAddress | null;
}

/** How a status reads in a badge and on the invoice. */
export const INVOICE_STATUS_LABELS: Readonly<Record<InvoiceStatus, string>> = {
  paid: 'Paid',
  open: 'Open',
  void: 'Void',
};

/** What marks an invoice of the test-mode provider: nothing on it was charged. */
export const TEST_MODE_NOTE = 'TEST MODE: issued by the test-mode payment provider; no card was charged.';

/** Whether an invoice comes from the test-mode provider. */
export function isTestInvoice(invoice: Pick<InvoiceView, 'provider'>): boolean {
  return invoice.provider === 'test';
}

/** The period an invoice covers, as calendar days: "Nov 26, 2026 – Dec 26, 2026". */
export function invoicePeriod(invoice: Pick<InvoiceView, 'periodStart' | 'periodEnd'>): string {
  return `${formatDay(new Date(invoice.periodStart))} – ${formatDay(new Date(invoice.periodEnd))}`;
}

/** The English name of an ISO country code ("GB" → "United Kingdom"), or the code when unknown. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** Region codes with an English name that are not countries: unknown, groupings, outlying areas. */
const NOT_COUNTRIES = new Set(['ZZ', 'EU', 'EZ', 'UN', 'QO']);

/** Whether a code is an ISO 3166-1 alpha-2 country code (as far as the runtime's region names know). */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return false;
  return new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }).of(code) !== undefined;
}

/** An address as the lines printed under the name; empty parts are left out. */
export function addressLines(address: InvoiceAddress | null): string[] {
  if (address === null) return [];
  const cityLine = [address.postalCode, address.city].filter((part) => part.trim() !== '').join(' ');
  return [
    address.line1,
    address.line2,
    cityLine,
    address.country === '' ? '' : countryName(address.country),
  ].filter((line) => line.trim() !== '');
}

/** The saved PDF's file name, which names the invoice: "tickerlake-invoice-TEST-000001.pdf". */
export function invoiceFilename(number: string): string {
  return `${SITE_NAME.toLowerCase()}-invoice-${number}.pdf`;
}

/** Invoice numbers as the site gives them out (a prefix and a sequence); anything else names no invoice. */
export const INVOICE_NUMBER_PATTERN = /^[A-Z][A-Z0-9-]{0,30}-\d{6,}$/;

/** Where an invoice's printable page is. */
export function invoicePagePath(number: string): string {
  return `${AUTH_LINKS.invoices}/${encodeURIComponent(number)}`;
}
