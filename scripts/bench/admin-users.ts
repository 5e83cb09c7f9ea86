import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import type { UserSearch } from '../../src/lib/admin.ts';
import type { Db } from '../../src/server/db/client.ts';
import * as schema from '../../src/server/db/schema.ts';
import { searchUsers } from '../../src/server/services/admin-users.ts';
import { fixed, formatTable, median, percentile } from './stats.ts';

/**
 * The admin console's users list over 100,000 accounts: `searchUsers` (the service behind
 * GET /api/admin/users) timed in-process on a throwaway PGlite in a temporary directory and, when a
 * PostgreSQL address is given (BENCH_DATABASE_URL, DATABASE_URL or TEST_DATABASE_URL), in a throwaway
 * schema there, dropped afterwards. The accounts are made by one INSERT … SELECT over generate_series
 * with varied addresses, usernames, names, plans, roles, flags and sign-up dates over three years.
 * Each search runs a few times to warm up, then `rounds` times; the verdict is on the p95 against the
 * 50 ms target. Each search's plan is read once with EXPLAIN ANALYZE, to show which index answers it
 * and what the database itself spent (the rest of a call is the driver and turning rows into answers).
 * Runnable alone: `node scripts/bench/admin-users.ts [--users N] [--rounds N] [--json]`.
 */

/** Accounts seeded. */
export const ADMIN_USERS_COUNT = 100_000;
/** The slowest a search may answer (p95, server time), in milliseconds. */
export const ADMIN_USERS_TARGET_MS = 50;
const WARMUP_ROUNDS = 3;
const DEFAULT_ROUNDS = 30;
const migrationsFolder = path.resolve(import.meta.dirname, '../../db/migrations');

// prettier-ignore
const FIRST_NAMES = [
  'ada', 'alan', 'grace', 'margaret', 'edsger', 'barbara', 'donald', 'frances', 'john', 'katherine', 'linus',
  'radia', 'ken', 'dennis', 'hedy', 'tim', 'sophie', 'guido', 'anita', 'james', 'mary', 'robert', 'patricia',
  'michael', 'jennifer', 'david', 'linda', 'william', 'elizabeth', 'richard', 'susan', 'joseph', 'jessica',
  'thomas', 'sarah', 'charles', 'karen', 'daniel', 'nancy', 'matthew', 'lisa', 'anthony', 'betty', 'mark',
  'sandra', 'paul', 'ashley', 'steven', 'kimberly', 'andrew', 'wei', 'yuki', 'priya', 'omar', 'fatima',
  'lucas', 'mateo', 'chloe', 'noah', 'amara',
];
// prettier-ignore
const LAST_NAMES = [
  'lovelace', 'turing', 'hopper', 'hamilton', 'dijkstra', 'liskov', 'knuth', 'allen', 'mccarthy', 'johnson',
  'torvalds', 'perlman', 'thompson', 'ritchie', 'lamarr', 'berners', 'wilson', 'rossum', 'borg', 'gosling',
  'smith', 'brown', 'jones', 'garcia', 'miller', 'davis', 'rodriguez', 'martinez', 'hernandez', 'lopez',
  'gonzalez', 'anderson', 'taylor', 'moore', 'jackson', 'martin', 'lee', 'perez', 'white', 'harris', 'clark',
  'lewis', 'robinson', 'walker', 'young', 'king', 'wright', 'scott', 'green', 'baker', 'chen', 'wang',
  'tanaka', 'patel', 'khan', 'okafor', 'silva', 'muller', 'dubois', 'rossi',
];
// prettier-ignore
const HANDLES = [
  'quant', 'trader', 'bull', 'bear', 'alpha', 'value', 'dividend', 'options', 'macro', 'chart', 'fintech',
  'datadev', 'stonks', 'hedge', 'yield', 'momentum', 'tickerbot', 'backtest', 'ledger', 'candle',
];
// prettier-ignore
const DOMAINS = [
  'gmail.com', 'outlook.com', 'yahoo.com', 'proton.me', 'icloud.com', 'fastmail.com', 'hotmail.com',
  'quantfund.io', 'acme-capital.com', 'northwind.co', 'university.edu', 'example.org',
];

