import { hash } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { serverSecret } from '../auth/crypto.ts';
import type { Db } from '../db/client.ts';
import { pricePlans, type PricePlan } from '../db/schema.ts';
import type { User } from '../db/schema.ts';
import { redactSecrets } from '../auth/tokens.ts';
import { blockIfDisabledAtProvider } from '../services/accounts.ts';
import { findActiveKey, type ApiKeyRefusal } from '../services/api-keys.ts';
import { accessTokenKey, isPublicToken, verifyAccessToken, type AccessTokenKey } from '../auth/tokens.ts';
import { readsHistory, type PlanAccess } from '../services/market-data/plan-access.ts';

/** How long a key's verdict (and its owner's plan, block and verification state) is trusted. */
export const KEY_CACHE_TTL_MS = 30_000;
/** How long the plan catalogue is trusted; with the key cache, a plan change applies within 60 s. */
export const PLAN_CACHE_TTL_MS = 30_000;
const MAX_CACHED_KEYS = 50_000;
/**
 * How often an account's identity is asked about at the provider while its key is in use: with the
 * key cache, a key whose identity was disabled there stops within 60 s, as a blocked account's does.
 */
export const PROVIDER_CHECK_INTERVAL_MS = 60_000;

/** Limits of one caller: null means no cap of that kind. */
export interface CallLimits {
  perMinute: number | null;
  perDay: number | null;
}

/**
 * The signed-out visitor's public token (the site's playground and symbol pages): what Free reads of
 * the free sample but one year of history, and a small budget per visitor address, since tokens cost
 * nothing to mint; a 402 for more history points to the free sign-up.
 */
export const PUBLIC_PLAN: PlanAccess = { code: 'public', name: 'Public', dataTier: 0, historyYears: 1 };
export const PUBLIC_LIMITS: CallLimits = { perMinute: 10, perDay: 100 };

/**
 * Who a call speaks for. `legacy` is the account's legacy flag (SPEC §6): only such accounts are
 * served the legacy /api/v3 endpoints; it is cached with the key's verdict, so a change applies
 * within the same 60 s as a plan change.
 */
export type DataCaller =
  | { kind: 'key'; keyId: string; userId: string; legacy: boolean; plan: PlanAccess; limits: CallLimits }
  | { kind: 'public'; legacy: false; plan: PlanAccess; limits: CallLimits };

export interface AccessRefusal {
  status: 401 | 403;
  message: string;
}

export const MISSING_KEY_MESSAGE =
  'Missing API key. Pass your key as the apikey query parameter or in an apikey header; get a free key by signing up.';
export const INVALID_KEY_MESSAGE =
  'Invalid API key. Check that it was copied completely; your dashboard shows your current key.';
export const MISTYPED_KEY_MESSAGE =
  'Invalid API key: it is mistyped (its checksum does not match). Copy it again from your dashboard.';
export const REVOKED_KEY_MESSAGE =
  'This API key has been replaced or revoked. Use the current key shown on your dashboard.';
export const BLOCKED_KEY_MESSAGE = 'The account this API key belongs to is blocked. Please contact support.';
export const UNVERIFIED_KEY_MESSAGE =
  'Please verify your email address to use this API key: open the link we emailed you, or send a new one from your dashboard.';
export const ACCESS_TOKEN_AS_KEY_MESSAGE =
  'This is a sign-in token, not an API key. Use the API key shown on your dashboard.';

const REFUSALS: Record<ApiKeyRefusal, AccessRefusal> = {
  unknown: { status: 401, message: INVALID_KEY_MESSAGE },
  mistyped: { status: 401, message: MISTYPED_KEY_MESSAGE },
  revoked: { status: 401, message: REVOKED_KEY_MESSAGE },
  blocked: { status: 403, message: BLOCKED_KEY_MESSAGE },
  unverified: { status: 403, message: UNVERIFIED_KEY_MESSAGE },
};

interface CachedVerdict {
  expiresAt: number;
  /** The caller made from this verdict, with the catalogue it was priced from. */
  caller?: { plans: object; value: DataCaller };
  verdict:
    | {
        ok: true;
        keyId: string;
        userId: string;
        planCode: string;
        legacy: boolean;
        /** When the key stops working (a replaced key's grace), as a time in ms, or null. */
        endsAt: number | null;
      }
    | { ok: false; refusal: AccessRefusal };
}

export interface KeyCheckerOptions {
  database: () => Promise<Db>;
  now?: () => number;
  /** Server secret (tests pass their own). */
  secret?: string;
  /**
   * Blocks an account whose identity the provider has disabled, answering the account as it now is
   * (default: the accounts service's check against the identity provider).
   */
  checkIdentity?: (db: Db, user: User) => Promise<User>;
}

/** A JWT's shape: three base64url parts; our API keys are a single base64url string. */
function looksLikeJwt(value: string): boolean {
  return value.split('.').length === 3 && value.startsWith('eyJ');
}

