import { getDatabase, type Database, type Db } from '../db/client.ts';
import { statusProbeIntervalMs } from '../app/config.ts';
import { Repeat } from '../app/repeat.ts';
import { tryTransactionLock } from '../db/locks.ts';
import { redactSecrets } from '../app/errors.ts';
import { rootCause } from '../app/health.ts';
import { DAY_MS, isoDay } from '../../lib/iso-date.ts';
import {
  STATUS_DAYS,
  type ComponentState,
  type ComponentStatus,
  type StatusAnswer,
  type StatusDay,
} from '../../lib/status.ts';
import { CORE_COMPONENTS, statusGroups } from './components.ts';
import { PROBE_TIMEOUT_MS, SLOW_PROBE_MS, type StatusProbe } from './probes.ts';
import {
  countByDay,
  latestCheckAt,
  pruneChecks,
  readDayCounts,
  readLatestChecks,
  recordChecks,
  type CheckResult,
  type DayCount,
} from './store.ts';

/*
 * The status monitor: probes every component once per interval, stores the round, and answers
 * GET /api/status from the newest round and the stored day counts.
 *
 * Several instances may share one PostgreSQL database: a round is claimed inside a transaction that
 * holds an advisory lock (pg_try_advisory_xact_lock) and runs only when the newest stored round is
 * at least 90% of an interval old, so one instance probes per interval and the others answer from the
 * stored rounds. PGlite has one process, which always probes. While the database cannot be reached
 * no round can be claimed or stored: every instance then probes on its own, answers from its own
 * round (so "database down" shows within one interval), and stores what it found once the database
 * is back.
 */

/** Advisory lock key of the probe round ("stat" in ASCII). */
export const STATUS_LOCK_KEY = 0x73746174;

/** Probes running at the same time. */
const PROBES_AT_ONCE = 4;

/** Results found while the database was away are kept for storing later: at most a day at one a minute. */
const MAX_PENDING_RESULTS = 30_000;

/** How long stored rounds and day counts read for the answer are reused. */
const STORED_READ_TTL_MS = 5_000;

/** How long the answer waits for the database before answering from what it has. */
const STORED_READ_TIMEOUT_MS = 2_000;

/** A result older than this many intervals no longer tells the current state. */
const STALE_INTERVALS = 3;

/** What a round did: stored its results, left the round to another instance, or could not store. */
export type RoundOutcome = 'stored' | 'taken' | 'unstored';

export interface StatusMonitorOptions {
  /** The probes, one per component (none: the monitor only answers from stored rounds). */
  probes?: readonly StatusProbe[];
  database?: () => Promise<Database>;
  /** Default STATUS_PROBE_INTERVAL_MS. */
  intervalMs?: number;
  /** How long a probe may take before its component counts as down (default 5 s). */
  probeTimeoutMs?: number;
  now?: () => number;
  log?: (line: string) => void;
}

interface StoredView {
  readAt: number;
  latest: Map<string, CheckResult>;
  counts: DayCount[];
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${String(ms)} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The overall state: the worst core component; an endpoint group's problem makes it degraded at most. */
export function overallState(
  components: readonly ComponentStatus[],
  groups: readonly ComponentStatus[],
): ComponentState {
  const known = [...components, ...groups].filter((item) => item.state !== 'unknown');
  if (known.length === 0) return 'unknown';
  if (components.some((item) => item.state === 'down')) return 'down';
  if (known.some((item) => item.state !== 'operational')) return 'degraded';
  return 'operational';
}

/**
 * Probes the service once per interval and answers its status: the process that serves the site runs
 * one (`startStatusMonitor` in serve.ts), which GET /api/status answers from.
 */
export class StatusMonitor {
  readonly intervalMs: number;
  private readonly probeTimeoutMs: number;
  private readonly probes: readonly StatusProbe[];
  private readonly database: () => Promise<Database>;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  /** This instance's newest round. */
  private ownRound = new Map<string, CheckResult>();
  /** Results not stored yet (found while the database was away). */
  private pending: CheckResult[] = [];
  private stored: StoredView | undefined;
  private storedReading: Promise<StoredView | undefined> | undefined;
  private inFlight: Promise<RoundOutcome> | undefined;
  private readonly schedule: Repeat;
  private lastFailure = '';
  /** How many of the waiting results the store under way writes. */
  private writing = 0;

