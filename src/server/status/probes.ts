import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pricePlans, users, type StatusState } from '../db/schema.ts';
import { checkDatabase, rootCause } from '../app/health.ts';
import { checkIdentityProvider, type Check } from '../auth/identity.ts';
import type { EndpointDefinition } from '../data-api/endpoint.ts';
import type { DataCredential, DataPipeline } from '../data-api/pipeline.ts';
import { createApiKey, revealApiKey } from '../services/api-keys.ts';
import { redactSecrets } from '../app/errors.ts';
import { CORE_COMPONENTS, statusGroups, type CoreComponentId } from './components.ts';

/*
 * The status probes: each asks one component whether it works, the way a customer would use it.
 * The site and the accounts API are asked over HTTP at their own address, the data API with a real
 * call made with the status account's key, each endpoint group with its first endpoint's example
 * call through the data pipeline (the one every transport uses) with the same key.
 */

/** What a probe found, before its latency is measured around it. */
export interface ProbeFinding {
  state: StatusState;
  /** Why the component is degraded or down; empty when it works. */
  detail: string;
}

/** One component's probe. */
export interface StatusProbe {
  component: string;
  run(): Promise<ProbeFinding>;
}

/** A probe that has not answered by then counts as down. */
export const PROBE_TIMEOUT_MS = 5_000;
/** A component answering slower than this is degraded. */
export const SLOW_PROBE_MS = 2_000;

const WORKING: ProbeFinding = { state: 'operational', detail: '' };

function down(detail: string): ProbeFinding {
  return { state: 'down', detail: redactSecrets(detail) };
}

function isFinding(value: Response | ProbeFinding): value is ProbeFinding {
  return 'state' in value;
}

function fromCheck(check: Check): ProbeFinding {
  return check.ok ? WORKING : down(check.reason);
}

/** The status account: a verified account on the widest plan, whose key the probes call with. */
export const STATUS_ACCOUNT = {
  firebaseUid: 'status-probe',
  email: 'status-probe@status.invalid',
  username: 'status-probe',
} as const;

/**
 * The status account's API key, creating the account (on the plan opening the most data, so every
 * endpoint group is covered) and its key on first use. Concurrent instances agree on the account
 * through its unique identity; the first key issued is reused.
 */
export async function statusServiceKey(db: Db, options: { secret?: string } = {}): Promise<string> {
  const [widest] = await db
    .select({ code: pricePlans.code })
    .from(pricePlans)
    .where(eq(pricePlans.active, true))
    .orderBy(desc(pricePlans.dataTier), desc(pricePlans.callsPerMinute))
    .limit(1);
  if (widest === undefined) throw new Error('the plan catalogue is empty');
  await db
    .insert(users)
    .values({ ...STATUS_ACCOUNT, planCode: widest.code, emailVerified: true })
    .onConflictDoNothing();
  const [account] = await db
    .select({ id: users.id, planCode: users.planCode })
    .from(users)
    .where(eq(users.firebaseUid, STATUS_ACCOUNT.firebaseUid));
  if (account === undefined) throw new Error('the status account could not be created');
  if (account.planCode !== widest.code) {
    await db.update(users).set({ planCode: widest.code }).where(eq(users.id, account.id));
  }
  const secret = options.secret === undefined ? {} : { secret: options.secret };
  const existing = await revealApiKey(db, account.id, secret);
  if (existing !== null) return existing.key;
  const issued = await createApiKey(db, account.id, secret);
  if (issued === null) throw new Error('the status account’s key could not be issued');
  return issued.key;
}

/**
 * Fetches a URL within the probe time limit; a finding (down) when it cannot. Told apart by shape, not
 * by class: the HTTP server adapter may replace the global Response with its own.
 */