/**
 * Decides who a data API request speaks for. Verdicts are cached briefly (keyed by the key's SHA-256,
 * never the key itself) so the hot path costs no database round trip; a blocked, revoked or
 * downgraded key stops working within KEY_CACHE_TTL_MS + PLAN_CACHE_TTL_MS.
 */
/**
 * A plain digest names a key's cache entry (the key itself is never kept); the keyed HMAC the
 * database needs is computed only on a miss.
 */
function verdictKey(key: string): string {
  return hash('sha256', key, 'base64url');
}

export class KeyChecker {
  private readonly verdicts = new Map<string, CachedVerdict>();
  private plans: { loadedAt: number; byCode: Map<string, PricePlan>; ordered: PricePlan[] } | undefined;
  private plansLoading: Promise<void> | undefined;
  private readonly database: () => Promise<Db>;
  private readonly now: () => number;
  private readonly secretOverride: string | undefined;
  private tokenKey: { secret: string; key: AccessTokenKey } | undefined;
  private readonly checkIdentity: (db: Db, user: User) => Promise<User>;
  /** When each account was last asked about at the provider. */
  private readonly identityChecked = new Map<string, number>();
  private readonly identityChecks = new Set<Promise<void>>();

  constructor(options: KeyCheckerOptions) {
    this.database = options.database;
    this.now = options.now ?? Date.now;
    this.secretOverride = options.secret;
    this.checkIdentity = options.checkIdentity ?? blockIfDisabledAtProvider;
  }

  private secret(): string {
    return this.secretOverride ?? serverSecret();
  }

  /** Forgets every verdict about the account's keys, so the next call with one asks the database. */
  forgetAccount(userId: string): void {
    for (const [cacheKey, cached] of this.verdicts) {
      if (cached.verdict.ok && cached.verdict.userId === userId) this.verdicts.delete(cacheKey);
    }
  }

  /**
   * The caller for `key` when its verdict and the plans are cached and fresh, without a promise;
   * undefined when only {@link check} can tell.
   */
  checkCached(key: string | undefined): DataCaller | AccessRefusal | undefined {
    const value = key?.trim() ?? '';
    if (value === '' || looksLikeJwt(value)) return undefined;
    const now = this.now();
    const cached = this.freshVerdict(verdictKey(value), now);
    if (cached === undefined) return undefined;
    if (!cached.verdict.ok) return cached.verdict.refusal;
    const plans = this.freshPlans(now);
    return plans !== undefined && cached.caller?.plans === plans ? cached.caller.value : undefined;
  }

  async check(key: string | undefined): Promise<DataCaller | AccessRefusal> {
    const value = key?.trim() ?? '';
    if (value === '') return { status: 401, message: MISSING_KEY_MESSAGE };
    if (looksLikeJwt(value)) return this.checkToken(value);
    const cacheKey = verdictKey(value);
    const now = this.now();
    let cached = this.freshVerdict(cacheKey, now);
    if (cached === undefined) {
      const verdict = await this.lookUp(value, cacheKey, this.secret());
      // A key in its grace period is kept no longer than it works.
      const ends = verdict.ok && verdict.endsAt !== null ? verdict.endsAt : Infinity;
      cached = { expiresAt: Math.min(now + KEY_CACHE_TTL_MS, ends), verdict };
      if (this.verdicts.size >= MAX_CACHED_KEYS) this.evictExpired(now);
      this.verdicts.set(cacheKey, cached);
    }
    const { verdict } = cached;
    if (!verdict.ok) return verdict.refusal;
    const plans = this.freshPlans(now) ?? (await this.catalogue());
    // The caller is built once per verdict and plan catalogue, not on every request.
    if (cached.caller?.plans !== plans) {
      const plan = plans.byCode.get(verdict.planCode) ?? (await this.plan(verdict.planCode));
      cached.caller = {
        plans,
        value: {
          kind: 'key',
          keyId: verdict.keyId,
          userId: verdict.userId,
          legacy: verdict.legacy,
          plan: {
            code: plan.code,
            name: plan.name,
            dataTier: plan.dataTier,
            historyYears: plan.historyYears,
          },
          limits: { perMinute: plan.callsPerMinute, perDay: plan.callsPerDay },
        },
      };
    }
    return cached.caller.value;
  }

  private freshVerdict(cacheKey: string, now: number): CachedVerdict | undefined {
    const cached = this.verdicts.get(cacheKey);
    return cached !== undefined && cached.expiresAt > now ? cached : undefined;
  }

  private freshPlans(now: number): KeyChecker['plans'] {
    const plans = this.plans;
    return plans !== undefined && now - plans.loadedAt < PLAN_CACHE_TTL_MS ? plans : undefined;
  }

