import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import readExcelFile from 'read-excel-file/node';
import {
  createDataPipeline,
  type AnswerFile,
  type DataDownload,
  type DataOutcome,
  type DataRefusal,
} from '../data-api/pipeline.ts';
import type { EndpointDefinition } from '../data-api/endpoint.ts';
import { ALL_ENDPOINTS } from '../data-api/endpoints/index.ts';
import { openDatabase, type Db } from '../db/client.ts';
import { pricePlans, users } from '../db/schema.ts';
import { MemoryStore } from '../middleware/rate-limit-store.ts';
import { createApiKey } from '../services/api-keys.ts';
import { seedDemoData } from '../services/market-data/seed/index.ts';

/*
 * The reference pages' example answers and plan facts, produced by the code itself: the demo data
 * set's 'test' scale is seeded into a throwaway in-memory database, every endpoint's own `example`
 * query goes through the data pipeline (key check, parameters, plan, handler) with a key on the
 * widest plan, and the plan catalogue is read from the migrated database. `npm run docs:examples`
 * stores the result in src/content/reference/ (committed, so a build needs no database); a test
 * generates it again and fails when the stored copy differs from what the code now answers.
 */

/** The day the example data ends (a Friday), as the data API's tests use it. */
export const EXAMPLES_AS_OF = '2026-11-20';
/** The instant the examples are asked at: that Friday evening, after the US close (UTC). */
export const EXAMPLES_NOW = `${EXAMPLES_AS_OF}T21:00:00Z`;
/** Rows kept of a longer answer. */
export const EXAMPLE_ROWS = 3;
/** Characters kept of a longer text (a transcript, a company description). */
export const EXAMPLE_TEXT_LENGTH = 400;

/** One sheet of a workbook example: its header row and first rows, as read back from the file. */
export interface StoredSheet {
  name: string;
  header: (string | number)[];
  /** Rows under the header in the whole sheet. */
  rowCount: number;
  /** The first {@link EXAMPLE_ROWS} rows under the header. */
  rows: (string | number)[][];
}

/** A workbook endpoint's example: the file's name and the first rows of each sheet. */
export interface StoredWorkbook {
  fileName: string;
  sheets: StoredSheet[];
}

/** A stored example answer: the first rows of a real answer, shortened as it says. */
export interface StoredExample {
  /** The query it answers (the definition's `example`; a change there makes the store stale). */
  query: string;
  /** Rows in the whole answer (0 for a workbook: see `workbook`). */
  rowCount: number;
  /** The first {@link EXAMPLE_ROWS} rows (none for a workbook). */
  rows: unknown[];
  /** Whether some text was cut to {@link EXAMPLE_TEXT_LENGTH} characters. */
  textCut: boolean;
  /** The answer's X-Data-Source. */
  source: string;
  /** A workbook endpoint's answer, read back from the file it sent. */
  workbook?: StoredWorkbook;
}

/** A plan as the reference pages name it. */
export interface PlanFacts {
  code: string;
  name: string;
  planType: string;
  billingInterval: string;
  priceCents: number;
  currency: string;
  dataTier: number;
  historyYears: number | null;
  callsPerMinute: number | null;
  callsPerDay: number | null;
}

/** Everything `npm run docs:examples` writes. */
export interface ReferenceData {
  asOf: string;
  /** By endpoint path. */
  examples: Record<string, StoredExample>;
  /** The active plans, cheapest first. */
  plans: PlanFacts[];
}

/** Where the generated data is stored, relative to the repository. */
export const REFERENCE_DATA_FILE = 'src/content/reference/examples.json';

const EXAMPLES_SECRET = 'reference-examples-secret-0123456789abcdef';

function cutText(value: unknown, cut: { done: boolean }): unknown {
  if (typeof value === 'string' && value.length > EXAMPLE_TEXT_LENGTH) {
    cut.done = true;
    return `${value.slice(0, EXAMPLE_TEXT_LENGTH).trimEnd()}…`;
  }
  return value;
}

