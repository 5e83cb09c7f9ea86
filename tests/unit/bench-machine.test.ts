import { describe, expect, it } from 'vitest';
import { parseProcStat, treeTicks, type ProcessTimes } from '../../scripts/bench/machine.ts';

/** A /proc/<pid>/stat line as Linux writes it (52 fields), with the figures that matter set. */
function statLine(pid: number, name: string, ppid: number, ticks: [number, number, number, number]): string {
  const [utime, stime, cutime, cstime] = ticks;
  const rest = Array.from({ length: 35 }, () => '0').join(' ');
  return `${pid} (${name}) S ${ppid} ${pid} ${pid} 0 -1 4194560 100 0 0 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 1 0 ${rest}\n`;
}

describe('parseProcStat', () => {
  it('reads the parent and the CPU ticks, also of a command named with spaces and parentheses', () => {
    expect(parseProcStat(statLine(4242, 'chromium (renderer) x', 4000, [120, 30, 7, 3]))).toEqual({
      pid: 4242,
      ppid: 4000,
      ownTicks: 150,
      endedChildrenTicks: 10,
    });
  });

  it('ignores text that is not a process line', () => {
    expect(parseProcStat('')).toBeUndefined();
    expect(parseProcStat('not a stat line')).toBeUndefined();
    expect(parseProcStat('12 (short) S 1')).toBeUndefined();
  });
});

describe('treeTicks', () => {
  const processes: ProcessTimes[] = [
    { pid: 1, ppid: 0, ownTicks: 9_000, endedChildrenTicks: 50_000 },
    { pid: 100, ppid: 1, ownTicks: 200, endedChildrenTicks: 40 },
    { pid: 101, ppid: 100, ownTicks: 30, endedChildrenTicks: 0 },
    { pid: 102, ppid: 101, ownTicks: 60, endedChildrenTicks: 5 },
    { pid: 200, ppid: 1, ownTicks: 7_000, endedChildrenTicks: 0 },
  ];

  it("counts a browser and all its descendants, with their ended children's time, and nothing else", () => {
    expect(treeTicks(processes, 100)).toBe(200 + 40 + 30 + 60 + 5);
  });

  it('counts nothing for a process that is gone', () => {
    expect(treeTicks(processes, 999)).toBe(0);
  });
});
