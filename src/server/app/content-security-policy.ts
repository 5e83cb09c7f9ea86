import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  authEmulatorUrl,
  browserApiOrigins,
  browserDataApiOrigins,
  firebaseAuthDomain,
  readConfig,
  type Environment,
} from './config.ts';
import { OFFICE_FRAME_ANCESTORS, OFFICE_JS_ORIGIN } from '../../lib/spreadsheet/office.ts';
import { isAddInPath } from '../../lib/spreadsheet/manifest.ts';
import { publishedApiUrl } from '../docs/markdown-plugins.ts';

// The pages' Content-Security-Policy. Astro (security.csp in astro.config.mjs) writes script-src and
// style-src with the hash of every inline script and style the site ships: on on-demand answers as
// a header, for prerendered pages into dist/_headers.json (the node adapter's staticHeaders). The
// site server (answer-headers.ts) completes that with the directives below on every HTML answer,
// some of which depend on the running configuration (which identity provider the browser talks to).

/** A policy: directive names (lower case) and their sources, in order. */
export type Policy = ReadonlyMap<string, readonly string[]>;

/** Every directive a page policy has besides Astro's hashes; the sources of those that vary are added at run time. */
const PAGE_DIRECTIVES: Policy = new Map([
  ['default-src', ["'self'"]],
  // The documentation's search (Pagefind) runs its index in WebAssembly, which needs
  // 'wasm-unsafe-eval'; it allows compiling WebAssembly only, not JavaScript's eval.
  ['script-src', ["'self'", "'wasm-unsafe-eval'"]],
  // No 'unsafe-inline' for style attributes: Astro's hashes cover <style> elements only, so a
  // style="" in the markup is refused. No page renders one: React applies style props through the
  // CSSOM (element.style), which a policy does not govern, and the server-rendered markup has none.
  ['style-src', ["'self'"]],
  // News pictures are shown from the publishers' own sites (addresses from the data, https only).
  ['img-src', ["'self'", 'https:']],
  ['font-src', ["'self'"]],
  ['connect-src', ["'self'"]],
  ['frame-src', ["'none'"]],
  ['object-src', ["'none'"]],
  ['base-uri', ["'none'"]],
  ['form-action', ["'self'"]],
  ['frame-ancestors', ["'none'"]],
]);

/** Google's identity endpoints the Firebase Auth SDK calls in the browser (sign-in, token refresh). */
const IDENTITY_ENDPOINTS = ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com'];

/** Where the SDK loads the loader of its sign-in helper frame from (with a real Firebase project). */
const GOOGLE_API_LOADER = 'https://apis.google.com';

/** Parses a policy's text; a directive named twice keeps the first one's sources, as browsers do. */
export function parsePolicy(text: string): Policy {
  const policy = new Map<string, string[]>();
  for (const part of text.split(';')) {
    const [name, ...sources] = part
      .trim()
      .split(/\s+/)
      .filter((token) => token !== '');
    if (name === undefined) continue;
    const key = name.toLowerCase();
    if (!policy.has(key)) policy.set(key, sources);
  }
  return policy;
}

/** A policy's text: `name source …; name source …`. */
export function serializePolicy(policy: Policy): string {
  return [...policy].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}

/**
 * The policies' union: every directive of any of them, with the sources of all (each once, in first
 * seen order); 'none' stays only where nothing else is allowed. The first policy's order leads.
 */
export function mergePolicies(...policies: Policy[]): Policy {
  const merged = new Map<string, string[]>();
  for (const policy of policies) {
    for (const [name, sources] of policy) {
      const all = [...new Set([...(merged.get(name) ?? []), ...sources])];
      const allowed = all.filter((source) => source !== "'none'");
      merged.set(name, allowed.length > 0 ? allowed : ["'none'"]);
    }
  }
  return merged;
}

/** The websocket origin beside an HTTP one: http → ws, https → wss. */
export function websocketOrigin(origin: string): string {
  return origin.replace(/^http(s?):/i, 'ws$1:');
}

