import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startAuthEmulator } from '../../scripts/emulator.ts';

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

/** One Firebase Auth emulator for the whole integration run, on ports apart from a running `npm start`. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const port = process.env.TEST_AUTH_EMULATOR_PORT
    ? Number(process.env.TEST_AUTH_EMULATOR_PORT)
    : await freeEmulatorPort();
  const emulator = await startAuthEmulator({ port, projectId: 'demo-marketdata', quiet: true });
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  project.provide('authEmulatorHost', emulator.host);
  return () => emulator.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
  }
}
