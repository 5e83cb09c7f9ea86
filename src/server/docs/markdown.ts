import type { CollectionEntry } from 'astro:content';
import { SITE_NAME } from '../../lib/routes.ts';
import { withEndpointLists } from './endpoint-lists.ts';
import { withFirstCall } from './first-call.ts';
import { withPublishedApiUrl, withPublishedSiteUrl } from './markdown-plugins.ts';
import { docsPath } from './navigation.ts';
import { markdownPath } from './paths.ts';

/*
 * The Markdown twins of the documentation pages (`<page>.md`, also served for `Accept: text/markdown`)
 * and the index of them for AI tools (`/llms.txt`, `/llms-full.txt`): the same text the pages show,
 * with the examples pointing at this deployment's data API and site.
 */

export { markdownPath };

/**
 * A written page as Markdown: its title, its summary, then its text, with generated parts (the
 * quickstart's first call, the lists of endpoints) written out where the page marks them.
 */
export function entryMarkdown(entry: CollectionEntry<'docs'>): string {
  const body = withEndpointLists(withFirstCall((entry.body ?? '').trim()));
  return withPublishedSiteUrl(
    withPublishedApiUrl(`# ${entry.data.title}\n\n> ${entry.data.description}\n\n${body}\n`),
  );
}

/** One page in the index for AI tools. */
export interface LlmsPage {
  title: string;
  description: string;
  /** The page's path; its twin is this with `.md`. */
  path: string;
  section: string;
}

/** `/llms.txt`: what the site is and every documentation page's Markdown twin, by section. */
export function llmsIndex(pages: readonly LlmsPage[], site: string): string {
  const lines = [
    `# ${SITE_NAME} API documentation`,
    '',
    `> Financial market data through an FMP-compatible REST API: quotes, historical prices, company fundamentals, statements, economics, crypto, forex and commodities. Each link below is a page of the documentation as Markdown.`,
    '',
  ];
  const sections = [...new Set(pages.map((page) => page.section))];
  for (const section of sections) {
    lines.push(`## ${section}`, '');
    for (const page of pages.filter((candidate) => candidate.section === section)) {
      lines.push(`- [${page.title}](${new URL(markdownPath(page.path), site).href}): ${page.description}`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trim()}\n`;
}

export { docsPath };
