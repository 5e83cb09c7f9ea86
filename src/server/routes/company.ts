import { randomUUID } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import type { ContactMessageAnswer } from '../../lib/contact-message-form.ts';
import { contactMessageSchema } from '../../lib/contact-message-schema.ts';
import type { JobApplicationAnswer } from '../../lib/job-application-form.ts';
import { jobApplicationSchema, ROLE_CLOSED_MESSAGE } from '../../lib/job-application-schema.ts';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { ipKey, rateLimit } from '../middleware/rate-limit.ts';
import { jsonBody, type JsonInput } from '../middleware/validate.ts';
import { newCompanyReference } from '../services/company-references.ts';
import { saveContactMessage } from '../services/contact-messages.ts';
import { saveJobApplication } from '../services/job-applications.ts';
import { findOpenRole } from '../services/open-roles.ts';

/**
 * Messages per window, counted for the client address and, separately, for the sender's email
 * address: an office can write a few times, and nobody can flood one inbox with confirmations
 * from many addresses.
 */
export const CONTACT_MESSAGE_LIMIT = 5;
export const CONTACT_MESSAGE_WINDOW_MS = 10 * 60_000;
/** Applications per window, per client address and per applicant's email address. */
export const JOB_APPLICATION_LIMIT = 5;
export const JOB_APPLICATION_WINDOW_MS = 60 * 60_000;

/**
 * Counted after validation, so a visitor correcting a refused form loses nothing; only messages that
 * would be stored (or, from a bot, dropped) use up the budget.
 */
const contactLimit = rateLimit<JsonInput<typeof contactMessageSchema>, AccountsEnv>({
  name: 'contact-message',
  limit: CONTACT_MESSAGE_LIMIT,
  windowMs: CONTACT_MESSAGE_WINDOW_MS,
  key: (c) => [ipKey(c), `email:${c.req.valid('json').email}`],
});

const applicationLimit = rateLimit<JsonInput<typeof jobApplicationSchema>, AccountsEnv>({
  name: 'job-application',
  limit: JOB_APPLICATION_LIMIT,
  windowMs: JOB_APPLICATION_WINDOW_MS,
  key: (c) => [ipKey(c), `email:${c.req.valid('json').email}`],
});

/**
 * Refuses an application for a role that is not open (never was, or its file was removed since the
 * page was read) as a field error like any other, before the budget is counted.
 */
const openRoleOnly: MiddlewareHandler<AccountsEnv, string, JsonInput<typeof jobApplicationSchema>> = async (
  c,
  next,
) => {
  if (findOpenRole(c.req.valid('json').role) !== undefined) return next();
  return apiError(c, 400, `role: ${ROLE_CLOSED_MESSAGE}`, {
    field: 'role',
    issues: [{ path: 'role', message: ROLE_CLOSED_MESSAGE }],
  });
};

/**
 * The company pages' forms, public (no sign-in needed) and mounted at /api/portal: the contact
 * page's message and a job application from a role's page. A stored one is confirmed by email (the
 * outbox, which the local mailbox lists). A filled-in honeypot gets the same 201 with an id and a
 * reference that name nothing, so a bot learns nothing.
 */
export const companyRoutes = new Hono<AccountsEnv>()
  .post('/contact/message', jsonBody(contactMessageSchema), contactLimit, async (c) => {
    const { website, ...message } = c.req.valid('json');
    if (website !== undefined && website.trim() !== '') {
      const decoy: ContactMessageAnswer = { id: randomUUID(), reference: newCompanyReference('CT') };
      return c.json(decoy, 201);
    }
    const who = c.var.caller;
    const saved = await saveContactMessage(c.var.db, {
      ...message,
      userId: who.kind === 'user' ? who.userId : null,
    });
    const answer: ContactMessageAnswer = { id: saved.id, reference: saved.reference };
    return c.json(answer, 201);
  })
  .post('/careers/application', jsonBody(jobApplicationSchema), openRoleOnly, applicationLimit, async (c) => {
    const { website, role: roleId, ...application } = c.req.valid('json');
    const role = findOpenRole(roleId);
    if (role === undefined) throw new Error('an application for a closed role passed the role check');
    if (website !== undefined && website.trim() !== '') {
      const decoy: JobApplicationAnswer = { id: randomUUID(), reference: newCompanyReference('JA') };
      return c.json(decoy, 201);
    }
    const who = c.var.caller;
    const saved = await saveJobApplication(c.var.db, {
      ...application,
      role,
      userId: who.kind === 'user' ? who.userId : null,
    });
    const answer: JobApplicationAnswer = { id: saved.id, reference: saved.reference };
    return c.json(answer, 201);
  });
