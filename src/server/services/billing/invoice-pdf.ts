import PDFDocument from 'pdfkit';
import { formatCents, formatDay } from '../../../lib/format.ts';
import {
  addressLines,
  INVOICE_STATUS_LABELS,
  invoicePeriod,
  isTestInvoice,
  TEST_MODE_NOTE,
  type InvoiceView,
} from '../../../lib/invoices.ts';
import { SUPPORT_EMAIL } from '../../../lib/messages.ts';
import { SITE_NAME } from '../../../lib/routes.ts';

// The PDF of an invoice, drawn with pdfkit's built-in standard fonts (Helvetica), which every PDF
// reader has, so no font file ships with the site. The words and figures are the ones the printable
// page shows (src/lib/invoices.ts and the one money formatter).

const PAGE_MARGIN = 56;
const TEXT = '#1a2233';
const MUTED = '#4a5468';
const RULE = '#b8c0cd';
const DANGER = '#c92a2a';

type Doc = PDFKit.PDFDocument;

/** A label and its value on one line, the label in the muted colour. */
function labelled(doc: Doc, label: string, value: string, x: number, width: number): void {
  doc.font('Helvetica').fillColor(MUTED).text(`${label}: `, x, doc.y, { width, continued: true });
  doc.font('Helvetica-Bold').fillColor(TEXT).text(value);
}

function rule(doc: Doc, y: number): void {
  doc
    .moveTo(PAGE_MARGIN, y)
    .lineTo(doc.page.width - PAGE_MARGIN, y)
    .lineWidth(0.75)
    .strokeColor(RULE)
    .stroke();
}

/** One row of the amounts table: the description on the left, the amount right-aligned. */
function amountRow(doc: Doc, description: string, amount: string, bold = false): void {
  const width = doc.page.width - PAGE_MARGIN * 2;
  const y = doc.y;
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fillColor(TEXT);
  doc.text(description, PAGE_MARGIN, y, { width: width - 130 });
  const below = doc.y;
  doc.text(amount, PAGE_MARGIN + width - 130, y, { width: 130, align: 'right' });
  doc.y = Math.max(below, doc.y) + 6;
}

function header(doc: Doc, invoice: InvoiceView): void {
  const width = doc.page.width - PAGE_MARGIN * 2;
  doc.font('Helvetica-Bold').fontSize(22).fillColor(TEXT).text(SITE_NAME, PAGE_MARGIN, PAGE_MARGIN);
  doc.font('Helvetica').fontSize(10).fillColor(MUTED).text(SUPPORT_EMAIL);
  doc
    .font('Helvetica-Bold')
    .fontSize(22)
    .fillColor(TEXT)
    .text('Invoice', PAGE_MARGIN, PAGE_MARGIN, { width, align: 'right' });
  doc.font('Helvetica').fontSize(10).fillColor(MUTED).text(invoice.number, { width, align: 'right' });
  doc.y = PAGE_MARGIN + 64;
  if (isTestInvoice(invoice)) {
    const y = doc.y;
    doc.rect(PAGE_MARGIN, y, width, 26).lineWidth(1.5).dash(4, { space: 3 }).strokeColor(DANGER).stroke();
    doc.undash();
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor(DANGER)
      .text(TEST_MODE_NOTE, PAGE_MARGIN + 10, y + 8, { width: width - 20 });
    doc.y = y + 40;
  }
}

function details(doc: Doc, invoice: InvoiceView): void {
  const width = doc.page.width - PAGE_MARGIN * 2;
  const column = width / 2 - 10;
  const top = doc.y;
  doc.fontSize(10);
  doc.font('Helvetica-Bold').fillColor(TEXT).text('Bill to', PAGE_MARGIN, top, { width: column });
  doc.moveDown(0.3);
  const name = invoice.billingName.trim() === '' ? 'No billing name given' : invoice.billingName;
  doc.font('Helvetica').fillColor(TEXT).text(name, { width: column });
  for (const line of addressLines(invoice.billingAddress)) doc.text(line, { width: column });
  const leftEnd = doc.y;

  const x = PAGE_MARGIN + width / 2 + 10;
  doc.y = top;
  labelled(doc, 'Invoice number', invoice.number, x, column);
  labelled(doc, 'Issued', formatDay(new Date(invoice.issuedAt)), x, column);
  if (invoice.paidAt !== null) labelled(doc, 'Paid', formatDay(new Date(invoice.paidAt)), x, column);
  labelled(doc, 'Status', INVOICE_STATUS_LABELS[invoice.status], x, column);
  labelled(doc, 'Plan', invoice.planName, x, column);
  labelled(doc, 'Period', invoicePeriod(invoice), x, column);
  doc.y = Math.max(leftEnd, doc.y) + 24;
}

function amounts(doc: Doc, invoice: InvoiceView): void {
  const money = (cents: number): string => formatCents(cents, invoice.currency);
  doc.fontSize(10);
  amountRow(doc, 'Description', 'Amount', true);
  rule(doc, doc.y - 2);
  doc.y += 6;
  for (const line of invoice.lines) amountRow(doc, line.description, money(line.amountCents));
  rule(doc, doc.y);
  doc.y += 8;
  amountRow(doc, 'Subtotal', money(invoice.subtotalCents));
  if (invoice.taxCents !== 0) amountRow(doc, 'Tax', money(invoice.taxCents));
  doc.fontSize(12);
  amountRow(doc, `Total (${invoice.currency.toUpperCase()})`, money(invoice.totalCents), true);
}

function footer(doc: Doc, invoice: InvoiceView): void {
  const width = doc.page.width - PAGE_MARGIN * 2;
  doc.moveDown(1.5).fontSize(10).font('Helvetica').fillColor(MUTED);
  if (invoice.status === 'paid' && invoice.paidAt !== null) {
    const card = invoice.cardLast4 === null ? '' : ` with the card ending in ${invoice.cardLast4}`;
    doc.text(`Paid on ${formatDay(new Date(invoice.paidAt))}${card}. Thank you.`, PAGE_MARGIN, doc.y, {
      width,
    });
  } else if (invoice.status === 'open') {
    doc.text('This invoice is not paid yet.', PAGE_MARGIN, doc.y, { width });
  } else {
    doc.text('This invoice is void: nothing is owed on it.', PAGE_MARGIN, doc.y, { width });
  }
  doc.moveDown(0.5).text(`Questions about this invoice: ${SUPPORT_EMAIL}`, { width });
}

/**
 * The invoice as a PDF (A4): seller, bill-to as copied on the invoice, number, dates, period, the
 * lines, subtotal, tax when there is any, total and status, with TEST MODE across the top of a
 * test-mode invoice. Resolves with the whole file; invoices are one page and a few kilobytes.
 */
export function invoicePdf(invoice: InvoiceView): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    info: {
      Title: `${SITE_NAME} invoice ${invoice.number}`,
      Author: SITE_NAME,
      Subject: `Invoice ${invoice.number}`,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => {
      resolve(Buffer.concat(chunks));
    });
    doc.on('error', reject);
  });
  header(doc, invoice);
  details(doc, invoice);
  amounts(doc, invoice);
  footer(doc, invoice);
  doc.end();
  return done;
}
