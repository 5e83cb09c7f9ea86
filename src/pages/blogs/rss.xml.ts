import type { APIRoute } from 'astro';
import { articleFeedResponse } from '../../server/articles/entries.ts';

/** The blog for investors (/blogs) as an RSS 2.0 feed, newest first, each article in full. */
export const GET: APIRoute = ({ site }) => articleFeedResponse('blog', site);
