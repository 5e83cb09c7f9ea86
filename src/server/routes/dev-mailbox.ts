import { Hono } from 'hono';
import { z } from 'zod';
import { siteActionLink } from '../../lib/action-link.ts';
import type { MailboxAnswer, MailboxMessage } from '../../lib/stores/dev-mailbox.ts';
import { readConfig } from '../app/config.ts';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { IDENTITY_TIMEOUT_MS } from '../auth/identity.ts';
import { noStore } from '../middleware/security-headers.ts';
import { queryParams } from '../middleware/validate.ts';
import type { Db } from '../db/client.ts';
import { listOutbox } from '../services/outbox.ts';

export const NO_MAILBOX_MESSAGE =
  'The local mailbox exists only when the site runs against the Auth emulator.';

/** Seconds to wait before asking again when the emulator did not answer. */
const RETRY_AFTER_SECONDS = 5;

export function emulatorUnreachableMessage(host: string): string {
  return `The local mailbox could not reach the Auth emulator at ${host}. Check that it is running, then refresh.`;
}

/** One out-of-band code as the emulator lists it; only the fields the mailbox shows are read. */
interface EmulatorOobCode {
  email?: unknown;
  requestType?: unknown;
  oobLink?: unknown;
  createdAt?: unknown;
}

function toMessage(code: EmulatorOobCode): MailboxMessage | undefined {
  const { email, requestType, oobLink, createdAt } = code;
  if (typeof email !== 'string' || typeof requestType !== 'string' || typeof oobLink !== 'string') {
    return undefined;
  }
  // The emulator links to its own bare action endpoint; a real project's emails link to the site's
  // page (the custom action URL), so the mailbox shows the links as those emails would carry them.
  const message: MailboxMessage = { email, requestType, link: siteActionLink(oobLink) ?? oobLink };
  if (typeof createdAt === 'string' && !Number.isNaN(Date.parse(createdAt))) message.createdAt = createdAt;
  return message;
}

/**
 * The emulator's messages, newest first, or undefined when it cannot be asked. The emulator lists
 * codes in the order it issued them and drops each one once its link has been followed.
 */
async function emulatorMessages(host: string, projectId: string): Promise<MailboxMessage[] | undefined> {
  const url = `http://${host}/emulator/v1/projects/${encodeURIComponent(projectId)}/oobCodes`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(IDENTITY_TIMEOUT_MS) });
    if (!res.ok) {
      await res.body?.cancel();
      return undefined;
    }
    const body = (await res.json()) as { oobCodes?: unknown };
    if (!Array.isArray(body.oobCodes)) return undefined;
    const codes = body.oobCodes as EmulatorOobCode[];
    return codes.flatMap((code) => toMessage(code) ?? []).reverse();
  } catch {
    return undefined;
  }
}

/** The product's own emails (the outbox, shared by every instance through the database), newest first. */
async function outboxMessages(db: Db): Promise<MailboxMessage[]> {
  const rows = await listOutbox(db);
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    requestType: row.kind,
    subject: row.subject,
    body: row.body,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * GET /api/dev/mailbox: while the site runs against the Auth emulator, which delivers no email,
 * the messages it would have sent (address verification, password reset, …) with their links, and
 * the product's own emails (help request confirmations), so the product can be tried end to end
 * locally. Against a real Firebase project it does not exist.
 */
export const devMailboxRoutes = new Hono<AccountsEnv>().get(
  '/dev/mailbox',
  noStore(),
  queryParams(z.strictObject({})),
  async (c) => {
    const { authEmulatorHost, firebaseProjectId } = readConfig();
    if (authEmulatorHost === undefined) return apiError(c, 404, NO_MAILBOX_MESSAGE);
    const messages = await emulatorMessages(authEmulatorHost, firebaseProjectId);
    if (messages === undefined) {
      return apiError(
        c,
        503,
        emulatorUnreachableMessage(authEmulatorHost),
        {},
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    }
    const body: MailboxAnswer = { messages: [...(await outboxMessages(c.var.db)), ...messages] };
    return c.json(body);
  },
);
