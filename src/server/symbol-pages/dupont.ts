/**
 * DuPont analysis: return on equity split into the factors that produce it, so a reader can see whether
 * a company's ROE comes from margins, from using its assets efficiently or from leverage. Pure
 * arithmetic on one period's statements; the symbol pages feed it the annual statements.
 */
import type { BalanceSheet, IncomeStatement } from '../services/market-data/formulas.ts';

/** The statement lines a DuPont breakdown needs, so callers can pass full statements or just these. */
export interface DupontInput {
  /** Period end (YYYY-MM-DD). */
  date: string;
  fiscalYear: string;
  period: string;
  income: Pick<IncomeStatement, 'revenue' | 'netIncome' | 'incomeBeforeTax' | 'ebit'>;
  balance: Pick<BalanceSheet, 'totalAssets' | 'totalStockholdersEquity'>;
}

/** Three-step DuPont: ROE = net margin × asset turnover × equity multiplier. */
export interface ThreeStepDupont {
  netProfitMargin: number | null;
  assetTurnover: number | null;
  equityMultiplier: number | null;
  /** The product of the three factors; null when any factor cannot be computed. */
  product: number | null;
}

/**
 * Five-step DuPont: ROE = tax burden × interest burden × EBIT margin × asset turnover × equity multiplier
 * (the net margin split into what taxes, interest and operations each leave).
 */
export interface FiveStepDupont {
  taxBurden: number | null;
  interestBurden: number | null;
  ebitMargin: number | null;
  assetTurnover: number | null;
  equityMultiplier: number | null;
  product: number | null;
}

/** One period's breakdowns next to the ROE computed directly, and whether both products reproduce it. */
export interface DupontRow {
  date: string;
  fiscalYear: string;
  period: string;
  /** Net income / year-end stockholders' equity, computed directly. */
  returnOnEquity: number | null;
  threeStep: ThreeStepDupont;
  fiveStep: FiveStepDupont;
  /** True when both products equal the direct ROE (within rounding); null when ROE or a product is missing. */
  matches: boolean | null;
}

/** Largest difference between a product and the direct ROE still read as equal (floating-point noise). */
export const DUPONT_TOLERANCE = 1e-9;

/** A quotient, or null when it is undefined (zero or non-finite denominator), so it shows as missing. */
export function ratioOrNull(numerator: number, denominator: number): number | null {
  if (!Number.isFinite(numerator) || !Number.isFinite(denominator) || denominator === 0) return null;
  const quotient = numerator / denominator;
  return Number.isFinite(quotient) ? quotient : null;
}

function productOf(factors: readonly (number | null)[]): number | null {
  let product = 1;
  for (const factor of factors) {
    if (factor === null) return null;
    product *= factor;
  }
  return product;
}

function sameValue(a: number | null, b: number | null): boolean | null {
  if (a === null || b === null) return null;
  return Math.abs(a - b) <= DUPONT_TOLERANCE * Math.max(1, Math.abs(b));
}

/**
 * The DuPont breakdowns of one period, on year-end total assets and year-end stockholders' equity (the
 * balance of the same period end, as the key metrics' ROE uses), so the products match that ROE.
 */
export function dupontRow(input: DupontInput): DupontRow {
  const { income, balance } = input;
  const returnOnEquity = ratioOrNull(income.netIncome, balance.totalStockholdersEquity);
  const assetTurnover = ratioOrNull(income.revenue, balance.totalAssets);
  const equityMultiplier = ratioOrNull(balance.totalAssets, balance.totalStockholdersEquity);

  const netProfitMargin = ratioOrNull(income.netIncome, income.revenue);
  const threeStep: ThreeStepDupont = {
    netProfitMargin,
    assetTurnover,
    equityMultiplier,
    product: productOf([netProfitMargin, assetTurnover, equityMultiplier]),
  };

  const taxBurden = ratioOrNull(income.netIncome, income.incomeBeforeTax);
  const interestBurden = ratioOrNull(income.incomeBeforeTax, income.ebit);
  const ebitMargin = ratioOrNull(income.ebit, income.revenue);
  const fiveStep: FiveStepDupont = {
    taxBurden,
    interestBurden,
    ebitMargin,
    assetTurnover,
    equityMultiplier,
    product: productOf([taxBurden, interestBurden, ebitMargin, assetTurnover, equityMultiplier]),
  };

  const three = sameValue(threeStep.product, returnOnEquity);
  const five = sameValue(fiveStep.product, returnOnEquity);
  const matches = three === null || five === null ? null : three && five;

  return {
    date: input.date,
    fiscalYear: input.fiscalYear,
    period: input.period,
    returnOnEquity,
    threeStep,
    fiveStep,
    matches,
  };
}

/** The breakdowns of several periods, in the order given (the pages pass newest first). */
export function dupontRows(inputs: readonly DupontInput[]): DupontRow[] {
  return inputs.map(dupontRow);
}
