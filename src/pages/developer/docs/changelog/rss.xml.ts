import type { APIRoute } from 'astro';
import { CHANGELOG_DESCRIPTION, CHANGELOG_TITLE, changelogFeed } from '../../../../server/docs/changelog.ts';
import { changelogItems } from '../../../../server/docs/changelog-entries.ts';

/** The API changelog as an RSS 2.0 feed (`/developer/docs/changelog/rss.xml`). */
export const GET: APIRoute = async ({ site }) =>
  new Response(
    changelogFeed(await changelogItems(), (site ?? new URL('http://localhost:4321')).href, {
      title: CHANGELOG_TITLE,
      description: CHANGELOG_DESCRIPTION,
    }),
    { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } },
  );
