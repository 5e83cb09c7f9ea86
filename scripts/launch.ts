import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildStaleness } from '../src/server/app/build-info.ts';
import { readConfig, type ServerConfig } from '../src/server/app/config.ts';
import { startServers, type RunningServers } from '../src/server/app/serve.ts';
import { startAuthEmulator, type AuthEmulator } from './emulator.ts';

export interface Launched {
  siteUrl: string;
  dataApiUrl: string;
  authEmulatorHost: string | undefined;
  stop(): Promise<void>;
}

/** Builds the site when the build is missing or stale; prints why. */
export function ensureBuild(): void {
  const reason = buildStaleness();
  if (!reason) return;
  console.log(`Building the site (${reason})…`);
  const astroCli = path.resolve('node_modules/astro/bin/astro.mjs');
  const result = spawnSync(process.execPath, [astroCli, 'build'], {
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error('the build failed (see above)');
}

/**
 * Starts the Auth emulator for a demo project unless one is already configured, and points this
 * process at it; undefined when a real Firebase project (or a running emulator) is used.
 */
export async function startEmulatorIfNeeded(
  config: ServerConfig,
  quiet: boolean,
): Promise<AuthEmulator | undefined> {
  if (config.authEmulatorHost || !config.firebaseProjectId.startsWith('demo-')) return undefined;
  if (config.production) {
    throw new Error(
      `NODE_ENV=production needs a real Firebase project: FIREBASE_PROJECT_ID is "${config.firebaseProjectId}", a demo project that only works with the local Auth emulator`,
    );
  }
  const emulator = await startAuthEmulator({
    port: Number(process.env.FIREBASE_AUTH_EMULATOR_PORT ?? 9099),
    projectId: config.firebaseProjectId,
    quiet,
  });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  return emulator;
}

/**
 * Starts the identity emulator (for demo projects, unless one is already configured), then the
 * built site and the data API in this process. Everything it started is stopped by stop().
 */
export async function launchProduction(options: { quietEmulator?: boolean } = {}): Promise<Launched> {
  const config = readConfig();
  const emulator = await startEmulatorIfNeeded(config, options.quietEmulator ?? false);
  let servers: RunningServers;
  try {
    process.env.ASTRO_NODE_AUTOSTART = 'disabled';
    process.env.ASTRO_NODE_LOGGING = 'disabled';
    const entry = (await import(pathToFileURL(path.resolve('dist/server/entry.mjs')).href)) as {
      handler: Parameters<typeof startServers>[0]['siteHandler'];
    };
    servers = await startServers({
      host: config.host,
      sitePort: config.sitePort,
      dataApiPort: config.dataApiPort,
      siteHandler: entry.handler,
      clientDir: path.resolve('dist/client'),
      headersFile: path.resolve('dist/_headers.json'),
    });
  } catch (error) {
    await emulator?.stop();
    throw error;
  }
  // One render before the first visitor: it loads the page renderer, and lets Astro see that the
  // pipeline in src/fetch.ts renders pages (otherwise an /api request first makes it warn wrongly).
  await fetch(`${servers.siteUrl}/__warm-up`).catch(() => undefined);
  return {
    siteUrl: servers.siteUrl,
    dataApiUrl: servers.dataApiUrl,
    authEmulatorHost: process.env.FIREBASE_AUTH_EMULATOR_HOST,
    async stop() {
      await servers.stop();
      await emulator?.stop();
    },
  };
}

/** Stops everything on Ctrl-C or SIGTERM, once; a second Ctrl-C forces the exit. */
export function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(130);
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
