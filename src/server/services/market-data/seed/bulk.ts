import { sql, type SQL } from 'drizzle-orm';
import { DAY_MS } from '../../../../lib/iso-date.ts';
import type { Db } from '../../../db/client.ts';
import { dayOf, fromDay } from './calendar.ts';

/**
 * Fast multi-row inserts for generated data. Each column travels as one array parameter spread by unnest(), so
 * a statement carries tens of thousands of rows in a handful of parameters. On the embedded database the arrays
 * travel in PostgreSQL's binary format (no number printing or parsing on either side, exact doubles); on a
 * PostgreSQL server they travel as text, where prices are whole numbers of 1e-8 units (dividing an exact integer
 * by 1e8 gives back exactly the double that was rounded to at most eight decimals).
 */

export type ColumnKind = 'text' | 'date' | 'timestamp' | 'int' | 'float' | 'price' | 'bool' | 'json' | 'uuid';

/** A value; dates may be given as day numbers (days since 1970-01-01). */
export type Cell = string | number | boolean | null | Record<string, unknown>;

export interface TableShape {
  name: string;
  columns: readonly (readonly [string, ColumnKind])[];
  /**
   * Makes the insert an upsert: the conflict target's columns, and what to set on conflict (column and SQL
   * expression; `excluded.<column>` is the incoming value). No updates means "do nothing".
   */
  conflict?: { target: readonly string[]; update: readonly (readonly [string, string])[] };
}

const PRICE_SCALE = 100_000_000;
/** Rows per statement: large enough to amortise the statement, small enough to keep parameters modest. */
const CHUNK_ROWS = 50_000;
/** Days from 1970-01-01 to 2000-01-01, PostgreSQL's epoch for binary dates and timestamps. */
const PG_EPOCH_DAY = 10_957;

const TEXT_ARRAY_TYPE: Readonly<Record<ColumnKind, string>> = {
  text: 'text',
  date: 'date',
  timestamp: 'timestamp',
  int: 'int8',
  float: 'float8',
  price: 'int8',
  bool: 'bool',
  json: 'text',
  uuid: 'uuid',
};

const BINARY_TYPE: Readonly<Record<ColumnKind, readonly [name: string, oid: number]>> = {
  text: ['text', 25],
  date: ['date', 1082],
  timestamp: ['timestamp', 1114],
  int: ['int8', 20],
  float: ['float8', 701],
  price: ['float8', 701],
  bool: ['bool', 16],
  json: ['jsonb', 3802],
  uuid: ['uuid', 2950],
};

/** A cell as text (objects as JSON). */
function textOf(value: Cell): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function isoDate(value: Cell): string {
  if (typeof value === 'number') return fromDay(value);
  return textOf(value);
}

function dayNumber(value: Cell): number {
  if (typeof value === 'number') return value;
  const text = textOf(value);
  return dayOf(Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10)));
}

/** Microseconds since 2000-01-01 of "YYYY-MM-DD HH:MM:SS". */
function timestampMicros(value: Cell): number {
  const text = textOf(value);
  const ms = Date.UTC(
    Number(text.slice(0, 4)),
    Number(text.slice(5, 7)) - 1,
    Number(text.slice(8, 10)),
    Number(text.slice(11, 13)),
    Number(text.slice(14, 16)),
    Number(text.slice(17, 19)),
  );
  return (ms - PG_EPOCH_DAY * DAY_MS) * 1000;
}

interface ColumnWriter {
  add(value: Cell): void;
  /** The parameter of the rows added since the last take, then starts over. */
  take(): string | Uint8Array;
}

function quote(text: string): string {
  return text.includes('"') || text.includes('\\') ? `"${text.replace(/["\\]/g, '\\$&')}"` : `"${text}"`;
}

class TextColumn implements ColumnWriter {
  private readonly encode: (value: Cell) => string;
  private text = '';
  private count = 0;