/**
 * The sources the running configuration adds to every page: against the Auth emulator, a
 * connection to that emulator (the address /api/client-config gives the browser); against a real
 * Firebase project, Google's identity endpoints, the loader of the SDK's helper frame and that
 * frame on the project's auth domain (Google's sign-in window needs them); plus the accounts API's
 * origins when PUBLIC_PORTAL_URL or PUBLIC_APP_SERVER_URL put it elsewhere, and the data API's
 * (the API viewer calls it as any client would), over HTTP and over its websockets (the symbol
 * pages' live price streams from it; 'self' and an http source do not cover another origin's ws:).
 */
export function configuredPageSources(env?: Environment): Policy {
  const emulator = authEmulatorUrl(readConfig(env));
  const dataApi = browserDataApiOrigins(env);
  const api = [...browserApiOrigins(env), ...dataApi, ...dataApi.map(websocketOrigin)];
  if (emulator !== null) return new Map([['connect-src', [emulator, ...api]]]);
  return new Map([
    ['script-src', [GOOGLE_API_LOADER]],
    ['connect-src', [...IDENTITY_ENDPOINTS, ...api]],
    ['frame-src', [`https://${firebaseAuthDomain(env)}`]],
  ]);
}

/**
 * What the Excel add-in's pages (under /excel-add-in/) need besides every page's policy: Office on
 * the web frames them, they load office.js from Microsoft's CDN, and the custom functions running in
 * them call the data API, which has its own origin. Only those pages get these sources.
 */
export function addInPageSources(env?: Environment): Policy {
  return new Map([
    ['script-src', [OFFICE_JS_ORIGIN]],
    ['connect-src', [new URL(publishedApiUrl(env)).origin, OFFICE_JS_ORIGIN]],
    ['frame-ancestors', [...OFFICE_FRAME_ANCESTORS]],
  ]);
}

/** The node adapter's header file: each prerendered page's path and headers. */
const BUILT_HEADERS = z.array(
  z.object({ pathname: z.string(), headers: z.array(z.object({ key: z.string(), value: z.string() })) }),
);

/**
 * The script-src and style-src Astro wrote for the prerendered pages (dist/_headers.json), all
 * pages' in one: the client router keeps the first page's policy for every page it shows next, so
 * each page must allow what any page runs. Throws, naming the file, when the build has none.
 */
export function readBuiltPagePolicy(file: string): string {
  let entries: z.infer<typeof BUILT_HEADERS>;
  try {
    entries = BUILT_HEADERS.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    throw new Error(
      `${file} could not be read (${error instanceof Error ? error.message : String(error)}): build the site again (npm run build)`,
      { cause: error },
    );
  }
  const policies = entries.flatMap(({ headers }) =>
    headers
      .filter(({ key }) => key.toLowerCase() === 'content-security-policy')
      .map(({ value }) => parsePolicy(value)),
  );
  if (policies.length === 0) {
    throw new Error(`${file} holds no Content-Security-Policy: build the site again (npm run build)`);
  }
  return serializePolicy(mergePolicies(...policies));
}

/**
 * A page's full policy from the one Astro gave its answer (undefined for pages read from disk
 * without it, such as the 404 page): the built pages' hashes, the page directives and the
 * configured sources are always in; the Excel add-in's pages (`path` under /excel-add-in/) get their
 * own sources as well ({@link addInPageSources}). Answers are cached by Astro's policy, which is the same for
 * nearly every page, so the union is computed once.
 */
export function pagePolicyMaker(
  builtPolicy: string,
  env?: Environment,
): (astroPolicy?: string, path?: string) => string {
  const site = mergePolicies(PAGE_DIRECTIVES, parsePolicy(builtPolicy), configuredPageSources(env));
  const addIn = mergePolicies(site, addInPageSources(env));
  const baseText = { site: serializePolicy(site), addIn: serializePolicy(addIn) };
  const made = new Map<string, string>();
  return (astroPolicy, path = '/') => {
    const kind = isAddInPath(path) ? 'addIn' : 'site';
    if (astroPolicy === undefined || astroPolicy.trim() === '') return baseText[kind];
    const key = `${kind} ${astroPolicy}`;
    let text = made.get(key);
    if (text === undefined) {
      text = serializePolicy(mergePolicies(kind === 'addIn' ? addIn : site, parsePolicy(astroPolicy)));
      // A handful of distinct policies at most; never let an unexpected variety grow without bound.
      if (made.size < 32) made.set(key, text);
    }
    return text;
  };
}