  private async lookUp(key: string, cacheKey: string, secret: string): Promise<CachedVerdict['verdict']> {
    const db = await this.database();
    const result = await findActiveKey(db, key, { secret, now: new Date(this.now()) });
    if (!result.ok) return { ok: false, refusal: REFUSALS[result.reason] };
    this.askProvider(db, result.user, cacheKey);
    return {
      ok: true,
      keyId: result.keyId,
      userId: result.user.id,
      planCode: result.user.planCode,
      legacy: result.user.legacy,
      endsAt: result.expiresAt?.getTime() ?? null,
    };
  }

  /**
   * Asks the identity provider, at most once a minute per account and beside the answer (a slow or
   * unreachable provider never delays a call), whether the key's account was disabled there; if so
   * the account is blocked and the key's verdict forgotten, so its next call is refused.
   */
  private askProvider(db: Db, user: User, cacheKey: string): void {
    const now = this.now();
    const last = this.identityChecked.get(user.id);
    if (last !== undefined && now - last < PROVIDER_CHECK_INTERVAL_MS) return;
    if (this.identityChecked.size >= MAX_CACHED_KEYS) this.identityChecked.clear();
    this.identityChecked.set(user.id, now);
    const check: Promise<void> = this.checkIdentity(db, user)
      .then((current) => {
        if (current.blocked) this.verdicts.delete(cacheKey);
      })
      .catch((error: unknown) => {
        console.warn(
          redactSecrets(
            `[data-api] identity check of an account failed: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      })
      .finally(() => {
        this.identityChecks.delete(check);
      });
    this.identityChecks.add(check);
  }

  /** Resolves once the identity checks under way have finished (before the database closes). */
  async settled(): Promise<void> {
    await Promise.all([...this.identityChecks]);
  }

  private async checkToken(token: string): Promise<DataCaller | AccessRefusal> {
    const secret = this.secret();
    if (this.tokenKey?.secret !== secret) this.tokenKey = { secret, key: accessTokenKey(secret) };
    const claims = await verifyAccessToken(this.tokenKey.key, token, { now: new Date(this.now()) });
    if (claims === null) return { status: 401, message: INVALID_KEY_MESSAGE };
    if (!isPublicToken(claims)) return { status: 401, message: ACCESS_TOKEN_AS_KEY_MESSAGE };
    return { kind: 'public', legacy: false, plan: PUBLIC_PLAN, limits: PUBLIC_LIMITS };
  }

  private evictExpired(now: number): void {
    for (const [key, entry] of this.verdicts) if (entry.expiresAt <= now) this.verdicts.delete(key);
    // Still full: drop the oldest half (Map keeps insertion order).
    if (this.verdicts.size >= MAX_CACHED_KEYS) {
      let drop = Math.floor(this.verdicts.size / 2);
      for (const key of this.verdicts.keys()) {
        if (drop-- <= 0) break;
        this.verdicts.delete(key);
      }
    }
  }

  private async catalogue(): Promise<NonNullable<KeyChecker['plans']>> {
    const fresh = this.freshPlans(this.now());
    if (fresh !== undefined) return fresh;
    // A stale catalogue still answers if the reload fails.
    const current = this.plans;
    this.plansLoading ??= (async () => {
      const db = await this.database();
      const ordered = await db
        .select()
        .from(pricePlans)
        .orderBy(asc(pricePlans.priceCents), asc(pricePlans.sortOrder));
      this.plans = { loadedAt: this.now(), byCode: new Map(ordered.map((p) => [p.code, p])), ordered };
    })().finally(() => {
      this.plansLoading = undefined;
    });
    if (current !== undefined) {
      await this.plansLoading.catch(() => undefined);
      return this.plans ?? current;
    }
    await this.plansLoading;
    if (this.plans === undefined) throw new Error('price plans did not load');
    return this.plans;
  }

  private async plan(code: string): Promise<PricePlan> {
    const catalogue = await this.catalogue();
    const plan = catalogue.byCode.get(code);
    if (plan !== undefined) return plan;
    // users.plan_code references price_plans, so this only happens between a new plan and a reload.
    const db = await this.database();
    const [row] = await db.select().from(pricePlans).where(eq(pricePlans.code, code)).limit(1);
    if (row === undefined) throw new Error(`unknown plan ${code}`);
    return row;
  }

  /**
   * The cheapest active plan whose data tier reaches `tier` and, when `historyYears` is given, whose
   * daily history reaches that many years: the upgrade a 402 points to, so it names a plan that
   * really opens the call (five years of history are opened by Free, not only by a paid tier).
   */
  async cheapestPlanFor(tier: number, historyYears?: number): Promise<PricePlan | undefined> {
    const catalogue = await this.catalogue();
    return catalogue.ordered.find(
      (plan) => plan.active && plan.dataTier >= tier && readsHistory(plan.historyYears, historyYears),
    );
  }

  /** Forgets cached verdicts and plans (tests, and after an administrator blocks someone in this process). */
  clear(): void {
    this.verdicts.clear();
    this.identityChecked.clear();
    this.plans = undefined;
  }
}
