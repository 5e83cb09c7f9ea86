import type { APIRoute } from 'astro';
import { articleFeedResponse } from '../../server/articles/entries.ts';

/** The how-to guides (/how-to) as an RSS 2.0 feed, newest first, each guide in full. */
export const GET: APIRoute = ({ site }) => articleFeedResponse('howTo', site);
