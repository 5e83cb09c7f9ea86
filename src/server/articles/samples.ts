import { DOCS_EXAMPLE_API_URL } from '../docs/markdown-plugins.ts';
import { KEY_PLACEHOLDER } from '../../lib/docs/key-placeholder.ts';

/*
 * The code samples of the articles that a reader can run as they are: a fenced block whose info
 * string says `runnable` after its language (```js runnable, ```sh runnable, ```python runnable).
 * Samples call the data API at the documentation's example address with the key placeholder (or
 * the TICKERLAKE_API_KEY variable), like the docs' own examples; a test runs every one of them
 * against a started data API with a real key, so a sample that stops working fails the build.
 */

/** The languages a runnable sample may be written in, and how the test runs each. */
export const RUNNABLE_LANGUAGES = ['js', 'sh', 'python'] as const;
export type RunnableLanguage = (typeof RUNNABLE_LANGUAGES)[number];

/** The environment variable samples read the reader's key from. */
export const SAMPLE_KEY_VARIABLE = 'TICKERLAKE_API_KEY';

export interface CodeSample {
  /** The fence's language, as written. */
  language: string;
  /** Whether the fence marks it runnable. */
  runnable: boolean;
  code: string;
  /** The line of the opening fence, from 1, for messages. */
  line: number;
}

const FENCE = /^(`{3,}|~{3,})\s*([\w-]*)([^\n]*)$/;

/** Every fenced code block of a Markdown text, in order. */
export function codeSamples(markdown: string): CodeSample[] {
  const lines = markdown.split('\n');
  const samples: CodeSample[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = FENCE.exec(lines[index] ?? '');
    if (open === null) continue;
    const [, marker = '```', language = '', info = ''] = open;
    const start = index;
    const body: string[] = [];
    for (index += 1; index < lines.length && !(lines[index] ?? '').trimEnd().startsWith(marker); index += 1) {
      body.push(lines[index] ?? '');
    }
    samples.push({
      language,
      runnable: info.trim().split(/\s+/).includes('runnable'),
      code: body.join('\n'),
      line: start + 1,
    });
  }
  return samples;
}

/** The runnable samples of a Markdown text, in order. */
export function runnableSamples(markdown: string): CodeSample[] {
  return codeSamples(markdown).filter((sample) => sample.runnable);
}

/**
 * A sample made ready to run against a given data API with a given key: the example address and
 * the key placeholder replaced (the websocket address follows the http one, as samples derive it).
 */
export function sampleForServer(code: string, apiUrl: string, key: string): string {
  return code.replaceAll(DOCS_EXAMPLE_API_URL, apiUrl.replace(/\/+$/, '')).replaceAll(KEY_PLACEHOLDER, key);
}
