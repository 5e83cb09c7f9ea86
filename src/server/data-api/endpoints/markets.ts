import type { EndpointDefinition } from '../endpoint.ts';
import { fundEndpoints } from './funds.ts';
import { indexEndpoints } from './indexes.ts';
import { marketHoursEndpoints } from './market-hours.ts';
import { marketQuoteEndpoints } from './market-quotes.ts';
import { sectorEndpoints } from './sectors.ts';

/**
 * The market-wide endpoints beyond single quotes: quotes of whole groups and price changes, sector and
 * industry performance and P/E ratios, the exchanges' hours and holidays, and
 * the members of the main indexes and what ETFs hold.
 */
export const marketsEndpoints: EndpointDefinition[] = [
  ...marketQuoteEndpoints,
  ...sectorEndpoints,
  ...marketHoursEndpoints,
  ...indexEndpoints,
  ...fundEndpoints,
];
