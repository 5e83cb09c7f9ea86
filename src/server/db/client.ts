import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { databaseSchema, readConfig } from '../app/config.ts';
import * as schema from './schema.ts';

/** One type for both drivers, so services never care which database they run on. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /** The embedded database's files as one archive (`loadDataDir` of another); PostgreSQL has none. */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; without it the embedded PGlite is used. */
  url?: string | undefined;
  /** PostgreSQL schema to use for tables and the migration journal (isolates test runs). */
  schema?: string;
  /** PGlite data directory, or 'memory://' for a throwaway database. */
  dataDir?: string;
  /**
   * A copy of another embedded database's files (`dumpDataDir`) to start from instead of an empty one, so
   * that tests copy one seeded database in a fraction of the time seeding takes.
   */
  loadDataDir?: Blob;
  migrationsDir: string;
}

/**
 * Seconds the PostgreSQL pool waits before connecting again after failed attempts. A request that
 * needs a connection waits this out, and the driver's own backoff grows to 20 s after a dozen refusals:
 * during an outage requests would hang that long instead of answering 503, and keep waiting after the
 * database is back. Attempts are made only when a request needs a connection, so a short cap is enough.
 */
function reconnectDelaySeconds(failedAttempts: number): number {
  return Math.min(0.05 * 2 ** failedAttempts, 1);
}

/** The advisory lock (with the schema's hash) that instances migrating one PostgreSQL database take in turn. */
const MIGRATION_LOCK = 7_302_041;

/**
 * Applies the pending migrations to a PostgreSQL database, one instance at a time: several instances
 * starting together on one database would otherwise each try the same migration, and all but one fail.
 * The lock is a session lock held on a connection of its own, so the migrator's transaction and the lock
 * share it; an instance that waited finds nothing left to apply.
 */
async function migratePostgresOnce(
  url: string,
  schemaName: string | undefined,
  migrationsDir: string,
): Promise<void> {
  const connection = postgres(url, {
    max: 1,
    connect_timeout: 5,
    onnotice: () => undefined,
    ...(schemaName ? { connection: { search_path: schemaName } } : {}),
  });
  try {
    await connection`select pg_advisory_lock(${MIGRATION_LOCK}, hashtext(current_schema()))`;
    await migratePostgres(drizzlePostgres(connection), {
      migrationsFolder: migrationsDir,
      ...(schemaName ? { migrationsSchema: schemaName } : {}),
    });
  } finally {
    // Ending the connection releases the session lock, also when a migration failed.
    await connection.end({ timeout: 5 });
  }
}

/** Opens a database without touching the process-wide one (tests use several). */
export function openDatabase(options: DatabaseOptions): Database {
  const { migrationsDir } = options;
  if (options.url) {
    const searchPath = options.schema;
    const client = postgres(options.url, {
      max: 10,
      backoff: reconnectDelaySeconds,
      // A silently unreachable server must fail requests quickly (503), not hold them for 30 s.
      connect_timeout: 5,
      onnotice: () => undefined,
      ...(searchPath ? { connection: { search_path: searchPath } } : {}),
    });
    const db = drizzlePostgres(client, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePostgresOnce(options.url ?? '', searchPath, migrationsDir),
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => client.end({ timeout: 5 }),
    };
  }
  const dataDir = options.dataDir ?? 'memory://';
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
  const pglite = drizzlePglite(client, { schema });
  const db = pglite as unknown as Db;
  const analyze = (): Promise<unknown> => client.exec(`analyze ${PGLITE_ANALYZED_TABLES.join(', ')}`);
  const statistics = setInterval(() => {
    analyze().catch(() => undefined);
  }, PGLITE_ANALYZE_INTERVAL_MS);
  statistics.unref();
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(pglite, { migrationsFolder: migrationsDir });
      await analyze();
    },
    ping: async () => {
      await client.query('select 1');
    },
    dumpDataDir: () => client.dumpDataDir('none'),
    close: () => {
      clearInterval(statistics);
      return client.close();
    },
  };
}

/**
 * The tables whose statistics the embedded database refreshes itself. PGlite runs no autovacuum, so
 * without ANALYZE its planner guesses: with 100,000 accounts it walked the sign-up index and tested
 * every row against a searched address instead of using the address index (0.1 ms against 150 ms).
 * These are the tables that grow with accounts and traffic and that lists search.
 */
export const PGLITE_ANALYZED_TABLES = [
  'users',
  'api_keys',
  'sessions',
  'audit_log',
  'client_errors',
  'api_requests',
];

/** How often the embedded database's statistics are refreshed (after migrating, then hourly). */
export const PGLITE_ANALYZE_INTERVAL_MS = 60 * 60 * 1000;

// The site bundle and the data API server may load this module twice in one process; PGlite allows one
// opener per data directory, so the open database is kept on globalThis under a registered symbol.
const KEY = Symbol.for('market-data.database');
const store = globalThis as typeof globalThis & { [KEY]?: Promise<Database> | undefined };

/** The process-wide database, opened and migrated on first use (in DATABASE_SCHEMA when that is set). */
export function getDatabase(): Promise<Database> {
  const existing = store[KEY];
  if (existing) return existing;
  const config = readConfig();
  const schemaName = databaseSchema();
  const database = openDatabase({
    url: config.databaseUrl,
    ...(schemaName === undefined ? {} : { schema: schemaName }),
    dataDir: config.dataDir === 'memory://' ? 'memory://' : path.join(config.dataDir, 'pglite'),
    migrationsDir: config.migrationsDir,
  });
  const ready = database.migrate().then(() => database);
  store[KEY] = ready;
  ready.catch(() => {
    store[KEY] = undefined;
  });
  return ready;
}

/** Closes the process-wide database, if one was opened. */
export async function closeDatabase(): Promise<void> {
  const existing = store[KEY];
  if (!existing) return;
  store[KEY] = undefined;
  const database = await existing.catch(() => undefined);
  await database?.close();
}
