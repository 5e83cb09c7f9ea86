/**
 * The discounted-cash-flow model itself: pure arithmetic on explicit assumptions, with no access to
 * storage, so that the data API, the server-rendered symbol pages and the browser (where visitors
 * edit the assumptions) all compute the very same numbers. Default assumptions are derived from the
 * statements on the server (see `defaultDcfAssumptions` in the market-data formulas).
 *
 * Conventions: rates are fractions (0.08 = 8 %); no function returns NaN or ±Infinity, any
 * non-finite result is replaced by 0.
 */

import { formatNumber, formatPrice, MISSING_VALUE, priceDigits } from './format.ts';

/** Years projected explicitly before the terminal value takes over. */
export const DEFAULT_PROJECTION_YEARS = 5;

/** Bounds on the projection length the model accepts; longer horizons add nothing but noise. */
export const PROJECTION_YEARS_BOUNDS = { min: 1, max: 50 } as const;

export type DcfKind = 'unlevered' | 'levered';

/**
 * Every assumption a DCF model needs, explicit so that a visitor can change any of them and see the model
 * recomputed. Rates are fractions (0.08 = 8 %).
 */
export interface DcfAssumptions {
  symbol: string;
  /** Valuation date: the date of `stockPrice`. */
  date: string;
  stockPrice: number;
  /** Fiscal year of the base cash flow; projections are for the years after it. */
  baseYear: number;
  /** Free cash flow of the base year: to the firm (unlevered) or to equity (levered). */
  baseCashFlow: number;
  /** Yearly growth of the cash flow over the projection years. */
  growthRate: number;
  terminalGrowthRate: number;
  projectionYears: number;
  riskFreeRate: number;
  beta: number;
  equityRiskPremium: number;
  /** Pre-tax cost of debt. */
  costOfDebt: number;
  taxRate: number;
  totalDebt: number;
  netDebt: number;
  sharesOutstanding: number;
  /** Replaces the derived discount rate (WACC for unlevered, cost of equity for levered) when set. */
  discountRate?: number | undefined;
}

/** One projected year of a DCF model. */
export interface DcfProjectionYear {
  year: number;
  cashFlow: number;
  discountFactor: number;
  presentValue: number;
}

/** A DCF model with every intermediate value, for the pages that show and let visitors edit it. */
export interface DcfModel {
  kind: DcfKind;
  symbol: string;
  date: string;
  stockPrice: number;
  assumptions: DcfAssumptions;
  marketCap: number;
  costOfEquity: number;
  afterTaxCostOfDebt: number;
  equityWeight: number;
  debtWeight: number;
  wacc: number;
  /** The rate actually used: WACC (unlevered) or cost of equity (levered), unless overridden. */
  discountRate: number;
  projections: DcfProjectionYear[];
  sumPresentValue: number;
  /** Cash flow of the first year after the projection: the last projected year grown once at the terminal rate. */
  terminalYearCashFlow: number;
  terminalValue: number;
  presentTerminalValue: number;
  /** False when the discount rate does not exceed the terminal growth rate; the valuation is then 0. */
  terminalValueDefined: boolean;
  /** Value of operations (unlevered) or equity value plus net debt (levered). */
  enterpriseValue: number;
  netDebt: number;
  equityValue: number;
  equityValuePerShare: number;
}

/**
 * Division that never yields NaN or ±Infinity, because FMP serves 0 for a ratio with a zero denominator and
 * JSON cannot carry non-finite numbers at all.
 */
export function safeDivide(numerator: number, denominator: number): number {
  if (!Number.isFinite(numerator) || !Number.isFinite(denominator) || denominator === 0) return 0;
  const quotient = numerator / denominator;
  return Number.isFinite(quotient) ? quotient : 0;
}

/** The value itself when finite, else 0: the single rule that keeps NaN out of every result. */
export function finite(value: number): number {
  return Number.isFinite(value) ? value : 0;
}

/** Replaces any non-finite number in a row with 0, so a malformed input can never leak NaN into a response. */
export function sanitize<T extends object>(row: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] = typeof value === 'number' ? finite(value) : value;
  }
  return out as T;
}

