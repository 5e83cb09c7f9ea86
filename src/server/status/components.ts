import type { EndpointDefinition } from '../data-api/endpoint.ts';
import { ALL_ENDPOINTS } from '../data-api/endpoints/index.ts';

/*
 * What the status page reports on: the parts of the service a customer depends on, then each
 * endpoint group of the data API (as the API reference groups them), probed with a real call to the
 * group's first endpoint.
 */

/** The service's own parts, in the order the page lists them. */
export const CORE_COMPONENTS = [
  { id: 'site', name: 'Website' },
  { id: 'accounts-api', name: 'Accounts API' },
  { id: 'data-api', name: 'Data API' },
  { id: 'database', name: 'Database' },
  { id: 'identity', name: 'Identity provider' },
] as const;

export type CoreComponentId = (typeof CORE_COMPONENTS)[number]['id'];

/** An endpoint group with the endpoint its probe calls. */
export interface StatusGroup {
  /** `group:<slug>`, e.g. `group:quotes`. */
  id: string;
  name: string;
  /** The group's first endpoint, called with its documented example. */
  endpoint: EndpointDefinition;
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Every endpoint group in documentation order, each probed through its first endpoint. */
export function statusGroups(endpoints: readonly EndpointDefinition[] = ALL_ENDPOINTS): StatusGroup[] {
  const groups = new Map<string, StatusGroup>();
  for (const endpoint of endpoints) {
    if (endpoint.legacy === true || groups.has(endpoint.group)) continue;
    groups.set(endpoint.group, { id: `group:${slug(endpoint.group)}`, name: endpoint.group, endpoint });
  }
  return [...groups.values()];
}
