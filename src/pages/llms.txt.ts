import type { APIRoute } from 'astro';
import { llmsPages } from '../server/docs/llms.ts';
import { llmsIndex } from '../server/docs/markdown.ts';

/** `/llms.txt`: an index of the documentation's Markdown twins for AI tools (llmstxt.org). */
export const GET: APIRoute = async ({ site }) =>
  new Response(llmsIndex(await llmsPages(), (site ?? new URL('http://localhost:4321')).href), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