  constructor(kind: ColumnKind) {
    this.encode = TextColumn.encoder(kind);
  }

  private static encoder(kind: ColumnKind): (value: Cell) => string {
    switch (kind) {
      case 'text':
      case 'timestamp': {
        let lastRaw: Cell = null;
        let lastEncoded = 'NULL';
        return (value) => {
          if (value === null) return 'NULL';
          if (value !== lastRaw) {
            lastRaw = value;
            lastEncoded = quote(textOf(value));
          }
          return lastEncoded;
        };
      }
      case 'json':
        return (value) => (value === null ? 'NULL' : quote(JSON.stringify(value)));
      case 'date':
        return (value) => (value === null ? 'NULL' : isoDate(value));
      case 'uuid':
        return (value) => (value === null ? 'NULL' : textOf(value));
      case 'int':
        return (value) => (value === null ? 'NULL' : String(Math.round(Number(value))));
      case 'float':
        return (value) => {
          if (value === null) return 'NULL';
          const n = Number(value);
          if (!Number.isFinite(n)) throw new Error(`not a finite number: ${textOf(value)}`);
          return String(n);
        };
      case 'price':
        return (value) => {
          if (value === null) return 'NULL';
          const n = Math.round(Number(value) * PRICE_SCALE);
          if (!Number.isSafeInteger(n)) throw new Error(`price out of range: ${textOf(value)}`);
          return String(n);
        };
      case 'bool':
        return (value) => (value === null ? 'NULL' : value === true ? 't' : 'f');
    }
  }

  add(value: Cell): void {
    this.text += (this.count === 0 ? '' : ',') + this.encode(value);
    this.count += 1;
  }

  take(): string {
    const literal = `{${this.text}}`;
    this.text = '';
    this.count = 0;
    return literal;
  }
}

const utf8 = new TextEncoder();

/** A one-dimensional array in PostgreSQL's binary wire format (array_recv). */
class BinaryColumn implements ColumnWriter {
  private readonly kind: ColumnKind;
  private readonly oid: number;
  private bytes = new Uint8Array(1 << 16);
  private view = new DataView(this.bytes.buffer);
  private position = 20;
  private count = 0;
  private nulls = false;

  constructor(kind: ColumnKind) {
    this.kind = kind;
    this.oid = BINARY_TYPE[kind][1];
  }

  private reserve(size: number): void {
    if (this.position + size <= this.bytes.length) return;
    let capacity = this.bytes.length * 2;
    while (capacity < this.position + size) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.bytes.subarray(0, this.position));
    this.bytes = next;
    this.view = new DataView(next.buffer);
  }

  private int64(at: number, value: number): void {
    const high = Math.floor(value / 4_294_967_296);
    this.view.setInt32(at, high);
    this.view.setUint32(at + 4, value - high * 4_294_967_296);
  }

  private string(text: string, prefix: number | null): void {
    this.reserve(5 + text.length * 3);
    const start = this.position + 4 + (prefix === null ? 0 : 1);
    if (prefix !== null) this.bytes[this.position + 4] = prefix;
    const { written } = utf8.encodeInto(text, this.bytes.subarray(start));
    this.view.setInt32(this.position, written + (prefix === null ? 0 : 1));
    this.position = start + written;
  }

  add(value: Cell): void {
    this.count += 1;
    if (value === null) {
      this.reserve(4);
      this.view.setInt32(this.position, -1);
      this.position += 4;
      this.nulls = true;
      return;
    }
    const at = this.position;
    switch (this.kind) {
      case 'text':
        this.string(textOf(value), null);
        return;
      case 'json':
        this.string(JSON.stringify(value), 1);
        return;
      case 'float':
      case 'price': {
        const n = Number(value);
        if (!Number.isFinite(n)) throw new Error(`not a finite number: ${textOf(value)}`);
        this.reserve(12);
        this.view.setInt32(at, 8);
        this.view.setFloat64(at + 4, n);
        this.position += 12;
        return;
      }
      case 'int':
        this.reserve(12);
        this.view.setInt32(at, 8);
        this.int64(at + 4, Math.round(Number(value)));
        this.position += 12;
        return;
      case 'timestamp':
        this.reserve(12);
        this.view.setInt32(at, 8);
        this.int64(at + 4, timestampMicros(value));
        this.position += 12;
        return;
      case 'date':
        this.reserve(8);
        this.view.setInt32(at, 4);
        this.view.setInt32(at + 4, dayNumber(value) - PG_EPOCH_DAY);
        this.position += 8;
        return;
      case 'bool':
        this.reserve(5);
        this.view.setInt32(at, 1);
        this.bytes[at + 4] = value === true ? 1 : 0;
        this.position += 5;
        return;
      case 'uuid': {
        const hex = textOf(value).replace(/-/g, '');
        this.reserve(20);
        this.view.setInt32(at, 16);
        for (let i = 0; i < 16; i += 1) this.bytes[at + 4 + i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
        this.position += 20;
        return;
      }
    }
  }

  take(): Uint8Array {
    this.view.setInt32(0, 1);
    this.view.setInt32(4, this.nulls ? 1 : 0);
    this.view.setInt32(8, this.oid);
    this.view.setInt32(12, this.count);
    this.view.setInt32(16, 1);
    const out = this.bytes.slice(0, this.position);
    this.position = 20;
    this.count = 0;
    this.nulls = false;
    return out;
  }
}

