import { z } from 'zod';
import { isoDay, isoDayStart, isoDaysBetween } from '../../../lib/iso-date.ts';
import { MAX_USAGE_DAYS, recentDays, usageForKey, type UsageRange } from '../../services/api-usage.ts';
import { DATA_TIERS } from '../../services/market-data/plan-access.ts';
import { DataApiError, dateParam, defineEndpoint, type EndpointDefinition } from '../endpoint.ts';

/** The refusal of a usage report to a caller without a key (the public token has no usage of its own). */
export const USAGE_NEEDS_KEY_MESSAGE = 'Usage is kept per API key: call this endpoint with your API key.';

/** The days a usage report covers: the caller's from/to, or the 30 days up to today (UTC). */
export function usageRange(
  params: { from?: string | undefined; to?: string | undefined },
  now: Date,
): UsageRange {
  const to = params.to ?? isoDay(now);
  const from = params.from ?? recentDays(30, new Date(isoDayStart(to))).from;
  if (from > to) throw new DataApiError(400, 'Parameter "from" must be on or before "to".');
  const days = isoDaysBetween(from, to) + 1;
  if (days > MAX_USAGE_DAYS) {
    throw new DataApiError(400, `Parameters "from" and "to" may span at most ${MAX_USAGE_DAYS} days.`);
  }
  return { from, to };
}

/**
 * The calling key's own usage. It is an endpoint like the others, flagged free (reading it uses no
 * budget and is not metered) and caller-aware (the answer is the caller's, so it is never shared).
 */
const usage = defineEndpoint({
  path: 'api-usage',
  dataset: null,
  group: 'Account',
  summary: 'Usage of your API key',
  description:
    'Calls and bytes per endpoint and UTC day for the key making the request, oldest day first. Counts are written every few seconds. Calling it costs nothing against your limits.',
  tier: DATA_TIERS.sample,
  params: z.object({
    from: dateParam.optional().describe('First day (default: 29 days before to)'),
    to: dateParam.optional().describe('Last day (default: today, UTC)'),
  }),
  row: z.object({
    date: z.string().describe('UTC day, YYYY-MM-DD'),
    endpoint: z.string().describe('Endpoint path under /stable/'),
    calls: z.number().describe('Calls answered'),
    bytes: z.number().describe('Bytes of answer bodies sent'),
  }),
  maxAge: 0,
  cadence: {
    frequency: 'real-time',
    when: 'Within seconds: the calls your key makes are counted as they are answered and written every few seconds.',
  },
  example: '',
  free: true,
  callerAware: true,
  handler: ({ db, params, caller, now }) => {
    if (caller?.kind !== 'key') throw new DataApiError(401, USAGE_NEEDS_KEY_MESSAGE);
    return usageForKey(db, caller.keyId, usageRange(params, now));
  },
});

/** Endpoints about the caller's own account, served after the market data endpoints. */
export const ACCOUNT_ENDPOINTS: readonly EndpointDefinition[] = [usage];
