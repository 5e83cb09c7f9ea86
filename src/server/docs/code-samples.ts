import { HTTPSnippet, type HarRequest } from '@readme/httpsnippet';
import { toHtml } from 'hast-util-to-html';
import { common, createLowlight } from 'lowlight';
import { CODE_LANGUAGES, type CodeLanguage } from '../../lib/docs/code-languages.ts';
import { KEY_PLACEHOLDER } from '../../lib/docs/key-placeholder.ts';

/*
 * Code samples of a data API request in every language of the documentation, written by
 * @readme/httpsnippet from one request (so a parameter is never spelled differently in two
 * languages) and coloured with highlight.js classes (lowlight, the engine the Markdown pages use),
 * which the pages' Content-Security-Policy allows where inline styles would not be.
 *
 * It lives on the server: the snippet library needs Node's `url` module, which browsers do not have.
 * The API viewer can take the samples from here when its pages are built, or ask for them.
 */

/** A GET request of the data API: its URL without a query, and its query in order. */
export interface SampleRequest {
  /** `http://localhost:4322/stable/quote` */
  url: string;
  /** Query parameters in order; the key is added last by {@link codeSamples}. */
  query: readonly (readonly [string, string])[];
}

/** One language's sample. */
export interface CodeSample {
  language: CodeLanguage;
  /** The tab's name: 'curl', 'Python', 'C#', … */
  label: string;
  /** The sample as text, with `YOUR_API_KEY` where the reader's key goes. */
  code: string;
  /** The same text as HTML with highlight.js token classes (escaped; nothing else added). */
  html: string;
}

/** Which snippet target writes each language, and which grammar colours it. */
type TargetId = Parameters<HTTPSnippet['convert']>[0];

const WRITERS: Record<CodeLanguage, { target: TargetId; client: string; grammar: string }> = {
  curl: { target: 'shell', client: 'curl', grammar: 'bash' },
  javascript: { target: 'javascript', client: 'fetch', grammar: 'javascript' },
  python: { target: 'python', client: 'requests', grammar: 'python' },
  go: { target: 'go', client: 'native', grammar: 'go' },
  php: { target: 'php', client: 'guzzle', grammar: 'php' },
  java: { target: 'java', client: 'nethttp', grammar: 'java' },
  csharp: { target: 'csharp', client: 'httpclient', grammar: 'csharp' },
  ruby: { target: 'ruby', client: 'native', grammar: 'ruby' },
};

const lowlight = createLowlight(common);

/**
 * A query value as it goes into a sample's URL: percent-encoded, except the commas of symbol
 * lists, which are valid in a query and easier to read (`symbols=AAPL,MSFT`).
 */
function encodeQueryPart(value: string): string {
  return encodeURIComponent(value).replaceAll('%2C', ',');
}

/** The request as a HAR entry, with the key as the last query parameter. */
function harRequest(request: SampleRequest): HarRequest {
  const query = [...request.query, ['apikey', KEY_PLACEHOLDER] as const];
  return {
    method: 'GET',
    url: request.url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: [],
    queryString: query.map(([name, value]) => ({
      name: encodeQueryPart(name),
      value: encodeQueryPart(value),
    })),
    headersSize: -1,
    bodySize: -1,
    // A GET sends no body: the library's own default, stated because its type asks for one.
    postData: { mimeType: 'application/octet-stream' },
  };
}

/** Colours a sample: highlight.js classes on spans, the text escaped. */
export function highlightCode(code: string, grammar: string): string {
  return toHtml(lowlight.highlight(grammar, code));
}

/**
 * The request in every documentation language (CODE_LANGUAGES' order), with `YOUR_API_KEY` as the
 * key: the docs script puts a signed-in reader's own key in its place in the browser.
 */
export function codeSamples(request: SampleRequest): CodeSample[] {
  // The query is encoded here (commas kept), so the library must not encode it again.
  const snippet = new HTTPSnippet(harRequest(request), { harIsAlreadyEncoded: true });
  return CODE_LANGUAGES.map(({ id, label }) => {
    const writer = WRITERS[id];
    const written = snippet.convert(writer.target, writer.client);
    const code = written[0];
    if (typeof code !== 'string' || code === '')
      throw new Error(`No ${label} sample could be written for ${request.url}`);
    return { language: id, label, code, html: highlightCode(code, writer.grammar) };
  });
}

/** The sample of one language. */
export function codeSample(request: SampleRequest, language: CodeLanguage): CodeSample {
  const sample = codeSamples(request).find((candidate) => candidate.language === language);
  if (sample === undefined) throw new Error(`No ${language} sample`);
  return sample;
}
