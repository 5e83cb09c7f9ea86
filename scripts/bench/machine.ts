import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fixed, formatTable } from './stats.ts';
import type { ProfileSummary } from './cpu-profile.ts';

/** CPU time every core of the machine has spent busy so far, in milliseconds. */
export function machineBusyMs(): number {
  let busy = 0;
  for (const { times } of cpus()) busy += times.user + times.nice + times.sys + times.irq;
  return busy;
}

/**
 * Share of the machine (all cores) busy over a short interval before a run: other work takes cores
 * from the server and the load generator, and the figures with them.
 */
export async function machineBusyPercent(intervalMs = 1_000): Promise<number> {
  const before = machineBusyMs();
  await new Promise((resolve) => setTimeout(resolve, intervalMs));
  return ((machineBusyMs() - before) / intervalMs / cpus().length) * 100;
}

/** A process as /proc/<pid>/stat describes it: its parent and its CPU clock ticks. */
export interface ProcessTimes {
  pid: number;
  ppid: number;
  /** User and system ticks of the process itself. */
  ownTicks: number;
  /** User and system ticks of its children that have ended and been waited for. */
  endedChildrenTicks: number;
}

/**
 * Reads one line of /proc/<pid>/stat. The command name may hold spaces and parentheses, so the
 * fields are counted from its last closing parenthesis. Undefined for text that is not such a line.
 */
export function parseProcStat(line: string): ProcessTimes | undefined {
  const pid = Number.parseInt(line, 10);
  const close = line.lastIndexOf(')');
  if (!Number.isInteger(pid) || close < 0) return undefined;
  // After the name: state (3), ppid (4), … utime (14), stime (15), cutime (16), cstime (17).
  const fields = line
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const [ppid, utime, stime, cutime, cstime] = [1, 11, 12, 13, 14].map((index) => Number(fields[index]));
  if ([ppid, utime, stime, cutime, cstime].some((value) => value === undefined || !Number.isFinite(value))) {
    return undefined;
  }
  return {
    pid,
    ppid: ppid ?? 0,
    ownTicks: (utime ?? 0) + (stime ?? 0),
    endedChildrenTicks: (cutime ?? 0) + (cstime ?? 0),
  };
}

/**
 * Ticks a process and everything it started have used: the live processes' own time plus what their
 * ended children used (a process's time moves to its parent when it ends, so none is counted twice).
 */
export function treeTicks(processes: readonly ProcessTimes[], rootPid: number): number {
  const children = new Map<number, ProcessTimes[]>();
  for (const entry of processes) {
    const siblings = children.get(entry.ppid) ?? [];
    siblings.push(entry);
    children.set(entry.ppid, siblings);
  }
  const root = processes.find((entry) => entry.pid === rootPid);
  if (root === undefined) return 0;
  let ticks = 0;
  const pending = [root];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    ticks += next.ownTicks + next.endedChildrenTicks;
    pending.push(...(children.get(next.pid) ?? []));
  }
  return ticks;
}

let ticksPerSecond: number | undefined;

function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * CPU time, in milliseconds, that a process and its descendants have used so far (the browser a
 * benchmark drives, with its renderers), so it can be told apart from other work on the machine.
 * NaN where /proc cannot be read (not Linux).
 */
export function processTreeCpuMs(rootPid: number): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return Number.NaN;
  }
  const processes: ProcessTimes[] = [];
  for (const entry of entries) {
    try {
      const parsed = parseProcStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (parsed !== undefined) processes.push(parsed);
    } catch {
      // The process ended while the list was read.
    }
  }
  if (!processes.some((entry) => entry.pid === rootPid)) return Number.NaN;
  return (treeTicks(processes, rootPid) / clockTicksPerSecond()) * 1000;
}

/** The counts of a load run that say whether it measured anything. */
export interface LoadOutcome {
  ok: number;
  otherStatuses: Record<string, number>;
  errors: number;
  errorSamples: string[];
}

/** What went wrong with a target's requests, or undefined when every answer was a 200. */
export function loadFailure(label: string, outcome: LoadOutcome): string | undefined {
  const statuses = Object.entries(outcome.otherStatuses).map(([status, n]) => `${n} × ${status}`);
  const problems = [
    ...(outcome.ok === 0 ? ['no 200 answers'] : []),
    ...(statuses.length > 0 ? [`non-200 answers: ${statuses.join(', ')}`] : []),
    ...(outcome.errors > 0
      ? [`${outcome.errors} connection errors (${outcome.errorSamples.join('; ')})`]
      : []),
  ];
  return problems.length === 0 ? undefined : `${label}: ${problems.join('; ')}`;
}

/** What every load run reports, whichever benchmark ran it. */
export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  serverCpuPercent: number;
  serverCpuMicrosPerRequest: number;
  generatorCpuPercent: number;
  otherCpuPercent: number;
  otherStatuses: Record<string, number>;
  errors: number;
}

/**
 * The result table both benchmarks print: throughput and latency, then the benchmark's own columns
 * (`extra`), then where the CPU went and what failed, so their tables read alike.
 */
export function loadTable(
  first: string,
  extra: readonly string[],
  rows: readonly { label: string; figures: LoadFigures; extra: readonly string[] }[],
): string {
  return formatTable([
    [
      first,
      'req/s',
      'p50 ms',
      'p99 ms',
      'max ms',
      ...extra,
      'server CPU',
      'CPU µs/req',
      'load CPU',
      'other CPU',
      'non-200',
      'errors',
    ],
    ...rows.map(({ label, figures, extra: cells }) => [
      label,
      fixed(figures.requestsPerSecond, 0),
      fixed(figures.p50Ms, 2),
      fixed(figures.p99Ms, 2),
      fixed(figures.maxMs, 1),
      ...cells,
      `${fixed(figures.serverCpuPercent, 0)} %`,
      fixed(figures.serverCpuMicrosPerRequest, 0),
      `${fixed(figures.generatorCpuPercent, 0)} %`,
      `${fixed(figures.otherCpuPercent, 0)} %`,
      String(Object.values(figures.otherStatuses).reduce((sum, n) => sum + n, 0)),
      String(figures.errors),
    ]),
  ]);
}

/** Prints where the server's CPU time went under one target's load. */
export function printProfile(name: string, profile: ProfileSummary): void {
  console.log(`\nServer CPU profile, ${name} (self time, % of samples):\n`);
  console.log(
    formatTable([
      ['function', 'share %'],
      ...profile.functions.slice(0, 12).map((share) => [share.name, fixed(share.percent, 1)]),
    ]),
  );
  console.log('');
  console.log(
    formatTable([
      ['file or package', 'share %'],
      ...profile.files.slice(0, 8).map((share) => [share.name, fixed(share.percent, 1)]),
    ]),
  );
}
