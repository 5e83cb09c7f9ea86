import { parseArgs } from 'node:util';
import { closeDatabase, getDatabase } from '../src/server/db/client.ts';
import { DEMO_SEED, seedDemoData, type Scale } from '../src/server/services/market-data/seed/index.ts';

/**
 * `npm run db:seed [-- --scale test|full] [--seed N] [--as-of YYYY-MM-DD] [--replace]`: fills the configured
 * database (PGlite in .data/pglite, or PostgreSQL at DATABASE_URL) with the deterministic demo data set.
 */

function usage(): string {
  return 'usage: npm run db:seed -- [--scale test|full] [--seed N] [--as-of YYYY-MM-DD] [--replace]';
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: 'full' },
      seed: { type: 'string' },
      'as-of': { type: 'string' },
      replace: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage());
    return;
  }
  const scale = values.scale;
  if (scale !== 'full' && scale !== 'test')
    throw new Error(`--scale must be test or full, got "${scale}"\n${usage()}`);
  const seed = values.seed === undefined ? DEMO_SEED : Number(values.seed);
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new Error(`--seed must be a non-negative integer, got "${values.seed ?? ''}"`);

  const database = await getDatabase();
  const summary = await seedDemoData(database.db, {
    scale: scale satisfies Scale,
    seed,
    ...(values['as-of'] === undefined ? {} : { asOf: values['as-of'] }),
    replace: values.replace,
    log: (line) => {
      console.log(`  ${line}`);
    },
  });
  console.log(
    `\nDemo data (seed ${summary.seed}, ${summary.scale} scale, as of ${summary.asOf}) written to the ${database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'} database:`,
  );
  const width = Math.max(...Object.keys(summary.counts).map((name) => name.length));
  for (const [table, rows] of Object.entries(summary.counts)) {
    console.log(`  ${table.padEnd(width)}  ${rows.toLocaleString('en-US').padStart(10)}`);
  }
  console.log(`  ${'elapsed'.padEnd(width)}  ${`${(summary.elapsedMs / 1000).toFixed(1)} s`.padStart(10)}`);
}

try {
  await main();
  await closeDatabase();
} catch (error) {
  console.error(`db:seed failed: ${error instanceof Error ? error.message : String(error)}`);
  await closeDatabase().catch(() => undefined);
  process.exit(1);
}
