import { getCollection, type CollectionEntry } from 'astro:content';
import { DOC_SECTIONS } from '../../content.config.ts';
import { isPending } from '../../lib/routes.ts';
import { endpointGroups } from './home.ts';
import { DOCS_BASE } from './paths.ts';

/*
 * The documentation's sidebar, built at build time from the written pages (the `docs` collection),
 * the API reference (from the endpoint definitions), the sections other modules add, and the docs
 * pages that exist: a page still listed as pending is left out, so the sidebar never leads to a 404.
 */

export { DOCS_BASE };

export interface DocsNavLink {
  href: string;
  label: string;
}

/** A group of links within a section (the reference's endpoint groups), collapsible on its own. */
export interface DocsNavGroup {
  title: string;
  links: DocsNavLink[];
}

export interface DocsNavSection {
  title: string;
  links: DocsNavLink[];
  /** Groups listed after the section's own links. */
  groups?: DocsNavGroup[];
}

/** Where a written page lives: `/developer/docs/<id>`. */
export function docsPath(entry: Pick<CollectionEntry<'docs'>, 'id'>): string {
  return `${DOCS_BASE}/${entry.id}`;
}

/** The written pages, in sidebar order (section, then order, then title). */
export async function docsEntries(): Promise<CollectionEntry<'docs'>[]> {
  const entries = await getCollection('docs');
  const sectionIndex = (entry: CollectionEntry<'docs'>): number => DOC_SECTIONS.indexOf(entry.data.section);
  return entries.toSorted(
    (a, b) =>
      sectionIndex(a) - sectionIndex(b) ||
      a.data.order - b.data.order ||
      a.data.title.localeCompare(b.data.title),
  );
}

/** Pages of the documentation that are not written pages, by sidebar section. */
const MORE_LINKS: readonly DocsNavLink[] = [
  { href: `${DOCS_BASE}/changelog/`, label: 'Changelog' },
  { href: `${DOCS_BASE}/blog`, label: 'Developer blog' },
  { href: '/how-to', label: 'How-to guides' },
  { href: '/education', label: 'Education' },
  { href: `${DOCS_BASE}/cycle-times-stable/`, label: 'Cycle times' },
  { href: `${DOCS_BASE}/status/`, label: 'Status' },
  { href: '/faqs', label: 'FAQs' },
  { href: '/help-center', label: 'Help center' },
  { href: `${DOCS_BASE}/excel-add-on`, label: 'Excel add-on' },
  { href: `${DOCS_BASE}/excel-add-on-explorer`, label: 'Spreadsheet formula explorer' },
  { href: `${DOCS_BASE}/resources/`, label: 'Third-party integrations' },
  { href: `${DOCS_BASE}/legacy-endpoints`, label: 'Legacy endpoints' },
];

/** Sections contributed by generated pages (the endpoint reference), placed after a written section. */
export interface ExtraSection extends DocsNavSection {
  /** The written section it follows. */
  after: (typeof DOC_SECTIONS)[number];
}

/** The sidebar section of the API reference. */
export const REFERENCE_SECTION_TITLE = 'API reference';

/**
 * The API reference in the sidebar, after the guides: one group per endpoint group, each endpoint
 * by its summary, from the endpoint definitions.
 */
export function referenceSection(): ExtraSection {
  return {
    title: REFERENCE_SECTION_TITLE,
    after: 'Guides',
    links: [],
    groups: endpointGroups().map((group) => ({
      title: group.name,
      links: group.endpoints.map((endpoint) => ({ href: endpoint.href, label: endpoint.summary })),
    })),
  };
}

/**
 * The sidebar of every documentation page: "Get started" opens with the overview, then every written
 * section in order with the API reference and the extra sections after the one they name, then the
 * other documentation pages that exist.
 */
export async function docsNavigation(extra: readonly ExtraSection[] = []): Promise<DocsNavSection[]> {
  const entries = await docsEntries();
  const added = [referenceSection(), ...extra];
  const sections: DocsNavSection[] = [];
  for (const title of DOC_SECTIONS) {
    const links = entries
      .filter((entry) => entry.data.section === title)
      .map((entry) => ({ href: docsPath(entry), label: entry.data.title }));
    if (title === 'Get started') links.unshift({ href: DOCS_BASE, label: 'Overview' });
    if (links.length > 0) sections.push({ title, links });
    for (const section of added.filter((candidate) => candidate.after === title)) {
      sections.push({
        title: section.title,
        links: section.links,
        ...(section.groups === undefined ? {} : { groups: section.groups }),
      });
    }
  }
  // A page listed under More that is now a written page (the integrations page) is listed once, in its section.
  const written = new Set(entries.map((entry) => docsPath(entry)));
  const more = MORE_LINKS.filter(
    (link) => !isPending(link.href) && !written.has(link.href.replace(/\/$/, '')),
  );
  if (more.length > 0) sections.push({ title: 'More', links: more });
  return sections;
}

/** The pages before and after `path` in sidebar order, for the pager at the foot of a page. */
export function neighbours(
  sections: readonly DocsNavSection[],
  path: string,
): { previous: DocsNavLink | undefined; next: DocsNavLink | undefined } {
  const links = sections.flatMap((section) => [
    ...section.links,
    ...(section.groups ?? []).flatMap((group) => group.links),
  ]);
  const normal = (href: string): string => (href.length > 1 ? href.replace(/\/$/, '') : href);
  const index = links.findIndex((link) => normal(link.href) === normal(path));
  if (index < 0) return { previous: undefined, next: undefined };
  return { previous: links[index - 1], next: links[index + 1] };
}
