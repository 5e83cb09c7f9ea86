import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServer } from '../../src/server/app/serve.ts';

/** A real HTTP server on a free loopback port whose answers take `delayMs`, or never come. */
async function slowServer(delayMs: number | 'never'): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    if (delayMs === 'never') return;
    setTimeout(() => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('finished');
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** One GET on a fresh connection: the status and body, or the socket error's code. */
function get(port: number): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/', agent: false, headers: { Connection: 'keep-alive' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

const servers: Server[] = [];

afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
});

describe('stopping a server', () => {
  it('lets a request in flight finish and send its answer, then refuses new connections', async () => {
    const { server, port } = await slowServer(300);
    servers.push(server);
    // The stop begins once the server has the request (a connection still waiting for its request
    // is idle, and is closed at once).
    const received = once(server, 'request');
    const inFlight = get(port);
    await received;
    const stopped = closeServer(server);
    expect(await inFlight).toEqual({ status: 200, body: 'finished' });
    await stopped;
    expect(await get(port)).toEqual({ error: 'ECONNREFUSED' });
  });

  it('drops a request that outlives the grace period instead of hanging', async () => {
    const { server, port } = await slowServer('never');
    servers.push(server);
    // The stop begins once the server has the request (a connection still waiting for its request
    // is idle, and is closed at once).
    const received = once(server, 'request');
    const inFlight = get(port);
    await received;
    const started = Date.now();
    await closeServer(server, 200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await inFlight).toEqual({ error: 'ECONNRESET' });
  });
});
