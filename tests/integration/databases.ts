import { randomBytes } from 'node:crypto';
import path from 'node:path';
import postgres from 'postgres';
import { openDatabase, type Database } from '../../src/server/db/client.ts';

export interface DatabaseTarget {
  name: string;
  /** Opens a fresh, migrated database that no other test sees. */
  open(): Promise<Database>;
}

const migrationsDir = path.resolve('db/migrations');

/**
 * The databases every integration test runs on: the embedded PGlite always, and PostgreSQL when
 * TEST_DATABASE_URL is set (CI points it at the machine's server). Each PostgreSQL database gets a
 * schema of its own so that runs never see each other's rows.
 */
export function databaseTargets(): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [
    {
      name: 'PGlite',
      open: async () => {
        const database = openDatabase({ dataDir: 'memory://', migrationsDir });
        await database.migrate();
        return database;
      },
    },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    targets.push({
      name: 'PostgreSQL',
      open: async () => {
        const schema = `test_${randomBytes(6).toString('hex')}`;
        const admin = postgres(url, { max: 1, onnotice: () => undefined });
        await admin.unsafe(`create schema ${schema}`);
        await admin.end();
        const database = openDatabase({ url, schema, migrationsDir });
        await database.migrate();
        const close = database.close.bind(database);
        return {
          ...database,
          close: async () => {
            await close();
            const cleanup = postgres(url, { max: 1, onnotice: () => undefined });
            await cleanup.unsafe(`drop schema ${schema} cascade`);
            await cleanup.end();
          },
        };
      },
    });
  }
  return targets;
}
