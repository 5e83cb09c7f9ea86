import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuild, launchProduction, stopOnSignals } from './launch.ts';

// The production build on ports of its own, with a throwaway database, so end-to-end runs never
// touch a developer's running site or data. The data directory is named after the site's port, so
// the stories find it (tests/e2e/fixtures.ts runs `npm run user:role` against it); a run starts empty.
process.env.PORT = process.env.E2E_SITE_PORT ?? '4351';
const dataDir = path.join(tmpdir(), `e2e-data-${process.env.PORT}`);
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
process.env.DATA_API_PORT = process.env.E2E_DATA_API_PORT ?? '4352';
process.env.FIREBASE_AUTH_EMULATOR_PORT = process.env.E2E_AUTH_EMULATOR_PORT ?? '9699';
process.env.DATA_DIR = dataDir;
// A small demo data set: seeding the full universe would cost every run half a minute.
process.env.SEED_SCALE ??= 'test';
// The status page's probes run every 10 s, so a check slowed by a busy machine is soon probed again.
process.env.STATUS_PROBE_INTERVAL_MS ??= '10000';
// Test-mode renewals every 5 s, so a subscription due in a story is renewed soon.
process.env.BILLING_RENEWAL_INTERVAL_MS ??= '5000';
delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
delete process.env.DATABASE_URL;

try {
  ensureBuild();
  const running = await launchProduction({ quietEmulator: true });
  stopOnSignals(async () => {
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  console.log(`e2e site at ${running.siteUrl}`);
} catch (error) {
  console.error(
    `Could not start the end-to-end site: ${error instanceof Error ? error.message : String(error)}`,
  );
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
}
