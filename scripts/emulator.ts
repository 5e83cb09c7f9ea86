import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface AuthEmulator {
  host: string;
  stop(): Promise<void>;
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the Firebase Auth emulator exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the Firebase Auth emulator did not answer at ${url} within ${timeoutMs / 1000} s`);
}

/**
 * Starts the Firebase Auth emulator (firebase-tools) on the given port, with the hub and logging
 * ports next to it so that a second instance (tests beside a running site) never collides.
 */
export async function startAuthEmulator(options: {
  port: number;
  projectId: string;
  quiet?: boolean;
}): Promise<AuthEmulator> {
  const { port, projectId } = options;
  const dir = mkdtempSync(path.join(tmpdir(), 'auth-emulator-'));
  const config = path.join(dir, 'firebase.json');
  writeFileSync(
    config,
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port },
        hub: { host: '127.0.0.1', port: port + 1 },
        logging: { host: '127.0.0.1', port: port + 2 },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const cli = path.resolve('node_modules/firebase-tools/lib/bin/firebase.js');
  const child = spawn(
    process.execPath,
    [cli, 'emulators:start', '--only', 'auth', '--project', projectId, '--config', config],
    {
      cwd: dir,
      stdio: options.quiet ? 'ignore' : ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NO_UPDATE_NOTIFIER: '1', FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
    },
  );
  const host = `127.0.0.1:${port}`;
  // If this process dies without stopping the emulator, do not leave it running.
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const stop = async (): Promise<void> => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // It loads in about 5 s on an idle machine, but needs some 15 s of CPU: on a busy one it takes minutes.
    await waitForHttp(`http://${host}/`, child, 180_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { host, stop };
}
