import { readdir } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

/**
 * Content negotiation for the documentation's Markdown twins: a request for a page that has one
 * (`/developer/docs/quickstart` beside `quickstart.md` in the build) and that asks for
 * `text/markdown` gets the Markdown, as AI tools and command-line readers prefer; browsers, which
 * never ask for it, get the page. The twins are listed once, when the server starts.
 */
export async function markdownTwins(clientDir: string): Promise<ReadonlySet<string>> {
  const twins = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name.endsWith('.md')) {
        twins.add(`/${path.relative(clientDir, full).split(path.sep).join('/')}`);
      }
    }
  };
  await walk(clientDir);
  return twins;
}

/** Whether the client asks for Markdown (an Accept header naming text/markdown). */
export function wantsMarkdown(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => part.trim().toLowerCase().startsWith('text/markdown'));
}

/**
 * Points a request for a page with a Markdown twin at the twin when the client asks for Markdown,
 * and marks every answer of such a page as varying by Accept, so caches keep the two apart.
 */
export function negotiateMarkdown(
  twins: ReadonlySet<string>,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return;
  const [pathname = '/', query] = (req.url ?? '/').split('?');
  const twin = `${pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname}.md`;
  if (!twins.has(twin)) return;
  res.setHeader('Vary', 'Accept');
  if (wantsMarkdown(req.headers.accept)) req.url = query === undefined ? twin : `${twin}?${query}`;
}
