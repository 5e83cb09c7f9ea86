import type { APIRoute } from 'astro';
import { publishedApiUrl } from '../../server/docs/markdown-plugins.ts';
import { docsLanding, landingMarkdown } from '../../server/docs/landing.ts';

/** The Markdown twin of the documentation's landing page (`/developer/docs.md`). */
export const GET: APIRoute = async () =>
  new Response(landingMarkdown(await docsLanding(), publishedApiUrl()), {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
  });
