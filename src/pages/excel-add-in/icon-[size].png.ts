import type { APIRoute, GetStaticPaths } from 'astro';
import { addInIconPng } from '../../server/app/excel-add-in.ts';
import { ADD_IN_ICON_SIZES } from '../../lib/spreadsheet/manifest.ts';

/** `/excel-add-in/icon-<size>.png`: the add-in's icon in each size the manifest names. */
export const getStaticPaths: GetStaticPaths = () =>
  ADD_IN_ICON_SIZES.map((size) => ({ params: { size: String(size) } }));

export const GET: APIRoute = ({ params }) =>
  new Response(new Uint8Array(addInIconPng(Number(params.size))), {
    headers: { 'Content-Type': 'image/png' },
  });
