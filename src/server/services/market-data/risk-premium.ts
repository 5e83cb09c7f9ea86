import { DEFAULT_EQUITY_RISK_PREMIUM } from './formulas.ts';

/** FMP's market-risk-premium row. */
export interface MarketRiskPremiumRow {
  country: string;
  continent: string;
  countryRiskPremium: number;
  totalEquityRiskPremium: number;
}

/**
 * Country risk premiums in percent, written once: approximations in the manner of Damodaran's yearly
 * country risk table (a default spread for the sovereign rating, scaled by the relative volatility of
 * equities and government bonds), rounded, for the demo data set. A country rated AAA carries none.
 */
export const COUNTRY_RISK_PREMIUMS: readonly (readonly [
  country: string,
  continent: string,
  premium: number,
])[] = [
  ['Argentina', 'South America', 12.81],
  ['Australia', 'Australia & New Zealand', 0],
  ['Brazil', 'South America', 3.64],
  ['Canada', 'North America', 0],
  ['China', 'Asia', 1.03],
  ['Denmark', 'Europe', 0],
  ['France', 'Europe', 0.85],
  ['Germany', 'Europe', 0],
  ['India', 'Asia', 2.6],
  ['Italy', 'Europe', 2.6],
  ['Japan', 'Asia', 1.03],
  ['Mexico', 'North America', 2.6],
  ['Netherlands', 'Europe', 0],
  ['Norway', 'Europe', 0],
  ['Singapore', 'Asia', 0],
  ['South Africa', 'Africa', 4.41],
  ['South Korea', 'Asia', 0.72],
  ['Spain', 'Europe', 1.77],
  ['Sweden', 'Europe', 0],
  ['Switzerland', 'Europe', 0],
  ['Turkey', 'Europe', 6.16],
  ['United Kingdom', 'Europe', 0.85],
  ['United States', 'North America', 0],
];

/**
 * Every country's premiums, by country: the total is the mature-market premium the DCF models use
 * ({@link DEFAULT_EQUITY_RISK_PREMIUM}) plus the country's own, so a DCF of a company in that country
 * can take the total as its market risk premium.
 */
export function marketRiskPremiumRows(): MarketRiskPremiumRow[] {
  const mature = DEFAULT_EQUITY_RISK_PREMIUM * 100;
  return COUNTRY_RISK_PREMIUMS.map(([country, continent, premium]) => ({
    country,
    continent,
    countryRiskPremium: premium,
    totalEquityRiskPremium: Math.round((mature + premium) * 100) / 100,
  }));
}
