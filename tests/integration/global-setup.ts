import type { TestProject } from 'vitest/node';
import { startAuthEmulator } from '../../scripts/emulator.ts';

/** One Firebase Auth emulator for the whole integration run, on ports apart from a running `npm start`. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const port = Number(process.env.TEST_AUTH_EMULATOR_PORT ?? 9499);
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
