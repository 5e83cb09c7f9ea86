import { desc, sql, type SQL } from 'drizzle-orm';
import type { EnterpriseEnquiry as EnquiryInput } from '../../lib/enterprise-schema.ts';
import type { Db } from '../db/client.ts';
import { enterpriseEnquiries, type EnterpriseEnquiry } from '../db/schema.ts';

/** A validated enquiry (see src/lib/enterprise-form.ts) and who sent it, if signed in. */
export type NewEnterpriseEnquiry = Omit<EnquiryInput, 'website' | 'consent'> & {
  userId?: string | null | undefined;
  /** When the sender agreed to be contacted; now unless given. */
  consentedAt?: Date | undefined;
};

export interface EnterpriseEnquiryPage {
  entries: EnterpriseEnquiry[];
  /** Pass as `before` to read the next (older) page; null on the last page. */
  nextBefore: string | null;
}

export const DEFAULT_ENQUIRY_PAGE = 50;
export const MAX_ENQUIRY_PAGE = 200;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Stores an enquiry for sales to answer; the consent that makes answering it lawful is stored with it. */
export async function saveEnterpriseEnquiry(
  db: Db,
  enquiry: NewEnterpriseEnquiry,
): Promise<EnterpriseEnquiry> {
  const [row] = await db
    .insert(enterpriseEnquiries)
    .values({
      name: enquiry.name,
      email: enquiry.email,
      company: enquiry.company,
      jobTitle: enquiry.jobTitle,
      companySize: enquiry.companySize,
      message: enquiry.message,
      consentedAt: enquiry.consentedAt ?? new Date(),
      userId: enquiry.userId ?? null,
    })
    .returning();
  if (!row) throw new Error('Enterprise enquiry insert returned no row');
  return row;
}

function olderThan(id: string): SQL {
  // Compared in SQL on (created_at, id): a JavaScript Date would drop the microseconds and skip rows.
  return sql`(${enterpriseEnquiries.createdAt}, ${enterpriseEnquiries.id}) < (select e.created_at, e.id from ${enterpriseEnquiries} e where e.id = ${id}::uuid)`;
}

function pageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_ENQUIRY_PAGE;
  return Math.min(Math.max(Math.trunc(limit), 1), MAX_ENQUIRY_PAGE);
}

/** Newest first, a page at a time; `before` is the id of the last enquiry already shown. */
export async function listEnterpriseEnquiries(
  db: Db,
  options: { limit?: number | undefined; before?: string | undefined } = {},
): Promise<EnterpriseEnquiryPage> {
  const limit = pageSize(options.limit);
  if (options.before !== undefined && !UUID.test(options.before)) {
    throw new RangeError('before must be the id of a listed enquiry');
  }
  const rows = await db
    .select()
    .from(enterpriseEnquiries)
    .where(options.before === undefined ? undefined : olderThan(options.before))
    .orderBy(desc(enterpriseEnquiries.createdAt), desc(enterpriseEnquiries.id))
    .limit(limit + 1);
  const entries = rows.slice(0, limit);
  const last = entries.at(-1);
  return { entries, nextBefore: rows.length > limit && last ? last.id : null };
}
