import { ALL_ENDPOINTS } from '../data-api/endpoints/index.ts';
import type { EndpointDefinition } from '../data-api/endpoint.ts';
import { referencePath } from './paths.ts';

/*
 * The documentation's landing page as a view model: the endpoint catalogue by group, straight from
 * the endpoint definitions (the same source as the OpenAPI document), each linked to its reference page.
 */

export interface HomeEndpoint {
  path: string;
  summary: string;
  /** The endpoint's reference page. */
  href: string;
}

export interface HomeGroup {
  name: string;
  endpoints: HomeEndpoint[];
}

export { referencePath };

/** The catalogue: every group in documentation order with its endpoints. */
export function endpointGroups(endpoints: readonly EndpointDefinition[] = ALL_ENDPOINTS): HomeGroup[] {
  const groups = new Map<string, HomeEndpoint[]>();
  for (const endpoint of endpoints) {
    const list = groups.get(endpoint.group) ?? [];
    list.push({ path: endpoint.path, summary: endpoint.summary, href: referencePath(endpoint) });
    groups.set(endpoint.group, list);
  }
  return [...groups].map(([name, list]) => ({ name, endpoints: list }));
}
