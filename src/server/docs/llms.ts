import { DOC_SECTIONS } from '../../content.config.ts';
import { LEGACY_GUIDE_PAGE, legacyGuide, legacyGuideMarkdown } from '../data-api/legacy-guide.ts';
import { CYCLE_TIMES_INTRO, CYCLE_TIMES_PATH, cycleTimes, cycleTimesMarkdown } from './cycle-times.ts';
import { publishedApiUrl } from './markdown-plugins.ts';
import { docsLanding, landingMarkdown } from './landing.ts';
import { entryMarkdown, type LlmsPage } from './markdown.ts';
import { DOCS_BASE, docsEntries, docsPath, REFERENCE_SECTION_TITLE } from './navigation.ts';
import { referenceMarkdown, referencePages, type ReferencePage } from './reference.ts';

/*
 * The documentation for AI tools: every page that has a Markdown twin, in sidebar order (the
 * written sections, with the API reference after the guides), then the cycle times and the legacy
 * endpoints guide.
 */

/** The section the API reference follows, as in the sidebar. */
const REFERENCE_AFTER: (typeof DOC_SECTIONS)[number] = 'Guides';

/** Every page in sidebar order, each turned into T by the function for its kind. */
async function inOrder<T>(
  landing: () => T | Promise<T>,
  written: (entry: Awaited<ReturnType<typeof docsEntries>>[number]) => T,
  reference: (page: ReferencePage) => T,
  more: () => T[],
): Promise<T[]> {
  const entries = await docsEntries();
  const pages: T[] = [await landing()];
  for (const section of DOC_SECTIONS) {
    pages.push(...entries.filter((entry) => entry.data.section === section).map(written));
    if (section === REFERENCE_AFTER) pages.push(...referencePages(publishedApiUrl()).map(reference));
  }
  pages.push(...more());
  return pages;
}

/**
 * Every documentation page with a Markdown twin: the landing page, the written pages, the reference,
 * the cycle times, then the legacy endpoints guide.
 */
export function llmsPages(): Promise<LlmsPage[]> {
  return inOrder(
    () => ({
      title: 'API documentation',
      description: 'What the API offers, the quickstart and every endpoint by category.',
      path: DOCS_BASE,
      section: 'Get started',
    }),
    (entry) => ({
      title: entry.data.title,
      description: entry.data.description,
      path: docsPath(entry),
      section: entry.data.section,
    }),
    (page) => ({
      title: `${page.title} (/stable/${page.path})`,
      description: page.description,
      path: page.pagePath,
      section: REFERENCE_SECTION_TITLE,
    }),
    () => [
      { title: 'Cycle times', description: CYCLE_TIMES_INTRO, path: CYCLE_TIMES_PATH, section: 'More' },
      { ...LEGACY_GUIDE_PAGE, section: 'Legacy' },
    ],
  );
}

/** `/llms-full.txt`: every page's Markdown, one after the other. */
export async function llmsFullText(): Promise<string> {
  const parts = await inOrder(
    async () => landingMarkdown(await docsLanding(), publishedApiUrl()),
    (entry) => entryMarkdown(entry),
    (page) => referenceMarkdown(page),
    () => [
      cycleTimesMarkdown(cycleTimes(), CYCLE_TIMES_INTRO),
      legacyGuideMarkdown(legacyGuide(), publishedApiUrl()),
    ],
  );
  return `${parts.map((part) => part.trim()).join('\n\n---\n\n')}\n`;
}
