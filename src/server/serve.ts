import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { closeDatabase, getDatabase } from './db/client.ts';
import { dataApiApp } from './data-api/app.ts';
import { serveHashedAsset } from './static-assets.ts';

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

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Opens the database (migrating it) and starts the site and the data API in this process: PGlite
 * allows a single process per data directory, so on the embedded default both servers share it.
 */
export async function startServers(options: ServeOptions): Promise<RunningServers> {
  await getDatabase();
  const { host, clientDir, siteHandler } = options;
  const site = createServer((req, res) => {
    serveHashedAsset(clientDir, req, res)
      .then((served) => {
        if (!served) siteHandler(req, res);
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('Internal server error');
      });
  });
  const dataApi = createAdaptorServer({ fetch: dataApiApp.fetch }) as Server;
  const dataApiPort = await listen(dataApi, options.dataApiPort, host);
  const sitePort = await listen(site, options.sitePort, host).catch(async (error: unknown) => {
    await close(dataApi);
    throw error;
  });
  const shown = host === '127.0.0.1' || host === '0.0.0.0' ? 'localhost' : host;
  return {
    siteUrl: `http://${shown}:${sitePort}`,
    dataApiUrl: `http://${shown}:${dataApiPort}`,
    async stop() {
      await Promise.all([close(site), close(dataApi)]);
      await closeDatabase();
    },
  };
}
