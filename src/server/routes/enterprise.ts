import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { enterpriseEnquirySchema } from '../../lib/enterprise-schema.ts';
import type { AccountsEnv } from '../app/context.ts';
import { ipKey, rateLimit } from '../middleware/rate-limit.ts';
import { jsonBody, type JsonInput } from '../middleware/validate.ts';
import { saveEnterpriseEnquiry } from '../services/enterprise-enquiries.ts';

/** Enquiries one client address may send per window: enough for a team sharing an office, not for spam. */
export const ENQUIRY_LIMIT = 5;
export const ENQUIRY_WINDOW_MS = 10 * 60_000;

/**
 * Counted after validation, so a visitor correcting a refused form loses nothing; only enquiries
 * that would be stored (or, from a bot, dropped) use up the budget.
 */
const enquiryLimit = rateLimit<JsonInput<typeof enterpriseEnquirySchema>, AccountsEnv>({
  name: 'enterprise-enquiry',
  limit: ENQUIRY_LIMIT,
  windowMs: ENQUIRY_WINDOW_MS,
  key: ipKey,
});

/**
 * The enterprise enquiry form's call, public (no sign-in needed) and mounted at /api/portal. A
 * filled-in honeypot gets the same 201 as a stored enquiry, with an id that names nothing, so a bot
 * learns nothing from the answer.
 */
export const enterpriseRoutes = new Hono<AccountsEnv>().post(
  '/enterprise/enquiry',
  jsonBody(enterpriseEnquirySchema),
  enquiryLimit,
  async (c) => {
    const { website, ...enquiry } = c.req.valid('json');
    if (website !== undefined && website.trim() !== '') return c.json({ id: randomUUID() }, 201);
    const who = c.var.caller;
    const saved = await saveEnterpriseEnquiry(c.var.db, {
      ...enquiry,
      userId: who.kind === 'user' ? who.userId : null,
    });
    return c.json({ id: saved.id }, 201);
  },
);
