import { describe, expect, it } from 'vitest';
import { companyIds } from '../../src/server/services/market-data/seed/company.ts';
import { DEMO_SEED } from '../../src/server/services/market-data/seed/index.ts';
import {
  FIRST_NAMES_FEMALE,
  FIRST_NAMES_MALE,
  LAST_NAMES,
  MIDDLE_INITIALS,
} from '../../src/server/services/market-data/seed/names.ts';
import { insiderCik } from '../../src/server/services/market-data/seed/ownership.ts';
import { buildUniverse } from '../../src/server/services/market-data/seed/universe.ts';

/** The values held by more than one symbol, with the symbols holding them. */
function shared(pairs: readonly (readonly [symbol: string, value: string])[]): [string, string[]][] {
  const holders = new Map<string, string[]>();
  for (const [symbol, value] of pairs) {
    if (value === '') continue;
    const list = holders.get(value);
    if (list === undefined) holders.set(value, [symbol]);
    else list.push(symbol);
  }
  return [...holders].filter(([, symbols]) => symbols.length > 1);
}

const universe = buildUniverse(DEMO_SEED, 'full');
const ids = universe.map((spec) => [spec.symbol, companyIds(DEMO_SEED, spec)] as const);

/**
 * A mutual fund files under its registrant's CIK, as the SEC has it: the funds (series) of one trust share
 * it. A value held several times only by mutual funds of one registrant is that registrant's.
 */
function oneRegistrant(symbols: readonly string[]): boolean {
  const registrants = new Set(
    symbols.map((symbol) => {
      const spec = universe.find((candidate) => candidate.symbol === symbol);
      return spec?.assetType === 'fund' ? String(spec.details.entityName) : `not a fund: ${symbol}`;
    }),
  );
  return registrants.size === 1;
}

describe('identifiers of the demo companies', () => {
  it('gives every company of the full universe a CIK, ISIN and CUSIP no other company holds, the funds of one trust its CIK', () => {
    expect(universe.length).toBeGreaterThan(5000);
    const sharedCiks = shared(ids.map(([symbol, id]) => [symbol, id.cik]));
    expect(sharedCiks.filter(([, symbols]) => !oneRegistrant(symbols))).toEqual([]);
    // Vanguard Index Funds files for its 500, Mid-Cap and Growth index funds.
    expect(sharedCiks).toEqual([['0000736015', ['VFIAX', 'VIMAX', 'VIGAX']]]);
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

describe('CIKs of the demo insiders', () => {
  /** Every name an invented insider can have: a person with or without a middle initial, or a family trust. */
  function everyInsiderName(): string[] {
    const names = LAST_NAMES.map((last) => `${last} Family Trust`);
    for (const first of [...FIRST_NAMES_MALE, ...FIRST_NAMES_FEMALE])
      for (const middle of ['', ...MIDDLE_INITIALS.split('')].map((initial) =>
        initial ? ` ${initial}.` : '',
      ))
        for (const last of LAST_NAMES) names.push(`${first}${middle} ${last}`);
    return names;
  }

  it('gives every insider name a CIK of its own, held by no company', () => {
    const chiefExecutives = universe.flatMap((spec) => (spec.facts ? [spec.facts.ceo] : []));
    expect(chiefExecutives).toContain('Timothy D. Cook');
    const names = [...new Set([...everyInsiderName(), ...chiefExecutives])];
    const ciks = names.map((name) => [name, insiderCik(name)] as const);
    expect(shared(ciks)).toEqual([]);
    expect(ciks.every(([, cik]) => /^\d{10}$/.test(cik))).toBe(true);
    const companies = new Set(ids.map(([, id]) => id.cik));
    expect(ciks.filter(([, cik]) => companies.has(cik))).toEqual([]);
    // 150,000 names: a second on an idle machine, more on a busy one.
  }, 60_000);
});
