import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer, type WebSocketServerLike } from '@hono/node-server';
import { WebSocketServer } from 'ws';
import { closeDatabase, getDatabase, type Db } from '../db/client.ts';
import { closeSharedDataApi, sharedDataApi, type DataApi } from '../data-api/app.ts';
import { DEMO_SEED, isMarketDataEmpty, seedDemoData } from '../services/market-data/seed/index.ts';
import { secureAnswer } from './answer-headers.ts';
import { compressAnswer } from './compress.ts';
import { markdownTwins, negotiateMarkdown } from './markdown-twins.ts';
import { internalDataApiUrl, readConfig, seedSettings, shutdownDrainMs } from './config.ts';
import { setServingState } from './lifecycle.ts';
import { pagePolicyMaker, readBuiltPagePolicy } from './content-security-policy.ts';
import { embeddedDataDir, recordRunningServer } from './running-server.ts';
import { serveHashedAsset } from './static-assets.ts';
import { RenewalJob } from '../services/billing/renewals.ts';
import { checkPaymentSettings } from '../services/billing/payment-provider.ts';
import { joinKeyEvents } from '../services/key-events-relay.ts';
import { registerStatusMonitor, StatusMonitor } from '../status/monitor.ts';
import { statusProbes } from '../status/probes.ts';

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface RunningServers {
  siteUrl: string;
  dataApiUrl: string;
  stop(): Promise<void>;
}

