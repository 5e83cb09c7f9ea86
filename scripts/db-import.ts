import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeDatabase, getDatabase } from '../src/server/db/client.ts';
import { importDirectory } from '../src/server/services/market-data/importer.ts';

/**
 * `npm run db:import -- <dir>`: loads JSON files saved from the data API's answers (one array of rows per file,
 * the path naming the endpoint) into the configured database. Exits non-zero when any file failed.
 */

const USAGE = 'usage: npm run db:import -- <directory>';

async function main(): Promise<boolean> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { help: { type: 'boolean', default: false } },
  });
  if (values.help) {
    console.log(USAGE);
    return true;
  }
  const [dirArgument] = positionals;
  if (!dirArgument || positionals.length > 1) throw new Error(USAGE);
  const dir = path.resolve(dirArgument);
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw new Error(`${dir} is not a directory\n${USAGE}`);

  const database = await getDatabase();
  const report = await importDirectory(database.db, dir, {
    log: (line) => {
      console.log(`  ${line}`);
    },
  });
  const failed = report.files.filter((f) => f.error !== undefined).length;
  console.log(
    `\nImported ${report.rows.toLocaleString('en-US')} rows from ${report.files.length - failed} of ${report.files.length} files in ${dir}.`,
  );
  if (failed > 0) {
    console.error(`${failed} file(s) failed and were not written:`);
    for (const error of report.errors) console.error(`  ${error}`);
  }
  return report.ok;
}

try {
  const ok = await main();
  await closeDatabase();
  if (!ok) process.exit(1);
} catch (error) {
  console.error(`db:import failed: ${error instanceof Error ? error.message : String(error)}`);
  await closeDatabase().catch(() => undefined);
  process.exit(1);
}
