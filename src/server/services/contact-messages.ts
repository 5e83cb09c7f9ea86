import { desc, sql, type SQL } from 'drizzle-orm';
import { contactTopicLabel } from '../../lib/contact-message-form.ts';
import type { ContactMessage } from '../../lib/contact-message-schema.ts';
import { SITE_NAME } from '../../lib/routes.ts';
import { siteUrl } from '../app/config.ts';
import type { Db } from '../db/client.ts';
import { contactMessages, type ContactMessageRow } from '../db/schema.ts';
import { companyPageSize, greeting, isRowId, newCompanyReference } from './company-references.ts';
import { queueEmail } from './outbox.ts';

/** A validated contact message (see src/lib/contact-message-schema.ts) and who sent it, if signed in. */
export type NewContactMessage = Omit<ContactMessage, 'website'> & { userId?: string | null | undefined };

export interface ContactMessagePage {
  entries: ContactMessageRow[];
  /** Pass as `before` to read the next (older) page; null on the last page. */
  nextBefore: string | null;
}

/** Where the confirmation email sends its reader back to. */
export const CONTACT_PATH = '/contact';

/** The confirmation's subject line, naming the reference so the sender can find it in their inbox. */
export function contactConfirmationSubject(reference: string): string {
  return `We received your message (${reference})`;
}

/** The confirmation's text: the reference, the topic and the sender's own words, to keep. */
export function contactConfirmationBody(message: {
  name: string;
  topic: string;
  message: string;
  reference: string;
}): string {
  return [
    greeting(message.name),
    '',
    `Thank you for writing to ${SITE_NAME}. Your message about ${contactTopicLabel(message.topic).toLowerCase()} has reached us, and we will answer at this address within two business days.`,
    '',
    `Your reference is ${message.reference}. Please quote it if you write to us again about the same matter.`,
    '',
    'What you wrote:',
    '',
    message.message,
    '',
    `Many questions are answered straight away in the help center: ${siteUrl()}/help-center`,
    '',
    `The ${SITE_NAME} team`,
  ].join('\n');
}

/**
 * Stores a contact message and writes its confirmation email, in one transaction: the sender is
 * never told about a message that was not kept, and a kept message always has its confirmation.
 */
export async function saveContactMessage(db: Db, message: NewContactMessage): Promise<ContactMessageRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contactMessages)
      .values({
        reference: newCompanyReference('CT'),
        name: message.name,
        email: message.email,
        topic: message.topic,
        message: message.message,
        userId: message.userId ?? null,
      })
      .returning();
    if (!row) throw new Error('Contact message insert returned no row');
    await queueEmail(tx, {
      email: row.email,
      kind: 'CONTACT_MESSAGE_RECEIVED',
      subject: contactConfirmationSubject(row.reference),
      body: contactConfirmationBody(row),
      link: CONTACT_PATH,
    });
    return row;
  });
}

function olderThan(id: string): SQL {
  // Compared in SQL on (created_at, id): a JavaScript Date would drop the microseconds and skip rows.
  return sql`(${contactMessages.createdAt}, ${contactMessages.id}) < (select m.created_at, m.id from ${contactMessages} m where m.id = ${id}::uuid)`;
}

/** Newest first, a page at a time; `before` is the id of the last message already shown. */
export async function listContactMessages(
  db: Db,
  options: { limit?: number | undefined; before?: string | undefined } = {},
): Promise<ContactMessagePage> {
  const limit = companyPageSize(options.limit);
  if (options.before !== undefined && !isRowId(options.before)) {
    throw new RangeError('before must be the id of a listed message');
  }
  const rows = await db
    .select()
    .from(contactMessages)
    .where(options.before === undefined ? undefined : olderThan(options.before))
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(limit + 1);
  const entries = rows.slice(0, limit);
  const last = entries.at(-1);
  return { entries, nextBefore: rows.length > limit && last ? last.id : null };
}
