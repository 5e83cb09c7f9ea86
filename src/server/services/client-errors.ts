import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { CUT_MARKER, cutText, SHORT_FIELD_LIMIT } from '../../lib/error-reports.ts';
import { redactSecrets } from '../auth/tokens.ts';
import type { Db } from '../db/client.ts';
import { clientErrors, STACK_TRACE_LIMIT, type ClientError } from '../db/schema.ts';

export { STACK_TRACE_LIMIT };

export interface ClientErrorInput {
  type: string;
  stackTrace?: string | undefined;
  server?: string | undefined;
  cron?: string | undefined;
  fargate?: string | undefined;
  discordChannel?: string | undefined;
  userId?: string | null | undefined;
}

export interface ClientErrorPage {
  entries: ClientError[];
  /** Pass as `before` to read the next (older) page; null on the last page. */
  nextBefore: string | null;
}

const DEFAULT_PAGE = 50;
const MAX_PAGE = 200;

/** Ends a stack trace that was longer than the limit (as a browser cuts it), so nobody mistakes it for the whole trace. */
export { CUT_MARKER };

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f]|\r|\n/g;

/** Line breaks and other control characters as visible escapes: a report cannot forge or hide lines. */
function escapeControlCharacters(value: string): string {
  return value.replace(CONTROL_CHARACTER, (character) => {
    if (character === '\n') return '\\n';
    if (character === '\r') return '\\r';
    return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/**
 * What a field of a browser's report may be stored as: credentials (tokens, JWTs, API keys) removed
 * by the one log redactor, control characters escaped, and cut to the field's limit. Redaction
 * comes first, so a secret cut in half is still recognised.
 */
export function storableLogText(value: string, limit: number): string {
  return cutText(escapeControlCharacters(redactSecrets(value)), limit);
}

/**
 * Stores an error posted by a browser. The report is the browser's text, so it is cleaned first:
 * secrets redacted, control characters escaped, and a stack trace over SPEC §9's 3000 characters cut
 * (marked as cut) rather than refused, so the start of a long trace is still there to read.
 */
export async function logClientError(db: Db, entry: ClientErrorInput): Promise<ClientError> {
  const type = storableLogText(entry.type.trim(), SHORT_FIELD_LIMIT);
  if (type === '') throw new RangeError('type must not be empty');
  const short = (value: string | undefined): string => storableLogText(value ?? '', SHORT_FIELD_LIMIT);
  const [row] = await db
    .insert(clientErrors)
    .values({
      type,
      stackTrace: storableLogText(entry.stackTrace ?? '', STACK_TRACE_LIMIT),
      server: short(entry.server),
      cron: short(entry.cron),
      fargate: short(entry.fargate),
      discordChannel: short(entry.discordChannel),
      userId: entry.userId ?? null,
    })
    .returning();
  if (!row) throw new Error('Client error insert returned no row');
  return row;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function olderThan(id: string): SQL {
  // Compared in SQL on (created_at, id): a JavaScript Date would drop the microseconds and skip rows.
  return sql`(${clientErrors.createdAt}, ${clientErrors.id}) < (select c.created_at, c.id from ${clientErrors} c where c.id = ${id}::uuid)`;
}

function pageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_PAGE;
  return Math.min(Math.max(Math.trunc(limit), 1), MAX_PAGE);
}

/**
 * The first line of a stored trace (its line breaks are escaped as the two characters \n): the
 * error's message, by which the admin console groups reports.
 */
export const ERROR_MESSAGE_SQL = sql<string>`split_part(${clientErrors.stackTrace}, '\\n', 1)`;

/**
 * Newest first, a page at a time; `before` is the id of the last entry already shown. `group` keeps
 * the reports of one error group (their type and message, as the console's groups name them).
 */
export async function listClientErrors(
  db: Db,
  options: {
    limit?: number | undefined;
    before?: string | undefined;
    group?: { type: string; message: string } | undefined;
  } = {},
): Promise<ClientErrorPage> {
  const limit = pageSize(options.limit);
  if (options.before !== undefined && !UUID.test(options.before)) {
    throw new RangeError('before must be the id of a listed entry');
  }
  const rows = await db
    .select()
    .from(clientErrors)
    .where(
      and(
        options.before === undefined ? undefined : olderThan(options.before),
        options.group === undefined
          ? undefined
          : and(eq(clientErrors.type, options.group.type), eq(ERROR_MESSAGE_SQL, options.group.message)),
      ),
    )
    .orderBy(desc(clientErrors.createdAt), desc(clientErrors.id))
    .limit(limit + 1);
  const entries = rows.slice(0, limit);
  const last = entries.at(-1);
  return { entries, nextBefore: rows.length > limit && last ? last.id : null };
}
