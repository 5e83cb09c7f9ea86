/*
 * Reading a long list of keys (symbols) in batches without holding the list: what the bulk files
 * stream their rows from.
 */
import type { Db } from '../../db/client.ts';

/** A query of one text column named `symbol`, in symbol order, that can be paged (a drizzle `$dynamic()` select). */
export interface SymbolQuery extends PromiseLike<{ symbol: string }[]> {
  limit(count: number): SymbolQuery;
  offset(count: number): SymbolQuery;
  toSQL(): { sql: string; params: unknown[] };
}

/** Which symbols a file lists, and which slice of them (a part of a file in parts). */
export interface SymbolSource {
  /** The symbols after `after` (all of them when undefined), in symbol order. */
  query(after: string | undefined): SymbolQuery;
  /** Symbols skipped at the start (a part's first position); default 0. */
  offset?: number;
  /** Symbols listed at most (a part's size); default all. */
  limit?: number;
}

/** The postgres-js client under a drizzle database, when it runs on PostgreSQL. */
interface CursorClient {
  unsafe(
    query: string,
    parameters: unknown[],
  ): { cursor(rows: number): AsyncIterable<readonly Record<string, unknown>[]> };
}

function cursorClient(db: Db): CursorClient | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  return typeof client === 'function' && 'unsafe' in client ? (client as unknown as CursorClient) : undefined;
}

/**
 * The symbols of `source` in batches of `size`, in symbol order.
 *
 * On PostgreSQL a server-side cursor (postgres-js `.cursor()`) fetches each batch when the previous one
 * has been handled, so the server holds one batch and the query sees one snapshot. On PGlite, which
 * runs in this process on a single connection, a cursor would need a transaction held open for the
 * whole download, stopping every other query of the process until the client has read the last byte;
 * there the batches are keyset pages instead (`symbol > last` with a limit, on the symbol index), each
 * a short query between which other requests run. Both give the same symbols in the same order.
 * Stopping the iteration (a client that went away) closes the cursor.
 */
export async function* symbolBatches(db: Db, source: SymbolSource, size: number): AsyncGenerator<string[]> {
  const offset = source.offset ?? 0;
  const limit = source.limit ?? Number.POSITIVE_INFINITY;
  if (limit <= 0) return;
  const client = cursorClient(db);
  if (client !== undefined) {
    let query = source.query(undefined);
    if (offset > 0) query = query.offset(offset);
    if (Number.isFinite(limit)) query = query.limit(limit);
    const { sql, params } = query.toSQL();
    for await (const rows of client.unsafe(sql, params).cursor(size)) {
      yield rows.map((row) => String(row.symbol));
    }
    return;
  }
  let after: string | undefined;
  if (offset > 0) {
    // The symbol just before the slice, found once; from there on every page is a keyset page.
    const [before] = await source
      .query(undefined)
      .offset(offset - 1)
      .limit(1);
    if (before === undefined) return;
    after = before.symbol;
  }
  let left = limit;
  while (left > 0) {
    const page = await source.query(after).limit(Math.min(size, left));
    if (page.length === 0) return;
    const symbols = page.map((row) => row.symbol);
    yield symbols;
    left -= symbols.length;
    after = symbols.at(-1);
    if (page.length < size) return;
  }
}
