import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files run side by side: at least two at once (Vitest's default, one fewer than the cores,
 * would run them one at a time on a two-core machine, and many integration files mostly wait on
 * timers and I/O), at most four, as each embedded database takes about 1.2 GB at its peak.
 */
const WORKERS = Math.min(4, Math.max(2, availableParallelism()));

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/integration/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
