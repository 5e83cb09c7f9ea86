import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  chartAttributionStyle,
  inlineScriptHashes,
  inlineStyleHashes,
  sha256Source,
} from '../../src/server/app/inline-hashes.ts';
import { FIRST_PAINT_SCRIPT } from '../../src/lib/first-paint-script.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'inline-hashes-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('hashes of the inline code the policy allows', () => {
  it('are the base64 SHA-256 of the exact text, as browsers compute them', () => {
    expect(sha256Source('')).toBe('sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
    expect(inlineScriptHashes()).toEqual([
      `sha256-${createHash('sha256').update(FIRST_PAINT_SCRIPT).digest('base64')}`,
    ]);
  });

  it('include the style the installed chart library adds for its attribution logo', () => {
    const style = chartAttributionStyle();
    expect(style).toMatch(/^a#tv-attr-logo\{.*position:absolute/);
    expect(inlineStyleHashes()).toEqual([sha256Source(style)]);
  });

  it('stop the build, naming the file, when the chart library no longer adds that style', () => {
    const file = path.join(dir, 'lightweight-charts.production.mjs');
    writeFileSync(file, 'export const nothing = document.createElement("div");');
    expect(() => chartAttributionStyle(file)).toThrow(
      `${file} no longer sets the attribution logo's style as expected`,
    );
  });
});
