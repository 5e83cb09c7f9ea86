import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../../src/server/data-api/endpoints/index.ts';
import type { pricePlans } from '../../src/server/db/schema.ts';
import { comparisonRows, pricingProducts, tierContent } from '../../src/server/pricing/pricing-page.ts';
import { SYMBOL_COVERAGE, symbolTier } from '../../src/server/services/market-data/directory.ts';

type PlanRow = typeof pricePlans.$inferSelect;

function plan(row: Partial<PlanRow> & Pick<PlanRow, 'code' | 'name' | 'dataTier' | 'priceCents'>): PlanRow {
  return {
    planType: 'personal',
    billingInterval: 'month',
    currency: 'usd',
    callsPerMinute: 60,
    callsPerDay: 1000,
    features: [],
    sortOrder: 0,
    active: true,
    historyYears: null,
    ...row,
  };
}

const catalogue: PlanRow[] = [
  plan({ code: 'free', name: 'Free', dataTier: 0, priceCents: 0, historyYears: 1 }),
  plan({ code: 'monthlyT2', name: 'Professional', dataTier: 2, priceCents: 3900 }),
  plan({
    code: 'annualT2',
    name: 'Professional (annual)',
    dataTier: 2,
    priceCents: 39000,
    billingInterval: 'year',
  }),
  plan({
    code: 'commercialEnterprise',
    name: 'Commercial Enterprise',
    planType: 'commercial',
    dataTier: 4,
    priceCents: 999000,
    billingInterval: 'year',
    features: ['Everything in Commercial Build', 'Redistribution and unlimited end users'],
  }),
];

describe('the pricing page’s plans', () => {
  it('are one card per tier, billed monthly or yearly, with the yearly saving against twelve months', () => {
    const products = pricingProducts(catalogue, 'personal');
    expect(products.map((product) => product.name)).toEqual(['Free', 'Professional']);
    const professional = products[1];
    expect(professional?.monthly?.code).toBe('monthlyT2');
    expect(professional?.annual?.code).toBe('annualT2');
    expect(professional?.annual?.savingCents).toBe(3900 * 12 - 39000);
    expect(professional?.highlighted).toBe(true);
    expect(products[0]?.action).toBe('sign-up');
    expect(professional?.action).toBe('checkout');
  });

  it('price a plan with the accepted coupon and leave the others at full price', () => {
    const products = pricingProducts(catalogue, 'personal', new Map([['monthlyT2', 3120]]));
    expect(products[1]?.monthly?.discountedPriceCents).toBe(3120);
    expect(products[1]?.annual?.discountedPriceCents).toBeNull();
  });

  it('send enterprise buyers to sales with the catalogue’s terms', () => {
    const [enterprise] = pricingProducts(catalogue, 'commercial');
    expect(enterprise?.action).toBe('contact-sales');
    expect(enterprise?.terms).toEqual(['Redistribution and unlimited end users']);
  });

  it('list on each card exactly the endpoints its tier adds, and every endpoint on some card', () => {
    const products = pricingProducts(catalogue, 'personal');
    const listed = products.flatMap((product) =>
      product.opens.groups.flatMap((group) => group.endpoints.map((endpoint) => endpoint.path)),
    );
    const upToProfessional = ALL_ENDPOINTS.filter((endpoint) => endpoint.tier <= 2).map((e) => e.path);
    expect([...listed].sort()).toEqual([...upToProfessional].sort());
    for (const path of products[1]?.opens.groups.flatMap((g) => g.endpoints.map((e) => e.path)) ?? []) {
      const endpoint = ALL_ENDPOINTS.find((candidate) => candidate.path === path);
      expect(endpoint?.tier, path).toBeGreaterThan(0);
    }
    expect(products[1]?.opens.raised).toContain('quarterly statements');
  });

  it('name the symbols of each tier that symbolTier actually opens', () => {
    const sample = { sample: true, assetType: 'stock' as const, exchange: 'NASDAQ' };
    const usStock = { sample: false, assetType: 'stock' as const, exchange: 'NYSE' };
    const foreign = { sample: false, assetType: 'stock' as const, exchange: 'LSE' };
    const crypto = { sample: false, assetType: 'crypto' as const, exchange: 'CRYPTO' };
    expect(Object.keys(SYMBOL_COVERAGE).map(Number).sort()).toEqual(
      [...new Set([sample, usStock, foreign, crypto].map((security) => symbolTier(security)))].sort(),
    );
    expect(tierContent(1, 0).symbols).toBe(SYMBOL_COVERAGE[1]);
  });

  it('compare every endpoint group by how many of its endpoints each plan opens', () => {
    const rows = comparisonRows([{ dataTier: 0 }, { dataTier: 4 }]);
    const groups = new Set(ALL_ENDPOINTS.map((endpoint) => endpoint.group));
    expect(rows.map((row) => row.group)).toEqual([...groups]);
    for (const row of rows) expect(row.cells[1]?.open).toBe(row.cells[1]?.total);
    // The free tier reads the statements (annual, of the sample symbols) but no analysts' data.
    const statements = rows.find((row) => row.group === 'Statements');
    expect(statements?.cells[0]?.open).toBe(statements?.cells[0]?.total);
    const analysts = rows.find((row) => row.group === 'Analysts');
    expect(analysts?.cells[0]?.open).toBe(0);
  });
});
