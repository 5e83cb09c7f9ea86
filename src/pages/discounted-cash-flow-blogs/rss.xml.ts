import type { APIRoute } from 'astro';
import { articleFeedResponse } from '../../server/articles/entries.ts';

/** The discounted cash flow articles (/discounted-cash-flow-blogs) as an RSS 2.0 feed, newest first, each article in full. */
export const GET: APIRoute = ({ site }) => articleFeedResponse('dcfBlog', site);