  constructor(options: StatusMonitorOptions = {}) {
    this.probes = options.probes ?? [];
    this.database = options.database ?? getDatabase;
    this.intervalMs = options.intervalMs ?? statusProbeIntervalMs();
    this.probeTimeoutMs = options.probeTimeoutMs ?? PROBE_TIMEOUT_MS;
    this.schedule = new Repeat(this.intervalMs, () => this.runRound());
    this.now = options.now ?? Date.now;
    this.log = options.log ?? ((line) => console.warn(line));
  }

  /** Probes now, then once per interval until stop(); rounds never overlap. */
  start(): void {
    this.schedule.start();
  }

  /** Stops the schedule and waits for the round in flight (its probes are bounded by their time limit). */
  async stop(): Promise<void> {
    await this.schedule.stop();
    await this.inFlight?.catch(() => undefined);
  }

  /** Runs one round now (the schedule calls it; tests call it directly). */
  runRound(): Promise<RoundOutcome> {
    this.inFlight ??= this.round().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** One probe, timed; a probe that throws or outlasts its time limit finds the component down. */
  private async probeOne(probe: StatusProbe, checkedAt: Date): Promise<CheckResult> {
    const started = performance.now();
    const finding = await withTimeout(probe.run(), this.probeTimeoutMs, probe.component).catch(
      (error: unknown) => ({ state: 'down' as const, detail: redactSecrets(rootCause(error)) }),
    );
    const latencyMs = Math.round(performance.now() - started);
    const state = finding.state === 'operational' && latencyMs > SLOW_PROBE_MS ? 'degraded' : finding.state;
    const detail =
      state === 'degraded' && finding.detail === '' ? `slow: ${String(latencyMs)} ms` : finding.detail;
    return { component: probe.component, checkedAt, state, latencyMs, detail };
  }

  /**
   * Runs every probe, a few at a time in list order (the service's own parts first), so latencies
   * are not inflated by twenty calls at once. Each result is shown as soon as it is known: a round
   * slowed by a hung dependency still shows the parts already probed.
   */
  private async probeAll(): Promise<CheckResult[]> {
    const checkedAt = new Date(this.now());
    const results: CheckResult[] = new Array<CheckResult>(this.probes.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < this.probes.length) {
        const index = next;
        next += 1;
        const probe = this.probes[index];
        if (probe === undefined) continue;
        const result = await this.probeOne(probe, checkedAt);
        results[index] = result;
        this.ownRound.set(result.component, result);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PROBES_AT_ONCE, this.probes.length) }, worker));
    return results;
  }

  private async round(): Promise<RoundOutcome> {
    let found: CheckResult[] | undefined;
    const probeOnce = async (): Promise<CheckResult[]> => {
      found ??= await this.probeAll();
      return found;
    };
    let outcome: RoundOutcome;
    try {
      const database = await this.database();
      outcome =
        database.kind === 'pglite'
          ? await this.store(database.db, await probeOnce())
          : await database.db.transaction(async (tx) => {
              if (!(await tryTransactionLock(tx, STATUS_LOCK_KEY))) return 'taken';
              const since = new Date(this.now() - this.intervalMs * 0.9);
              if ((await latestCheckAt(tx, since)) !== undefined) return 'taken';
              return this.store(tx, await probeOnce());
            });
      if (outcome === 'stored') this.settle();
      if (this.lastFailure !== '') this.log('[status] the probe results are stored again');
      this.lastFailure = '';
    } catch (error) {
      // The database is away (or failed mid-round): this instance answers from its own round.
      const reason = redactSecrets(rootCause(error));
      if (reason !== this.lastFailure) this.log(`[status] probe results cannot be stored: ${reason}`);
      this.lastFailure = reason;
      this.writing = 0;
      this.keepPending(found ?? (await probeOnce()));
      outcome = 'unstored';
    }
    if (outcome === 'stored') this.stored = undefined;
    if (outcome === 'taken' && this.pending.length > 0) {
      // Another instance probes this interval; what this one found during an outage is still stored.
      await this.database()
        .then(async (database) => {
          await this.store(database.db, []);
          this.settle();
        })
        .catch(() => {
          this.writing = 0;
        });
    }
    return outcome;
  }

  /**
   * Stores the round with whatever was found while the database was away, then prunes. The results
   * waiting are let go by {@link settle} once the transaction they were written in has committed.
   */
  private async store(db: Db, results: readonly CheckResult[]): Promise<'stored'> {
    this.writing = this.pending.length;
    await recordChecks(db, [...this.pending.slice(0, this.writing), ...results]);
    await pruneChecks(db, new Date(this.now()));
    return 'stored';
  }

  /** Lets go of the waiting results the last store wrote (results are only appended meanwhile). */
  private settle(): void {
    this.pending = this.pending.slice(this.writing);
    this.writing = 0;
  }

  private keepPending(results: readonly CheckResult[]): void {
    this.pending.push(...results);
    if (this.pending.length > MAX_PENDING_RESULTS)
      this.pending.splice(0, this.pending.length - MAX_PENDING_RESULTS);
  }

  /** The stored rounds and day counts, read at most every few seconds; the last read while the database is away. */
  private async storedView(): Promise<StoredView | undefined> {
    const now = this.now();
    if (this.stored !== undefined && now - this.stored.readAt < STORED_READ_TTL_MS) return this.stored;
    this.storedReading ??= (async () => {
      try {
        const { db } = await withTimeout(this.database(), STORED_READ_TIMEOUT_MS, 'database');
        const since = new Date(now - this.intervalMs * STALE_INTERVALS);
        const [latest, counts] = await withTimeout(
          Promise.all([readLatestChecks(db, since), readDayCounts(db, new Date(now))]),
          STORED_READ_TIMEOUT_MS,
          'database',
        );
        this.stored = { readAt: now, latest, counts };
      } catch {
        // Keep the last view; ask again after the same pause rather than on every request.
        if (this.stored !== undefined) this.stored = { ...this.stored, readAt: now };
      }
      return this.stored;
    })().finally(() => {
      this.storedReading = undefined;
    });
    return this.storedReading;
  }

  /** The answer of GET /api/status. */
  async answer(): Promise<StatusAnswer> {
    const now = this.now();
    const stored = await this.storedView();
    const counts = [...(stored?.counts ?? []), ...countByDay(this.pending)];
    const days: string[] = [];
    for (let back = STATUS_DAYS - 1; back >= 0; back -= 1) days.push(isoDay(new Date(now - back * DAY_MS)));
    const staleBefore = now - this.intervalMs * STALE_INTERVALS;

    const status = (id: string, name: string): ComponentStatus => {
      const own = this.ownRound.get(id);
      const kept = stored?.latest.get(id);
      const newest =
        own !== undefined && (kept === undefined || own.checkedAt >= kept.checkedAt) ? own : kept;
      const current = newest !== undefined && newest.checkedAt.getTime() >= staleBefore ? newest : undefined;
      const byDay = new Map<string, StatusDay>(days.map((date) => [date, { date, checks: 0, ok: 0 }]));
      for (const count of counts) {
        const day = count.component === id ? byDay.get(count.day) : undefined;
        if (day === undefined) continue;
        day.checks += count.checks;
        day.ok += count.passed;
      }
      const series = [...byDay.values()];
      const checks = series.reduce((sum, day) => sum + day.checks, 0);
      const ok = series.reduce((sum, day) => sum + day.ok, 0);
      return {
        id,
        name,
        state: current?.state ?? 'unknown',
        latencyMs: current?.latencyMs ?? null,
        checkedAt: current?.checkedAt.toISOString() ?? null,
        uptime90d: checks === 0 ? null : Math.floor((ok / checks) * 10_000) / 100,
        days: series,
      };
    };

    const components = CORE_COMPONENTS.map((component) => status(component.id, component.name));
    const groups = statusGroups().map((group) => status(group.id, group.name));
    const checkedAt = [...components, ...groups]
      .map((item) => item.checkedAt)
      .filter((at): at is string => at !== null)
      .sort()
      .at(-1);
    return {
      state: overallState(components, groups),
      checkedAt: checkedAt ?? null,
      probeIntervalMs: this.intervalMs,
      components,
      groups,
    };
  }
}

// The site bundle and the server that starts the probes may load this module twice in one process,
// so the running monitor is kept on globalThis under a registered symbol (as the database is).
const KEY = Symbol.for('market-data.status-monitor');
const holder = globalThis as typeof globalThis & { [KEY]?: StatusMonitor | undefined };

/** Makes `monitor` the one GET /api/status answers from (the server that probes registers its own). */
export function registerStatusMonitor(monitor: StatusMonitor | undefined): void {
  holder[KEY] = monitor;
}

/**
 * The monitor GET /api/status answers from: the one probing in this process, or one that answers from
 * the stored rounds only (a process that does not probe, such as the development server's site).
 */
export function statusMonitor(): StatusMonitor {
  holder[KEY] ??= new StatusMonitor();
  return holder[KEY];
}
