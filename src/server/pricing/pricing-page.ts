import { PRICE_PLANS_ERROR_MESSAGE } from '../../lib/messages.ts';
import { DEFAULT_PRICING, type PlanType } from '../../lib/price-plans.ts';
import { ALL_ENDPOINTS } from '../data-api/endpoints/index.ts';
import type { EndpointDefinition } from '../data-api/endpoint.ts';
import type { Db } from '../db/client.ts';
import type { pricePlans } from '../db/schema.ts';
import { raisedTiers } from '../docs/reference.ts';
import { referencePath } from '../docs/paths.ts';
import { SYMBOL_COVERAGE } from '../services/market-data/directory.ts';
import { couponPrice, pricedCatalogue } from '../services/price-plans.ts';
import { describeForLog } from '../app/errors.ts';

/*
 * The pricing pages as a view model: the plan catalogue from the database (prices, limits, history,
 * data tier; a coupon applied as the accounts API applies it), and what each data tier opens
 * generated from the endpoint definitions, so the cards and the comparison table say exactly what
 * the data API enforces. Monthly and annual plans of the same tier are one product with two prices.
 */

/** One way to pay for a product. */
export interface PricingOption {
  /** The plan code checkout is started with (monthlyT2, annualT2, …). */
  code: string;
  interval: 'month' | 'year';
  priceCents: number;
  /** After the accepted coupon, or null when none applies. */
  discountedPriceCents: number | null;
  /** For an annual option: what a year of the monthly option would cost more, in cents. */
  savingCents: number | null;
}

/** A plan as the visitor compares it: one data tier of one plan type, monthly and/or annual. */
export interface PricingProduct {
  name: string;
  planType: PlanType;
  dataTier: number;
  monthly: PricingOption | null;
  annual: PricingOption | null;
  currency: string;
  callsPerMinute: number | null;
  callsPerDay: number | null;
  historyYears: number | null;
  /** What this tier adds to the tier below, from the endpoint definitions. */
  opens: TierContent;
  /** The plan the pricing page selects first (SPEC §9: monthlyT2). */
  highlighted: boolean;
  /** The catalogue's terms of use of a commercial product (rights, end users, support). */
  terms: string[];
  /** How the product is bought: free sign-up, self-serve checkout, or a talk with sales. */
  action: 'sign-up' | 'checkout' | 'contact-sales';
}

/** An endpoint group as a tier opens it. */
export interface TierGroup {
  name: string;
  endpoints: { path: string; href: string }[];
}

/** What one data tier opens beyond the tier below. */
export interface TierContent {
  /** Which symbols, in words, when the tier adds symbols. */
  symbols: string | null;
  groups: TierGroup[];
  /** Parameter values that need this tier ('quarterly statements', '1-minute bars'…). */
  raised: string[];
  endpointCount: number;
}

/** A row of the comparison table: an endpoint group and, per product, how much of it is open. */
export interface ComparisonRow {
  group: string;
  /** Per product (in the page's order): endpoints open out of the group's. */
  cells: { open: number; total: number }[];
}

export interface PricingPageView {
  planType: PlanType;
  products: PricingProduct[];
  comparison: ComparisonRow[];
  /** The coupon the catalogue accepted ('' when none). */
  couponCode: string;
  /** Why a coupon was refused ('' when it was not). */
  couponCodeError: string;
  /** SPEC §8's message when the catalogue could not be read; the page then lists no plans. */
  errorMessage: string;
}

const raisedByDefinitions = new WeakMap<readonly EndpointDefinition[], { tier: number; subject: string }[]>();

/**
 * The parameter values that raise a tier, over a set of definitions: found once per set, since
 * finding them parses every enumerated value and the definitions do not change while the server runs.
 */
function raisedValues(endpoints: readonly EndpointDefinition[]): { tier: number; subject: string }[] {
  let raised = raisedByDefinitions.get(endpoints);
  if (raised === undefined) {
    raised = endpoints.flatMap((endpoint) => raisedTiers(endpoint));
    raisedByDefinitions.set(endpoints, raised);
  }
  return raised;
}

/** What `tier` opens beyond `below`, from the endpoint definitions. */
export function tierContent(
  tier: number,
  below: number,
  endpoints: readonly EndpointDefinition[] = ALL_ENDPOINTS,
): TierContent {
  const opened = endpoints.filter((endpoint) => endpoint.tier > below && endpoint.tier <= tier);
  const groups = new Map<string, TierGroup>();
  for (const endpoint of opened) {
    const group = groups.get(endpoint.group) ?? { name: endpoint.group, endpoints: [] };
    group.endpoints.push({ path: endpoint.path, href: referencePath(endpoint) });
    groups.set(endpoint.group, group);
  }
  const raised = new Set<string>();
  for (const found of raisedValues(endpoints)) {
    if (found.tier > below && found.tier <= tier) raised.add(found.subject);
  }
  const symbolTiers = Object.keys(SYMBOL_COVERAGE)
    .map(Number)
    .filter((symbolTier) => symbolTier > below && symbolTier <= tier);
  const symbols = symbolTiers.map((symbolTier) => SYMBOL_COVERAGE[symbolTier]).join('; ');
  return {
    symbols: symbols === '' ? null : symbols,
    groups: [...groups.values()],
    raised: [...raised],
    endpointCount: opened.length,
  };
}

