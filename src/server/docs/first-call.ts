import { CODE_LANGUAGES, type CodeLanguage } from '../../lib/docs/code-languages.ts';
import { codeSamples, type CodeSample, type SampleRequest } from './code-samples.ts';
import { DOCS_EXAMPLE_API_URL } from './markdown-plugins.ts';

/*
 * The quickstart's first call (Apple's quote), written by the docs' sample generator rather than by
 * hand, so the page, its Markdown twin and the reference pages can never spell it differently. The
 * quickstart's Markdown marks where the samples go with FIRST_CALL_MARKER: the page puts the code
 * tabs and the "Run it" button there, the Markdown twin the samples as fenced code.
 */

/** The written page that hosts the first call; it has its own page file, not the docs' catch-all. */
export const QUICKSTART_ID = 'quickstart';

/** Where the first call goes in the quickstart's Markdown: an HTML comment, invisible elsewhere. */
export const FIRST_CALL_MARKER = '<!-- first-call -->';

/** The first call's endpoint and query, as the "Run it" button sends it too. */
export const FIRST_CALL = { path: '/stable/quote', query: [['symbol', 'AAPL']] } as const satisfies {
  path: string;
  query: readonly (readonly [string, string])[];
};

/** The first call against a data API address. */
export function firstCallRequest(apiUrl: string): SampleRequest {
  return { url: `${apiUrl}${FIRST_CALL.path}`, query: FIRST_CALL.query };
}

/** The first call in every documentation language, for the page's code tabs. */
export function firstCallSamples(apiUrl: string): CodeSample[] {
  return codeSamples(firstCallRequest(apiUrl));
}

/**
 * The languages the Markdown twin writes the first call in: the three the quickstart is about. The
 * page offers every documentation language, so a reader who chose Go on another page sees Go here.
 */
export const TWIN_LANGUAGES: readonly CodeLanguage[] = ['curl', 'javascript', 'python'];

/** The fence's info string of each language in the twin (how Markdown readers colour it). */
const FENCE: Record<CodeLanguage, string> = {
  curl: 'sh',
  javascript: 'js',
  python: 'python',
  go: 'go',
  php: 'php',
  java: 'java',
  csharp: 'csharp',
  ruby: 'ruby',
};

/**
 * The first call as Markdown for the twin: a fenced sample per twin language, with the example
 * address (the twin's writer puts the published one in its place) and `YOUR_API_KEY`.
 */
export function firstCallMarkdown(): string {
  const samples = codeSamples(firstCallRequest(DOCS_EXAMPLE_API_URL));
  return TWIN_LANGUAGES.map((language) => {
    const sample = samples.find((candidate) => candidate.language === language);
    if (sample === undefined) throw new Error(`No ${language} sample of the first call`);
    const label = CODE_LANGUAGES.find((entry) => entry.id === language)?.label ?? language;
    return `${label}:\n\n\`\`\`${FENCE[language]}\n${sample.code}\n\`\`\``;
  }).join('\n\n');
}

/** A page's Markdown with the first call written out where the marker is (unchanged without one). */
export function withFirstCall(markdown: string): string {
  // A function, so a `$` in a sample is never read as a replacement pattern.
  return markdown.includes(FIRST_CALL_MARKER)
    ? markdown.replace(FIRST_CALL_MARKER, () => firstCallMarkdown())
    : markdown;
}
