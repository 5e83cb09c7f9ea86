import { Hono } from 'hono';
import type { BlankInput } from 'hono/types';
import { z } from 'zod';
import { editorKeys } from '../app/config.ts';
import type { AccountsEnv } from '../app/context.ts';
import { ipKey, rateLimit } from '../middleware/rate-limit.ts';
import { jsonBody, queryParams } from '../middleware/validate.ts';
import { requireUser } from '../middleware/caller.ts';
import { noStore } from '../middleware/security-headers.ts';
import { logClientError } from '../services/client-errors.ts';
import { SHORT_FIELD_LIMIT } from '../../lib/error-reports.ts';

const short = z.string().trim().max(SHORT_FIELD_LIMIT);

const logBody = z.strictObject({
  type: z.string().trim().min(1).max(100),
  // Longer traces are cut to STACK_TRACE_LIMIT when stored; the body limit bounds what arrives.
  stackTrace: z.string().optional(),
  server: short.optional(),
  cron: short.optional(),
  fargate: short.optional(),
  discordChannel: short.optional(),
});

const editorKeyQuery = z.strictObject({
  // Sent by SPEC §7's clients and deliberately ignored: the key is handed to signed-in sessions only,
  // so this call cannot be used to find out whether an API key is valid.
  apikey: z.string().max(200).optional(),
  id: z.string().regex(/^\d+$/, 'must be a whole number').optional(),
  success: z.enum(['true', 'false']).optional(),
});

const logLimit = rateLimit<BlankInput, AccountsEnv>({
  name: 'log',
  limit: 60,
  windowMs: 60_000,
  // Per IP and, for signed-in callers, per account.
  key: (c) => {
    const who = c.var.caller;
    return who.kind === 'user' ? [ipKey(c), `user:${who.userId}`] : ipKey(c);
  },
});

/** Per account: the editor asks once per page, so a burst beyond this is not an editor. */
const editorKeyLimit = rateLimit<BlankInput, AccountsEnv>({
  name: 'editor-key',
  limit: 30,
  windowMs: 60_000,
  key: (c) => (c.var.caller.kind === 'user' ? `user:${c.var.caller.userId}` : ipKey(c)),
});

/**
 * The browser's error logger (SPEC §7 "debug host /log") and the rich-text editor key call
 * (status/get-mce-key). Mounted at /api.
 */
export const supportRoutes = new Hono<AccountsEnv>()
  .post('/log', logLimit, jsonBody(logBody), async (c) => {
    const entry = c.req.valid('json');
    const caller = c.var.caller;
    const saved = await logClientError(c.var.db, {
      ...entry,
      userId: caller.kind === 'user' ? caller.userId : null,
    });
    return c.json({ id: saved.id }, 201);
  })
  .get('/status/get-mce-key', noStore(), requireUser(), editorKeyLimit, queryParams(editorKeyQuery), (c) => {
    const { id, success } = c.req.valid('query');
    const keys = editorKeys();
    if (keys.length === 0) return c.json({ error: 'No editor key is configured on this server.' }, 404);
    // A client that reports a failing key (success=false) gets the next one.
    const current = id === undefined ? 0 : Number(id) % keys.length;
    const index = success === 'false' ? (current + 1) % keys.length : current;
    return c.json({ key: keys[index], id: String(index) });
  });
