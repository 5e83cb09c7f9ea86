import type { Context } from 'hono';
import type { AccountsEnv } from '../app/context.ts';
import { apiError } from '../app/errors.ts';
import { bearerToken } from '../app/request.ts';
import { ipKey } from '../middleware/rate-limit.ts';
import { acceptedApiKey } from '../services/api-keys.ts';
import { PUBLIC_AUTH_HEADER } from '../../lib/endpoints.ts';
import { sharedDataApi } from './app.ts';
import type { EndpointDefinition } from './endpoint.ts';
import type { DataCredential, DataPipeline } from './pipeline.ts';

/*
 * The site's own data routes (a chart's further ranges, history downloads) answer through the data
 * pipeline with the visitor's credential, so the site gives away nothing the data API sells: the same
 * plan gates, call budgets and metering as a /stable call with that credential.
 */

/** Said when a call carries neither a signed-in session nor the site's visitor token. */
export const SITE_CREDENTIAL_MESSAGE =
  'This data is loaded for signed-in users and for visitors of the site: reload the page and try again.';

export interface SiteCallOptions {
  /** The pipeline answering (default: the process's data API). */
  pipeline?: (() => DataPipeline) | undefined;
}

/** A call answered: its rows, and the headers the site's answer carries (budgets, caching). */
export interface SiteAnswer {
  rows: unknown[];
  headers: Record<string, string>;
}

/**
 * Who a site data call speaks for: a signed-in user with their account's key (so their plan, limits
 * and usage apply), otherwise the site's public token (the free sample, budgeted per address). A
 * user whose key the data API would refuse (an unverified address) browses as a visitor does.
 */
async function siteCredential(c: Context<AccountsEnv>): Promise<DataCredential> {
  const who = c.var.caller;
  let key: string | undefined;
  if (who.kind === 'user') key = (await acceptedApiKey(c.var.db, who.userId)) ?? undefined;
  key ??= who.kind === 'public' ? bearerToken(c) : c.req.header(PUBLIC_AUTH_HEADER);
  return {
    key,
    client: () => ipKey(c),
  };
}

/**
 * Calls `endpoint` with the visitor's credential: the rows of the answer, or the refusal as the
 * accounts API's error answer (402 naming the plan that covers it, 429 with Retry-After, …), with the
 * RateLimit headers of the budgets counted. Answers depend on the caller, so they are private.
 */
export async function callForSite(
  c: Context<AccountsEnv>,
  endpoint: EndpointDefinition,
  parameters: Readonly<Record<string, string | undefined>>,
  options: SiteCallOptions = {},
): Promise<SiteAnswer | Response> {
  const pipeline = options.pipeline?.() ?? sharedDataApi().pipeline;
  const given = Object.entries(parameters).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && entry[1].trim() !== '',
  );
  const outcome = await pipeline.call(endpoint, Object.fromEntries(given), await siteCredential(c));
  const headers: Record<string, string> = { ...outcome.limits };
  if (!outcome.ok) {
    const message = outcome.status === 401 ? SITE_CREDENTIAL_MESSAGE : outcome.message;
    headers['Cache-Control'] = 'no-store';
    return apiError(c, outcome.status, message, {}, headers);
  }
  headers['Cache-Control'] = `private, max-age=${String(endpoint.maxAge)}`;
  headers.Vary = 'Authorization';
  return { rows: JSON.parse(outcome.body) as unknown[], headers };
}
