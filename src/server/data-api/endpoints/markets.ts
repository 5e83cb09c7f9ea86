import type { EndpointDefinition } from '../endpoint.ts';
import { marketHoursEndpoints } from './market-hours.ts';
import { marketQuoteEndpoints } from './market-quotes.ts';

/**
 * The market-wide endpoints beyond single quotes: quotes of whole groups and price changes, and the
 * exchanges' hours and holidays.
 */
export const marketsEndpoints: EndpointDefinition[] = [...marketQuoteEndpoints, ...marketHoursEndpoints];
