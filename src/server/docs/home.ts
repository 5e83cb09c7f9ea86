import { ENDPOINTS } from '../data-api/endpoints/index.ts';
import type { EndpointDefinition } from '../data-api/endpoint.ts';
import { DOCS_BASE } from './navigation.ts';

/*
 * The documentation's landing page as a view model: the endpoint catalogue by group, straight from
 * the endpoint definitions (the same source as the OpenAPI document).
 */

export interface HomeEndpoint {
  path: string;
  summary: string;
}

export interface HomeGroup {
  name: string;
  endpoints: HomeEndpoint[];
}

/** Where an endpoint's reference page lives. */
export function referencePath(endpoint: Pick<EndpointDefinition, 'path'>): string {
  return `${DOCS_BASE}/stable/${endpoint.path}`;
}

/** The catalogue: every group in documentation order with its endpoints. */
export function endpointGroups(endpoints: readonly EndpointDefinition[] = ENDPOINTS): HomeGroup[] {
  const groups = new Map<string, HomeEndpoint[]>();
  for (const endpoint of endpoints) {
    const list = groups.get(endpoint.group) ?? [];
    list.push({ path: endpoint.path, summary: endpoint.summary });
    groups.set(endpoint.group, list);
  }
  return [...groups].map(([name, list]) => ({ name, endpoints: list }));
}
