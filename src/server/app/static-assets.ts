import { createReadStream } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.xml', '.map']);
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.map': 'application/json',
};
const MIN_BYTES = 512;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

/**
 * Writes .br and .gz twins of every text asset at build time, so the server sends compressed
 * bytes without spending CPU per request.
 */
export async function precompress(clientDir: string): Promise<number> {
  let count = 0;
  for await (const file of files(clientDir)) {
    if (!COMPRESSIBLE.has(path.extname(file))) continue;
    const body = await readFile(file);
    if (body.length < MIN_BYTES) continue;
    const [br, gz] = await Promise.all([
      promisify(brotliCompress)(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      promisify(gzip)(body, { level: 9 }),
    ]);
    await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    count += 1;
  }
  return count;
}

function pickEncoding(accept: string | undefined): ['br' | 'gzip', string][] {
  const header = accept ?? '';
  const out: ['br' | 'gzip', string][] = [];
  if (/\bbr\b/.test(header)) out.push(['br', '.br']);
  if (/\bgzip\b/.test(header)) out.push(['gzip', '.gz']);
  return out;
}

/**
 * Serves hashed build assets (/_astro/*) from their precompressed twins with immutable caching;
 * returns false when the request is not for such an asset so the caller can hand it on.
 */
export async function serveHashedAsset(
  clientDir: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const urlPath = (req.url ?? '/').split('?')[0] ?? '/';
  if (!urlPath.startsWith('/_astro/')) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return false;
  }
  const file = path.join(clientDir, path.normalize(decoded));
  if (!file.startsWith(clientDir + path.sep)) return false;
  const ext = path.extname(file);
  const type = TYPES[ext];
  if (!type) return false;
  for (const [encoding, suffix] of pickEncoding(req.headers['accept-encoding'])) {
    const info = await stat(file + suffix).catch(() => undefined);
    if (!info?.isFile()) continue;
    res.writeHead(200, {
      'Content-Type': type,
      'Content-Encoding': encoding,
      'Content-Length': info.size,
      'Cache-Control': 'public, max-age=31536000, immutable',
      Vary: 'Accept-Encoding',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file + suffix).pipe(res);
    return true;
  }
  return false;
}
