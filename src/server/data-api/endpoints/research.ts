import type { EndpointDefinition } from '../endpoint.ts';
import { alternativeResearchEndpoints } from './alternative-research.ts';
import { analystResearchEndpoints } from './analyst-research.ts';
import { calendarEndpoints } from './calendars.ts';
import { feedEndpoints } from './feeds.ts';
import { valuationEndpoints } from './valuation.ts';

/** Research data: analysts' notes and ratings, news feeds, transcripts' indexes, calendars, valuation, COT and ESG. */
export const researchEndpoints: EndpointDefinition[] = [
  ...analystResearchEndpoints,
  ...feedEndpoints,
  ...calendarEndpoints,
  ...valuationEndpoints,
  ...alternativeResearchEndpoints,
];
