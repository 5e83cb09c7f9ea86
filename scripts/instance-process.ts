import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

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

async function runStatement(url: string, statement: string): Promise<void> {
  const { default: postgres } = await import('postgres');
  const connection = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await connection.unsafe(statement);
  } finally {
    await connection.end();
  }
}

/**
 * A PostgreSQL schema of their own for a set of instances (`env` names it with DATABASE_URL and
 * DATABASE_SCHEMA), migrated and filled with the test-scale demo data by the project's own scripts, as an
 * operator prepares a database before starting instances; throws with a script's output if it fails.
 */
export async function prepareInstanceSchema(env: Record<string, string>): Promise<void> {
  const url = env.DATABASE_URL ?? '';
  await runStatement(url, `create schema ${env.DATABASE_SCHEMA ?? ''}`);
  for (const args of [['scripts/db-migrate.ts'], ['scripts/db-seed.ts', '--scale', 'test']]) {
    const done = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
    if (done.status !== 0) throw new Error(`${args.join(' ')} failed:\n${done.stdout}${done.stderr}`);
  }
}

/** Drops the schema {@link prepareInstanceSchema} made, with everything in it. */
export async function dropInstanceSchema(env: Record<string, string>): Promise<void> {
  await runStatement(env.DATABASE_URL ?? '', `drop schema if exists ${env.DATABASE_SCHEMA ?? ''} cascade`);
}