function textArray(values: readonly string[]): string {
  return `array[${values.map((value) => `'${value}'`).join(', ')}]`;
}

/** The sign-ups are spread over this many years up to now. */
const SEED_YEARS = 3;

/**
 * One statement that makes `count` accounts. Every choice comes from hashtext of the row number and
 * a letter, so runs are alike and the columns vary independently; the row number ends every address
 * and username, which keeps them unique (the parts before it hold no digits). Rows are written in
 * sign-up order, as accounts are, so the table's order follows the sign-up date as a real one does.
 */
export function seedStatement(count: number): string {
  const pick = (list: string, letter: string): string =>
    `(${list})[1 + abs(hashtext('${letter}' || i)) % array_length(${list}, 1)]`;
  return `
    with lists as (
      select ${textArray(FIRST_NAMES)} as firsts, ${textArray(LAST_NAMES)} as lasts,
             ${textArray(HANDLES)} as handles, ${textArray(DOMAINS)} as domains,
             (select array_agg(code order by sort_order) from price_plans where code <> 'free') as paid
    ),
    rows as (
      select i,
             ${pick('firsts', 'f')} as first, ${pick('lasts', 'l')} as last,
             ${pick('handles', 'h')} as handle, ${pick('domains', 'd')} as domain,
             ${pick('paid', 'p')} as paid_plan,
             abs(hashtext('e' || i)) % 4 as email_form, abs(hashtext('u' || i)) % 3 as username_form,
             abs(hashtext('r' || i)) % 1000 as r, abs(hashtext('v' || i)) % 100 as v,
             (${String(count)} - i) * ${String(SEED_YEARS * 365 * 86400)}.0 / ${String(count)}
               + (abs(hashtext('c' || i)) % 1000) / 1000.0 as age_seconds
      from generate_series(1, ${String(count)}) as s(i), lists
    )
    insert into users (firebase_uid, email, username, first_name, last_name, role, plan_code, is_premium,
                       legacy, blocked, email_verified, created_at, updated_at)
    select 'bench-' || i,
           case email_form
             when 0 then first || '.' || last
             when 1 then left(first, 1) || last
             when 2 then first || '_' || last
             else last || '.' || first
           end || i || '@' || domain,
           case username_form
             when 0 then handle || i
             when 1 then first || left(last, 2) || i
             else handle || '_' || first || i
           end,
           initcap(first), initcap(last),
           case when r < 2 then 'admin' when r < 6 then 'analyst' else 'user' end,
           case when v < 72 then 'free' else paid_plan end,
           v >= 72,
           r between 100 and 139,
           r between 200 and 209,
           v < 60 or v >= 72,
           now() - age_seconds * interval '1 second',
           now() - (age_seconds / 2) * interval '1 second'
    from rows`;
}

/** A database the bench runs on: the service's handle, the last statement it ran, and its plan. */
interface BenchDatabase {
  name: 'PGlite' | 'PostgreSQL';
  db: Db;
  /** The text of EXPLAIN ANALYZE of the last statement `db` ran. */
  explainLast(): Promise<string>;
  close(): Promise<void>;
}

/** Keeps the statement a service last ran, so its plan can be read with the same parameters. */
class LastQuery implements Logger {
  query = '';
  params: unknown[] = [];

  logQuery(query: string, params: unknown[]): void {
    this.query = query;
    this.params = params;
  }
}

