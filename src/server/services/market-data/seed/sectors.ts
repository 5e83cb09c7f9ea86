import sectors from './data/sectors.json' with { type: 'json' };
/**
 * The eleven sectors as FMP names them, with the industries under each and the ranges the generator draws a
 * company's character from: price behaviour (drift, volatility, beta), dividends, valuation and margins.
 */

export interface IndustryProfile {
  name: string;
  /** Words that make a plausible company name in this industry. */
  nouns: readonly string[];
}

export interface SectorProfile {
  name: string;
  /** Relative share of listed companies. */
  weight: number;
  /** Long-run yearly log-price drift. */
  drift: number;
  /** Yearly idiosyncratic volatility of a large company (small companies get more). */
  vol: number;
  beta: readonly [number, number];
  dividendProbability: number;
  dividendYield: readonly [number, number];
  priceToSales: readonly [number, number];
  grossMargin: readonly [number, number];
  netMargin: readonly [number, number];
  researchRatio: readonly [number, number];
  inventoryDays: readonly [number, number];
  capexRatio: readonly [number, number];
  revenuePerEmployee: number;
  industries: readonly IndustryProfile[];
}

export const SECTORS = sectors as unknown as readonly SectorProfile[];

export function sectorProfile(name: string): SectorProfile {
  const profile = SECTORS.find((s) => s.name === name);
  if (!profile) throw new Error(`unknown sector ${name}`);
  return profile;
}
