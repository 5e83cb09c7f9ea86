import { randomInt } from 'node:crypto';
import { desc, sql, type SQL } from 'drizzle-orm';
import type { HelpRequest } from '../../lib/help-schema.ts';
import { helpTopicLabel, type HelpTopic } from '../../lib/help-topics.ts';
import { SITE_NAME } from '../../lib/routes.ts';
import { siteUrl } from '../app/config.ts';
import type { Db } from '../db/client.ts';
import { supportRequests, type SupportRequest } from '../db/schema.ts';
import { queueEmail } from './outbox.ts';

/** A validated help request (see src/lib/help-form.ts) and who sent it, if signed in. */
export type NewSupportRequest = Omit<HelpRequest, 'website'> & { userId?: string | null | undefined };

export interface SupportRequestPage {
  entries: SupportRequest[];
  /** Pass as `before` to read the next (older) page; null on the last page. */
  nextBefore: string | null;
}

export const DEFAULT_SUPPORT_PAGE = 50;
export const MAX_SUPPORT_PAGE = 200;

/** Where the confirmation email sends its reader back to. */
export const HELP_CENTER_PATH = '/help-center';

/** Letters and digits that cannot be mistaken for one another when read out or typed (no 0/O, 1/I/L). */
const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const REFERENCE_LENGTH = 8;
/** `HC-` and eight characters of the alphabet above. */
export const REFERENCE_PATTERN = /^HC-[2-9A-HJKMNP-Z]{8}$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A new reference such as `HC-7KQ2M9XD`: short enough to quote on the phone, random so it tells
 * nothing about how many requests exist (31⁸ ≈ 850 billion values; the column is unique).
 */
export function newReference(): string {
  const code = Array.from({ length: REFERENCE_LENGTH }, () =>
    REFERENCE_ALPHABET.charAt(randomInt(REFERENCE_ALPHABET.length)),
  ).join('');
  return `HC-${code}`;
}

/** The confirmation's subject line, naming the reference so the sender can find it in their inbox. */
export function confirmationSubject(reference: string): string {
  return `We received your question (${reference})`;
}

/** The confirmation's text: the reference, the topic and the sender's own words, to keep. */
export function confirmationBody(request: {
  name: string;
  topic: HelpTopic;
  message: string;
  reference: string;
}): string {
  const firstName = request.name.trim().split(/\s+/)[0] ?? '';
  return [
    firstName === '' ? 'Hello,' : `Hello ${firstName},`,
    '',
    `Thank you for writing to ${SITE_NAME} support. Your question about ${helpTopicLabel(request.topic)} has reached us, and we will answer at this address.`,
    '',
    `Your reference is ${request.reference}. Please quote it if you write to us again about the same question.`,
    '',
    'What you wrote:',
    '',
    request.message,
    '',
    `The answers to common questions are in the help center: ${siteUrl()}${HELP_CENTER_PATH}`,
    '',
    `${SITE_NAME} support`,
  ].join('\n');
}

/**
 * Stores a help request and writes its confirmation email, in one transaction: the sender is never
 * told about a request that was not kept, and a kept request always has its confirmation.
 */
export async function saveSupportRequest(db: Db, request: NewSupportRequest): Promise<SupportRequest> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(supportRequests)
      .values({
        reference: newReference(),
        name: request.name,
        email: request.email,
        topic: request.topic,
        message: request.message,
        userId: request.userId ?? null,
      })
      .returning();
    if (!row) throw new Error('Support request insert returned no row');
    await queueEmail(tx, {
      email: row.email,
      kind: 'HELP_REQUEST_RECEIVED',
      subject: confirmationSubject(row.reference),
      body: confirmationBody({ ...request, reference: row.reference }),
      link: HELP_CENTER_PATH,
    });
    return row;
  });
}

function olderThan(id: string): SQL {
  // Compared in SQL on (created_at, id): a JavaScript Date would drop the microseconds and skip rows.
  return sql`(${supportRequests.createdAt}, ${supportRequests.id}) < (select r.created_at, r.id from ${supportRequests} r where r.id = ${id}::uuid)`;
}

function pageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_SUPPORT_PAGE;
  return Math.min(Math.max(Math.trunc(limit), 1), MAX_SUPPORT_PAGE);
}

/** Newest first, a page at a time; `before` is the id of the last request already shown. */
export async function listSupportRequests(
  db: Db,
  options: { limit?: number | undefined; before?: string | undefined } = {},
): Promise<SupportRequestPage> {
  const limit = pageSize(options.limit);
  if (options.before !== undefined && !UUID.test(options.before)) {
    throw new RangeError('before must be the id of a listed request');
  }
  const rows = await db
    .select()
    .from(supportRequests)
    .where(options.before === undefined ? undefined : olderThan(options.before))
    .orderBy(desc(supportRequests.createdAt), desc(supportRequests.id))
    .limit(limit + 1);
  const entries = rows.slice(0, limit);
  const last = entries.at(-1);
  return { entries, nextBefore: rows.length > limit && last ? last.id : null };
}