/** Rows of one table, gathered column by column and written in large statements. */
export class RowBuffer {
  readonly shape: TableShape;
  private readonly binary: boolean;
  private readonly writers: ColumnWriter[];
  /** Sealed chunks: one parameter per column. */
  private chunks: (string | Uint8Array)[][] = [];
  private currentRows = 0;
  private rows = 0;
  /** Rows written since the buffer was created. */
  written = 0;

  constructor(shape: TableShape, binary: boolean) {
    this.shape = shape;
    this.binary = binary;
    this.writers = shape.columns.map(([, kind]) => (binary ? new BinaryColumn(kind) : new TextColumn(kind)));
  }

  get size(): number {
    return this.rows;
  }

  push(values: readonly Cell[]): void {
    const writers = this.writers;
    if (values.length !== writers.length) {
      throw new Error(`${this.shape.name}: ${values.length} values for ${writers.length} columns`);
    }
    for (let i = 0; i < writers.length; i += 1) writers[i]?.add(values[i] ?? null);
    this.currentRows += 1;
    this.rows += 1;
    if (this.currentRows >= CHUNK_ROWS) this.seal();
  }

  private seal(): void {
    if (this.currentRows === 0) return;
    this.chunks.push(this.writers.map((w) => w.take()));
    this.currentRows = 0;
  }

  /** Writes the gathered rows and empties the buffer. */
  async flush(db: Db): Promise<number> {
    this.seal();
    const total = this.rows;
    const chunks = this.chunks;
    this.chunks = [];
    this.rows = 0;
    for (const chunk of chunks) await db.execute(this.statement(chunk));
    this.written += total;
    return total;
  }

