import type { APIRoute, GetStaticPaths } from 'astro';
import { ALL_ENDPOINTS } from '../../../../server/data-api/endpoints/index.ts';
import type { EndpointDefinition } from '../../../../server/data-api/endpoint.ts';
import { publishedApiUrl } from '../../../../server/docs/markdown-plugins.ts';
import { referenceMarkdown, referencePage } from '../../../../server/docs/reference.ts';

/** The Markdown twin of each endpoint's reference page (`/developer/docs/stable/<path>.md`). */
export const getStaticPaths = (() =>
  ALL_ENDPOINTS.map((endpoint) => ({
    params: { slug: endpoint.path },
    props: { endpoint },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ endpoint: EndpointDefinition }> = ({ props }) =>
  new Response(referenceMarkdown(referencePage(props.endpoint, publishedApiUrl())), {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
  });
