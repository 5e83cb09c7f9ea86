import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A CPU profile of this process while a target is under load (`npm run bench:api -- --profile`),
 * summed by function and by source file, so the report says where a request's time goes without
 * opening a profiler UI.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileShare {
  name: string;
  /** Share of the sampled time, in percent. */
  percent: number;
}

export interface ProfileSummary {
  functions: ProfileShare[];
  files: ProfileShare[];
}

export interface Profiler {
  stop(): Promise<ProfileSummary>;
}

function place(url: string): string {
  if (url === '') return '(native)';
  if (!url.startsWith('file:')) return url;
  const file = relative(process.cwd(), fileURLToPath(url));
  const modules = file.lastIndexOf('node_modules/');
  if (modules < 0) return file;
  // Group dependencies by package: node_modules/@scope/name or node_modules/name.
  const parts = file.slice(modules + 'node_modules/'.length).split('/');
  const scoped = parts[0]?.startsWith('@') === true;
  return `node_modules/${parts.slice(0, scoped ? 2 : 1).join('/')}`;
}

function top(totals: Map<string, number>, all: number, limit: number): ProfileShare[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, time]) => ({ name, percent: (time / all) * 100 }));
}

/** Starts sampling this process's main thread. */
export async function startProfiler(): Promise<Profiler> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
      session.disconnect();
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      const functions = new Map<string, number>();
      const files = new Map<string, number>();
      let all = 0;
      const samples = profile.samples ?? [];
      const deltas = profile.timeDeltas ?? [];
      samples.forEach((id, index) => {
        const node = byId.get(id);
        const delta = deltas[index] ?? 0;
        if (node === undefined) return;
        const { functionName, url, lineNumber } = node.callFrame;
        const file = place(url);
        const name = `${functionName === '' ? '(anonymous)' : functionName} ${file}${url === '' ? '' : `:${lineNumber + 1}`}`;
        functions.set(name, (functions.get(name) ?? 0) + delta);
        files.set(file, (files.get(file) ?? 0) + delta);
        all += delta;
      });
      return { functions: top(functions, all, 20), files: top(files, all, 12) };
    },
  };
}
