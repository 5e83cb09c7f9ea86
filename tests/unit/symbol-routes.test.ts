import { describe, expect, it } from 'vitest';
import {
  isSymbolPage,
  PAGE_TITLES,
  pageForKind,
  pageKind,
  panelOf,
  SYMBOL_KINDS,
  SYMBOL_PAGES,
  symbolKind,
  symbolPath,
  tabFor,
} from '../../src/lib/symbol-routes.ts';
import { marketState } from '../../src/server/symbol-pages/resolver.ts';

describe('symbol routes', () => {
  it('gives every per-symbol page a title and knows which paths are symbol pages', () => {
    for (const page of SYMBOL_PAGES) expect(PAGE_TITLES[page]).not.toBe('');
    expect(isSymbolPage('financial-summary')).toBe(true);
    expect(isSymbolPage('developer')).toBe(false);
  });

  it('reaches every page from the tab bar of the asset type it serves', () => {
    for (const page of SYMBOL_PAGES) {
      const kinds = SYMBOL_KINDS.filter((kind) => pageForKind(page, kind) === page);
      expect(kinds.length, page).toBeGreaterThan(0);
      for (const kind of kinds) expect(tabFor(page, kind), `${page} for ${kind}`).toBeDefined();
    }
  });

  it('sends a page of another asset type to the matching page of the symbol’s type', () => {
    expect(pageForKind('cryptocurrency', 'stock')).toBe('financial-summary');
    expect(pageForKind('financial-summary', 'crypto')).toBe('cryptocurrency');
    expect(pageForKind('income-statement', 'forex')).toBe('forex');
    expect(pageForKind('historical-data', 'forex')).toBe('historical-data-forex');
    expect(pageForKind('historical-data-index', 'commodity')).toBe('historical-data-commodity');
    expect(pageForKind('chart', 'index')).toBe('chart');
    expect(pageForKind('news', 'crypto')).toBe('news');
    expect(pageKind('historical-data-crypto')).toBe('crypto');
  });

  it('has a panel for every page', () => {
    for (const page of SYMBOL_PAGES) expect(() => panelOf(page), page).not.toThrow();
    expect(panelOf('balance-sheet-data')).toBe('statements');
    expect(panelOf('historical-data-forex')).toBe('history');
  });

  it('presents ETFs and funds like stocks', () => {
    expect(symbolKind('etf')).toBe('stock');
    expect(symbolKind('fund')).toBe('stock');
    expect(symbolKind('index')).toBe('index');
  });

  it('keeps index carets in paths encoded', () => {
    expect(symbolPath('index-summary', '^GSPC')).toBe('/index-summary/%5EGSPC');
  });
});

describe('market state', () => {
  const nasdaq = { assetType: 'stock' as const, exchange: 'NASDAQ' };

  it('opens New York stocks from 9:30 to 16:00 Eastern on weekdays', () => {
    // 2026-11-20 is a Friday; New York is UTC−5 in November.
    expect(marketState(nasdaq, new Date('2026-11-20T14:29:00Z')).open).toBe(false);
    expect(marketState(nasdaq, new Date('2026-11-20T14:30:00Z')).open).toBe(true);
    expect(marketState(nasdaq, new Date('2026-11-20T20:59:00Z'))).toEqual({
      open: true,
      label: 'Market open',
    });
    expect(marketState(nasdaq, new Date('2026-11-20T21:00:00Z'))).toEqual({
      open: false,
      label: 'Market closed',
    });
    expect(marketState(nasdaq, new Date('2026-11-21T16:00:00Z')).open).toBe(false);
  });

  it('closes New York stocks on NYSE holidays and at 13:00 Eastern on early closes', () => {
    // Thanksgiving 2026 is a Thursday; the Friday after closes early.
    expect(marketState(nasdaq, new Date('2026-11-26T16:00:00Z')).open).toBe(false);
    expect(marketState(nasdaq, new Date('2026-11-27T17:59:00Z')).open).toBe(true);
    expect(marketState(nasdaq, new Date('2026-11-27T18:00:00Z'))).toEqual({
      open: false,
      label: 'Market closed',
    });
  });

  it('keeps crypto open around the clock and forex open from Sunday to Friday evening', () => {
    expect(
      marketState({ assetType: 'crypto', exchange: 'CRYPTO' }, new Date('2026-11-22T03:00:00Z')),
    ).toEqual({
      open: true,
      label: 'Trades 24/7',
    });
    const forex = { assetType: 'forex' as const, exchange: 'FOREX' };
    expect(marketState(forex, new Date('2026-11-21T12:00:00Z')).open).toBe(false);
    expect(marketState(forex, new Date('2026-11-22T21:59:00Z')).open).toBe(false);
    expect(marketState(forex, new Date('2026-11-22T22:00:00Z')).open).toBe(true);
    expect(marketState(forex, new Date('2026-11-20T21:59:00Z')).open).toBe(true);
    expect(marketState(forex, new Date('2026-11-20T22:00:00Z')).open).toBe(false);
  });
});
