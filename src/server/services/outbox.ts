import { desc } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { outboxEmails, type OutboxEmail } from '../db/schema.ts';

/** The kinds of email the product itself writes (the identity provider mails its own). */
export const OUTBOX_KINDS = [
  'HELP_REQUEST_RECEIVED',
  'CONTACT_MESSAGE_RECEIVED',
  'JOB_APPLICATION_RECEIVED',
  'BILLING_RECEIPT',
  'BILLING_PAYMENT_FAILED',
  'BILLING_CANCELED',
  'BILLING_ENDED',
  'API_KEY_CHANGED',
  'USAGE_ALERT',
  'ACCOUNT_CHANGED',
  'ACCOUNT_DELETED',
] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

export interface NewOutboxEmail {
  email: string;
  kind: OutboxKind;
  subject: string;
  body: string;
  /** A path on this site the email invites its reader to open. */
  link: string;
}

/** How many of the product's emails the local mailbox shows, newest first. */
export const OUTBOX_LISTING_LIMIT = 200;

/**
 * Writes an email to the outbox. The row is the email: stored in the database (not in memory) so
 * that whichever instance answers the mailbox sees it, and inside the caller's transaction so an
 * email never confirms something that was not stored.
 */
export async function queueEmail(db: Db, email: NewOutboxEmail): Promise<OutboxEmail> {
  const [row] = await db
    .insert(outboxEmails)
    .values({ ...email, email: email.email.toLowerCase() })
    .returning();
  if (!row) throw new Error('Outbox insert returned no row');
  return row;
}

/** The newest emails first, for the local mailbox. */
export function listOutbox(db: Db, limit = OUTBOX_LISTING_LIMIT): Promise<OutboxEmail[]> {
  return db
    .select()
    .from(outboxEmails)
    .orderBy(desc(outboxEmails.createdAt), desc(outboxEmails.id))
    .limit(limit);
}
