import { defineConfig, devices } from '@playwright/test';

const sitePort = Number(process.env.E2E_SITE_PORT ?? 4351);
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Chromium's flags on this machine: headless, no sandbox or GPU, and no traffic of its own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // Generous limits: accessibility scans of long pages and a busy shared machine can take a while;
  // a passing test costs no more for them.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  outputDir: 'test-results/e2e-artifacts',
  use: {
    baseURL: `http://127.0.0.1:${sitePort}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    {
      name: 'desktop',
      testIgnore: /scale-out\.spec\.ts$/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 900 } },
    },
    // Four server processes and a balancer: run after the browser stories, so its load slows none of them.
    { name: 'scale-out', testMatch: /scale-out\.spec\.ts$/, dependencies: ['desktop'] },
  ],
  webServer: {
    command: 'node scripts/e2e-server.ts',
    url: `http://127.0.0.1:${sitePort}/api/livez`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
