import type { APIRoute } from 'astro';
import { addInFunctionsScript } from '../../server/app/excel-add-in.ts';
import { publishedApiUrl } from '../../server/docs/markdown-plugins.ts';

/** `/excel-add-in/functions.js`: the custom functions as one classic script, at the manifest's stable address. */
export const GET: APIRoute = async () =>
  new Response(await addInFunctionsScript(publishedApiUrl()), {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8' },
  });
