import type { APIRoute } from 'astro';
import { CYCLE_TIMES_INTRO, cycleTimes, cycleTimesMarkdown } from '../../../server/docs/cycle-times.ts';

/** The Markdown twin of the stable API's cycle times (`/developer/docs/cycle-times-stable.md`). */
export const GET: APIRoute = () =>
  new Response(cycleTimesMarkdown(cycleTimes(), CYCLE_TIMES_INTRO), {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
  });