async function openPglite(): Promise<BenchDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-admin-users-'));
  const client = new PGlite(dir);
  const last = new LastQuery();
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  return {
    name: 'PGlite',
    db: drizzlePglite(client, { schema, logger: last }) as unknown as Db,
    explainLast: async () => {
      const result = await client.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, costs off) ${last.query}`,
        last.params,
      );
      return result.rows.map((row) => row['QUERY PLAN']).join('\n');
    },
    close: async () => {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openPostgres(url: string): Promise<BenchDatabase> {
  const schemaName = `bench_users_${randomBytes(6).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create schema ${schemaName}`);
  await admin.end();
  const client = postgres(url, {
    max: 4,
    onnotice: () => undefined,
    connection: { search_path: schemaName },
  });
  const last = new LastQuery();
  await migratePostgres(drizzlePostgres(client), { migrationsFolder, migrationsSchema: schemaName });
  return {
    name: 'PostgreSQL',
    db: drizzlePostgres(client, { schema, logger: last }) as unknown as Db,
    explainLast: async () => {
      const rows = await client.unsafe<{ 'QUERY PLAN': string }[]>(
        `explain (analyze, costs off) ${last.query}`,
        last.params as never[],
      );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    },
    close: async () => {
      await client.unsafe(`drop schema ${schemaName} cascade`);
      await client.end({ timeout: 5 });
    },
  };
}

/** What one search needs from the seeded table: an id, a paid plan, and the first pages' cursors. */
interface SeededFacts {
  someId: string;
  paidPlan: string;
  newestCursor: string;
  emailCursor: string;
}

/** One search the console makes, and the indexes a good plan for it uses (one of them at least). */
interface SearchCase {
  name: string;
  search: (facts: SeededFacts) => UserSearch;
  expected: readonly string[];
}

const DAY_MS = 86_400_000;

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The searches timed: what an administrator types and clicks in the users list. */
export const SEARCH_CASES: readonly SearchCase[] = [
  {
    name: 'address prefix "margaret.ho"',
    search: () => ({ q: 'margaret.ho' }),
    expected: ['users_email_prefix_idx', 'users_username_prefix_idx'],
  },
  {
    // One account in sixty matches: the newest first with a filter finds a page after a few thousand.
    name: 'username prefix "dividend_"',
    search: () => ({ q: 'dividend_' }),
    expected: ['users_email_prefix_idx', 'users_username_prefix_idx', 'users_created_at_idx'],
  },
  {
    // Many accounts match: walking the newest first until a page is found is as good as the prefixes.
    name: 'one-letter prefix "m"',
    search: () => ({ q: 'm' }),
    expected: ['users_email_prefix_idx', 'users_username_prefix_idx', 'users_created_at_idx'],
  },
  { name: 'whole id', search: (facts) => ({ q: facts.someId }), expected: ['users_pkey'] },
  {
    name: 'paid plan + verified + 90 days, newest first',
    search: (facts) => ({
      plan: facts.paidPlan,
      verified: true,
      from: isoDay(new Date(Date.now() - 365 * DAY_MS)),
      to: isoDay(new Date(Date.now() - 275 * DAY_MS)),
      sort: 'createdAt',
      order: 'desc',
    }),
    expected: ['users_created_at_idx'],
  },
  {
    name: 'everyone by address (A to Z)',
    search: () => ({ sort: 'email', order: 'asc' }),
    expected: ['users_email_lower_idx'],
  },
  {
    name: 'second page, newest first (cursor)',
    search: (facts) => ({ cursor: facts.newestCursor }),
    expected: ['users_created_at_idx'],
  },
  {
    name: 'second page by address (cursor)',
    search: (facts) => ({ sort: 'email', order: 'asc', cursor: facts.emailCursor }),
    expected: ['users_email_lower_idx'],
  },
];

/** One search's figures on one database. */
export interface SearchTiming {
  name: string;
  rows: number;
  medianMs: number;
  p95Ms: number;
  /** What the database spent executing it (EXPLAIN ANALYZE's Execution Time), once. */
  executionMs: number;
  indexes: string[];
  seqScan: boolean;
  /** Whether the plan uses none of the indexes expected for the search. */
  unexpectedPlan: boolean;
  plan: string;
}

export interface DatabaseTimings {
  /** The database and its state: 'PGlite, no statistics (as the server runs)', 'PostgreSQL, analysed'. */
  database: string;
  users: number;
  seedMs: number;
  /** What ANALYZE of the users table took, where it ran. */
  analyzeMs?: number;
  searches: SearchTiming[];
}

const INDEX_USE = /(?:Index(?: Only)? Scan(?: Backward)? using|Bitmap Index Scan on) (\S+)/g;

function planFacts(plan: string): { indexes: string[]; seqScan: boolean; executionMs: number } {
  const indexes = [...new Set([...plan.matchAll(INDEX_USE)].map((match) => match[1] ?? ''))];
  const execution = /Execution Time: ([\d.]+) ms/.exec(plan);
  return {
    indexes,
    seqScan: plan.includes('Seq Scan on users'),
    executionMs: execution === null ? Number.NaN : Number(execution[1]),
  };
}

async function seededFacts(db: Db, users: number): Promise<SeededFacts> {
  const { users: table } = schema;
  const [middle] = await db
    .select({ id: table.id })
    .from(table)
    .orderBy(table.firebaseUid)
    .offset(Math.floor(users / 2))
    .limit(1);
  const [commonest] = await db
    .select({ plan: table.planCode })
    .from(table)
    .where(sql`${table.planCode} <> 'free'`)
    .groupBy(table.planCode)
    .orderBy(sql`count(*) desc`)
    .limit(1);
  if (middle === undefined || commonest === undefined) throw new Error('the seeded accounts are missing');
  const { id } = middle;
  const { plan } = commonest;
  const newest = await searchUsers(db, {});
  const byEmail = await searchUsers(db, { sort: 'email', order: 'asc' });
  if (newest.nextCursor === null || byEmail.nextCursor === null)
    throw new Error('the first pages had no next page');
  return { someId: id, paidPlan: plan, newestCursor: newest.nextCursor, emailCursor: byEmail.nextCursor };
}

async function timeSearches(
  database: BenchDatabase,
  label: string,
  users: number,
  rounds: number,
  log: (line: string) => void,
): Promise<SearchTiming[]> {
  const facts = await seededFacts(database.db, users);
  const timings: SearchTiming[] = [];
  for (const searchCase of SEARCH_CASES) {
    const search = searchCase.search(facts);
    let rows = 0;
    for (let round = 0; round < WARMUP_ROUNDS; round += 1)
      rows = (await searchUsers(database.db, search)).users.length;
    const samples: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const started = performance.now();
      await searchUsers(database.db, search);
      samples.push(performance.now() - started);
    }
    const plan = await database.explainLast();
    const facts2 = planFacts(plan);
    timings.push({
      name: searchCase.name,
      rows,
      medianMs: median(samples),
      p95Ms: percentile(Float64Array.from(samples).sort(), 95),
      ...facts2,
      unexpectedPlan: !searchCase.expected.some((index) => facts2.indexes.includes(index)),
      plan,
    });
    log(`${label}: ${searchCase.name}`);
  }
  return timings;
}

/**
 * Seeds `users` accounts and times every search; the database is removed afterwards. PostgreSQL's
 * autovacuum analyses a table this size within a minute of the load, so it is timed analysed. PGlite
 * runs no autovacuum (one process, no background workers); the server analyses its growing tables
 * after migrating and hourly (PGLITE_ANALYZED_TABLES), so it too is timed analysed.
 */
async function benchDatabase(
  open: () => Promise<BenchDatabase>,
  options: { users: number; rounds: number; log: (line: string) => void },
): Promise<DatabaseTimings[]> {
  const database = await open();
  // A stopped run still removes its throwaway database (the directory, or the schema).
  const onSignal = (): void => {
    void database.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    options.log(`${database.name}: seeding ${options.users.toLocaleString('en-US')} accounts`);
    const started = performance.now();
    await database.db.execute(sql.raw(seedStatement(options.users)));
    const seedMs = performance.now() - started;
    const run = async (label: string, analyzeMs?: number): Promise<DatabaseTimings> => ({
      database: label,
      users: options.users,
      seedMs,
      ...(analyzeMs === undefined ? {} : { analyzeMs }),
      searches: await timeSearches(database, label, options.users, options.rounds, options.log),
    });
    const results: DatabaseTimings[] = [];
    const analyzeStarted = performance.now();
    await database.db.execute(sql`analyze users`);
    results.push(await run(`${database.name}, analysed`, performance.now() - analyzeStarted));
    return results;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await database.close();
  }
}

/** The PostgreSQL the bench may use: BENCH_DATABASE_URL, else DATABASE_URL, else TEST_DATABASE_URL. */
export function benchPostgresUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = [env.BENCH_DATABASE_URL, env.DATABASE_URL, env.TEST_DATABASE_URL].find(
    (value) => value !== undefined && value.trim() !== '',
  );
  return url?.trim();
}

/** Times the users list on PGlite and, with `postgresUrl`, on PostgreSQL. */
export async function measureAdminUsers(options: {
  users?: number;
  rounds?: number;
  postgresUrl?: string | undefined;
  log?: (line: string) => void;
}): Promise<DatabaseTimings[]> {
  const settings = {
    users: options.users ?? ADMIN_USERS_COUNT,
    rounds: options.rounds ?? DEFAULT_ROUNDS,
    log: options.log ?? ((line: string) => console.error(`[bench] ${line}`)),
  };
  const results = await benchDatabase(openPglite, settings);
  const url = options.postgresUrl;
  if (url !== undefined) results.push(...(await benchDatabase(() => openPostgres(url), settings)));
  return results;
}

/** The heading of the section, with what was measured. */
export function adminUsersHeading(
  results: readonly DatabaseTimings[],
  rounds: number = DEFAULT_ROUNDS,
): string {
  const users = results[0]?.users ?? ADMIN_USERS_COUNT;
  return `Admin users list: searchUsers over ${users.toLocaleString('en-US')} accounts, ${String(rounds)} rounds per search after ${String(WARMUP_ROUNDS)} warm-up (target: p95 at most ${String(ADMIN_USERS_TARGET_MS)} ms server time)`;
}

/** One table per database: each search's rows, median, p95, the database's own time, index and verdict. */
export function adminUsersTable(results: readonly DatabaseTimings[]): string {
  return results
    .map((result) =>
      [
        `${result.database} (seeded in ${fixed(result.seedMs / 1000, 1)} s${result.analyzeMs === undefined ? '' : `, ANALYZE ${fixed(result.analyzeMs, 0)} ms`})`,
        formatTable([
          ['search', 'rows', 'median ms', 'p95 ms', 'db ms', 'index', 'verdict'],
          ...result.searches.map((search) => [
            search.name,
            String(search.rows),
            fixed(search.medianMs, 2),
            fixed(search.p95Ms, 2),
            fixed(search.executionMs, 2),
            search.seqScan ? `SEQ SCAN ${search.indexes.join(', ')}`.trim() : search.indexes.join(', '),
            search.p95Ms <= ADMIN_USERS_TARGET_MS ? 'PASS' : 'MISS',
          ]),
        ]),
      ].join('\n'),
    )
    .join('\n\n');
}

/** Lines about plans that leave an expected index unused or scan the whole table. */
export function adminUsersPlanWarnings(results: readonly DatabaseTimings[]): string[] {
  return results.flatMap((result) =>
    result.searches
      .filter((search) => search.seqScan || search.unexpectedPlan)
      .map(
        (search) =>
          `${result.database}, ${search.name}: ${search.seqScan ? 'scans the whole users table' : 'uses none of the indexes meant for it'}\n${search.plan}`,
      ),
  );
}

/** Whether every search met the target. */
export function adminUsersPass(results: readonly DatabaseTimings[]): boolean {
  return results.every((result) => result.searches.every((search) => search.p95Ms <= ADMIN_USERS_TARGET_MS));
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: String(ADMIN_USERS_COUNT) },
      rounds: { type: 'string', default: String(DEFAULT_ROUNDS) },
      json: { type: 'boolean', default: false },
      plans: { type: 'boolean', default: false },
    },
  });
  const users = Number(values.users);
  const rounds = Number(values.rounds);
  if (!Number.isInteger(users) || users < 1000)
    throw new Error('--users must be a whole number of 1000 or more');
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error('--rounds must be a whole number of 1 or more');
  const results = await measureAdminUsers({ users, rounds, postgresUrl: benchPostgresUrl() });
  console.log(`\n${adminUsersHeading(results, rounds)}\n`);
  console.log(adminUsersTable(results));
  for (const warning of adminUsersPlanWarnings(results)) console.error(`\n!!! ${warning}`);
  if (values.plans) {
    for (const result of results) {
      for (const search of result.searches)
        console.log(`\n${result.database}, ${search.name}:\n${search.plan}`);
    }
  }
  if (values.json) console.log(JSON.stringify(results, null, 2));
}
