import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { count, sql } from 'drizzle-orm';
import { createDataApi } from '../../src/server/data-api/app.ts';
import { BULK_CALL_WEIGHT, bulkEndpoints } from '../../src/server/data-api/endpoints/bulk.ts';
import { openDatabase, type Db } from '../../src/server/db/client.ts';
import { securities, users } from '../../src/server/db/schema.ts';
import { MemoryStore } from '../../src/server/middleware/rate-limit-store.ts';
import { createApiKey } from '../../src/server/services/api-keys.ts';
import { PROFILE_PART_SIZE } from '../../src/server/services/market-data/bulk-files.ts';
import { seedDemoData } from '../../src/server/services/market-data/seed/index.ts';
import { fixed, formatTable } from './stats.ts';
import { fillSecurities } from './synthetic-listings.ts';

/*
 * The bulk download benchmark: every part of profile-bulk over 70,000 securities, downloaded through
 * the real HTTP server, with the rise of the process's resident memory while the files stream; then
 * every other bulk file once (its documented example query) over the same market, each timed with
 * its own memory rise. The files are written batch by batch from a cursor, so memory must stay flat
 * however many rows go out, and a file over the whole directory (peers) must not take time growing
 * with its square.
 */

/** Securities in the directory: a full market, as FMP's profile file covers. */
export const BULK_BENCH_SECURITIES = 70_000;
/** Most the server's resident memory may grow while every part is downloaded. */
export const BULK_RSS_TARGET_MB = 50;
/** The day the demo data ends. */
const AS_OF = '2026-11-20';
const SECRET = 'bulk-bench-secret-0123456789abcdef0123';
/** A plan whose minute budget fits every part's weight. */
const PLAN_CODE = 'commercialEnterprise';
const MB = 1024 * 1024;

export interface BulkDownloadResult {
  securities: number;
  parts: number;
  rows: number;
  bytes: number;
  seconds: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssRiseMb: number;
  /** Every other bulk file, downloaded once after the profiles. */
  files: BulkFileResult[];
}

/** One download of a bulk file other than the profiles: its size, time and the memory it took. */
export interface BulkFileResult {
  path: string;
  query: string;
  rows: number;
  bytes: number;
  seconds: number;
  rssRiseMb: number;
}

/**
 * Gives every generated listing the day's bar, so each has a profile: the price is derived from the
 * ticker (deterministic demo data), and the seeded listings keep their own history.
 */
async function priceListings(db: Db): Promise<void> {
  await db.execute(sql`
    insert into daily_prices (symbol, date, open, high, low, close, adj_close, volume)
    select s.symbol, ${AS_OF}::date, p.price, p.price * 1.02, p.price * 0.98, p.price * 1.01, p.price * 1.01,
           1000 + abs(hashtext(s.symbol)) % 1000000
    from securities s
    cross join lateral (select 5 + (abs(hashtext(s.symbol)) % 50000) / 100.0 as price) p
    where not exists (select 1 from daily_prices d where d.symbol = s.symbol)`);
}

async function benchKey(db: Db): Promise<string> {
  const id = randomUUID();
  const [user] = await db
    .insert(users)
    .values({
      firebaseUid: `bulk-bench-${id}`,
      email: `${id}@example.com`,
      username: `bulk-bench-${id}`,
      planCode: PLAN_CODE,
      emailVerified: true,
    })
    .returning({ id: users.id });
  if (user === undefined) throw new Error('no user row');
  const issued = await createApiKey(db, user.id, { secret: SECRET });
  if (issued === null) throw new Error('no key issued');
  return issued.key;
}

/** One file over HTTP, read as it arrives and dropped: its bytes and rows (lines after the header). */
async function download(
  base: string,
  key: string,
  path: string,
  query: string,
): Promise<{ bytes: number; rows: number }> {
  const response = await fetch(`${base}/stable/${path}${query === '' ? '' : `?${query}`}`, {
    headers: { apikey: key },
  });
  if (response.status !== 200 || response.body === null) {
    throw new Error(`${path}?${query} answered ${String(response.status)}: ${await response.text()}`);
  }
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 0x0a) lines += 1;
  }
  return { bytes, rows: Math.max(0, lines - 1) };
}

/** One part of the profile file. */
function downloadPart(base: string, key: string, part: number): Promise<{ bytes: number; rows: number }> {
  return download(base, key, 'profile-bulk', `part=${String(part)}`);
}

/** Samples the resident memory every 10 ms until stopped: `stop` (again, once stopped) gives the peak in MB. */
function rssSampler(): { stop: () => number } {
  let peak = rssMb();
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb());
  }, 10);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, rssMb());
    },
  };
}

/**
 * Every bulk file but the profiles, once each with its example query, in the order the API lists
 * them: rows, bytes, seconds and the memory rise over the resident memory before the file.
 */
async function downloadOtherFiles(
  base: string,
  key: string,
  log: (line: string) => void,
): Promise<BulkFileResult[]> {
  const results: BulkFileResult[] = [];
  for (const endpoint of bulkEndpoints) {
    if (endpoint.path === 'profile-bulk') continue;
    (globalThis as { gc?: () => void }).gc?.();
    const before = rssMb();
    const sampler = rssSampler();
    const started = performance.now();
    const got = await download(base, key, endpoint.path, endpoint.example).finally(sampler.stop);
    const seconds = (performance.now() - started) / 1000;
    const peak = sampler.stop();
    log(
      `bulk downloads: ${endpoint.path} ${got.rows.toLocaleString('en-US')} rows in ${fixed(seconds, 1)} s`,
    );
    results.push({
      path: endpoint.path,
      query: endpoint.example,
      rows: got.rows,
      bytes: got.bytes,
      seconds,
      rssRiseMb: peak - before,
    });
  }
  return results;
}

