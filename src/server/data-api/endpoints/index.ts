import type { EndpointDefinition } from '../endpoint.ts';
import { ACCOUNT_ENDPOINTS } from './account.ts';
import { aftermarketEndpoints } from './aftermarket.ts';
import { alternativeEndpoints } from './alternative.ts';
import { analystEndpoints } from './analysts.ts';
import { bulkEndpoints } from './bulk.ts';
import { chartEndpoints } from './charts.ts';
import { companyEndpoints } from './company.ts';
import { companyFactEndpoints } from './company-facts.ts';
import { directoryEndpoints } from './directory.ts';
import { economicsEndpoints } from './economics.ts';
import { filingEndpoints } from './filings.ts';
import { eventEndpoints } from './events.ts';
import { fundamentalEndpoints } from './fundamentals.ts';
import { listEndpoints } from './lists.ts';
import { marketEndpoints } from './market.ts';
import { marketsEndpoints } from './markets.ts';
import { newsEndpoints } from './news.ts';
import { quoteEndpoints } from './quotes.ts';
import { researchEndpoints } from './research.ts';
import { searchEndpoints } from './search.ts';
import { statementEndpoints } from './statements.ts';
import { statementDerivedEndpoints } from './statements-derived.ts';
import { statementReportEndpoints } from './statement-reports.ts';
import { technicalEndpoints } from './technical.ts';

/**
 * The endpoints with each group's endpoints together, groups in the order they first appear: a family
 * of endpoints may add to a group another file started (the documentation lists each group once).
 */
function byGroup(endpoints: readonly EndpointDefinition[]): EndpointDefinition[] {
  const groups = new Map<string, EndpointDefinition[]>();
  for (const endpoint of endpoints) {
    const group = groups.get(endpoint.group);
    if (group === undefined) groups.set(endpoint.group, [endpoint]);
    else group.push(endpoint);
  }
  return [...groups.values()].flat();
}

/** Every /stable/* endpoint in documentation order; the app routes and the OpenAPI document come from this list. */
export const ENDPOINTS: readonly EndpointDefinition[] = byGroup([
  ...searchEndpoints,
  ...listEndpoints,
  ...directoryEndpoints,
  ...quoteEndpoints,
  ...aftermarketEndpoints,
  ...chartEndpoints,
  ...companyEndpoints,
  ...companyFactEndpoints,
  ...statementEndpoints,
  ...statementReportEndpoints,
  ...fundamentalEndpoints,
  ...statementDerivedEndpoints,
  ...analystEndpoints,
  ...eventEndpoints,
  ...newsEndpoints,
  ...marketEndpoints,
  ...marketsEndpoints,
  ...economicsEndpoints,
  ...alternativeEndpoints,
  ...technicalEndpoints,
  ...bulkEndpoints,
  ...filingEndpoints,
  ...researchEndpoints,
]);

/**
 * Every endpoint served under /stable/: the market data endpoints, then those about the caller's own
 * account. The documentation's reference, cycle times and changelog cover all of them.
 */
export const ALL_ENDPOINTS: readonly EndpointDefinition[] = [...ENDPOINTS, ...ACCOUNT_ENDPOINTS];
