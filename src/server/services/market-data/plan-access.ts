/**
 * What a plan opens and the refusals the market data services raise when a request asks for more, or
 * for something that cannot be served. They live with the services, which decide them; whoever serves
 * the data (the data API, the site's pages) turns them into its own answers.
 */

/**
 * Data tiers of the plans (price_plans.data_tier): what a plan opens, from the free sample up. An
 * endpoint or a symbol names the lowest tier that may read it; a request needs the highest of them.
 */
export const DATA_TIERS = {
  /**
   * Free: lists, search, quotes, end-of-day prices, company basics, and the annual statements with
   * what is computed from them, for the sample symbols: what a client's first calls ask for.
   */
  sample: 0,
  /** Starter: every US stock and ETF, and the fundamentals beyond the statements (executives, earnings). */
  fundamentals: 1,
  /** Professional: quarterly fundamentals, intraday bars, estimates, corporate and ownership data. */
  professional: 2,
  /** Power: global exchanges, crypto, forex, commodities, economics and alternative data. */
  global: 3,
  /** Commercial plans. */
  commercial: 4,
} as const;
export type DataTier = (typeof DATA_TIERS)[keyof typeof DATA_TIERS];

/** Intraday bars, wherever they are served (the data API's intraday charts, the site's 1D and 5D charts). */
export const INTRADAY_TIER: DataTier = DATA_TIERS.professional;

/** What the caller's plan allows, resolved once per request from the key (or the public token). */
export interface PlanAccess {
  /** Plan code, or 'public' for the signed-out visitor's token. */
  code: string;
  name: string;
  dataTier: number;
  /** Years of daily history the plan reads; null for all of it. */
  historyYears: number | null;
}

/**
 * Makes `instanceof` recognise a refusal class across copies of this module. The production process
 * holds the server's modules twice (the site's bundle and the servers' own sources), so a refusal a
 * site endpoint throws in one copy reaches the pipeline of the other; a brand under a global symbol
 * is the same in both.
 */
export function brandedClass(name: string): {
  brand: symbol;
  hasInstance: (value: unknown) => boolean;
} {
  const brand = Symbol.for(`market-data.${name}`);
  return {
    brand,
    hasInstance: (value) => typeof value === 'object' && value !== null && brand in value,
  };
}

const PLAN_REQUIRED = brandedClass('PlanRequiredError');
const INVALID_PARAMETERS = brandedClass('InvalidParametersError');

/**
 * Thrown when the plan is below `tier`, or reads fewer than `historyYears` years of daily history; the
 * data API turns it into a 402 naming the cheapest plan that covers both.
 */
export class PlanRequiredError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return PLAN_REQUIRED.hasInstance(value);
  }
  readonly [PLAN_REQUIRED.brand] = true;
  readonly tier: number;
  /** What is not covered, for the message: 'quarterly statements', 'the symbol BTCUSD', … */
  readonly subject: string;
  /**
   * Years of daily history the plan must read (a plan of the same tier may read more: Free reads more
   * than the signed-out visitor's token); undefined when the tier alone decides.
   */
  readonly historyYears: number | undefined;
  constructor(tier: number, subject: string, historyYears?: number) {
    super(`${subject} needs data tier ${tier}`);
    this.name = 'PlanRequiredError';
    this.tier = tier;
    this.subject = subject;
    this.historyYears = historyYears;
  }
}

/** Whether a plan reading `planYears` of daily history (null: all of it) reads `years` of it. */
export function readsHistory(planYears: number | null, years: number | undefined): boolean {
  return years === undefined || planYears === null || planYears >= years;
}

/**
 * Thrown when parameters that are each valid cannot be served together (a range that ends before it
 * starts); the message names them and the data API answers it as a 400.
 */
export class InvalidParametersError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return INVALID_PARAMETERS.hasInstance(value);
  }
  readonly [INVALID_PARAMETERS.brand] = true;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidParametersError';
  }
}
