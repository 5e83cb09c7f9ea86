import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { secureAnswer } from '../../src/server/app/answer-headers.ts';
import {
  configuredPageSources,
  pagePolicyMaker,
  parsePolicy,
  readBuiltPagePolicy,
} from '../../src/server/app/content-security-policy.ts';

// The site server's own layer (src/server/app/serve.ts calls secureAnswer on every request), on a
// real Node server whose handler writes answers the ways the site's writers do: Astro's node adapter
// sending a prerendered file (headers set one by one, head written implicitly), Astro's renderer
// (writeHead with a header object), the accounts API (its own policy) and raw header arrays.

const BUILT = "script-src 'self' 'sha256-built'; style-src 'self' 'sha256-style'";
const EMULATOR = '127.0.0.1:9799';
/** Where the pages may call the data API when no address is published: its default port on this machine. */
const LOCAL_DATA_API = [
  'http://localhost:4322',
  'http://127.0.0.1:4322',
  'ws://localhost:4322',
  'ws://127.0.0.1:4322',
];
const saved = { ...process.env };

type Writer = (res: ServerResponse) => void;
let writer: Writer = (res) => res.end();
let server: Server;
let base = '';

beforeAll(async () => {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = EMULATOR;
  const pagePolicy = pagePolicyMaker(BUILT);
  server = createServer((req, res) => {
    secureAnswer(req, res, pagePolicy);
    writer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  process.env = { ...saved };
});

afterEach(() => {
  process.env = { ...saved, FIREBASE_AUTH_EMULATOR_HOST: EMULATOR };
});

async function answerTo(
  write: Writer,
  headers: Record<string, string> = {},
  path = '/page',
): Promise<Response> {
  writer = write;
  const res = await fetch(`${base}${path}`, { headers });
  await res.arrayBuffer();
  return res;
}

function policyOf(res: Response): ReadonlyMap<string, readonly string[]> {
  return parsePolicy(res.headers.get('content-security-policy') ?? '');
}

function expectSiteHeaders(res: Response): void {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
}

describe('the site server’s answers', () => {
  it('gives a prerendered page sent from disk the whole page policy around Astro’s hashes', async () => {
    const res = await answerTo((out) => {
      out.setHeader('Content-Security-Policy', "script-src 'self' 'sha256-page'; style-src 'self'");
      out.setHeader('Content-Type', 'text/html; charset=utf-8');
      out.end('<!doctype html><title>page</title>');
    });
    expectSiteHeaders(res);
    const policy = policyOf(res);
    expect(policy.get('script-src')).toEqual([
      "'self'",
      "'wasm-unsafe-eval'",
      "'sha256-built'",
      "'sha256-page'",
    ]);
    expect(policy.get('style-src')).toEqual(["'self'", "'sha256-style'"]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('connect-src')).toEqual(["'self'", `http://${EMULATOR}`, ...LOCAL_DATA_API]);
  });

  it('completes the policy an on-demand page brings in its head, keeping its status and headers', async () => {
    const res = await answerTo((out) => {
      out.writeHead(404, 'Not Found', {
        'content-type': 'text/html',
        'cache-control': 'public, max-age=60',
        'content-security-policy': "script-src 'self' 'sha256-symbol'",
      });
      out.end('<!doctype html><title>missing</title>');
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expectSiteHeaders(res);
    expect(policyOf(res).get('script-src')).toEqual([
      "'self'",
      "'wasm-unsafe-eval'",
      "'sha256-built'",
      "'sha256-symbol'",
    ]);
    expect(policyOf(res).get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('gives the 404 page read from disk without a policy the built pages’ hashes', async () => {
    const res = await answerTo((out) => {
      out.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      out.end('<!doctype html><title>404</title>');
    });
    expectSiteHeaders(res);
    expect(policyOf(res).get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'", "'sha256-built'"]);
    expect(policyOf(res).get('style-src')).toEqual(["'self'", "'sha256-style'"]);
  });

  it('lets files and failures load nothing, and keeps the policy an API answer brings', async () => {
    const asset = await answerTo((out) => {
      out.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      out.end('export {};');
    });
    expectSiteHeaders(asset);
    expect(asset.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");

    const failure = await answerTo((out) => {
      out.writeHead(500, { 'Content-Type': 'text/plain' });
      out.end('Internal server error');
    });
    expectSiteHeaders(failure);
    expect(failure.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");

    const api = await answerTo((out) => {
      out.writeHead(200, {
        'content-type': 'application/json',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
      });
      out.end('{}');
    });
    expect(api.headers.get('content-security-policy')).toBe(
      "default-src 'none'; frame-ancestors 'none'; sandbox",
    );
  });

  it('leaves the policy a page was stored with alone when it is revalidated with a 304', async () => {
    const res = await answerTo((out) => {
      // What the node adapter's file sender does for a page the browser still has: its content
      // headers (the type and Astro's policy among them) are removed.
      out.setHeader('Content-Security-Policy', "script-src 'self' 'sha256-page'");
      out.removeHeader('Content-Security-Policy');
      out.statusCode = 304;
      out.end();
    });
    expect(res.status).toBe(304);
    expectSiteHeaders(res);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });

  it('keeps repeated headers of the raw array form, such as two cookies', async () => {
    const res = await answerTo((out) => {
      out.writeHead(200, ['Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'Content-Type', 'text/html']);
      out.end('<!doctype html>');
    });
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(policyOf(res).get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('sends HSTS for a year only to https clients, believing X-Forwarded-Proto only behind a trusted proxy', async () => {
    const page: Writer = (out) => {
      out.writeHead(200, { 'content-type': 'text/html' });
      out.end('<!doctype html>');
    };
    expect((await answerTo(page)).headers.get('strict-transport-security')).toBeNull();
    const forwarded = { 'X-Forwarded-Proto': 'https' };
    expect((await answerTo(page, forwarded)).headers.get('strict-transport-security')).toBeNull();
    process.env.TRUST_PROXY = '1';
    expect((await answerTo(page, forwarded)).headers.get('strict-transport-security')).toBe(
      'max-age=31536000; includeSubDomains',
    );
  });
});

describe('the pages’ configured sources', () => {
  it('let the browser reach the Auth emulator the server names, and no Google service', () => {
    const sources = configuredPageSources({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' });
    expect([...sources]).toEqual([['connect-src', ['http://127.0.0.1:9099', ...LOCAL_DATA_API]]]);
  });

  it('let the API viewer call the data API and the symbol pages stream from it: its published origin, else its port on this machine', () => {
    const published = configuredPageSources({
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
      PUBLIC_DATA_API_URL: 'https://data.example.com/v1/',
    });
    expect(published.get('connect-src')).toEqual([
      'http://127.0.0.1:9099',
      'https://data.example.com',
      'wss://data.example.com',
    ]);
    const local = configuredPageSources({
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
      DATA_API_PORT: '4552',
    });
    expect(local.get('connect-src')).toEqual([
      'http://127.0.0.1:9099',
      'http://localhost:4552',
      'http://127.0.0.1:4552',
      'ws://localhost:4552',
      'ws://127.0.0.1:4552',
    ]);
  });

  it('let a real Firebase project’s Google sign-in work: its endpoints, its helper frame and loader', () => {
    const sources = configuredPageSources({
      FIREBASE_PROJECT_ID: 'tickerlake-prod',
      PUBLIC_FIREBASE_AUTH_DOMAIN: 'tickerlake-prod.firebaseapp.com',
    });
    expect(sources.get('connect-src')).toEqual([
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
      ...LOCAL_DATA_API,
    ]);
    expect(sources.get('script-src')).toEqual(['https://apis.google.com']);
    expect(sources.get('frame-src')).toEqual(['https://tickerlake-prod.firebaseapp.com']);
  });

  it('add the accounts API’s origin when the portal or app server lives elsewhere', () => {
    const sources = configuredPageSources({
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
      PUBLIC_PORTAL_URL: 'https://portal.example.com/api/portal/',
      PUBLIC_APP_SERVER_URL: '/api/app',
    });
    expect(sources.get('connect-src')).toEqual([
      'http://127.0.0.1:9099',
      'https://portal.example.com',
      ...LOCAL_DATA_API,
    ]);
  });
});

describe('the built pages’ policy', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'built-policy-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('is every prerendered page’s script and style hashes in one', () => {
    const file = path.join(dir, '_headers.json');
    const entry = (pathname: string, value: string): unknown => ({
      pathname,
      headers: [{ key: 'Content-Security-Policy', value }],
    });
    writeFileSync(
      file,
      JSON.stringify([
        entry('/', "script-src 'self' 'sha256-a'; style-src 'self' 'sha256-s';"),
        entry('/login', "script-src 'self' 'sha256-a' 'sha256-b'; style-src 'self' 'sha256-s';"),
      ]),
    );
    expect(readBuiltPagePolicy(file)).toBe(
      "script-src 'self' 'sha256-a' 'sha256-b'; style-src 'self' 'sha256-s'",
    );
  });

  it('is refused, naming the file and the cure, when the build has none', () => {
    const missing = path.join(dir, 'missing.json');
    expect(() => readBuiltPagePolicy(missing)).toThrow(`${missing} could not be read`);
    expect(() => readBuiltPagePolicy(missing)).toThrow('build the site again (npm run build)');
    const empty = path.join(dir, 'empty.json');
    writeFileSync(empty, '[]');
    expect(() => readBuiltPagePolicy(empty)).toThrow(`${empty} holds no Content-Security-Policy`);
  });
});

describe('the Excel add-in’s pages', () => {
  const page: Writer = (out) => {
    out.setHeader('Content-Security-Policy', "script-src 'self' 'sha256-page'; style-src 'self'");
    out.setHeader('Content-Type', 'text/html; charset=utf-8');
    out.end('<!doctype html><title>task pane</title>');
  };

  it('may be framed by Office on the web, load office.js and call the data API; other pages may not', async () => {
    const res = await answerTo(page, {}, '/excel-add-in/taskpane');
    expect(res.headers.get('x-frame-options')).toBeNull();
    const policy = policyOf(res);
    expect(policy.get('frame-ancestors')).toContain('https://*.officeapps.live.com');
    expect(policy.get('frame-ancestors')).not.toContain("'none'");
    expect(policy.get('script-src')).toContain('https://appsforoffice.microsoft.com');
    expect(policy.get('script-src')).toContain("'sha256-page'");
    expect(policy.get('connect-src')).toContain(
      new URL(process.env.PUBLIC_DATA_API_URL ?? 'http://localhost:4322').origin,
    );

    const other = await answerTo(page);
    expect(other.headers.get('x-frame-options')).toBe('DENY');
    expect(policyOf(other).get('frame-ancestors')).toEqual(["'none'"]);
    expect(policyOf(other).get('script-src')).not.toContain('https://appsforoffice.microsoft.com');
  });

  it('keeps the add-in’s files that are not pages unframeable', async () => {
    const res = await answerTo(
      (out) => {
        out.setHeader('Content-Type', 'application/xml; charset=utf-8');
        out.end('<OfficeApp/>');
      },
      {},
      '/excel-add-in/manifest.xml',
    );
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
