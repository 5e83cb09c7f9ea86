import { dev } from 'astro';
import { readConfig } from '../src/server/app/config.ts';
import { closeDatabase, getDatabase } from '../src/server/db/client.ts';
import {
  closeServer,
  displayUrl,
  ensureMarketData,
  probeUrl,
  recordEmbeddedServer,
  startDataApi,
  startStatusMonitor,
  stopStatusMonitor,
} from '../src/server/app/serve.ts';
import type { AuthEmulator } from './emulator.ts';
import { startEmulatorIfNeeded, stopOnSignals } from './launch.ts';

// Development: the Astro dev server, the data API, the database, the status probes and the Auth
// emulator, all in this process tree so that the embedded database is opened once.
process.env.ASTRO_TELEMETRY_DISABLED = '1';
const config = readConfig();
let emulator: AuthEmulator | undefined;
try {
  emulator = await startEmulatorIfNeeded(config, false);
  await ensureMarketData((await getDatabase()).db);
  const dataApi = await startDataApi(config.host, config.dataApiPort);
  const site = await dev({ root: process.cwd(), server: { port: config.sitePort, host: config.host } });
  const status = startStatusMonitor(
    probeUrl(config.host, config.sitePort),
    probeUrl(config.host, dataApi.port),
  );
  const forgetRecord = recordEmbeddedServer(probeUrl(config.host, site.address.port));
  stopOnSignals(async () => {
    await stopStatusMonitor(status);
    await site.stop();
    await closeServer(dataApi.server);
    await closeDatabase();
    forgetRecord();
    await emulator?.stop();
  });
  console.log(`
  Site (dev)      ${displayUrl(config.host, config.sitePort)}
  Data API        ${displayUrl(config.host, dataApi.port)}
  Auth emulator   ${emulator ? `http://${emulator.host}` : (config.authEmulatorHost ?? 'not used (real Firebase project)')}

  Ctrl-C stops all of them.
`);
} catch (error) {
  await emulator?.stop();
  console.error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
