import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../../src/server/db/client.ts';
import { seedDemoData } from '../../src/server/services/market-data/seed/index.ts';

/** The day the harness's demo data ends and its clock starts (a Friday). */
export const HARNESS_AS_OF = '2026-11-20';

/**
 * Writes an embedded database, migrated and seeded with the 'test' demo data as of HARNESS_AS_OF, to one
 * archive. The integration run makes it once (global setup) and every file's harness starts from a copy:
 * loading the copy takes a fraction of the seconds that migrating and seeding take per file.
 */
export async function writeSeededTemplate(file: string): Promise<void> {
  const database = openDatabase({ dataDir: 'memory://', migrationsDir: path.resolve('db/migrations') });
  try {
    await database.migrate();
    await seedDemoData(database.db, { scale: 'test', asOf: HARNESS_AS_OF });
    if (database.dumpDataDir === undefined) throw new Error('the embedded database cannot be copied');
    const archive = await database.dumpDataDir();
    await writeFile(file, new Uint8Array(await archive.arrayBuffer()));
  } finally {
    await database.close();
  }
}