function rssMb(): number {
  return process.memoryUsage.rss() / MB;
}

/**
 * Seeds a throwaway PGlite with the 'test' demo data grown to {@link BULK_BENCH_SECURITIES} securities,
 * serves the data API on a free port in this process, downloads one part to warm it up, then every
 * part of profile-bulk, sampling the resident memory every 10 ms, then every other bulk file once.
 */
export async function measureBulkDownload(
  log: (line: string) => void = (line) => console.error(`[bench] ${line}`),
): Promise<BulkDownloadResult> {
  const database = openDatabase({ dataDir: 'memory://', migrationsDir: path.resolve('db/migrations') });
  let server: Server | undefined;
  try {
    await database.migrate();
    const { db } = database;
    log('bulk downloads: seeding the demo data');
    await seedDemoData(db, { scale: 'test', asOf: AS_OF });
    await fillSecurities(db, BULK_BENCH_SECURITIES);
    await priceListings(db);
    const [counted] = await db.select({ rows: count() }).from(securities);
    const total = counted?.rows ?? 0;
    const key = await benchKey(db);
    const api = createDataApi({
      database: () => Promise.resolve(db),
      store: new MemoryStore(),
      secret: SECRET,
      now: () => Date.parse(`${AS_OF}T21:00:00Z`),
      flushIntervalMs: 3_600_000,
    });
    const listening = createAdaptorServer({ fetch: api.app.fetch }) as Server;
    server = listening;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(0, '127.0.0.1', resolve);
    });
    const base = `http://127.0.0.1:${String((listening.address() as AddressInfo).port)}`;
    log(`bulk downloads: ${total.toLocaleString('en-US')} securities; warming up with part 0`);
    await downloadPart(base, key, 0);
    (globalThis as { gc?: () => void }).gc?.();
    const rssBeforeMb = rssMb();
    const sampler = rssSampler();
    const started = performance.now();
    let parts = 0;
    let rows = 0;
    let bytes = 0;
    try {
      for (let part = 0; ; part += 1) {
        const got = await downloadPart(base, key, part);
        if (got.rows === 0) break;
        parts += 1;
        rows += got.rows;
        bytes += got.bytes;
      }
    } finally {
      sampler.stop();
    }
    const seconds = (performance.now() - started) / 1000;
    const rssPeakMb = sampler.stop();
    if (rows !== total)
      throw new Error(`profile-bulk listed ${String(rows)} profiles of ${String(total)} securities`);
    const files = await downloadOtherFiles(base, key, log);
    await api.close();
    return {
      securities: total,
      parts,
      rows,
      bytes,
      seconds,
      rssBeforeMb,
      rssPeakMb,
      rssRiseMb: rssPeakMb - rssBeforeMb,
      files,
    };
  } finally {
    if (server !== undefined) {
      const closing = server;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    }
    await database.close();
  }
}

/** The section's heading: what was downloaded and the target. */
export function bulkDownloadHeading(result: BulkDownloadResult): string {
  return `Bulk downloads: every part of profile-bulk (${PROFILE_PART_SIZE.toLocaleString('en-US')} profiles each, ${String(BULK_CALL_WEIGHT)} calls a download) over ${result.securities.toLocaleString('en-US')} securities through the HTTP server, PGlite (target: server RSS rise under ${String(BULK_RSS_TARGET_MB)} MB)`;
}

/** The section's table: throughput and the memory rise, PASS or MISS. */
export function bulkDownloadTable(result: BulkDownloadResult): string {
  return formatTable([
    [
      'parts',
      'rows',
      'MB',
      'seconds',
      'rows/s',
      'MB/s',
      'RSS before MB',
      'RSS peak MB',
      'RSS rise MB',
      'target',
    ],
    [
      String(result.parts),
      result.rows.toLocaleString('en-US'),
      fixed(result.bytes / MB, 1),
      fixed(result.seconds, 1),
      fixed(result.rows / result.seconds, 0),
      fixed(result.bytes / MB / result.seconds, 2),
      fixed(result.rssBeforeMb, 0),
      fixed(result.rssPeakMb, 0),
      fixed(result.rssRiseMb, 1),
      result.rssRiseMb < BULK_RSS_TARGET_MB ? 'PASS' : 'MISS',
    ],
  ]);
}

/** The other files' heading: what they were downloaded over. */
export function bulkFilesHeading(result: BulkDownloadResult): string {
  return `Every other bulk file, once each with its example query, over the same ${result.securities.toLocaleString('en-US')} securities (the generated listings are stocks with a sector, a price and a profile; the statements, estimates and fund holdings are the 'test' demo set's)`;
}

/** The other files' table: rows, size, time and memory rise of each. */
export function bulkFilesTable(result: BulkDownloadResult): string {
  return formatTable([
    ['file', 'query', 'rows', 'MB', 'seconds', 'rows/s', 'RSS rise MB'],
    ...result.files.map((file) => [
      file.path,
      file.query === '' ? '-' : file.query,
      file.rows.toLocaleString('en-US'),
      fixed(file.bytes / MB, 2),
      fixed(file.seconds, 2),
      fixed(file.rows / Math.max(file.seconds, 0.001), 0),
      fixed(file.rssRiseMb, 1),
    ]),
  ]);
}
