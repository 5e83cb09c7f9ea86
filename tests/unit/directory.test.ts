import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Security } from '../../src/server/db/schema.ts';
import {
  SymbolDirectory,
  symbolTier,
  type SearchOptions,
} from '../../src/server/services/market-data/directory.ts';

function security(symbol: string, name: string, extra: Partial<Security> = {}): Security {
  return {
    symbol,
    name,
    assetType: 'stock',
    exchange: 'NASDAQ',
    exchangeFullName: 'NASDAQ Global Select',
    currency: 'USD',
    country: 'US',
    sector: '',
    industry: '',
    sharesOutstanding: null,
    sample: false,
    active: true,
    details: {},
    source: 'demo',
    ...extra,
  };
}

/** The ranking written the slow, obvious way: classify everything, sort each class, concatenate. */
function reference(rows: readonly Security[], query: string, options: SearchOptions): string[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [];
  const classes: Security[][] = [[], [], [], []];
  for (const row of rows) {
    if (options.exchange !== undefined && row.exchange !== options.exchange.toUpperCase()) continue;
    const symbol = row.symbol.toLowerCase();
    const name = row.name.toLowerCase();
    // A row's best way of matching decides its class.
    const kinds = [
      symbol === needle,
      symbol.startsWith(needle),
      name.startsWith(needle),
      name.includes(` ${needle}`),
    ];
    const classOf = options.by === 'symbol' ? [0, 1, 2, 3] : [2, 3, 0, 1];
    const ranks = kinds.flatMap((matches, kind) => (matches ? [classOf[kind] ?? 3] : []));
    if (ranks.length === 0) continue;
    classes[Math.min(...ranks)]?.push(row);
  }
  const order = (a: Security, b: Security): number =>
    Number(b.active) - Number(a.active) ||
    a.symbol.length - b.symbol.length ||
    a.symbol.toLowerCase().localeCompare(b.symbol.toLowerCase());
  return classes
    .flatMap((list) => list.sort(order))
    .slice(0, options.limit)
    .map((row) => row.symbol);
}

describe('symbol search', () => {
  const rows = [
    security('AAPL', 'Apple Inc.'),
    security('AAPL.MX', 'Apple Inc.', { exchange: 'BMV' }),
    security('APP', 'AppLovin Corporation'),
    security('PAPL', 'Pineapple Applied Energy'),
    security('MSFT', 'Microsoft Corporation'),
    security('AA', 'Alcoa Corporation', { exchange: 'NYSE' }),
  ];
  const directory = new SymbolDirectory(rows);

  it('puts the exact ticker first, then ticker prefixes, then names, shorter tickers first', () => {
    expect(directory.search('aapl', { by: 'symbol', limit: 10 }).map((s) => s.symbol)).toEqual([
      'AAPL',
      'AAPL.MX',
    ]);
    expect(directory.search('app', { by: 'symbol', limit: 10 }).map((s) => s.symbol)).toEqual([
      'APP',
      'AAPL',
      'AAPL.MX',
      'PAPL',
    ]);
  });

  it('ranks company names first when searching by name', () => {
    expect(directory.search('app', { by: 'name', limit: 10 }).map((s) => s.symbol)).toEqual([
      'APP',
      'AAPL',
      'AAPL.MX',
      'PAPL',
    ]);
    expect(directory.search('corporation', { by: 'name', limit: 10 }).map((s) => s.symbol)).toEqual([
      'AA',
      'APP',
      'MSFT',
    ]);
  });

  it('keeps to one exchange when asked', () => {
    expect(directory.search('a', { by: 'symbol', limit: 10, exchange: 'nyse' }).map((s) => s.symbol)).toEqual(
      ['AA'],
    );
  });

  it('gives the same answer as sorting every match, whatever the data and the limit', () => {
    const ticker = fc.stringMatching(/^[A-C]{1,4}(\.[A-C])?$/);
    const word = fc.constantFrom('Alpha', 'Beta', 'Bank', 'Capital', 'Corp', 'Acme', 'Cab');
    const row = fc.record({
      symbol: ticker,
      name: fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')),
      active: fc.boolean(),
      exchange: fc.constantFrom('NASDAQ', 'NYSE'),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(row, { selector: (r) => r.symbol, maxLength: 60 }),
        fc.stringMatching(/^[a-c]{1,3}$/),
        fc.integer({ min: 1, max: 20 }),
        fc.constantFrom<'symbol' | 'name'>('symbol', 'name'),
        fc.option(fc.constantFrom('NASDAQ', 'NYSE'), { nil: undefined }),
        (generated, query, limit, by, exchange) => {
          const securities = generated.map((r) =>
            security(r.symbol, r.name, { active: r.active, exchange: r.exchange }),
          );
          const options: SearchOptions = { by, limit, exchange };
          const found = new SymbolDirectory(securities).search(query, options).map((s) => s.symbol);
          expect(found).toEqual(reference(securities, query, options));
        },
      ),
    );
  });
});

describe('plan coverage of a symbol', () => {
  it('opens the sample to every plan, US stocks and ETFs from the first paid tier, the rest of the world later', () => {
    expect(symbolTier({ sample: true, assetType: 'crypto', exchange: 'CRYPTO' })).toBe(0);
    expect(symbolTier({ sample: false, assetType: 'stock', exchange: 'NYSE' })).toBe(1);
    expect(symbolTier({ sample: false, assetType: 'etf', exchange: 'AMEX' })).toBe(1);
    expect(symbolTier({ sample: false, assetType: 'stock', exchange: 'LSE' })).toBe(3);
    expect(symbolTier({ sample: false, assetType: 'forex', exchange: 'FOREX' })).toBe(3);
  });
});
