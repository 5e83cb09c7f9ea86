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
