import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { billingProfiles, type BillingAddress } from '../../db/schema.ts';

/** The name and address an account wants on its next invoices. */
export interface BillingDetails {
  name: string;
  address: BillingAddress | null;
}

/** What an account without a billing profile has: no name, no address. */
export const NO_BILLING_DETAILS: BillingDetails = { name: '', address: null };

/** The account's billing name and address, or empty ones when it has given none yet. */
export async function billingDetailsOf(db: Db, userId: string): Promise<BillingDetails> {
  const [row] = await db
    .select({ name: billingProfiles.name, address: billingProfiles.address })
    .from(billingProfiles)
    .where(eq(billingProfiles.userId, userId))
    .limit(1);
  return row ?? NO_BILLING_DETAILS;
}

/**
 * Replaces the account's billing name and address. Only invoices issued from now on carry them:
 * an issued invoice keeps the copy it was issued with.
 */
export async function saveBillingDetails(
  db: Db,
  userId: string,
  details: BillingDetails,
): Promise<BillingDetails> {
  const [row] = await db
    .insert(billingProfiles)
    .values({ userId, ...details })
    .onConflictDoUpdate({ target: billingProfiles.userId, set: { ...details, updatedAt: new Date() } })
    .returning({ name: billingProfiles.name, address: billingProfiles.address });
  return row ?? details;
}

/**
 * Keeps the name and address typed on a checkout's card form as the account's billing details, when
 * the account has none yet, so the first invoice is addressed without a detour to the settings; an
 * account's own details are never overwritten by a card form. Returns whether they were kept.
 */
export async function rememberCheckoutBillingDetails(
  db: Db,
  userId: string,
  details: BillingDetails,
): Promise<boolean> {
  const rows = await db
    .insert(billingProfiles)
    .values({ userId, ...details })
    .onConflictDoNothing({ target: billingProfiles.userId })
    .returning({ userId: billingProfiles.userId });
  return rows.length === 1;
}
