import { describe, expect, it } from 'vitest';
import { companyIds } from '../../src/server/services/market-data/seed/company.ts';
import { DEMO_SEED } from '../../src/server/services/market-data/seed/index.ts';
import { buildUniverse } from '../../src/server/services/market-data/seed/universe.ts';

/** The values held by more than one symbol, with the symbols holding them. */
function shared(pairs: readonly (readonly [symbol: string, value: string])[]): [string, string[]][] {
  const holders = new Map<string, string[]>();
  for (const [symbol, value] of pairs) {
    if (value === '') continue;
    holders.set(value, [...(holders.get(value) ?? []), symbol]);
  }
  return [...holders].filter(([, symbols]) => symbols.length > 1);
}

describe('identifiers of the demo companies', () => {
  const universe = buildUniverse(DEMO_SEED, 'full');
  const ids = universe.map((spec) => [spec.symbol, companyIds(DEMO_SEED, spec)] as const);

  it('gives every company of the full universe a CIK, ISIN and CUSIP no other company holds', () => {
    expect(universe.length).toBeGreaterThan(5000);
    expect(shared(ids.map(([symbol, id]) => [symbol, id.cik]))).toEqual([]);
    expect(shared(ids.map(([symbol, id]) => [symbol, id.isin]))).toEqual([]);
    expect(shared(ids.map(([symbol, id]) => [symbol, id.cusip]))).toEqual([]);
    expect(ids.filter(([, id]) => id.cik !== '').length).toBeGreaterThan(3500);
  });

  it('keeps the real identifiers of the familiar companies', () => {
    const apple = ids.find(([symbol]) => symbol === 'AAPL')?.[1];
    expect(apple).toEqual({ cik: '0000320193', isin: 'US0378331005', cusip: '037833100' });
  });

  it('gives a symbol the same identifiers at the test scale as in the full universe', () => {
    const full = new Map(ids);
    for (const spec of buildUniverse(DEMO_SEED, 'test'))
      expect(companyIds(DEMO_SEED, spec), spec.symbol).toEqual(full.get(spec.symbol));
  });
});
