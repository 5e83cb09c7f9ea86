import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAuthEmulator } from '../../scripts/emulator.ts';
import { writeSeededTemplate } from './seeded-template.ts';

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => {
      resolve(false);
    });
    server.listen(port, '127.0.0.1', () => {
      server.close(() => {
        resolve(true);
      });
    });
  });
}

/** A port with its two neighbours free (the emulator's hub and logging use them), so runs never collide. */
async function freeEmulatorPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const free = await Promise.all([isFree(port), isFree(port + 1), isFree(port + 2)]);
    if (free.every(Boolean)) return port;
  }
  throw new Error('no free port for the Firebase Auth emulator');
}

/**
 * One Firebase Auth emulator for the whole integration run, on ports apart from a running `npm start`, and
 * the seeded demo database every harness starts from (made while the emulator starts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const port = process.env.TEST_AUTH_EMULATOR_PORT
    ? Number(process.env.TEST_AUTH_EMULATOR_PORT)
    : await freeEmulatorPort();
  const dir = await mkdtemp(path.join(tmpdir(), 'seeded-template-'));
  const template = path.join(dir, 'demo.tar');
  const [started, written] = await Promise.allSettled([
    startAuthEmulator({ port, projectId: 'demo-marketdata', quiet: true }),
    writeSeededTemplate(template),
  ]);
  if (started.status === 'rejected') throw started.reason;
  const emulator = started.value;
  if (written.status === 'rejected') {
    await emulator.stop();
    throw written.reason;
  }
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  project.provide('authEmulatorHost', emulator.host);
  project.provide('seededTemplate', template);
  return async () => {
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
    /** The seeded demo database's archive (`writeSeededTemplate`). */
    seededTemplate: string;
  }
}
