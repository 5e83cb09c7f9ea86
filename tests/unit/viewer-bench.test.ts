import { describe, expect, it } from 'vitest';
import { largeAnswer, viewerSpeedTable } from '../../scripts/bench/viewer-models.ts';
import { tableFromAnswer } from '../../src/lib/result-table.ts';

describe('the API viewer benchmark', () => {
  it('builds rows of one shape that make a table', () => {
    const rows = largeAnswer(8);
    expect(rows).toHaveLength(8);
    const table = tableFromAnswer(rows);
    expect(table.kind).toBe('table');
    if (table.kind === 'table') expect(table.columns.length).toBe(Object.keys(rows[0] ?? {}).length);
  });

  it('reports verdicts only for steps with a target', () => {
    const report = viewerSpeedTable({
      bytes: 5_000_000,
      rows: 10_000,
      steps: [
        { step: 'fast', medianMs: 1, maxMs: 2, targetMs: 16 },
        { step: 'slow', medianMs: 20, maxMs: 30, targetMs: 16 },
        { step: 'scale', medianMs: 40, maxMs: 50, targetMs: Infinity },
      ],
    });
    const lines = report.split('\n');
    expect(lines[2]).toMatch(/^fast\s+1\.0\s+2\.0\s+16\s+PASS$/);
    expect(lines[3]).toMatch(/^slow\s+20\.0\s+30\.0\s+16\s+MISS$/);
    expect(lines[4]).toMatch(/^scale\s+40\.0\s+50\.0\s+-$/);
  });
});
