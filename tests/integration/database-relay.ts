import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of PostgreSQL that can be cut (nothing listens and every open connection is
 * dropped, as when the server goes away) and restored on the same port.
 */
export class DatabaseRelay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private listenPort = 0;
  private readonly targetHost: string;
  private readonly targetPort: number;

  constructor(targetHost: string, targetPort: number) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
  }

  get port(): number {
    return this.listenPort;
  }

  /** Listens on the port it had before, or on a free one the first time. */
  async restore(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          this.sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listenPort, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.listenPort = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops listening and drops every connection, so the database is gone for its clients. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => {
      if (server) server.close(() => resolve());
      else resolve();
    });
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }
}
