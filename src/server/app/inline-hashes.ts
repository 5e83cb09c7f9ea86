import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { FIRST_PAINT_SCRIPT } from '../../lib/first-paint-script.ts';

// Build time: the hashes of the inline code Astro does not see itself, for security.csp in
// astro.config.mjs. Astro hashes the scripts and styles it bundles; these two are written by hand
// (the first-paint script) or created at run time by a library (the chart's attribution style).

/** A Content-Security-Policy hash source, as Astro's configuration takes it. */
export type CspHashSource = `sha256-${string}`;

/** The hash source a policy allows one inline script or style by. */
export function sha256Source(text: string): CspHashSource {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/** The entry file the browser build takes from the chart library (its `production` export). */
function chartLibraryFile(): string {
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const manifestFile = require.resolve('lightweight-charts/package.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
    exports?: { '.'?: { production?: { import?: string } } };
  };
  const entry = manifest.exports?.['.']?.production?.import ?? 'dist/lightweight-charts.production.mjs';
  return path.join(path.dirname(manifestFile), entry);
}

/**
 * The style sheet lightweight-charts puts into a <style> element when it draws its TradingView
 * attribution logo (which its licence asks for), read from the installed library so the hash
 * follows an upgrade. Throws when the library no longer adds it this way, so a build cannot
 * silently ship a chart whose logo the policy refuses.
 */
export function chartAttributionStyle(file: string = chartLibraryFile()): string {
  const source = readFileSync(file, 'utf8');
  const match = /createElement\("style"\),[\w$.]+\.innerText="(a#tv-attr-logo[^"\\]*)"/.exec(source);
  if (match?.[1] === undefined) {
    throw new Error(
      `${file} no longer sets the attribution logo's style as expected: update chartAttributionStyle() in src/server/app/inline-hashes.ts`,
    );
  }
  return match[1];
}

/** Hashes of the inline scripts Astro does not bundle: the first-paint script of every page's head. */
export function inlineScriptHashes(): CspHashSource[] {
  return [sha256Source(FIRST_PAINT_SCRIPT)];
}

/** Hashes of the inline styles created at run time: the chart's attribution logo. */
export function inlineStyleHashes(): CspHashSource[] {
  return [sha256Source(chartAttributionStyle())];
}
