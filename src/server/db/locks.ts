import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * Takes the transaction-scoped advisory lock `key` of the current schema without waiting: true when
 * this transaction holds it until it ends, false when another one does. Work that must run once
 * across instances sharing one PostgreSQL database (a probe round, a renewal round) runs only in
 * the transaction that got the lock; the schema is part of the lock, so separate deployments (or
 * test runs) in one database do not stop each other.
 */
export async function tryTransactionLock(tx: Db, key: number): Promise<boolean> {
  const answer: unknown = await tx.execute(
    sql`select pg_try_advisory_xact_lock(${key}, hashtext(current_schema())) as locked`,
  );
  // postgres-js answers the rows, PGlite `{ rows }`.
  const rows = (Array.isArray(answer) ? answer : (answer as { rows: unknown[] }).rows) as {
    locked?: boolean;
  }[];
  return rows[0]?.locked === true;
}