  private statement(chunk: readonly (string | Uint8Array)[]): SQL {
    const { name, columns } = this.shape;
    const names = columns.map(([column]) => `"${column}"`).join(', ');
    const selects = columns
      .map(([, kind], i) => {
        if (this.binary) return `u.c${i}`;
        return kind === 'price'
          ? `(u.c${i}::float8 / ${PRICE_SCALE}::float8)`
          : kind === 'json'
            ? `u.c${i}::jsonb`
            : `u.c${i}`;
      })
      .join(', ');
    const aliases = columns.map((_, i) => `c${i}`).join(', ');
    const arrays = columns.map(([, kind], i) => {
      const type = this.binary ? BINARY_TYPE[kind][0] : TEXT_ARRAY_TYPE[kind];
      return sql`${chunk[i] ?? null}::${sql.raw(type)}[]`;
    });
    const conflict = this.shape.conflict;
    let onConflict = '';
    if (conflict) {
      const target = conflict.target.map((c) => `"${c}"`).join(', ');
      onConflict =
        conflict.update.length === 0
          ? ` on conflict (${target}) do nothing`
          : ` on conflict (${target}) do update set ${conflict.update.map(([c, e]) => `"${c}" = ${e}`).join(', ')}`;
    }
    return sql`insert into ${sql.raw(`"${name}"`)} (${sql.raw(names)}) select ${sql.raw(selects)} from unnest(${sql.join(arrays, sql`, `)}) as u(${sql.raw(aliases)})${sql.raw(onConflict)}`;
  }
}

/** Rows of a query result, whichever driver answered. */
export function resultRows<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return (result as { rows?: T[] }).rows ?? [];
}

/**
 * Whether the driver passes binary parameters through (the embedded database does; the PostgreSQL client
 * sends byte arrays as bytea, which the probe's cast refuses). Run outside a transaction.
 */
export async function acceptsBinaryArrays(db: Db): Promise<boolean> {
  try {
    const probe = new BinaryColumn('float');
    probe.add(1.5);
    const result = await db.execute(sql`select (${probe.take()}::float8[])[1] as v`);
    return resultRows<{ v: unknown }>(result)[0]?.v === 1.5;
  } catch {
    return false;
  }
}

/**
 * Runs writes in one transaction. When the role may, foreign-key triggers are skipped for the transaction
 * (session_replication_role): the generator writes securities first and only rows that reference them, and
 * the checks would otherwise cost more than the inserts themselves.
 */
export async function inTransaction<T>(
  db: Db,
  skipTriggers: boolean,
  work: (tx: Db) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    if (skipTriggers) await tx.execute(sql`set local session_replication_role = replica`);
    return work(tx);
  });
}

/** Whether the connected role may skip triggers (a superuser, as the embedded database always is). */
export async function canSkipTriggers(db: Db): Promise<boolean> {
  const result = await db.execute(sql`select current_setting('is_superuser') as su`);
  return resultRows<{ su: string }>(result)[0]?.su === 'on';
}

/**
 * Drops a table's primary key and indexes for a bulk load and returns the function that rebuilds them.
 * Building an index once over loaded rows is several times cheaper than growing it row by row. Run inside the
 * loading transaction: if the load fails, the rollback restores the indexes with everything else.
 */
export async function suspendIndexes(tx: Db, table: string): Promise<() => Promise<void>> {
  const constraints = resultRows<{ name: string; def: string }>(
    await tx.execute(sql`
      select c.conname as name, pg_get_constraintdef(c.oid) as def
      from pg_constraint c
      join pg_class t on t.oid = c.conrelid
      join pg_namespace n on n.oid = t.relnamespace
      where t.relname = ${table} and n.nspname = current_schema() and c.contype in ('p', 'u')`),
  );
  const indexes = resultRows<{ name: string; def: string }>(
    await tx.execute(sql`
      select indexname as name, indexdef as def from pg_indexes
      where schemaname = current_schema() and tablename = ${table}`),
  ).filter((index) => !constraints.some((c) => c.name === index.name));
  for (const c of constraints)
    await tx.execute(sql.raw(`alter table "${table}" drop constraint "${c.name}"`));
  for (const index of indexes) await tx.execute(sql.raw(`drop index "${index.name}"`));
  return async () => {
    // Sort in memory: the default budget spills a multi-million-row index build to temporary files.
    await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
    for (const c of constraints)
      await tx.execute(sql.raw(`alter table "${table}" add constraint "${c.name}" ${c.def}`));
    for (const index of indexes) await tx.execute(sql.raw(index.def));
  };
}
