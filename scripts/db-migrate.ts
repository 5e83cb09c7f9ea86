import { readConfig } from '../src/server/app/config.ts';
import { closeDatabase, getDatabase } from '../src/server/db/client.ts';

/**
 * `npm run db:migrate`: applies the pending migrations (db/migrations) to the configured database, the
 * PostgreSQL one at DATABASE_URL or the embedded one in DATA_DIR, and stops. Run it once before starting
 * new instances of a release; instances started together on one database also migrate one at a time.
 */
async function main(): Promise<void> {
  const config = readConfig();
  const started = performance.now();
  const database = await getDatabase();
  await database.ping();
  await closeDatabase();
  const where =
    config.databaseUrl === undefined ? `the embedded database in ${config.dataDir}` : 'DATABASE_URL';
  console.log(`Migrations applied to ${where} in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

try {
  await main();
} catch (error) {
  console.error(`db:migrate failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
