import { and, desc, eq, sql } from 'drizzle-orm';
import { INVOICE_NUMBER_PATTERN, type InvoiceView } from '../../../lib/invoices.ts';
import type { Db } from '../../db/client.ts';
import {
  billingProfiles,
  invoiceCounters,
  invoices,
  pricePlans,
  type Invoice,
  type InvoiceLine,
  type InvoiceStatus,
} from '../../db/schema.ts';

/** An invoice as a provider event reports it; the site adds the number and the billing details. */
export interface InvoiceInput {
  userId: string;
  /** The provider's short name ('test', 'stripe'): numbers run per provider account. */
  provider: string;
  /** The provider's id of the invoice: the same invoice reported twice is stored once. */
  providerInvoiceId: string;
  /** The site's subscription id, when the invoice belongs to one. */
  subscriptionId: string | null;
  planCode: string;
  status: InvoiceStatus;
  currency: string;
  /** What was charged or credited; a proration credit is a negative line. */
  lines: InvoiceLine[];
  taxCents: number;
  periodStart: Date;
  periodEnd: Date;
  issuedAt: Date;
  paidAt: Date | null;
  cardLast4: string | null;
}

/** Prefix of the invoice numbers of each provider account; test-mode invoices say so in their number. */
const NUMBER_PREFIX: Readonly<Record<string, string>> = { test: 'TEST', stripe: 'TL' };

/** An invoice number as printed: the provider account's prefix and a six-digit sequence. */
export function invoiceNumber(provider: string, sequence: number): string {
  const prefix = NUMBER_PREFIX[provider] ?? provider.toUpperCase();
  return `${prefix}-${String(sequence).padStart(6, '0')}`;
}

/**
 * The next number of a provider account. The counter row is locked by the update until the
 * caller's transaction ends, so concurrent invoices get consecutive numbers and a rolled-back
 * invoice gives its number back: the numbers have no gaps.
 */
async function nextSequence(db: Db, provider: string): Promise<number> {
  const [row] = await db
    .insert(invoiceCounters)
    .values({ provider, lastNumber: 1 })
    .onConflictDoUpdate({
      target: invoiceCounters.provider,
      set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` },
    })
    .returning({ lastNumber: invoiceCounters.lastNumber });
  if (!row) throw new Error('Invoice counter update returned no row');
  return row.lastNumber;
}

/** Whether a stored invoice may move to `next`: an open invoice is settled once; paid and void are final. */
function canMove(current: InvoiceStatus, next: InvoiceStatus): boolean {
  return current === 'open' && next !== 'open';
}

/**
 * Stores an invoice the provider reported, in the caller's transaction. The first report numbers it
 * and copies the account's billing name and address as they are now; a later report of the same
 * provider invoice only settles an open invoice (paid or void), so a replayed or late event changes
 * nothing else.
 */
export async function recordInvoice(db: Db, input: InvoiceInput): Promise<Invoice> {
  const [existing] = await db
    .select()
    .from(invoices)
    .where(
      and(eq(invoices.provider, input.provider), eq(invoices.providerInvoiceId, input.providerInvoiceId)),
    )
    .limit(1);
  if (existing) {
    if (!canMove(existing.status, input.status)) return existing;
    const [settled] = await db
      .update(invoices)
      .set({ status: input.status, paidAt: input.paidAt, cardLast4: input.cardLast4 ?? existing.cardLast4 })
      .where(eq(invoices.id, existing.id))
      .returning();
    return settled ?? existing;
  }
  const [profile] = await db
    .select()
    .from(billingProfiles)
    .where(eq(billingProfiles.userId, input.userId))
    .limit(1);
  const subtotalCents = input.lines.reduce((sum, line) => sum + line.amountCents, 0);
  const number = invoiceNumber(input.provider, await nextSequence(db, input.provider));
  const [row] = await db
    .insert(invoices)
    .values({
      ...input,
      number,
      subtotalCents,
      totalCents: subtotalCents + input.taxCents,
      billingName: profile?.name ?? '',
      billingAddress: profile?.address ?? null,
    })
    .returning();
  if (!row) throw new Error('Invoice insert returned no row');
  return row;
}

/** Who asks for an invoice: its owner reads it, an administrator reads any. */
export interface InvoiceReader {
  userId: string;
  role: string;
}

function toView(invoice: Invoice, planName: string | null): InvoiceView {
  return {
    number: invoice.number,
    provider: invoice.provider,
    status: invoice.status,
    planCode: invoice.planCode,
    planName: planName ?? invoice.planCode,
    currency: invoice.currency,
    lines: invoice.lines,
    subtotalCents: invoice.subtotalCents,
    taxCents: invoice.taxCents,
    totalCents: invoice.totalCents,
    periodStart: invoice.periodStart.toISOString(),
    periodEnd: invoice.periodEnd.toISOString(),
    issuedAt: invoice.issuedAt.toISOString(),
    paidAt: invoice.paidAt?.toISOString() ?? null,
    cardLast4: invoice.cardLast4,
    billingName: invoice.billingName,
    billingAddress: invoice.billingAddress,
  };
}

/** The account's own invoices, newest first (the order the invoices page lists them in). */
export async function invoicesOf(db: Db, userId: string): Promise<InvoiceView[]> {
  const rows = await db
    .select({ invoice: invoices, planName: pricePlans.name })
    .from(invoices)
    .leftJoin(pricePlans, eq(pricePlans.code, invoices.planCode))
    .where(eq(invoices.userId, userId))
    .orderBy(desc(invoices.issuedAt), desc(invoices.number));
  return rows.map((row) => toView(row.invoice, row.planName));
}

/**
 * The invoice with this number when `reader` may read it (its owner, or an administrator), else
 * undefined: someone else's invoice and a number that does not exist look the same, so the numbers,
 * which run in sequence, tell nobody whose invoices exist. Anything not shaped like an invoice
 * number is not looked up.
 */
export async function readableInvoice(
  db: Db,
  number: string,
  reader: InvoiceReader,
): Promise<InvoiceView | undefined> {
  if (!INVOICE_NUMBER_PATTERN.test(number)) return undefined;
  const [row] = await db
    .select({ invoice: invoices, planName: pricePlans.name })
    .from(invoices)
    .leftJoin(pricePlans, eq(pricePlans.code, invoices.planCode))
    .where(eq(invoices.number, number))
    .limit(1);
  if (!row) return undefined;
  if (row.invoice.userId !== reader.userId && reader.role !== 'admin') return undefined;
  return toView(row.invoice, row.planName);
}
