import type { APIRoute } from 'astro';
import { articleFeedResponse } from '../../server/articles/entries.ts';

/** The education section (/education) as an RSS 2.0 feed, newest first, each lesson in full. */
export const GET: APIRoute = ({ site }) => articleFeedResponse('education', site);