/** The first rows of an answer, each long text cut, saying whether any was. */
export function shortenAnswer(
  rows: readonly unknown[],
): Pick<StoredExample, 'rowCount' | 'rows' | 'textCut'> {
  const cut = { done: false };
  const kept = rows
    .slice(0, EXAMPLE_ROWS)
    .map((row) =>
      typeof row === 'object' && row !== null && !Array.isArray(row)
        ? Object.fromEntries(Object.entries(row).map(([name, value]) => [name, cutText(value, cut)]))
        : cutText(row, cut),
    );
  return { rowCount: rows.length, rows: kept, textCut: cut.done };
}

/** Cells as the example keeps them: text and numbers (a workbook answer holds no other kind). */
function cellsOf(row: readonly unknown[]): (string | number)[] {
  return row.map((value) => {
    if (typeof value === 'number' || typeof value === 'string') return value;
    if (typeof value === 'boolean') return String(value);
    return value instanceof Date ? value.toISOString().slice(0, 10) : '';
  });
}

/**
 * A workbook answer read back with a spreadsheet reader, as a client opening the file would see
 * it: each sheet's name, header and first rows.
 */
export async function workbookExample(file: AnswerFile): Promise<StoredWorkbook> {
  const sheets = await readExcelFile(Buffer.from(file.bytes));
  return {
    fileName: file.name,
    sheets: sheets.map(({ sheet, data }) => {
      const [header = [], ...rows] = data;
      return {
        name: sheet,
        header: cellsOf(header),
        rowCount: rows.length,
        rows: rows.slice(0, EXAMPLE_ROWS).map((row) => cellsOf(row)),
      };
    }),
  };
}

async function readPlans(db: Db): Promise<PlanFacts[]> {
  const rows = await db
    .select()
    .from(pricePlans)
    .where(eq(pricePlans.active, true))
    .orderBy(asc(pricePlans.priceCents), asc(pricePlans.sortOrder));
  return rows.map((plan) => ({
    code: plan.code,
    name: plan.name,
    planType: plan.planType,
    billingInterval: plan.billingInterval,
    priceCents: plan.priceCents,
    currency: plan.currency,
    dataTier: plan.dataTier,
    historyYears: plan.historyYears,
    callsPerMinute: plan.callsPerMinute,
    callsPerDay: plan.callsPerDay,
  }));
}

/** A verified account on `planCode` with a fresh key. */
async function keyOn(db: Db, planCode: string): Promise<string> {
  const [user] = await db
    .insert(users)
    .values({
      firebaseUid: 'reference-examples',
      email: 'reference-examples@example.com',
      username: 'reference-examples',
      planCode,
      emailVerified: true,
    })
    .returning({ id: users.id });
  if (user === undefined) throw new Error('The examples account could not be created');
  const issued = await createApiKey(db, user.id, { secret: EXAMPLES_SECRET });
  if (issued === null) throw new Error('The examples key could not be issued');
  return issued.key;
}

/** A bulk file's example: the file as JSON rows (small over the test-scale data), as an answer. */
async function bulkExample(download: DataDownload | DataRefusal): Promise<DataOutcome> {
  if (!download.ok) return download;
  const body = await download.file.wholeText();
  const bytes = Buffer.byteLength(body);
  download.finish(200, bytes);
  const { endpoint } = download.file;
  return {
    ok: true,
    endpoint,
    csv: false,
    body,
    file: undefined,
    etag: '',
    unchanged: false,
    bytes,
    source: download.source,
    limits: download.limits,
  };
}

