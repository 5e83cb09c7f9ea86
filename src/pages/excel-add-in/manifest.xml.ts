import type { APIRoute } from 'astro';
import { siteUrl } from '../../server/app/config.ts';
import { addInManifest } from '../../lib/spreadsheet/manifest.ts';

/** `/excel-add-in/manifest.xml`: the Excel add-in's manifest, with this deployment's absolute URLs. */
export const GET: APIRoute = () =>
  new Response(addInManifest({ siteUrl: siteUrl() }), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8' },
  });
