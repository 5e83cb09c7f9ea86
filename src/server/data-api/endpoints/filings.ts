import type { EndpointDefinition } from '../endpoint.ts';
import { insiderEndpoints } from './insiders.ts';
import { ownershipEndpoints } from './ownership.ts';
import { secFilingEndpoints } from './sec-filings.ts';

/** SEC filings, insider and congress trading, 13F holdings, beneficial ownership and private offerings. */
export const filingEndpoints: readonly EndpointDefinition[] = [
  ...secFilingEndpoints,
  ...insiderEndpoints,
  ...ownershipEndpoints,
];
