import { describe, expect, it } from 'vitest';
import type { PageScripts } from '../../scripts/size.ts';
import { scriptTargetReport } from '../../scripts/size.ts';

function built(page: string, gzipBytes: number): PageScripts {
  return {
    page,
    file: `${page}.html`,
    files: [],
    inline: [],
    islands: [],
    missing: [],
    bytes: gzipBytes * 3,
    gzipBytes,
  };
}

describe('scriptTargetReport', () => {
  it('states the content-page target and judges the content pages of the build against it', () => {
    const lines = scriptTargetReport([
      built('/', 61_440),
      built('/login', 200_000),
      built('/terms-of-service', 61_441),
    ]).split('\n');
    expect(lines[0]).toContain('at most 60 KB (61,440 bytes) of gzip JavaScript');
    expect(lines.slice(4).map((line) => line.split(/\s{2,}/))).toEqual([
      ['/', 'home', '61,440', '<= 61,440', 'PASS'],
      ['/terms-of-service', 'legal', '61,441', '<= 61,440', 'MISS'],
    ]);
  });

  it('still states the target when no content page is in the build', () => {
    expect(scriptTargetReport([built('/login', 1_000)])).toMatch(/^Target: .*60 KB/);
  });
});
