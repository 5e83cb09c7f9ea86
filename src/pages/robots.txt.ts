import type { APIRoute } from 'astro';

/** `/robots.txt`: crawl the pages, not the API or an account's own pages; where the sitemap is. */
export const GET: APIRoute = ({ site }) => {
  const base = site ?? new URL('http://localhost:4321');
  const lines = [
    'User-agent: *',
    'Disallow: /api/',
    'Disallow: /developer/docs/dashboard',
    'Disallow: /dev/',
    '',
    `Sitemap: ${new URL('/sitemap.xml', base).href}`,
  ];
  return new Response(`${lines.join('\n')}\n`, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