/** The demo data set behind the examples, answering through the data pipeline (see openExamples). */
export interface ExamplesSource {
  /** The active plans, cheapest first. */
  plans: PlanFacts[];
  /** Asks one endpoint a query with a key on the widest plan, as a client of the data API would. */
  call: (endpoint: EndpointDefinition, query: string) => Promise<DataOutcome>;
  /** Flushes the usage meter (so caller-aware answers show the calls made so far). */
  flush: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * Seeds the demo data set ('test' scale, as of {@link EXAMPLES_AS_OF}) into a throwaway in-memory
 * database and opens the data pipeline over it with a key on the widest plan, at the examples' fixed
 * instant. The reference's example answers and the formula pages' worked examples are both read
 * from it, so what the documentation shows is what the API answers.
 */
export async function openExamples(
  endpoints: readonly EndpointDefinition[] = ALL_ENDPOINTS,
  migrationsDir: string = path.resolve('db/migrations'),
): Promise<ExamplesSource> {
  const database = openDatabase({ dataDir: 'memory://', migrationsDir });
  try {
    await database.migrate();
    const { db } = database;
    await seedDemoData(db, { scale: 'test', asOf: EXAMPLES_AS_OF });
    const plans = await readPlans(db);
    const widest = plans.reduce<PlanFacts | undefined>(
      (best, plan) => (best === undefined || plan.dataTier > best.dataTier ? plan : best),
      undefined,
    );
    if (widest === undefined) throw new Error('The plan catalogue is empty');
    const key = await keyOn(db, widest.code);
    const now = Date.parse(EXAMPLES_NOW);
    const pipeline = createDataPipeline({
      database: () => Promise.resolve(db),
      endpoints,
      now: () => now,
      secret: EXAMPLES_SECRET,
      store: new MemoryStore({ now: () => now }),
      flushIntervalMs: 3_600_000,
      // The account exists only in this throwaway database: there is no identity to ask about.
      checkIdentity: (_db, user) => Promise.resolve(user),
    });
    return {
      plans,
      call: async (endpoint, query) => {
        const credential = { key, client: () => 'examples' };
        if (endpoint.bulk === undefined) return pipeline.call(endpoint, query, credential);
        return bulkExample(await pipeline.download(endpoint, `${query}&datatype=json`, credential));
      },
      flush: () => pipeline.meter.flush(),
      close: async () => {
        try {
          await pipeline.close();
        } finally {
          await database.close();
        }
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/**
 * Asks every endpoint its example query over the demo data set (openExamples). Endpoints whose
 * answer is the caller's own (the usage report) are asked last, after the others' calls were
 * metered, so they show those calls. Throws naming an endpoint whose example is refused: an example
 * must be a real answer.
 */
export async function generateReferenceData(
  endpoints: readonly EndpointDefinition[] = ALL_ENDPOINTS,
  migrationsDir: string = path.resolve('db/migrations'),
): Promise<ReferenceData> {
  const source = await openExamples(endpoints, migrationsDir);
  try {
    const examples: Record<string, StoredExample> = {};
    const ask = async (endpoint: EndpointDefinition): Promise<void> => {
      const outcome = await source.call(endpoint, endpoint.example);
      if (!outcome.ok) {
        throw new Error(
          `The example of ${endpoint.path} (${endpoint.example || 'no parameters'}) was refused: ${String(outcome.status)} ${outcome.message}`,
        );
      }
      if (outcome.file !== undefined) {
        const workbook = await workbookExample(outcome.file);
        examples[endpoint.path] = {
          query: endpoint.example,
          rowCount: 0,
          rows: [],
          textCut: false,
          source: outcome.source,
          workbook,
        };
        return;
      }
      const rows = JSON.parse(outcome.body) as unknown[];
      examples[endpoint.path] = { query: endpoint.example, ...shortenAnswer(rows), source: outcome.source };
    };
    for (const endpoint of endpoints.filter((candidate) => candidate.callerAware !== true))
      await ask(endpoint);
    await source.flush();
    for (const endpoint of endpoints.filter((candidate) => candidate.callerAware === true))
      await ask(endpoint);
    const ordered = Object.fromEntries(
      endpoints.flatMap((endpoint) => {
        const example = examples[endpoint.path];
        return example === undefined ? [] : [[endpoint.path, example] as const];
      }),
    );
    return { asOf: EXAMPLES_AS_OF, examples: ordered, plans: source.plans };
  } finally {
    await source.close();
  }
}

/** The generated data as stored: JSON, two-space indented, ending with a newline. */
export function serializeReferenceData(data: ReferenceData): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}
