import { Agent, request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small HTTP load balancer for the scale-out story and the instances benchmark, as any balancer in front
 * of several instances behaves: requests go round-robin to the instances whose readiness answers 200 (polled
 * every 100 ms), and a request whose instance refused or dropped the connection before answering is sent to
 * the next one. By default every request gets a connection of its own, so a stopping instance's idle
 * connections never matter; with `keepAlive` (the benchmark, where no instance stops) connections to the
 * instances are reused, as a production balancer's are.
 */
export class RoundRobinProxy {
  private readonly ready: boolean[];
  private next = 0;
  private server: Server | undefined;
  private poll: NodeJS.Timeout | undefined;

  private readonly ports: readonly number[];
  private readonly readyPath: string;
  private readonly agent: Agent | false;

  constructor(ports: readonly number[], readyPath: string, options: { keepAlive?: boolean } = {}) {
    this.ports = ports;
    this.readyPath = readyPath;
    this.ready = ports.map(() => false);
    this.agent = options.keepAlive === true ? new Agent({ keepAlive: true, maxSockets: 256 }) : false;
  }

  /** Whether each instance passed its last readiness check, in the order given. */
  readiness(): readonly boolean[] {
    return [...this.ready];
  }

  /** Listens on a free port of the loopback; resolves with its address. */
  async start(): Promise<string> {
    this.poll = setInterval(() => {
      this.ports.forEach((port, index) => {
        this.check(port)
          .then((ok) => {
            this.ready[index] = ok;
          })
          .catch(() => {
            this.ready[index] = false;
          });
      });
    }, 100);
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.forward(req, Buffer.concat(chunks), 0)
          .then((answer) => {
            res.writeHead(answer.status, answer.headers);
            res.end(answer.body);
          })
          .catch((error: unknown) => {
            res.writeHead(502, { 'Content-Type': 'text/plain' });
            res.end(`no instance answered: ${error instanceof Error ? error.message : String(error)}`);
          });
      });
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  }

  async stop(): Promise<void> {
    clearInterval(this.poll);
    const server = this.server;
    if (server !== undefined) await new Promise((resolve) => server.close(resolve));
    if (this.agent !== false) this.agent.destroy();
  }

  private check(port: number): Promise<boolean> {
    return new Promise((resolve) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: this.readyPath, agent: false, timeout: 1_000 },
        (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        },
      );
      req.on('error', () => {
        resolve(false);
      });
      req.on('timeout', () => {
        req.destroy();
      });
      req.end();
    });
  }

  /** The next ready instance's port, round-robin; undefined when none is ready. */
  private pick(): number | undefined {
    let tried = 0;
    while (tried < this.ports.length) {
      tried += 1;
      const index = this.next % this.ports.length;
      this.next += 1;
      if (this.ready[index] === true) return this.ports[index];
    }
    return undefined;
  }

  private async forward(
    req: IncomingMessage,
    body: Buffer,
    attempt: number,
  ): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
    const port = this.pick();
    if (port === undefined) {
      if (attempt > 50) throw new Error('no instance is ready');
      await new Promise((resolve) => setTimeout(resolve, 100));
      return this.forward(req, body, attempt + 1);
    }
    try {
      return await new Promise((resolve, reject) => {
        const upstream = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: req.method,
            path: req.url,
            headers:
              this.agent === false
                ? { ...req.headers, connection: 'close' }
                : { ...req.headers, connection: 'keep-alive' },
            agent: this.agent,
          },
          (res) => {
            const parts: Buffer[] = [];
            res.on('data', (chunk: Buffer) => parts.push(chunk));
            res.on('end', () => {
              const headers: Record<string, string | string[]> = {};
              for (const [name, value] of Object.entries(res.headers))
                if (value !== undefined && name !== 'connection' && name !== 'transfer-encoding')
                  headers[name] = value;
              resolve({ status: res.statusCode ?? 502, headers, body: Buffer.concat(parts) });
            });
            res.on('error', reject);
          },
        );
        upstream.on('error', reject);
        upstream.end(body);
      });
    } catch (error) {
      // Refused or dropped before an answer: the instance is going away; another one answers.
      if (attempt > 50) throw error;
      return this.forward(req, body, attempt + 1);
    }
  }
}
