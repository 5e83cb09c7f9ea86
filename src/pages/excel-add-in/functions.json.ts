import type { APIRoute } from 'astro';
import { siteUrl } from '../../server/app/config.ts';
import { ADD_IN_DOCS_PATH } from '../../lib/spreadsheet/manifest.ts';
import { functionsMetadata } from '../../lib/spreadsheet/metadata.ts';

/** `/excel-add-in/functions.json`: the custom functions' metadata, generated from their definitions. */
export const GET: APIRoute = () =>
  new Response(JSON.stringify(functionsMetadata(`${siteUrl()}${ADD_IN_DOCS_PATH}`), null, 2), {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