/** The comparison table: every endpoint group, and how many of its endpoints each product opens. */
export function comparisonRows(
  products: readonly Pick<PricingProduct, 'dataTier'>[],
  endpoints: readonly EndpointDefinition[] = ALL_ENDPOINTS,
): ComparisonRow[] {
  const groups = [...new Set(endpoints.map((endpoint) => endpoint.group))];
  return groups.map((group) => {
    const inGroup = endpoints.filter((endpoint) => endpoint.group === group);
    return {
      group,
      cells: products.map((product) => ({
        open: inGroup.filter((endpoint) => endpoint.tier <= product.dataTier).length,
        total: inGroup.length,
      })),
    };
  });
}

type PlanRow = typeof pricePlans.$inferSelect;

/** A card's content until the loop below fills it in from the tier before it. */
const EMPTY_CONTENT: TierContent = { symbols: null, groups: [], raised: [], endpointCount: 0 };

function option(plan: PlanRow, discounted: ReadonlyMap<string, number | null>): PricingOption {
  return {
    code: plan.code,
    interval: plan.billingInterval,
    priceCents: plan.priceCents,
    discountedPriceCents: discounted.get(plan.code) ?? null,
    savingCents: null,
  };
}

/** A product's name without the billing period the catalogue adds to annual plans' names. */
function productName(plans: readonly PlanRow[]): string {
  const monthly = plans.find((plan) => plan.billingInterval === 'month');
  return (monthly ?? plans[0])?.name.replace(/\s*\((annual|monthly)\)$/i, '') ?? '';
}

/**
 * The products of one plan type, cheapest first: the catalogue's plans grouped by data tier, each
 * group one product with its monthly and annual options and what its tier opens beyond the
 * previous product's.
 */
export function pricingProducts(
  rows: readonly PlanRow[],
  planType: PlanType,
  discounted: ReadonlyMap<string, number | null> = new Map<string, number | null>(),
  endpoints: readonly EndpointDefinition[] = ALL_ENDPOINTS,
): PricingProduct[] {
  const ofType = rows.filter((plan) => plan.planType === planType && plan.active);
  const tiers = new Map<string, PlanRow[]>();
  for (const plan of ofType) {
    // Plans of one tier with the same limits are one product billed two ways.
    const key = `${String(plan.dataTier)}:${String(plan.callsPerMinute)}:${String(plan.callsPerDay)}`;
    tiers.set(key, [...(tiers.get(key) ?? []), plan]);
  }
  const products = [...tiers.values()].map((plans) => {
    const monthlyRow = plans.find((plan) => plan.billingInterval === 'month');
    const annualRow = plans.find((plan) => plan.billingInterval === 'year');
    const first = monthlyRow ?? annualRow ?? plans[0];
    if (first === undefined) throw new Error('a product without plans');
    const monthly = monthlyRow ? option(monthlyRow, discounted) : null;
    const annual = annualRow ? option(annualRow, discounted) : null;
    if (monthly && annual) annual.savingCents = Math.max(0, monthly.priceCents * 12 - annual.priceCents);
    return {
      name: productName(plans),
      planType,
      dataTier: first.dataTier,
      monthly,
      annual,
      currency: first.currency,
      callsPerMinute: first.callsPerMinute,
      callsPerDay: first.callsPerDay,
      historyYears: first.historyYears,
      opens: EMPTY_CONTENT,
      highlighted: plans.some((plan) => plan.code === DEFAULT_PRICING),
      terms:
        planType === 'commercial' ? first.features.filter((line) => !line.startsWith('Everything in ')) : [],
      action:
        first.priceCents === 0
          ? 'sign-up'
          : monthlyRow === undefined && planType === 'commercial'
            ? 'contact-sales'
            : 'checkout',
    } satisfies PricingProduct;
  });
  const yearly = (product: PricingProduct): number =>
    product.annual?.priceCents ?? (product.monthly?.priceCents ?? 0) * 12;
  products.sort((a, b) => a.dataTier - b.dataTier || yearly(a) - yearly(b));
  // Each card lists what it adds to the one before it; the first card of a type lists everything
  // up to its tier (a commercial buyer sees what the personal tiers below open too).
  let below = -1;
  for (const product of products) {
    product.opens = tierContent(product.dataTier, below, endpoints);
    below = Math.max(below, product.dataTier);
  }
  return products;
}

/** The pricing page for `planType`, priced with the coupon when one is given. */
export async function loadPricingPage(
  database: () => Promise<Db>,
  planType: PlanType,
  couponCode: string,
  now: Date = new Date(),
): Promise<PricingPageView> {
  try {
    const { rows, coupon, couponCodeError } = await pricedCatalogue(await database(), couponCode, now);
    const discounted = new Map(rows.map((plan) => [plan.code, coupon ? couponPrice(coupon, plan) : null]));
    const products = pricingProducts(rows, planType, discounted);
    return {
      planType,
      products,
      comparison: comparisonRows(products),
      couponCode: coupon ? coupon.code : '',
      couponCodeError,
      errorMessage: '',
    };
  } catch (error) {
    // The page says what SPEC §8 says for a catalogue that cannot be read; the log says why.
    console.warn(`[site] the pricing page could not read the plans: ${describeForLog(error)}`);
    return {
      planType,
      products: [],
      comparison: [],
      couponCode: '',
      couponCodeError: '',
      errorMessage: PRICE_PLANS_ERROR_MESSAGE,
    };
  }
}
