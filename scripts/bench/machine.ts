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
