import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CONTENT_PAGE_SCRIPT_BYTES, PAGE_SPEED_TARGETS } from './bench/page-speed-targets.ts';
import { formatTable } from './bench/stats.ts';

/**
 * `npm run size`: the JavaScript every built page ships, found the way a browser finds it (script
 * tags, island component and renderer URLs, then their static imports), so a page that starts
 * pulling in more than the shell's islands shows up before it reaches users. Below the table it
 * compares the pages that have a JavaScript target (the content pages of the page-speed list in
 * scripts/bench/page-speed-targets.ts) with it.
 */

export interface ShippedScript {
  /** Site URL of the file (e.g. /_astro/Header.abc123.js), or `inline #n` for an inline script. */
  url: string;
  bytes: number;
  gzipBytes: number;
}

export interface Island {
  /** The component's display name Astro writes into the island's options. */
  name: string;
  componentUrl: string;
}

export interface PageScripts {
  /** Site path of the page: `/`, `/login`, `/404`. */
  page: string;
  /** The HTML file, relative to the client directory. */
  file: string;
  /** Every JavaScript file the page loads, each once, in discovery order. */
  files: ShippedScript[];
  inline: ShippedScript[];
  islands: Island[];
  /** Referenced same-site scripts that are not in the build; a sign of a broken build. */
  missing: string[];
  bytes: number;
  gzipBytes: number;
}

export const MISSING_BUILD_MESSAGE = 'dist/client is missing. Run `npm run build` first.';

/** Any origin works: it only lets relative script URLs resolve against the page's URL. */
const SITE_ORIGIN = 'http://site.invalid';
const JS_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript']);

interface ScriptFile {
  bytes: number;
  gzipBytes: number;
  imports: string[];
}

function gzipSize(content: Buffer | string): number {
  return gzipSync(content, { level: 9 }).length;
}

function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&amp;/g, '&');
}