function dcfModel(a: DcfAssumptions, kind: DcfKind): DcfModel {
  const marketCap = finite(a.stockPrice * a.sharesOutstanding);
  const costOfEquity = a.riskFreeRate + a.beta * a.equityRiskPremium;
  const afterTaxCostOfDebt = a.costOfDebt * (1 - a.taxRate);
  const capital = marketCap + a.totalDebt;
  const equityWeight = capital > 0 ? safeDivide(marketCap, capital) : 1;
  const debtWeight = capital > 0 ? safeDivide(a.totalDebt, capital) : 0;
  const wacc = equityWeight * costOfEquity + debtWeight * afterTaxCostOfDebt;
  const discountRate = finite(a.discountRate ?? (kind === 'unlevered' ? wacc : costOfEquity));
  const years = Math.max(
    PROJECTION_YEARS_BOUNDS.min,
    Math.min(PROJECTION_YEARS_BOUNDS.max, Math.trunc(finite(a.projectionYears)) || DEFAULT_PROJECTION_YEARS),
  );

  const projections: DcfProjectionYear[] = [];
  let cashFlow = a.baseCashFlow;
  for (let t = 1; t <= years; t++) {
    cashFlow = finite(cashFlow * (1 + a.growthRate));
    const discountFactor = safeDivide(1, (1 + discountRate) ** t);
    projections.push({
      year: a.baseYear + t,
      cashFlow,
      discountFactor,
      presentValue: cashFlow * discountFactor,
    });
  }
  const sumPresentValue = projections.reduce((sum, p) => sum + p.presentValue, 0);
  const terminalValueDefined = discountRate > a.terminalGrowthRate && discountRate > -1;
  const terminalYearCashFlow = cashFlow * (1 + a.terminalGrowthRate);
  const terminalValue = terminalValueDefined
    ? safeDivide(terminalYearCashFlow, discountRate - a.terminalGrowthRate)
    : 0;
  const presentTerminalValue = terminalValue * (projections[projections.length - 1]?.discountFactor ?? 0);
  const presentTotal = terminalValueDefined ? sumPresentValue + presentTerminalValue : 0;
  const enterpriseValue =
    kind === 'unlevered' ? presentTotal : terminalValueDefined ? presentTotal + a.netDebt : 0;
  const equityValue =
    kind === 'unlevered' ? (terminalValueDefined ? presentTotal - a.netDebt : 0) : presentTotal;

  return sanitize({
    kind,
    symbol: a.symbol,
    date: a.date,
    stockPrice: a.stockPrice,
    assumptions: sanitize(a),
    marketCap,
    costOfEquity,
    afterTaxCostOfDebt,
    equityWeight,
    debtWeight,
    wacc,
    discountRate,
    projections: projections.map((p) => sanitize(p)),
    sumPresentValue,
    terminalYearCashFlow,
    terminalValue,
    presentTerminalValue,
    terminalValueDefined,
    enterpriseValue,
    netDebt: a.netDebt,
    equityValue,
    equityValuePerShare: safeDivide(equityValue, a.sharesOutstanding),
  });
}

/**
 * Unlevered DCF: free cash flow to the firm grown for the projection years and discounted at WACC, plus a
 * Gordon-growth terminal value; equity value is the result less net debt.
 */
export function unleveredDcfModel(assumptions: DcfAssumptions): DcfModel {
  return dcfModel(assumptions, 'unlevered');
}

/**
 * Levered DCF: free cash flow to equity grown and discounted at the cost of equity, so the result is the
 * equity value directly (net debt is already paid out of the cash flows).
 */
export function leveredDcfModel(assumptions: DcfAssumptions): DcfModel {
  return dcfModel(assumptions, 'levered');
}

/** The model of either kind, for code that holds the kind as data (the editable model on the pages). */
export function dcfModelOf(kind: DcfKind, assumptions: DcfAssumptions): DcfModel {
  return dcfModel(assumptions, kind);
}

/**
 * Upside (positive) or downside (negative) of a value per share against the price, in percent;
 * undefined when either side gives no meaningful comparison (no price, or no defined value).
 */
export function upsidePercent(valuePerShare: number, price: number): number | undefined {
  if (!Number.isFinite(valuePerShare) || !Number.isFinite(price) || price <= 0) return undefined;
  return (valuePerShare / price - 1) * 100;
}

/**
 * A rate (a fraction) as a percent with up to two decimals, unsigned ("8.53%"): rates are levels, not
 * changes, so they carry no "+" (changes use `formatPercent`).
 */
export function formatRate(fraction: number | null | undefined): string {
  if (typeof fraction !== 'number' || !Number.isFinite(fraction)) return MISSING_VALUE;
  return `${formatNumber(fraction * 100, { maximumFractionDigits: 2 })}%`;
}

/** A value per share with the decimals its size needs, the way prices are shown. */
export function formatPerShare(value: number | null | undefined): string {
  return formatPrice(value, undefined, priceDigits(value));
}
