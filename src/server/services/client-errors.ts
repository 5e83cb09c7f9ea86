import { desc, sql, type SQL } from 'drizzle-orm';
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

/** Length as Postgres counts it (code points), so this guard and the column check agree. */
export function characterCount(value: string): number {
  const surrogatePairs = value.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0;
  return value.length - surrogatePairs;
}

/**
 * Stores an error posted by a browser. Over-long stack traces are refused, not cut, so nothing pretends to
 * be a whole trace; the HTTP layer rejects them first, this guard keeps other callers honest.
 */
export async function logClientError(db: Db, entry: ClientErrorInput): Promise<ClientError> {
  const type = entry.type.trim();
  if (type === '') throw new RangeError('type must not be empty');
  const stackTrace = entry.stackTrace ?? '';
  if (characterCount(stackTrace) > STACK_TRACE_LIMIT) {
    throw new RangeError(`stackTrace must be at most ${STACK_TRACE_LIMIT} characters`);
  }
  const [row] = await db
    .insert(clientErrors)
    .values({
      type,
      stackTrace,
      server: entry.server ?? '',
      cron: entry.cron ?? '',
      fargate: entry.fargate ?? '',
      discordChannel: entry.discordChannel ?? '',
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

/** Newest first, a page at a time; `before` is the id of the last entry already shown. */
export async function listClientErrors(
  db: Db,
  options: { limit?: number | undefined; before?: string | undefined } = {},
): Promise<ClientErrorPage> {
  const limit = pageSize(options.limit);
  if (options.before !== undefined && !UUID.test(options.before)) {
    throw new RangeError('before must be the id of a listed entry');
  }
  const rows = await db
    .select()
    .from(clientErrors)
    .where(options.before === undefined ? undefined : olderThan(options.before))
    .orderBy(desc(clientErrors.createdAt), desc(clientErrors.id))
    .limit(limit + 1);
  const entries = rows.slice(0, limit);
  const last = entries.at(-1);
  return { entries, nextBefore: rows.length > limit && last ? last.id : null };
}