/** The attributes of a tag's attribute text, lower-cased names, entities decoded. */
export function parseAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const pattern = /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const match of source.matchAll(pattern)) {
    const name = match[1];
    if (name === undefined) continue;
    attributes.set(name.toLowerCase(), decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return attributes;
}

/** Matches an opening tag's attribute text, allowing `>` inside quoted values. */
const ATTRIBUTES = String.raw`((?:[^>"']|"[^"]*"|'[^']*')*)`;
const SCRIPT_TAG = new RegExp(String.raw`<script\b${ATTRIBUTES}>([\s\S]*?)</script\s*>`, 'gi');
const ISLAND_TAG = new RegExp(String.raw`<astro-island\b${ATTRIBUTES}>`, 'gi');
const MODULE_PRELOAD_TAG = new RegExp(String.raw`<link\b${ATTRIBUTES}>`, 'gi');

/**
 * The static import and re-export specifiers of a module (`import{a}from"./x.js"`,
 * `import"./x.js"`, `export*from"./x.js"`); dynamic `import()` is left out because it loads only
 * on demand.
 */
export function staticImports(code: string): string[] {
  const pattern = /(?<![\w$.])(?:import|export)\s*(?:[\w$\s,*{}]*?\bfrom\s*)?(["'])([^"'\s]+)\1/g;
  const specifiers: string[] = [];
  for (const match of code.matchAll(pattern)) {
    const specifier = match[2];
    if (specifier !== undefined && /^(?:\.{1,2})?\//.test(specifier)) specifiers.push(specifier);
  }
  return specifiers;
}

/** The site path of a URL found on a page, or undefined when it points at another site. */
function sitePath(reference: string, base: string): string | undefined {
  try {
    const url = new URL(reference, base);
    return url.origin === SITE_ORIGIN ? decodeURIComponent(url.pathname) : undefined;
  } catch {
    return undefined;
  }
}

function pagePath(htmlFile: string): string {
  const path = `/${htmlFile.split(sep).join('/')}`.replace(/(?:\/index)?\.html$/, '');
  return path === '' ? '/' : path;
}

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => join(entry.parentPath, entry.name));
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Reads each script file once for the whole site, however many pages load it. */
function scriptReader(clientDir: string): (path: string) => Promise<ScriptFile | undefined> {
  const cache = new Map<string, Promise<ScriptFile | undefined>>();
  const load = async (path: string): Promise<ScriptFile | undefined> => {
    try {
      const content = await readFile(join(clientDir, ...path.split('/')));
      return {
        bytes: content.length,
        gzipBytes: gzipSize(content),
        imports: staticImports(content.toString('utf8')),
      };
    } catch {
      return undefined;
    }
  };
  return (path) => {
    let file = cache.get(path);
    if (!file) {
      file = load(path);
      cache.set(path, file);
    }
    return file;
  };
}

interface PageEntries {
  urls: string[];
  inline: string[];
  islands: Island[];
}

/** The scripts a page's HTML points at directly, before following imports. */
export function pageEntries(html: string, page: string): PageEntries {
  const base = `${SITE_ORIGIN}${page}`;
  const urls: string[] = [];
  const inline: string[] = [];
  const islands: Island[] = [];
  const add = (reference: string | undefined, from: string = base): void => {
    const path = reference ? sitePath(reference, from) : undefined;
    if (path !== undefined) urls.push(path);
  };
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const [, attributeText = '', body = ''] of withoutComments.matchAll(SCRIPT_TAG)) {
    const attributes = parseAttributes(attributeText);
    const type = (attributes.get('type') ?? '').trim().toLowerCase();
    if (!JS_TYPES.has(type)) continue;
    const src = attributes.get('src');
    if (src !== undefined) {
      add(src);
    } else if (body.trim() !== '') {
      inline.push(body);
      if (type === 'module') for (const specifier of staticImports(body)) add(specifier);
    }
  }
  for (const [, attributeText = ''] of withoutComments.matchAll(ISLAND_TAG)) {
    const attributes = parseAttributes(attributeText);
    const componentUrl = attributes.get('component-url');
    // An island hydrated on demand (`client:demand`) loads only when the page needs it, such as
    // the overlays when a dialog opens: it is not part of what the page ships.
    if (attributes.get('client') === 'demand') continue;
    add(componentUrl);
    add(attributes.get('renderer-url'));
    add(attributes.get('before-hydration-url'));
    if (componentUrl !== undefined) islands.push({ name: islandName(attributes), componentUrl });
  }
  for (const [, attributeText = ''] of withoutComments.matchAll(MODULE_PRELOAD_TAG)) {
    const attributes = parseAttributes(attributeText);
    if (attributes.get('rel')?.toLowerCase() === 'modulepreload') add(attributes.get('href'));
  }
  return { urls, inline, islands };
}

function islandName(attributes: Map<string, string>): string {
  try {
    const options = JSON.parse(attributes.get('opts') ?? '{}') as { name?: unknown };
    if (typeof options.name === 'string') return options.name;
  } catch {
    // Fall through to the export name.
  }
  return attributes.get('component-export') ?? 'default';
}

/** Walks the static import graph from a page's entry scripts, counting each file once. */
async function collectPage(
  clientDir: string,
  htmlFile: string,
  read: (path: string) => Promise<ScriptFile | undefined>,
): Promise<PageScripts> {
  const file = relative(clientDir, htmlFile);
  const page = pagePath(file);
  const entries = pageEntries(await readFile(htmlFile, 'utf8'), page);
  const files: ShippedScript[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  const queue = [...entries.urls];
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    if (seen.has(path)) continue;
    seen.add(path);
    const script = await read(path);
    if (!script) {
      missing.push(path);
      continue;
    }
    files.push({ url: path, bytes: script.bytes, gzipBytes: script.gzipBytes });
    for (const specifier of script.imports) {
      const imported = sitePath(specifier, `${SITE_ORIGIN}${path}`);
      if (imported !== undefined) queue.push(imported);
    }
  }
  const inline = entries.inline.map((body, index) => ({
    url: `inline #${index + 1}`,
    bytes: Buffer.byteLength(body),
    gzipBytes: gzipSize(body),
  }));
  const all = [...files, ...inline];
  return {
    page,
    file,
    files,
    inline,
    islands: entries.islands,
    missing,
    bytes: all.reduce((sum, script) => sum + script.bytes, 0),
    gzipBytes: all.reduce((sum, script) => sum + script.gzipBytes, 0),
  };
}

/**
 * The JavaScript of every built HTML page under `clientDir`, sorted by page path. Throws with
 * {@link MISSING_BUILD_MESSAGE} when there is no build.
 */
export async function pageScripts(clientDir: string): Promise<PageScripts[]> {
  if (!(await isDirectory(clientDir))) throw new Error(MISSING_BUILD_MESSAGE);
  const read = scriptReader(clientDir);
  const pages = await Promise.all(
    (await htmlFiles(clientDir)).map((file) => collectPage(clientDir, file, read)),
  );
  return pages.toSorted((a, b) => (a.page < b.page ? -1 : a.page > b.page ? 1 : 0));
}

const grouped = (value: number): string => value.toLocaleString('en-US');

/** The report `npm run size` prints: one row per page and a line for the site as a whole. */
export function sizeTable(pages: readonly PageScripts[]): string {
  const unique = new Map<string, ShippedScript>();
  for (const page of pages) for (const script of page.files) unique.set(script.url, script);
  const siteFiles = [...unique.values()];
  const inline = pages.flatMap((page) => page.inline);
  const siteScripts = [...siteFiles, ...inline];
  const rows = [
    ['Page', 'JS files', 'Inline', 'Raw bytes', 'Gzip bytes'],
    ...pages.map((page) => [
      page.page,
      grouped(page.files.length),
      grouped(page.inline.length),
      grouped(page.bytes),
      grouped(page.gzipBytes),
    ]),
    [
      `Total, ${grouped(pages.length)} ${pages.length === 1 ? 'page' : 'pages'} (each file once)`,
      grouped(siteFiles.length),
      grouped(inline.length),
      grouped(siteScripts.reduce((sum, script) => sum + script.bytes, 0)),
      grouped(siteScripts.reduce((sum, script) => sum + script.gzipBytes, 0)),
    ],
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  const line = (row: readonly string[]): string =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  const [header, ...rest] = rows;
  const total = rest.pop();
  return [line(header ?? []), rule, ...rest.map(line), rule, line(total ?? [])].join('\n');
}

/**
 * The JavaScript target of content pages, and each page of the page-speed list that has such a
 * target and is in the build, against it: a page growing past it shows here before a browser run.
 */
export function scriptTargetReport(pages: readonly PageScripts[]): string {
  const heading = `Target: a content page (home, legal; later docs, blog, datasets) ships at most 60 KB (${grouped(CONTENT_PAGE_SCRIPT_BYTES)} bytes) of gzip JavaScript. \`npm run bench\` measures what a browser transfers.`;
  const rows = PAGE_SPEED_TARGETS.flatMap((type) =>
    type.pages.flatMap((target) => {
      const limit = type.targets.scriptBytes;
      const page = pages.find((built) => built.page === target.path);
      if (limit === undefined || page === undefined) return [];
      return [
        [
          page.page,
          type.type,
          grouped(page.gzipBytes),
          `<= ${grouped(limit)}`,
          page.gzipBytes <= limit ? 'PASS' : 'MISS',
        ],
      ];
    }),
  );
  if (rows.length === 0) return heading;
  return `${heading}\n\n${formatTable([['Page', 'Type', 'Gzip bytes', 'Target', 'Verdict'], ...rows])}`;
}

async function main(): Promise<number> {
  const clientDir = join(import.meta.dirname, '..', 'dist', 'client');
  if (!(await isDirectory(clientDir))) {
    console.error(MISSING_BUILD_MESSAGE);
    return 1;
  }
  const pages = await pageScripts(clientDir);
  if (pages.length === 0) {
    console.error('dist/client has no HTML pages. Run `npm run build` first.');
    return 1;
  }
  console.log(sizeTable(pages));
  console.log(`\n${scriptTargetReport(pages)}`);
  const broken = pages.filter((page) => page.missing.length > 0);
  for (const page of broken) console.error(`${page.page}: missing ${page.missing.join(', ')}`);
  return broken.length > 0 ? 1 : 0;
}

if (import.meta.main) process.exitCode = await main();
