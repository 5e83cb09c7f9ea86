import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from './config.ts';

// PGlite allows one process per data directory: while a server has the embedded database open, a
// command that needs it (`npm run user:role`) must go through that server instead of opening it too.
// The server says where it answers in a small file beside the database; the command reads it.

/** The file in the data directory naming the server that has the embedded database open. */
export const RUNNING_SERVER_FILE = 'server.json';

/** What the file says: which process holds the database and where its site answers on this machine. */
export interface RunningServerRecord {
  pid: number;
  /** The site's address as this machine reaches it (the loopback for a wildcard HOST). */
  siteUrl: string;
  startedAt: string;
}

/**
 * The data directory whose embedded database a server started with `config` opens, or undefined
 * when it opens none that another process could (PostgreSQL, or a `memory://` database).
 */
export function embeddedDataDir(config: ServerConfig): string | undefined {
  return config.databaseUrl === undefined && config.dataDir !== 'memory://' ? config.dataDir : undefined;
}

/**
 * Records that this process serves the embedded database in `dataDir` at `siteUrl`. Answers the
 * function that removes the record again (when it still names this process), for a clean stop.
 */
export function recordRunningServer(dataDir: string, siteUrl: string): () => void {
  const file = path.join(dataDir, RUNNING_SERVER_FILE);
  const record: RunningServerRecord = {
    pid: process.pid,
    siteUrl,
    startedAt: new Date().toISOString(),
  };
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  const remove = (): void => {
    process.off('exit', remove);
    if (readRecord(file)?.pid === process.pid) rmSync(file, { force: true });
  };
  // Also when something ends the process before its stop has run (the dev server exits on a signal).
  process.once('exit', remove);
  return remove;
}

function readRecord(file: string): RunningServerRecord | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as Partial<RunningServerRecord>;
    if (
      typeof value.pid === 'number' &&
      Number.isSafeInteger(value.pid) &&
      value.pid > 0 &&
      typeof value.siteUrl === 'string' &&
      URL.canParse(value.siteUrl)
    ) {
      return {
        pid: value.pid,
        siteUrl: value.siteUrl,
        startedAt: typeof value.startedAt === 'string' ? value.startedAt : '',
      };
    }
  } catch {
    // A torn or hand-edited file names no server.
  }
  return null;
}

/** Whether a process with this id exists (one of another user's counts: it still holds the files). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The server that has the embedded database in `dataDir` open, or null when none does: no record,
 * an unreadable one, or one left behind by a process that has ended (a crash or a kill).
 */
export function findRunningServer(dataDir: string): RunningServerRecord | null {
  const record = readRecord(path.join(dataDir, RUNNING_SERVER_FILE));
  return record !== null && processAlive(record.pid) ? record : null;
}
