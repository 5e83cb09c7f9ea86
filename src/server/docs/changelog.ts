import { z } from 'astro/zod';
import { DOCS_BASE, referencePath } from './paths.ts';

/*
 * The API changelog (/developer/docs/changelog/): dated entries from the `changelog` collection
 * (src/content/changelog/*.md), each of one kind and naming the endpoints it concerns, and the RSS
 * feed of them. The checks here keep it honest: every endpoint appears in an entry, and no entry
 * names an endpoint that does not exist.
 */

/** The page and its feed. */
export const CHANGELOG_PATH = `${DOCS_BASE}/changelog`;
export const CHANGELOG_FEED_PATH = `${CHANGELOG_PATH}/rss.xml`;

/** The page's title and what it says it is (the feed's too). */
export const CHANGELOG_TITLE = 'API changelog';
export const CHANGELOG_DESCRIPTION =
  'Every change to the API, newest first: new endpoints and fields, changes of behaviour and deprecations, with the endpoints each concerns.';

/** What an entry announces. */
export const CHANGE_TYPES = ['new endpoint', 'new field', 'change', 'deprecation'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** An entry's front matter (the collection's schema, src/content.config.ts). */
export const changelogEntrySchema = z.object({
  title: z.string().min(1),
  /** The day the change reached the API. */
  date: z.coerce.date(),
  type: z.enum(CHANGE_TYPES),
  /** Paths under /stable/ of the endpoints it concerns; none for a change to the API as a whole. */
  endpoints: z.array(z.string().min(1)).default([]),
});

export type ChangelogData = z.infer<typeof changelogEntrySchema>;

/** One entry with its body, as the page and the feed take it. */
export interface ChangelogItem {
  id: string;
  data: ChangelogData;
  /** The body rendered as HTML. */
  html: string;
}

/** Entries newest first; within a day, in the order of their ids. */
export function sortChangelog<T extends { id: string; data: Pick<ChangelogData, 'date'> }>(
  entries: readonly T[],
): T[] {
  return entries.toSorted(
    (a, b) => b.data.date.getTime() - a.data.date.getTime() || a.id.localeCompare(b.id),
  );
}

/** Endpoints (by path) that no entry names: each endpoint's arrival belongs in the changelog. */
export function unmentionedEndpoints(
  entries: readonly { data: Pick<ChangelogData, 'endpoints'> }[],
  paths: readonly string[],
): string[] {
  const named = new Set(entries.flatMap((entry) => entry.data.endpoints));
  return paths.filter((path) => !named.has(path));
}

/** Paths that entries name but no endpoint has (a typo, or an endpoint gone without a deprecation). */
export function unknownEndpoints(
  entries: readonly { data: Pick<ChangelogData, 'endpoints'> }[],
  paths: readonly string[],
): string[] {
  const known = new Set(paths);
  return [...new Set(entries.flatMap((entry) => entry.data.endpoints))].filter((path) => !known.has(path));
}

/** How an entry's kind reads as a label. */
export function changeLabel(type: ChangeType): string {
  return `${type.charAt(0).toUpperCase()}${type.slice(1)}`;
}

/** An entry's anchor on the changelog page. */
export function entryAnchor(entry: Pick<ChangelogItem, 'id'>): string {
  return entry.id;
}

/** The links to the reference pages of an entry's endpoints. */
export function entryEndpoints(entry: Pick<ChangelogItem, 'data'>): { path: string; href: string }[] {
  return entry.data.endpoints.map((path) => ({ path, href: referencePath({ path }) }));
}

/** Text as XML character data or an attribute value. */
export function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** RFC 822 date, as RSS 2.0 wants it (at midnight UTC of the entry's day). */
function rssDate(date: Date): string {
  return date.toUTCString();
}

/**
 * The changelog as an RSS 2.0 feed: one item per entry, newest first, linking to its place on the
 * page, with its kind as the category and its body as the description. Written here because the
 * feed is a few lines of XML and no feed library is among the dependencies.
 */
export function changelogFeed(
  items: readonly ChangelogItem[],
  site: string,
  options: { title: string; description: string },
): string {
  const page = new URL(`${CHANGELOG_PATH}/`, site).href;
  const origin = new URL(site).origin;
  const sorted = sortChangelog(items);
  const newest = sorted[0]?.data.date;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '<channel>',
    `<title>${escapeXml(options.title)}</title>`,
    `<link>${escapeXml(page)}</link>`,
    `<description>${escapeXml(options.description)}</description>`,
    '<language>en</language>',
    `<atom:link href="${escapeXml(new URL(CHANGELOG_FEED_PATH, site).href)}" rel="self" type="application/rss+xml"/>`,
    ...(newest === undefined ? [] : [`<lastBuildDate>${rssDate(newest)}</lastBuildDate>`]),
  ];
  for (const item of sorted) {
    const endpoints = item.data.endpoints.map((path) => `/stable/${path}`).join(', ');
    // A feed has no base address: the body's links to the site become absolute.
    const html = item.html.replaceAll('href="/', `href="${origin}/`);
    const body = endpoints === '' ? html : `${html}<p>Endpoints: ${escapeXml(endpoints)}</p>`;
    lines.push(
      '<item>',
      `<title>${escapeXml(item.data.title)}</title>`,
      `<link>${escapeXml(`${page}#${entryAnchor(item)}`)}</link>`,
      `<guid isPermaLink="false">${escapeXml(`changelog-${item.id}`)}</guid>`,
      `<pubDate>${rssDate(item.data.date)}</pubDate>`,
      `<category>${escapeXml(changeLabel(item.data.type))}</category>`,
      `<description>${escapeXml(body)}</description>`,
      '</item>',
    );
  }
  lines.push('</channel>', '</rss>');
  return `${lines.join('\n')}\n`;
}
