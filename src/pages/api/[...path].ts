import type { APIRoute } from 'astro';

// The accounts API is answered by src/fetch.ts before any page is looked for. This route only marks
// its addresses as rendered on demand: Astro's dev server hands a request for an address it takes for
// a prerendered page (the 404 page, for every /api path of three or more segments) without its
// headers and query string, which the API needs.
export const prerender = false;

/** Never reached while src/fetch.ts mounts the accounts API; answers as the API does for no route. */
export const ALL: APIRoute = ({ request }) =>
  Response.json(
    { error: `No API route for ${request.method} ${new URL(request.url).pathname}` },
    { status: 404 },
  );
