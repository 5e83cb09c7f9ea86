import type { EndpointDefinition } from '../endpoint.ts';
import { marketHoursEndpoints } from './market-hours.ts';
import { marketQuoteEndpoints } from './market-quotes.ts';
import { sectorEndpoints } from './sectors.ts';

/**
 * The market-wide endpoints beyond single quotes: quotes of whole groups and price changes, sector and
 * industry performance and P/E ratios, and the exchanges' hours and holidays.
 */
export const marketsEndpoints: EndpointDefinition[] = [
  ...marketQuoteEndpoints,
  ...sectorEndpoints,
  ...marketHoursEndpoints,
];
