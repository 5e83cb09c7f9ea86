import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildStaleness, sourceFingerprint, writeBuildInfo } from '../../src/server/app/build-info.ts';

let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'build-info-'));
  mkdirSync(path.join(root, 'src/pages'), { recursive: true });
  writeFileSync(path.join(root, 'src/pages/index.astro'), '<h1>Home</h1>');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function build(env: NodeJS.ProcessEnv = {}): void {
  mkdirSync(path.join(root, 'dist/server'), { recursive: true });
  writeFileSync(path.join(root, 'dist/server/entry.mjs'), '');
  writeBuildInfo(sourceFingerprint(root, env), root);
}

describe('deciding whether npm start must build first', () => {
  it('builds when there is no build yet', () => {
    expect(buildStaleness(root)).toBe('no build yet');
  });

  it('reuses a build made from the current sources', () => {
    build(process.env);
    expect(buildStaleness(root)).toBeUndefined();
  });

  it('rebuilds after a source file changed', () => {
    build(process.env);
    const file = path.join(root, 'src/pages/index.astro');
    writeFileSync(file, '<h1>Home page</h1>');
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    expect(buildStaleness(root)).toMatch(/changed since the last build/);
  });

  it('rebuilds after a PUBLIC_ setting changed, but not after a server-only one', () => {
    expect(sourceFingerprint(root, { PUBLIC_DATA_API_URL: 'https://a.example' })).not.toBe(
      sourceFingerprint(root, { PUBLIC_DATA_API_URL: 'https://b.example' }),
    );
    expect(sourceFingerprint(root, { DATABASE_URL: 'postgres://a' })).toBe(
      sourceFingerprint(root, { DATABASE_URL: 'postgres://b' }),
    );
  });
});
