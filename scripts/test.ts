import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_PATH } from '../playwright.config.ts';
import { ensureBuild } from './launch.ts';

/**
 * `npm test`: lint, typecheck, unit and integration tests, then end-to-end tests against a
 * production build. Every step runs even when an earlier one fails, so one run shows everything;
 * the last line counts the tests.
 */

interface Step {
  name: string;
  ok: boolean;
  passed: number;
  failed: number;
}

const bin = (name: string): string => path.resolve('node_modules/.bin', name);
const steps: Step[] = [];
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: process.env.FORCE_COLOR ?? '1' };

function run(name: string, command: string, args: string[]): boolean {
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  return result.status === 0;
}

/** A test step's result; a failed runner counts at least one failure even when it reported none. */
function counted(name: string, ok: boolean, counts: Pick<Step, 'passed' | 'failed'>): Step {
  return { name, ok, passed: counts.passed, failed: ok ? counts.failed : Math.max(1, counts.failed) };
}

function countVitest(file: string): Pick<Step, 'passed' | 'failed'> {
  if (!existsSync(file)) return { passed: 0, failed: 0 };
  const report = JSON.parse(readFileSync(file, 'utf8')) as { numPassedTests: number; numFailedTests: number };
  return { passed: report.numPassedTests, failed: report.numFailedTests };
}

function countPlaywright(file: string): Pick<Step, 'passed' | 'failed'> {
  if (!existsSync(file)) return { passed: 0, failed: 0 };
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number };
  };
  return { passed: report.stats.expected + report.stats.flaky, failed: report.stats.unexpected };
}

rmSync('test-results', { recursive: true, force: true });
mkdirSync('test-results', { recursive: true });

// Content-collection and env types come from `astro sync`; a fresh checkout has none yet.
const syncOk = run('generate Astro types (astro sync)', bin('astro'), ['sync']);
steps.push({ name: 'astro sync', ok: syncOk, passed: 0, failed: syncOk ? 0 : 1 });

/**
 * Runs commands side by side (the machine has two cores; lint and typecheck each keep one busy), their
 * output held back and printed whole as each finishes, so the log reads as if they ran in turn.
 */
function runTogether(
  commands: readonly { name: string; command: string; args: string[] }[],
): Promise<boolean[]> {
  return Promise.all(
    commands.map(
      ({ name, command, args }) =>
        new Promise<boolean>((resolve) => {
          const output: Buffer[] = [];
          const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
          child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
          child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
          child.on('error', (error) => {
            output.push(Buffer.from(`${error.message}\n`));
          });
          child.on('close', (code) => {
            console.log(`\n▶ ${name}`);
            process.stdout.write(Buffer.concat(output));
            resolve(code === 0);
          });
        }),
    ),
  );
}

const [eslintOk = false, typesOk = false] = await runTogether([
  { name: 'lint (eslint)', command: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  { name: 'typecheck (astro check)', command: bin('astro'), args: ['check', '--minimumSeverity', 'warning'] },
]);
const lintOk = eslintOk && run('format (prettier)', bin('prettier'), ['--check', '--log-level', 'warn', '.']);
steps.push({ name: 'lint', ok: lintOk, passed: lintOk ? 1 : 0, failed: lintOk ? 0 : 1 });
steps.push({ name: 'typecheck', ok: typesOk, passed: typesOk ? 1 : 0, failed: typesOk ? 0 : 1 });

const vitestOk = run('unit and integration tests (vitest)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=test-results/vitest.json',
]);
const vitestCounts = countVitest('test-results/vitest.json');
steps.push(counted('vitest', vitestOk, vitestCounts));

if (!existsSync(CHROMIUM_PATH)) {
  console.error(
    `\nChromium is missing at ${CHROMIUM_PATH}: install it with \`apt-get update && apt-get install -y chromium\`.`,
  );
  steps.push({ name: 'e2e', ok: false, passed: 0, failed: 1 });
} else {
  let built = true;
  try {
    console.log('\n▶ production build');
    ensureBuild();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    built = false;
  }
  if (built) {
    const e2eOk = run('end-to-end tests (playwright)', bin('playwright'), ['test']);
    const counts = countPlaywright('test-results/e2e.json');
    steps.push(counted('e2e', e2eOk, counts));
  } else {
    steps.push({ name: 'e2e', ok: false, passed: 0, failed: 1 });
  }
}

console.log('');
for (const step of steps)
  console.log(`${step.ok ? '✔' : '✘'} ${step.name}: ${step.passed} passed, ${step.failed} failed`);
const passed = steps.reduce((n, s) => n + s.passed, 0);
const failed = steps.reduce((n, s) => n + s.failed, 0);
console.log(`Summary: ${passed} passed, ${failed} failed`);
process.exit(steps.every((s) => s.ok) ? 0 : 1);
