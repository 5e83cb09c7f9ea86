import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, startDataApi } from '../../src/server/app/serve.ts';
import {
  runnableSamples,
  SAMPLE_KEY_VARIABLE,
  sampleForServer,
  type CodeSample,
} from '../../src/server/articles/samples.ts';
import { ARTICLE_SECTION_IDS, ARTICLE_SECTIONS } from '../../src/server/articles/sections.ts';
import { openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

/*
 * Every code sample an article marks runnable (```js runnable, ```sh runnable, ```python runnable)
 * is run here as a reader would run it: as its own program, against a started data API over the
 * demo data, with a real key in place of the placeholder and in TICKERLAKE_API_KEY. The samples of
 * one article run in order in one folder, as a reader following the article would. A sample that
 * exits with an error, or prints a refusal of the API, fails.
 */

interface ArticleSamples {
  article: string;
  samples: CodeSample[];
}

const CONTENT = path.resolve('src/content');

const articles: ArticleSamples[] = ARTICLE_SECTION_IDS.flatMap((section) => {
  const dir = path.join(CONTENT, ARTICLE_SECTIONS[section].folder);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => ({
      article: `${ARTICLE_SECTIONS[section].folder}/${name}`,
      samples: runnableSamples(readFileSync(path.join(dir, name), 'utf8')),
    }))
    .filter((entry) => entry.samples.length > 0);
});

/** Whether python3 is on this machine (Debian's is; the Python samples use its standard library only). */
const hasPython = spawnSync('python3', ['--version']).status === 0;

/** curl as samples call it, made to fail on an HTTP error so a refused call fails the sample. */
const CURL_THAT_FAILS = 'curl() { command curl --fail-with-body --show-error "$@"; }';

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program without blocking this process, which serves the API the program calls. */
function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd, env, timeout: 60_000, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let h: DataApiHarness;
let server: Server;
let apiUrl: string;
let key: string;
const folders: string[] = [];

beforeAll(async () => {
  h = await openDataApiHarness();
  const started = await startDataApi('127.0.0.1', 0, h.api);
  server = started.server;
  apiUrl = `http://127.0.0.1:${String(started.port)}`;
  key = await h.keyFor('commercialEnterprise');
});

afterAll(async () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  h.api.streams.close();
  await closeServer(server, 1_000);
  await h.close();
});

/** Runs one sample in `folder`: JavaScript with this Node, shell with bash, Python with python3. */
function runSample(sample: CodeSample, folder: string): Promise<Outcome> {
  const code = sampleForServer(sample.code, apiUrl, key);
  const env = { ...process.env, [SAMPLE_KEY_VARIABLE]: key };
  if (sample.language === 'js') {
    writeFileSync(path.join(folder, 'sample.mjs'), code);
    return run(process.execPath, ['sample.mjs'], folder, env);
  }
  if (sample.language === 'python') {
    writeFileSync(path.join(folder, 'sample.py'), code);
    return run('python3', ['sample.py'], folder, env);
  }
  return run('bash', ['-e', '-o', 'pipefail', '-c', `${CURL_THAT_FAILS}\n${code}`], folder, env);
}

describe('the articles’ runnable code samples', () => {
  it('exist, in every language the articles use', () => {
    const languages = new Set(articles.flatMap((entry) => entry.samples.map((sample) => sample.language)));
    expect([...languages].sort()).toEqual(['js', 'python', 'sh']);
  });

  it('include every how-to guide, each a walkthrough with code to run', () => {
    const folder = ARTICLE_SECTIONS.howTo.folder;
    const guides = readdirSync(path.join(CONTENT, folder)).filter((name) => name.endsWith('.md'));
    expect(guides.length).toBeGreaterThanOrEqual(8);
    for (const guide of guides) {
      const entry = articles.find((candidate) => candidate.article === `${folder}/${guide}`);
      expect(entry?.samples.length ?? 0, guide).toBeGreaterThan(0);
    }
  });

  describe.each(articles)('$article', ({ samples }) => {
    const folder = mkdtempSync(path.join(tmpdir(), 'article-samples-'));
    folders.push(folder);

    it.for<readonly [string, CodeSample]>(
      samples.map((sample) => [`line ${String(sample.line)} (${sample.language})`, sample]),
    )(
      'the sample at %s runs to the end against the data API with a reader’s key',
      { timeout: 90_000 },
      async ([, sample], context) => {
        if (sample.language === 'python' && !hasPython) context.skip('python3 is not installed');
        const outcome = await runSample(sample, folder);
        const output = `${outcome.stdout}\n${outcome.stderr}`;
        expect(outcome.code, output).toBe(0);
        expect(outcome.stdout.trim(), output).not.toBe('');
        expect(outcome.stdout, output).not.toContain('Error Message');
      },
    );
  });
});
