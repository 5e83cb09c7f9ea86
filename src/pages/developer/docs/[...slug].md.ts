import type { APIRoute, GetStaticPaths } from 'astro';
import type { CollectionEntry } from 'astro:content';
import { entryMarkdown } from '../../../server/docs/markdown.ts';
import { docsEntries } from '../../../server/docs/navigation.ts';

/** The Markdown twin of each written documentation page (`/developer/docs/<page>.md`). */
export const getStaticPaths = (async () => {
  const entries = await docsEntries();
  return entries.map((entry) => ({ params: { slug: entry.id }, props: { entry } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ entry: CollectionEntry<'docs'> }> = ({ props }) =>
  new Response(entryMarkdown(props.entry), {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
  });
