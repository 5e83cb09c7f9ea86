import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import type { HelpRequestAnswer } from '../../lib/help-form.ts';
import { helpRequestSchema } from '../../lib/help-schema.ts';
import type { AccountsEnv } from '../app/context.ts';
import { ipKey, rateLimit } from '../middleware/rate-limit.ts';
import { jsonBody, type JsonInput } from '../middleware/validate.ts';
import { newReference, saveSupportRequest } from '../services/support-requests.ts';

/** Help requests one client address may send per window: enough for an office, not for spam. */
export const HELP_REQUEST_LIMIT = 5;
export const HELP_REQUEST_WINDOW_MS = 10 * 60_000;

/**
 * Counted after validation, so a visitor correcting a refused form loses nothing; only requests
 * that would be stored (or, from a bot, dropped) use up the budget.
 */
const helpRequestLimit = rateLimit<JsonInput<typeof helpRequestSchema>, AccountsEnv>({
  name: 'help-request',
  limit: HELP_REQUEST_LIMIT,
  windowMs: HELP_REQUEST_WINDOW_MS,
  key: ipKey,
});

/**
 * The help center's contact form, public (no sign-in needed) and mounted at /api/portal. A stored
 * request is confirmed by email (the outbox, which the local mailbox lists). A filled-in honeypot
 * gets the same 201 with an id and a reference that name nothing, so a bot learns nothing.
 */
export const helpRoutes = new Hono<AccountsEnv>().post(
  '/help/request',
  jsonBody(helpRequestSchema),
  helpRequestLimit,
  async (c) => {
    const { website, ...request } = c.req.valid('json');
    if (website !== undefined && website.trim() !== '') {
      const decoy: HelpRequestAnswer = { id: randomUUID(), reference: newReference() };
      return c.json(decoy, 201);
    }
    const who = c.var.caller;
    const saved = await saveSupportRequest(c.var.db, {
      ...request,
      userId: who.kind === 'user' ? who.userId : null,
    });
    const answer: HelpRequestAnswer = { id: saved.id, reference: saved.reference };
    return c.json(answer, 201);
  },
);
