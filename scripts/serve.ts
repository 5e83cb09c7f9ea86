import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildStaleness } from '../src/server/app/build-info.ts';
import { instanceRefusal, readConfig, type InstanceRole } from '../src/server/app/config.ts';
import type { RunningServer } from '../src/server/app/serve.ts';

/**
 * `npm run serve:site` and `npm run serve:data-api`: one production process of one server, configured by
 * the environment alone (ports, DATABASE_URL, REDIS_URL, APP_SECRET, the identity provider), to run as
 * many instances as traffic needs behind any HTTP load balancer. They need PostgreSQL: the embedded PGlite
 * serves a single process, and `npm start` runs everything in one process on it.
 */

async function start(role: InstanceRole): Promise<RunningServer> {
  // Loaded once the environment is known to be usable: a refusal should not wait for the whole server.
  const { serveDataApi, serveSite } = await import('../src/server/app/serve.ts');
  const config = readConfig();
  if (role === 'data-api') return serveDataApi({ host: config.host, port: config.dataApiPort });
  // Instances start together: each building the site into one dist/ would trip over the others.
  const stale = buildStaleness();
  if (stale !== undefined)
    throw new Error(`the site's build is missing or stale (${stale}): run npm run build first`);
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  process.env.ASTRO_NODE_LOGGING = 'disabled';
  const entry = (await import(pathToFileURL(path.resolve('dist/server/entry.mjs')).href)) as {
    handler: Parameters<typeof serveSite>[0]['siteHandler'];
  };
  return serveSite({
    host: config.host,
    port: config.sitePort,
    siteHandler: entry.handler,
    clientDir: path.resolve('dist/client'),
    headersFile: path.resolve('dist/_headers.json'),
  });
}

const role = process.argv[2];
if (role !== 'site' && role !== 'data-api') {
  console.error('usage: node scripts/serve.ts site|data-api');
  process.exit(2);
}
const refusal = instanceRefusal(role);
if (refusal !== undefined) {
  console.error(refusal);
  process.exit(1);
}
try {
  const running = await start(role);
  const { stopOnSignals } = await import('./launch.ts');
  stopOnSignals(() => running.stop());
  console.log(
    `${role === 'site' ? 'Site' : 'Data API'} instance ready at ${running.url} (pid ${String(process.pid)}).`,
  );
} catch (error) {
  console.error(`Could not start the ${role}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