async function answers(url: string, headers: Record<string, string> = {}): Promise<Response | ProbeFinding> {
  try {
    return await fetch(url, { headers, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  } catch (error) {
    return down(error instanceof Error && error.name === 'TimeoutError' ? 'no answer' : rootCause(error));
  }
}

/** The site: its home page answers. */
async function probeSite(siteUrl: string): Promise<ProbeFinding> {
  const res = await answers(`${siteUrl}/`);
  if (isFinding(res)) return res;
  await res.body?.cancel();
  return res.ok ? WORKING : down(`HTTP ${String(res.status)}`);
}

/** The accounts API: its readiness (the database and the identity provider it needs). */
async function probeAccountsApi(siteUrl: string): Promise<ProbeFinding> {
  const res = await answers(`${siteUrl}/api/readyz`);
  if (isFinding(res)) return res;
  const body = (await res.json().catch(() => ({}))) as { status?: string; reason?: string };
  if (res.status === 200 && body.status === 'degraded')
    return { state: 'degraded', detail: body.reason ?? '' };
  return res.ok ? WORKING : down(`HTTP ${String(res.status)}${body.reason ? `: ${body.reason}` : ''}`);
}

export interface StatusProbeOptions {
  /** The site's address (`http://127.0.0.1:4321`). */
  siteUrl: string;
  /** The data API's address (`http://127.0.0.1:4322`). */
  dataApiUrl: string;
  /** The data pipeline the endpoint groups are called through. */
  pipeline: () => DataPipeline;
  /** The database the status account lives in. */
  database: () => Promise<Db>;
  /** Server secret for the status account's key (default APP_SECRET or the development secret). */
  secret?: string;
  /** The database's own probe (default: a trivial query on the process-wide database). */
  checkDatabase?: () => Promise<Check>;
  /** The identity provider's probe (default: the provider the server uses). */
  checkIdentity?: () => Promise<Check>;
}

/**
 * The probes of every component and endpoint group. The status account's key is read once and
 * kept, so the probes still call with it while the database is away; a refusal of the key (it was
 * replaced) makes the next round read it again.
 */
export function statusProbes(options: StatusProbeOptions): StatusProbe[] {
  // One read shared by the probes of a round: concurrent first reads would each issue a key.
  let key: Promise<string> | undefined;
  const serviceKey = (): Promise<string> => {
    key ??= options
      .database()
      .then((db) => statusServiceKey(db, options.secret === undefined ? {} : { secret: options.secret }))
      .catch((error: unknown) => {
        key = undefined;
        throw error;
      });
    return key;
  };
  /**
   * A bulk file is probed by its first batch: admitted like any download (key, weight, plan), its
   * header and first rows read from the database, the rest left unread.
   */
  const probeBulkFile = async (
    endpoint: EndpointDefinition,
    credential: DataCredential,
  ): Promise<ProbeFinding> => {
    const admitted = await options.pipeline().download(endpoint, endpoint.example, credential);
    if (!admitted.ok) {
      if (admitted.status === 401) key = undefined;
      return down(`${endpoint.path}: ${String(admitted.status)} ${admitted.message}`);
    }
    const chunks = admitted.file.bytes();
    try {
      const first = await chunks.next();
      const bytes = first.done === true ? 0 : first.value.length;
      admitted.finish(200, bytes);
      return bytes > 0 ? WORKING : down(`${endpoint.path}: an empty file`);
    } finally {
      await chunks.return(undefined);
    }
  };
  const callGroup = async (group: ReturnType<typeof statusGroups>[number]): Promise<ProbeFinding> => {
    let credential: string;
    try {
      credential = await serviceKey();
    } catch (error) {
      return down(`no key to call with: ${rootCause(error)}`);
    }
    try {
      const endpoint = group.endpoint;
      const probeCredential = { key: credential, client: () => 'status-probe' };
      if (endpoint.bulk !== undefined) return await probeBulkFile(endpoint, probeCredential);
      const outcome = await options.pipeline().call(endpoint, endpoint.example, probeCredential);
      if (outcome.ok) return WORKING;
      if (outcome.status === 401) key = undefined;
      return down(`${group.endpoint.path}: ${String(outcome.status)} ${outcome.message}`);
    } catch (error) {
      return down(`${group.endpoint.path}: ${rootCause(error)}`);
    }
  };
  const quote = statusGroups().find((group) => group.endpoint.path === 'quote');
  const core: Record<CoreComponentId, () => Promise<ProbeFinding>> = {
    site: () => probeSite(options.siteUrl),
    'accounts-api': () => probeAccountsApi(options.siteUrl),
    'data-api': async () => {
      let credential: string;
      try {
        credential = await serviceKey();
      } catch (error) {
        return down(`no key to call with: ${rootCause(error)}`);
      }
      const query = quote === undefined ? 'symbol=AAPL' : quote.endpoint.example;
      const res = await answers(`${options.dataApiUrl}/stable/quote?${query}`, { apikey: credential });
      if (isFinding(res)) return res;
      await res.body?.cancel();
      if (res.status === 401) key = undefined;
      return res.ok ? WORKING : down(`HTTP ${String(res.status)}`);
    },
    database: async () =>
      fromCheck(await (options.checkDatabase ?? (() => checkDatabase(PROBE_TIMEOUT_MS)))()),
    identity: async () =>
      fromCheck(await (options.checkIdentity ?? (() => checkIdentityProvider(PROBE_TIMEOUT_MS)))()),
  };
  return [
    ...CORE_COMPONENTS.map((component) => ({ component: component.id, run: core[component.id] })),
    ...statusGroups().map((group) => ({ component: group.id, run: () => callGroup(group) })),
  ];
}
