/**
 * The countries the billing forms offer (the test-mode card form and the billing details), as ISO
 * 3166-1 alpha-2 codes with their English names; one list, so both forms offer the same choice.
 */
export const BILLING_COUNTRIES: readonly (readonly [code: string, name: string])[] = [
  ['US', 'United States'],
  ['CA', 'Canada'],
  ['GB', 'United Kingdom'],
  ['DE', 'Germany'],
  ['FR', 'France'],
  ['NL', 'Netherlands'],
  ['AU', 'Australia'],
  ['JP', 'Japan'],
];
