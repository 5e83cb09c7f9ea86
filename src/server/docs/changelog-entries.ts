import { getCollection } from 'astro:content';
import { sortChangelog, type ChangelogItem } from './changelog.ts';

/** The changelog's entries with their bodies as HTML, newest first (at build time). */
export async function changelogItems(): Promise<ChangelogItem[]> {
  const entries = await getCollection('changelog');
  return sortChangelog(
    entries.map((entry) => ({ id: entry.id, data: entry.data, html: entry.rendered?.html ?? '' })),
  );
}
