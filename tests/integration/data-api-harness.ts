import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { inject } from 'vitest';
import { createDataApi, type DataApi } from '../../src/server/data-api/app.ts';
import { openDatabase, type Database, type Db } from '../../src/server/db/client.ts';
import { pricePlans, users } from '../../src/server/db/schema.ts';
import { MemoryStore } from '../../src/server/middleware/rate-limit-store.ts';
import { createApiKey } from '../../src/server/services/api-keys.ts';
import { seedDemoData } from '../../src/server/services/market-data/seed/index.ts';
import { HARNESS_AS_OF } from './seeded-template.ts';

/** The server secret of the harness's keys. */
export const HARNESS_SECRET = 'data-api-harness-secret-0123456789abcdef';
export { HARNESS_AS_OF };

export interface HarnessClock {
  now: number;
  advance(ms: number): void;
}

export interface DataApiHarness {
  db: Db;
  database: Database;
  api: DataApi;
  clock: HarnessClock;
  store: MemoryStore;
  /** A GET through the app; `query` is added to the URL, `headers` sent as given. */
  request(path: string, query?: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  /** A verified account on `planCode` with a fresh API key; `legacy` sets the account's legacy flag. */
  keyFor(
    planCode: string,
    options?: { verified?: boolean; firebaseUid?: string; legacy?: boolean },
  ): Promise<string>;
  /** The account id behind a key made by keyFor. */
  userOf(key: string): string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Open this database instead of a fresh in-memory PGlite (it is seeded unless `seed` is false). */
  database?: Database;
  seed?: boolean;
  /** The secret keys are stored with (default HARNESS_SECRET); the accounts API's own for stories across both. */
  secret?: string;
}

/** The seeded database this run's global setup made, or undefined without one (then the harness seeds). */
function seededTemplate(): Blob | undefined {
  const file = inject('seededTemplate');
  return file === '' ? undefined : new Blob([readFileSync(file)]);
}

/**
 * The data API over a database seeded with the 'test' demo scale, a fake clock shared by the call
 * budgets and the metering, and a helper that makes accounts with keys on any plan.
 */
export async function openDataApiHarness(options: HarnessOptions = {}): Promise<DataApiHarness> {
  let database = options.database;
  let seeded = false;
  if (database === undefined) {
    const template = options.seed === false ? undefined : seededTemplate();
    database = openDatabase({
      dataDir: 'memory://',
      migrationsDir: path.resolve('db/migrations'),
      ...(template === undefined ? {} : { loadDataDir: template }),
    });
    seeded = template !== undefined;
    if (!seeded) await database.migrate();
  }
  const { db } = database;
  if (options.seed !== false && !seeded) await seedDemoData(db, { scale: 'test', asOf: HARNESS_AS_OF });
  const clock: HarnessClock = {
    now: Date.parse(`${HARNESS_AS_OF}T21:00:00Z`),
    advance(ms) {
      this.now += ms;
    },
  };
  const store = new MemoryStore({ now: () => clock.now });
  const api = createDataApi({
    database: () => Promise.resolve(db),
    store,
    now: () => clock.now,
    secret: options.secret ?? HARNESS_SECRET,
    flushIntervalMs: 60_000,
  });
  const owners = new Map<string, string>();
  return {
    db,
    database,
    api,
    clock,
    store,
    request(pathname, query = {}, headers = {}) {
      const search = new URLSearchParams(query).toString();
      return Promise.resolve(api.app.request(`${pathname}${search === '' ? '' : `?${search}`}`, { headers }));
    },
    async keyFor(planCode, keyOptions = {}) {
      const id = randomUUID();
      const [user] = await db
        .insert(users)
        .values({
          firebaseUid: keyOptions.firebaseUid ?? `harness-${id}`,
          email: `${id}@example.com`,
          username: `user-${id}`,
          planCode,
          emailVerified: keyOptions.verified ?? true,
          legacy: keyOptions.legacy ?? false,
        })
        .returning({ id: users.id });
      if (user === undefined) throw new Error('no user row');
      const issued = await createApiKey(db, user.id, { secret: options.secret ?? HARNESS_SECRET });
      if (issued === null) throw new Error('no key');
      owners.set(issued.key, user.id);
      return issued.key;
    },
    userOf(key) {
      const owner = owners.get(key);
      if (owner === undefined) throw new Error('key not made by this harness');
      return owner;
    },
    async close() {
      await api.close();
      await store.close();
      if (options.database === undefined) await database.close();
    },
  };
}

/** One answer of the data API, split into what tests look at. */
export interface StableAnswer {
  status: number;
  rows: Record<string, unknown>[];
  /** The "Error Message" of a refusal; '' for rows. */
  error: string;
}

/** GET /stable/<path> with a key, answered as rows or as the refusal's message. */
export async function stableAnswer(
  h: DataApiHarness,
  path: string,
  query: Record<string, string>,
  key: string,
): Promise<StableAnswer> {
  const res = await h.request(`/stable/${path}`, { ...query, apikey: key });
  const body = (await res.json()) as Record<string, unknown>[] | { 'Error Message': string };
  if (Array.isArray(body)) return { status: res.status, rows: body, error: '' };
  return { status: res.status, rows: [], error: body['Error Message'] };
}

/** Sets an account's flags the way an administrator or the identity sync would. */
export async function updateAccount(
  db: Db,
  userId: string,
  changes: Partial<Pick<typeof users.$inferInsert, 'blocked' | 'emailVerified' | 'planCode' | 'legacy'>>,
): Promise<void> {
  await db.update(users).set(changes).where(eq(users.id, userId));
}

/**
 * The Free plan's call budgets as the catalogue the migrations made has them, so the limits stories
 * spend exactly the budget a new developer gets, whatever it is set to.
 */
export async function freeLimits(db: Db): Promise<{ perMinute: number; perDay: number }> {
  const [free] = await db.select().from(pricePlans).where(eq(pricePlans.code, 'free'));
  if (free?.callsPerMinute == null || free.callsPerDay === null) throw new Error('Free has no call limits');
  return { perMinute: free.callsPerMinute, perDay: free.callsPerDay };
}
