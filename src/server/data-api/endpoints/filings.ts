import type { EndpointDefinition } from '../endpoint.ts';
import { insiderEndpoints } from './insiders.ts';
import { ownershipEndpoints } from './ownership.ts';
import { secFilingEndpoints } from './sec-filings.ts';

/**
 * Insider and congress trading, beneficial ownership, SEC filings, 13F holdings and private offerings, in
 * documentation order (each group together).
 */
export const filingEndpoints: readonly EndpointDefinition[] = [
  // Insider and congress searches continue the alternative data group, which the list before them ends with.
  ...insiderEndpoints,
  ...secFilingEndpoints,
  ...ownershipEndpoints,
];
