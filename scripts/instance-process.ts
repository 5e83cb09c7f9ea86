import { spawn, type ChildProcess } from 'node:child_process';

/** How long an instance may take to say it is ready (migrations, the symbol directory, the build check). */
const START_TIMEOUT_MS = 90_000;
/** How long a stopping instance may take before it is killed and reported hung. */
const STOP_TIMEOUT_MS = 30_000;

/**
 * One instance of the site or the data API as its own process (`scripts/serve.ts site|data-api`), which can
 * be stopped with SIGTERM, as an orchestrator stops it, and started again on the same port: the scale-out
 * story's and the instances benchmark's processes.
 */
export class InstanceProcess {
  child: ChildProcess | undefined;
  /** What the process printed since its latest start. */
  output = '';

  readonly role: 'site' | 'data-api';
  readonly port: number;
  private readonly env: Record<string, string>;

  constructor(role: 'site' | 'data-api', port: number, env: Record<string, string>) {
    this.role = role;
    this.port = port;
    this.env = env;
  }

  /** Starts the process; resolves once it says it is ready, rejects with its output if it exits or hangs first. */
  async start(): Promise<void> {
    this.output = '';
    const child = spawn(process.execPath, ['scripts/serve.ts', this.role], {
      env: {
        ...process.env,
        ...this.env,
        ...(this.role === 'site' ? { PORT: String(this.port) } : { DATA_API_PORT: String(this.port) }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        fail(new Error(`the ${this.role} instance on ${String(this.port)} was not ready in time`));
      }, START_TIMEOUT_MS);
      const settle = (): void => {
        clearTimeout(timer);
        child.off('exit', onExit);
      };
      const fail = (error: Error): void => {
        settle();
        reject(new Error(`${error.message}:\n${this.output}`));
      };
      const onExit = (code: number | null): void => {
        fail(new Error(`the ${this.role} instance on ${String(this.port)} exited (${String(code)})`));
      };
      const onOutput = (chunk: Buffer): void => {
        this.output += chunk.toString();
        if (this.output.includes('instance ready')) {
          settle();
          resolve();
        }
      };
      child.stdout.on('data', onOutput);
      child.stderr.on('data', onOutput);
      child.on('exit', onExit);
    });
  }

  /** SIGTERM; resolves with the exit code, or throws with the output if the process does not stop. */
  async stop(): Promise<number | null> {
    const child = this.child;
    if (child === undefined) return null;
    if (child.exitCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const code = await Promise.race([
      exited,
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), STOP_TIMEOUT_MS)),
    ]);
    if (code === 'hung') {
      child.kill('SIGKILL');
      throw new Error(`the ${this.role} instance on ${String(this.port)} did not stop:\n${this.output}`);
    }
    return code;
  }
}