export interface ServeOptions {
  host: string;
  sitePort: number;
  dataApiPort: number;
  /** The built site's request handler (standalone Astro node handler). */
  siteHandler: NodeHandler;
  /** The built site's client directory, whose hashed assets are served precompressed. */
  clientDir: string;
  /** The built site's header file (dist/_headers.json): the prerendered pages' script and style hashes. */
  headersFile: string;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** How long a stopping server lets requests in flight finish before it drops their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

const IDLE_SWEEP_MS = 100;

/**
 * Stops a server gracefully: it accepts no new connections, requests in flight finish and their
 * answers are sent, idle keep-alive connections close as they become idle, and whatever is still
 * running after `graceMs` is dropped, so a stop never hangs on a slow client.
 */
export function closeServer(server: Server, graceMs: number = SHUTDOWN_GRACE_MS): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => {
      server.closeIdleConnections();
    }, IDLE_SWEEP_MS);
    const deadline = setTimeout(() => {
      server.closeAllConnections();
    }, graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** The URL a person can open for a server bound to `host`. */
export function displayUrl(host: string, port: number): string {
  const shown = host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${shown}:${port}`;
}

/** Largest message a stream client may send (a subscribe of a thousand tickers fits). */
const STREAM_MAX_PAYLOAD = 64 * 1024;

/**
 * Starts the market data API on its own port, websocket streams included; resolves once it listens.
 * `api` defaults to the process-wide data API.
 */
export async function startDataApi(
  host: string,
  port: number,
  api: Pick<DataApi, 'app'> = sharedDataApi(),
): Promise<{ server: Server; port: number }> {
  // No per-message compression: deflating every tick for every subscriber costs more CPU than the small
  // messages save (and is what `ws` does by default on a server; said here so it stays so).
  const websockets = new WebSocketServer({
    noServer: true,
    maxPayload: STREAM_MAX_PAYLOAD,
    perMessageDeflate: false,
  });
  const server = createAdaptorServer({
    fetch: api.app.fetch,
    websocket: { server: websockets as unknown as WebSocketServerLike },
  }) as Server;
  server.once('close', () => {
    websockets.close();
  });
  return { server, port: await listen(server, port, host) };
}

/**
 * Fills an empty database with the demo data set, so a fresh checkout has data to show.
 * SEED_SCALE=test makes a small set (tests); SEED_DEMO_DATA=0 leaves an empty database empty (a
 * deployment that imports real data with `npm run db:import`).
 */
export async function ensureMarketData(db: Db, log: (line: string) => void = console.log): Promise<void> {
  const { seedDemoData: wanted, scale } = seedSettings();
  if (!wanted || !(await isMarketDataEmpty(db))) return;
  log(
    `Generating demo market data (${scale} scale, seed ${DEMO_SEED}); this runs once, on an empty database…`,
  );
  const summary = await seedDemoData(db, { scale });
  log(`Demo market data ready in ${(summary.elapsedMs / 1000).toFixed(1)} s.`);
}

/** Where this process reaches its own server: a wildcard address is reached on the loopback. */
export function probeUrl(host: string, port: number): string {
  const reachable =
    host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return `http://${reachable}:${String(port)}`;
}

/**
 * Starts the status probes of the site at `siteUrl` and the data API at `dataApiUrl` (every
 * STATUS_PROBE_INTERVAL_MS, the first round at once), and makes GET /api/status answer from them.
 */
export function startStatusMonitor(siteUrl: string, dataApiUrl: string): StatusMonitor {
  const monitor = new StatusMonitor({
    probes: statusProbes({
      siteUrl,
      dataApiUrl,
      pipeline: () => sharedDataApi().pipeline,
      database: async () => (await getDatabase()).db,
    }),
  });
  registerStatusMonitor(monitor);
  monitor.start();
  return monitor;
}

/** Stops the probes (waiting for a round in flight) before the servers and the database close. */
export async function stopStatusMonitor(monitor: StatusMonitor): Promise<void> {
  await monitor.stop();
  registerStatusMonitor(undefined);
}

/**
 * Starts the test-mode renewals (every BILLING_RENEWAL_INTERVAL_MS, the first round at once). The
 * provider's events reach the site at `siteUrl` over HTTP, as a real provider's do.
 */
export function startRenewalJob(siteUrl: string): RenewalJob {
  const job = new RenewalJob({ deliver: (init) => fetch(`${siteUrl}/api/billing/webhook`, init) });
  job.start();
  return job;
}

/**
 * On the embedded database, says in the data directory that this process holds it and where its
 * site answers, so `npm run user:role` goes through this process instead of opening the database
 * beside it. Answers what removes the record; call it once the database is closed.
 */
export function recordEmbeddedServer(siteUrl: string): () => void {
  const dataDir = embeddedDataDir(readConfig());
  return dataDir === undefined ? () => undefined : recordRunningServer(dataDir, siteUrl);
}

/** Options of the built site's server. */
export type SiteOptions = Pick<ServeOptions, 'clientDir' | 'siteHandler' | 'headersFile'>;

/**
 * The built site's HTTP server, not yet listening: security headers, Markdown twins, precompressed hashed
 * assets, then the Astro handler with compression.
 */
export async function createSiteServer(options: SiteOptions): Promise<Server> {
  const { clientDir, siteHandler } = options;
  const pagePolicy = pagePolicyMaker(readBuiltPagePolicy(options.headersFile));
  const twins = await markdownTwins(clientDir);
  return createServer((req, res) => {
    secureAnswer(req, res, pagePolicy);
    negotiateMarkdown(twins, req, res);
    serveHashedAsset(clientDir, req, res)
      .then((served) => {
        if (!served) {
          compressAnswer(req, res, () => {
            siteHandler(req, res);
          });
        }
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('Internal server error');
      });
  });
}

/**
 * The first half of a stop: the instance says it is not ready (readyz answers 503) and keeps serving for
 * `drainMs`, so a load balancer that polls readiness stops sending to it before its port closes.
 */
export async function beginDrain(drainMs: number): Promise<void> {
  setServingState('draining');
  if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
}

/**
 * Opens the database (migrating it) and starts the site and the data API in this process: PGlite
 * allows a single process per data directory, so on the embedded default both servers share it.
 */
export async function startServers(options: ServeOptions): Promise<RunningServers> {
  const { host } = options;
  const drainMs = shutdownDrainMs(0);
  setServingState('starting');
  checkPaymentSettings();
  await ensureMarketData((await getDatabase()).db);
  const site = await createSiteServer(options);
  const dataApi = await startDataApi(host, options.dataApiPort);
  const sitePort = await listen(site, options.sitePort, host).catch(async (error: unknown) => {
    await closeServer(dataApi.server);
    throw error;
  });
  const status = startStatusMonitor(probeUrl(host, sitePort), probeUrl(host, dataApi.port));
  const renewals = startRenewalJob(probeUrl(host, sitePort));
  const forgetRecord = recordEmbeddedServer(probeUrl(host, sitePort));
  setServingState('serving');
  return {
    siteUrl: displayUrl(host, sitePort),
    dataApiUrl: displayUrl(host, dataApi.port),
    /**
     * Stops the status probes and the renewals, closes the websocket streams, finishes requests in flight (at most
     * SHUTDOWN_GRACE_MS), flushes the usage meter, closes the database.
     */
    async stop() {
      await beginDrain(drainMs);
      await Promise.all([stopStatusMonitor(status), renewals.stop()]);
      // Stream clients are told the server is going away (1001) before the servers close.
      sharedDataApi().streams.close();
      await Promise.all([closeServer(site), closeServer(dataApi.server)]);
      await closeSharedDataApi();
      await closeDatabase();
      forgetRecord();
    },
  };
}

/** One running server of a process that runs one: its address, and a graceful stop. */
export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** How long a separately started instance stays up, not ready, after SIGTERM before it closes its port. */
export const INSTANCE_DRAIN_MS = 5_000;

/**
 * One instance of the site, beside others on one PostgreSQL database (`npm run serve:site`). The status
 * probes and the renewals run in every instance and take a database lock per round, so each round runs once
 * however many instances there are; the data API it probes is DATA_API_INTERNAL_URL's. With REDIS_URL, the
 * keys it revokes and the accounts it blocks are announced to every data API instance.
 */
export async function serveSite(
  options: SiteOptions & { host: string; port: number },
): Promise<RunningServer> {
  const drainMs = shutdownDrainMs(INSTANCE_DRAIN_MS);
  setServingState('starting');
  checkPaymentSettings();
  await getDatabase();
  const site = await createSiteServer(options);
  const port = await listen(site, options.port, options.host);
  const own = probeUrl(options.host, port);
  const status = startStatusMonitor(own, internalDataApiUrl());
  const renewals = startRenewalJob(own);
  const leaveKeyEvents = joinKeyEvents(readConfig().redisUrl);
  await fetch(`${own}/__warm-up`).catch(() => undefined);
  setServingState('serving');
  return {
    url: displayUrl(options.host, port),
    async stop() {
      await beginDrain(drainMs);
      await Promise.all([stopStatusMonitor(status), renewals.stop()]);
      await closeServer(site);
      await leaveKeyEvents();
      await closeSharedDataApi();
      await closeDatabase();
    },
  };
}

/** One instance of the data API, beside others on one PostgreSQL database and Redis (`npm run serve:data-api`). */
export async function serveDataApi(options: { host: string; port: number }): Promise<RunningServer> {
  const drainMs = shutdownDrainMs(INSTANCE_DRAIN_MS);
  setServingState('starting');
  await getDatabase();
  const api = sharedDataApi();
  // The symbol directory takes a second or two to load at a full market's size: before the first caller.
  await api.directory.get();
  const dataApi = await startDataApi(options.host, options.port, api);
  // Keys revoked and accounts blocked through any site instance stop here at once.
  const leaveKeyEvents = joinKeyEvents(readConfig().redisUrl);
  setServingState('serving');
  return {
    url: displayUrl(options.host, dataApi.port),
    async stop() {
      await beginDrain(drainMs);
      api.streams.close();
      await closeServer(dataApi.server);
      await leaveKeyEvents();
      await closeSharedDataApi();
      await closeDatabase();
    },
  };
}
