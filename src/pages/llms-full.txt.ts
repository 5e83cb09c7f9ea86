import type { APIRoute } from 'astro';
import { llmsFullText } from '../server/docs/llms.ts';

/** `/llms-full.txt`: the whole documentation as one Markdown text, for AI tools that read it at once. */
export const GET: APIRoute = async () =>
  new Response(await llmsFullText(), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
