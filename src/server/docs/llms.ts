import { LEGACY_GUIDE_PAGE, legacyGuide, legacyGuideMarkdown } from '../data-api/legacy-guide.ts';
import { publishedApiUrl } from './markdown-plugins.ts';
import { docsLanding, landingMarkdown } from './landing.ts';
import { entryMarkdown, type LlmsPage } from './markdown.ts';
import { DOCS_BASE, docsEntries, docsPath } from './navigation.ts';

/* The documentation for AI tools: every page that has a Markdown twin, in sidebar order. */

/**
 * Every documentation page with a Markdown twin: the landing page, the written pages, then the
 * legacy endpoints guide.
 */
export async function llmsPages(): Promise<LlmsPage[]> {
  const entries = await docsEntries();
  return [
    {
      title: 'API documentation',
      description: 'What the API offers, the quickstart and every endpoint by category.',
      path: DOCS_BASE,
      section: 'Get started',
    },
    ...entries.map((entry) => ({
      title: entry.data.title,
      description: entry.data.description,
      path: docsPath(entry),
      section: entry.data.section,
    })),
    { ...LEGACY_GUIDE_PAGE, section: 'Legacy' },
  ];
}

/** `/llms-full.txt`: every page's Markdown, one after the other. */
export async function llmsFullText(): Promise<string> {
  const entries = await docsEntries();
  const parts = [
    landingMarkdown(await docsLanding(), publishedApiUrl()),
    ...entries.map((entry) => entryMarkdown(entry)),
    legacyGuideMarkdown(legacyGuide(), publishedApiUrl()),
  ];
  return `${parts.map((part) => part.trim()).join('\n\n---\n\n')}\n`;
}
