import { desc, sql, type SQL } from 'drizzle-orm';
import type { JobApplication } from '../../lib/job-application-schema.ts';
import { SITE_NAME } from '../../lib/routes.ts';
import { siteUrl } from '../app/config.ts';
import type { Db } from '../db/client.ts';
import { jobApplications, type JobApplicationRow } from '../db/schema.ts';
import { companyPageSize, greeting, isRowId, newCompanyReference } from './company-references.ts';
import { queueEmail } from './outbox.ts';

/** A validated application for an open role, and who sent it, if signed in. */
export type NewJobApplication = Omit<JobApplication, 'website' | 'role'> & {
  role: { id: string; title: string };
  userId?: string | null | undefined;
};

export interface JobApplicationPage {
  entries: JobApplicationRow[];
  /** Pass as `before` to read the next (older) page; null on the last page. */
  nextBefore: string | null;
}

/** The careers index, where the confirmation email sends its reader back to. */
export const CAREERS_PATH = '/careers';

/** The confirmation's subject line, naming the role and the reference. */
export function applicationConfirmationSubject(roleTitle: string, reference: string): string {
  return `Your application for ${roleTitle} (${reference})`;
}

/** The confirmation's text: what happens next, the reference and the links the applicant sent. */
export function applicationConfirmationBody(application: {
  name: string;
  roleTitle: string;
  links: readonly string[];
  reference: string;
}): string {
  return [
    greeting(application.name),
    '',
    `Thank you for applying to ${SITE_NAME} for the role of ${application.roleTitle}. Your application has reached the hiring team.`,
    '',
    'A person on the team reads every application. We reply to everyone within ten business days, whether or not we go ahead; if we do, the next step is a 30-minute call with the hiring manager.',
    '',
    `Your reference is ${application.reference}. Please quote it if you write to us about your application.`,
    '',
    'The links you sent:',
    '',
    ...application.links.map((link) => `- ${link}`),
    '',
    `Our other open roles: ${siteUrl()}${CAREERS_PATH}`,
    '',
    `The ${SITE_NAME} hiring team`,
  ].join('\n');
}

/**
 * Stores an application and writes its confirmation email, in one transaction: the applicant is
 * never told about an application that was not kept, and a kept one always has its confirmation.
 */
export async function saveJobApplication(db: Db, application: NewJobApplication): Promise<JobApplicationRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(jobApplications)
      .values({
        reference: newCompanyReference('JA'),
        roleId: application.role.id,
        roleTitle: application.role.title,
        name: application.name,
        email: application.email,
        links: [...application.links],
        coverNote: application.coverNote,
        userId: application.userId ?? null,
      })
      .returning();
    if (!row) throw new Error('Job application insert returned no row');
    await queueEmail(tx, {
      email: row.email,
      kind: 'JOB_APPLICATION_RECEIVED',
      subject: applicationConfirmationSubject(row.roleTitle, row.reference),
      body: applicationConfirmationBody(row),
      link: CAREERS_PATH,
    });
    return row;
  });
}

function olderThan(id: string): SQL {
  // Compared in SQL on (created_at, id): a JavaScript Date would drop the microseconds and skip rows.
  return sql`(${jobApplications.createdAt}, ${jobApplications.id}) < (select a.created_at, a.id from ${jobApplications} a where a.id = ${id}::uuid)`;
}

/** Newest first, a page at a time; `before` is the id of the last application already shown. */
export async function listJobApplications(
  db: Db,
  options: { limit?: number | undefined; before?: string | undefined } = {},
): Promise<JobApplicationPage> {
  const limit = companyPageSize(options.limit);
  if (options.before !== undefined && !isRowId(options.before)) {
    throw new RangeError('before must be the id of a listed application');
  }
  const rows = await db
    .select()
    .from(jobApplications)
    .where(options.before === undefined ? undefined : olderThan(options.before))
    .orderBy(desc(jobApplications.createdAt), desc(jobApplications.id))
    .limit(limit + 1);
  const entries = rows.slice(0, limit);
  const last = entries.at(-1);
  return { entries, nextBefore: rows.length > limit && last ? last.id : null };
}
