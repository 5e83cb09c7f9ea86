import { billingRenewalIntervalMs } from '../../app/config.ts';
import { Repeat } from '../../app/repeat.ts';
import { getDatabase, type Database } from '../../db/client.ts';
import { tryTransactionLock } from '../../db/locks.ts';
import type { WebhookTransport } from './provider.ts';
import { renewTestSubscriptions, type RenewalSummary } from './test-mode-provider.ts';

/*
 * The test-mode provider's renewal job: once per interval, every test-mode subscription whose period
 * ended (or whose failed payment is due again) is renewed, charged or ended, and the outcome sent to
 * the webhook. A real provider (Stripe) renews on its own side and sends the same events.
 *
 * Several instances may share one PostgreSQL database: a round runs inside a transaction holding an
 * advisory lock (pg_try_advisory_xact_lock), so only one instance renews at a time and the others
 * skip it. The provider's records are in the database, never in a process, so whichever instance
 * takes the round sees them all. PGlite has one process, which always renews.
 */

/**
 * Advisory lock key of the renewal round ("renw" in ASCII), taken with the schema's hash as the
 * second key: instances sharing the tables share the lock, deployments in other schemas do not.
 */
export const RENEWAL_LOCK_KEY = 0x72656e77;

/** What a round did: renewed (with what it did), or left the round to another instance. */
export type RenewalRound = ({ kind: 'done' } & RenewalSummary) | { kind: 'taken' };

/**
 * One renewal round at `now` on `database`: on PostgreSQL only by the instance that takes the lock.
 * The time is a parameter so tests move a fake clock past period ends and retry dates.
 */
export async function runRenewalRound(
  database: Database,
  deliver: WebhookTransport,
  now: Date,
  log?: (line: string) => void,
): Promise<RenewalRound> {
  if (database.kind === 'pglite') {
    return { kind: 'done', ...(await renewTestSubscriptions({ db: database.db, deliver }, now, log)) };
  }
  return database.db.transaction(async (tx) => {
    if (!(await tryTransactionLock(tx, RENEWAL_LOCK_KEY))) return { kind: 'taken' as const };
    return { kind: 'done' as const, ...(await renewTestSubscriptions({ db: tx, deliver }, now, log)) };
  });
}

export interface RenewalJobOptions {
  deliver: WebhookTransport;
  database?: () => Promise<Database>;
  /** Default BILLING_RENEWAL_INTERVAL_MS. */
  intervalMs?: number;
  now?: () => Date;
  log?: (line: string) => void;
}

/**
 * Runs the renewal round once per interval in the server process (started by serve.ts, like the
 * status probes); rounds never overlap, and a round that fails (the database away) is logged and
 * tried again next interval.
 */
export class RenewalJob {
  readonly intervalMs: number;
  private readonly options: RenewalJobOptions;
  private inFlight: Promise<RenewalRound | undefined> | undefined;
  private readonly schedule: Repeat;

  constructor(options: RenewalJobOptions) {
    this.options = options;
    this.intervalMs = options.intervalMs ?? billingRenewalIntervalMs();
    this.schedule = new Repeat(this.intervalMs, () => this.runRound());
  }

  /** Renews now, then once per interval until stop(). */
  start(): void {
    this.schedule.start();
  }

  /** Stops the schedule and waits for the round in flight. */
  async stop(): Promise<void> {
    await this.schedule.stop();
    await this.inFlight;
  }

  /** One round now; undefined when it failed (logged). */
  runRound(): Promise<RenewalRound | undefined> {
    const log = this.options.log ?? ((line: string) => console.warn(line));
    this.inFlight ??= (async () => {
      const database = await (this.options.database ?? getDatabase)();
      return runRenewalRound(database, this.options.deliver, (this.options.now ?? (() => new Date()))(), log);
    })()
      .catch((error: unknown) => {
        log(`[billing] renewal round failed: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      })
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }
}
