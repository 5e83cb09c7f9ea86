import type { APIRoute } from 'astro';
import { legacyGuide, legacyGuideMarkdown } from '../../../server/data-api/legacy-guide.ts';
import { publishedApiUrl } from '../../../server/docs/markdown-plugins.ts';

/** The Markdown twin of the legacy endpoints guide (`/developer/docs/legacy-endpoints.md`). */
export const GET: APIRoute = () =>
  new Response(legacyGuideMarkdown(legacyGuide(), publishedApiUrl()), {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
  });
