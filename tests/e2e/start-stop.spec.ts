import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';

const ports = { site: 4361, dataApi: 4362, emulator: 9799 };

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      resolve(false);
    });
  });
}

test('npm start brings up the site, the data API and the emulator, and Ctrl-C stops them all', async () => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'start-stop-'));
  const child = spawn(process.execPath, ['scripts/start.ts'], {
    env: {
      ...process.env,
      PORT: String(ports.site),
      DATA_API_PORT: String(ports.dataApi),
      FIREBASE_AUTH_EMULATOR_PORT: String(ports.emulator),
      DATA_DIR: dataDir,
      SEED_SCALE: 'test',
      FIREBASE_AUTH_EMULATOR_HOST: '',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await expect.poll(() => output, { timeout: 90_000 }).toContain('Ctrl-C stops all of them');
    expect(output).toContain(`http://localhost:${ports.site}`);
    expect(output).toContain(`http://localhost:${ports.dataApi}`);
    expect(output).toContain(`http://127.0.0.1:${ports.emulator}`);
    expect(output).toContain('Demo market data ready');
    const home = await fetch(`http://127.0.0.1:${ports.site}/`);
    expect(home.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${ports.dataApi}/readyz`);
    expect(ready.status).toBe(200);

    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    for (const port of Object.values(ports)) expect(await portOpen(port), `port ${port}`).toBe(false);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
