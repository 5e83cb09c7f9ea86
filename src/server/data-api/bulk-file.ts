/*
 * A bulk file as text, written batch by batch: the same bytes whichever transport sends them, with
 * what it takes to resume one (a strong validator and the length, learnt from a complete pass).
 */
import { createHash } from 'node:crypto';
import { stringify } from 'csv-stringify/browser/esm/sync';
import { csvOptions } from '../../lib/csv.ts';
import { Memo } from '../services/market-data/memo.ts';
import type { EndpointContext, EndpointDefinition } from './endpoint.ts';

/** What is known of a complete file: a strong validator of its bytes and their number. */
export interface FileFacts {
  etag: string;
  length: number;
}

/** How long the facts of a file are trusted before they are learnt again from a new pass. */
const FACTS_TTL_MS = 10 * 60_000;

/**
 * The facts of the files served lately, by query and day (a file's rows can change from one day to the
 * next: prices, "today's" valuations). Bounded: a key of a few hundred bytes and two values each.
 */
const knownFacts = new Memo<FileFacts>({ max: 5_000, ttlMs: FACTS_TTL_MS });

/** Thrown into a pass whose bytes came out different from the facts sent with it (the data changed). */
export class FileChangedError extends Error {
  constructor(path: string) {
    super(`The ${path} file changed while it was being sent; it is cut off so the client asks again.`);
    this.name = 'FileChangedError';
  }
}

/** One query's file: its rows written as CSV or a JSON array, and what is known of its bytes. */
export class BulkFileText {
  readonly endpoint: EndpointDefinition;
  readonly csv: boolean;
  private readonly columns: readonly string[];
  /** Only the fields asked for with `fields` (all when undefined). */
  private readonly picked: readonly string[] | undefined;
  private readonly context: EndpointContext<Record<string, unknown>>;
  private readonly factsKey: string;

  constructor(options: {
    endpoint: EndpointDefinition;
    csv: boolean;
    columns: readonly string[] | undefined;
    context: EndpointContext<Record<string, unknown>>;
    /** The query without the key (endpoint, format, fields, parameters). */
    queryKey: string;
  }) {
    this.endpoint = options.endpoint;
    this.csv = options.csv;
    this.picked = options.columns;
    this.columns = options.columns ?? Object.keys(options.endpoint.row.shape);
    this.context = options.context;
    // Facts hold for the day, or for the moment asked about when the rows follow live prices.
    const moment = options.context.now.toISOString();
    this.factsKey = `${options.queryKey}|${options.endpoint.bulk?.live === true ? moment : moment.slice(0, 10)}`;
  }

  /** The facts learnt from an earlier complete pass of the same query today, if any. */
  get facts(): FileFacts | undefined {
    return knownFacts.get(this.factsKey);
  }

  /** The download's file name: `income-statement-bulk-2025-annual.csv`. */
  get fileName(): string {
    const stem = this.endpoint.bulk?.fileName(this.context.params) ?? this.endpoint.path;
    return `${stem}.${this.csv ? 'csv' : 'json'}`;
  }

  /** The file's text in chunks (a header or bracket, then one chunk per batch), rows read as they are written. */
  private async *text(): AsyncGenerator<string> {
    const bulk = this.endpoint.bulk;
    if (bulk === undefined) throw new Error(`${this.endpoint.path} is not a bulk file`);
    const rowOptions = { ...csvOptions(this.columns), header: false };
    yield this.csv ? stringify([], csvOptions(this.columns)) : '[';
    let first = true;
    for await (const batch of bulk.batches(this.context)) {
      if (batch.length === 0) continue;
      if (this.csv) {
        yield stringify(batch as object[], rowOptions);
        continue;
      }
      const parts: string[] = [];
      for (const row of batch)
        parts.push(
          JSON.stringify(this.picked === undefined ? row : pick(row as Record<string, unknown>, this.picked)),
        );
      yield `${first ? '' : ','}${parts.join(',')}`;
      first = false;
    }
    if (!this.csv) yield ']';
  }

  /**
   * The file's bytes from the start, hashed and counted as they go: a complete pass records the
   * file's facts. When `expected` facts were announced (an ETag or a length already sent) and the
   * pass ends with other bytes, it fails with {@link FileChangedError} instead of ending normally.
   */
  async *bytes(expected?: FileFacts): AsyncGenerator<Buffer> {
    const hash = createHash('sha1');
    let length = 0;
    for await (const chunk of this.text()) {
      const buffer = Buffer.from(chunk, 'utf8');
      hash.update(buffer);
      length += buffer.length;
      yield buffer;
    }
    const facts = { etag: `"${hash.digest('base64url')}"`, length };
    knownFacts.set(this.factsKey, facts);
    if (expected !== undefined && (expected.etag !== facts.etag || expected.length !== facts.length)) {
      throw new FileChangedError(this.endpoint.path);
    }
  }

  /**
   * The whole file as one string: for small files only, such as the documentation's examples over the
   * test-scale demo data; downloads stream {@link bytes} instead.
   */
  async wholeText(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.bytes()) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Reads the whole file without sending it, to learn its facts (a first request for a range). */
  async measure(): Promise<FileFacts> {
    // The bytes are dropped as they come: only the hash and the count stay.
    const pass = this.bytes();
    let next = await pass.next();
    while (next.done !== true) next = await pass.next();
    const facts = this.facts;
    if (facts === undefined) throw new Error(`${this.endpoint.path}: facts not recorded`);
    return facts;
  }
}

function pick(row: Readonly<Record<string, unknown>>, columns: readonly string[]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const column of columns) if (column in row) kept[column] = row[column];
  return kept;
}

/** The bytes of `source` from position `start` on (a resumed download's tail). */
export async function* bytesFrom(source: AsyncIterable<Buffer>, start: number): AsyncGenerator<Buffer> {
  let position = 0;
  for await (const chunk of source) {
    const end = position + chunk.length;
    if (end > start) yield position >= start ? chunk : chunk.subarray(start - position);
    position = end;
  }
}
