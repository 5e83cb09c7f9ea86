import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { publicSettings, type Environment } from './config.ts';

const INPUTS = ['src', 'public', 'db/migrations', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'];
const STAMP = 'dist/build-info.json';

function walk(entry: string, out: string[]): void {
  if (!existsSync(entry)) return;
  const info = statSync(entry);
  if (info.isDirectory()) {
    for (const name of readdirSync(entry).sort()) walk(path.join(entry, name), out);
  } else {
    out.push(`${entry}:${info.size}:${info.mtimeMs}`);
  }
}

/**
 * A fingerprint of everything a build depends on: the sources and the PUBLIC_* variables that
 * are inlined into the pages, so a changed setting also makes the build stale.
 */
export function sourceFingerprint(root: string = process.cwd(), env?: Environment): string {
  const parts: string[] = [];
  for (const input of INPUTS) walk(path.join(root, input), parts);
  const publicEnv = publicSettings(env);
  return createHash('sha256').update(parts.join('\n')).update(publicEnv.join('\n')).digest('hex');
}

/** Records which sources a finished build was made from. */
export function writeBuildInfo(fingerprint: string, root: string = process.cwd()): void {
  writeFileSync(path.join(root, STAMP), JSON.stringify({ fingerprint, builtAt: new Date().toISOString() }));
}

/** Why the build must be (re)made, or undefined when it is current. */
export function buildStaleness(root: string = process.cwd()): string | undefined {
  const stamp = path.join(root, STAMP);
  if (!existsSync(path.join(root, 'dist/server/entry.mjs')) || !existsSync(stamp)) return 'no build yet';
  try {
    const { fingerprint } = JSON.parse(readFileSync(stamp, 'utf8')) as { fingerprint?: string };
    return fingerprint === sourceFingerprint(root)
      ? undefined
      : 'sources or PUBLIC_* settings changed since the last build';
  } catch {
    return 'the build record is unreadable';
  }
}
