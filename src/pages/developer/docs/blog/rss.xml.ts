import type { APIRoute } from 'astro';
import { articleFeedResponse } from '../../../../server/articles/entries.ts';

/** The developer blog (/developer/docs/blog) as an RSS 2.0 feed, newest first, each article in full. */
export const GET: APIRoute = ({ site }) => articleFeedResponse('devBlog', site);
