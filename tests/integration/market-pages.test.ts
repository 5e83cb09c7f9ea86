import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPrice } from '../../src/lib/format.ts';
import type { MarketPageId } from '../../src/lib/market-pages.ts';
import { symbolPath } from '../../src/lib/symbol-routes.ts';
import { loadMarketPageIn, marketPageCacheControl } from '../../src/server/market-pages/pages.ts';
import type { MarketCell, MarketPageView } from '../../src/server/market-pages/view.ts';
import { createSymbolSearchRoutes } from '../../src/server/routes/symbol-searches.ts';
import {
  loadSymbolDirectory,
  type SymbolDirectory,
} from '../../src/server/services/market-data/directory.ts';
import { accountsAppOn, post } from './accounts-app.ts';
import { HARNESS_AS_OF, openDataApiHarness, stableAnswer, type DataApiHarness } from './data-api-harness.ts';

// The market pages of the "Stock Screener" group render what the data API's own endpoints answer
// (the same service calls), sorted on the server; the most-searched page ranks the picks visitors
// report from the symbol search, and stands in the most active stocks before there are any.

let h: DataApiHarness;
let directory: SymbolDirectory;
let app: ReturnType<typeof accountsAppOn>;
/** The harness's clock: the evening of the demo data's last trading day. */
let now: Date;

beforeAll(async () => {
  h = await openDataApiHarness();
  directory = await loadSymbolDirectory(h.db);
  now = new Date(h.clock.now);
  app = accountsAppOn(
    () => h.db,
    [['/search', createSymbolSearchRoutes({ directory: () => Promise.resolve(directory), now: () => now })]],
  );
});

afterAll(async () => {
  await h.close();
});

function load(id: MarketPageId, query = ''): Promise<MarketPageView> {
  return loadMarketPageIn({ db: h.db, directory, now, params: new URLSearchParams(query) }, id);
}

/** The symbols of a page's rows, top to bottom. */
function symbols(view: MarketPageView): string[] {
  return view.table.rows.map((row) => {
    const cell = row[0];
    if (cell?.kind !== 'symbol') throw new Error('the first cell names no symbol');
    return cell.symbol;
  });
}

/** The cells of one column, by its header's key. */
function column(view: MarketPageView, key: string): MarketCell[] {
  const index = view.table.columns.findIndex((candidate) => candidate.key === key);
  if (index < 0) throw new Error(`no ${key} column`);
  return view.table.rows.flatMap((row) => row[index] ?? []);
}

function pick(symbol: string): Promise<Response> {
  return Promise.resolve(app.request('/search/picks', post({ symbol })));
}

describe('the movers pages', () => {
  it('list the stocks the biggest-gainers, biggest-losers and most-actives endpoints answer, in their order', async () => {
    const key = await h.keyFor('free');
    const endpoints = { gainers: 'biggest-gainers', losers: 'biggest-losers', actives: 'most-actives' };
    for (const [id, path] of Object.entries(endpoints) as [MarketPageId, string][]) {
      const api = await stableAnswer(h, path, {}, key);
      expect(api.status).toBe(200);
      const view = await load(id);
      expect(symbols(view), id).toEqual(api.rows.map((row) => row.symbol));
      expect(symbols(view).length, id).toBeGreaterThan(0);
    }
  });

  it('link each stock to its overview and show its change with the sign and colour of the move', async () => {
    const view = await load('gainers');
    const [first] = view.table.rows;
    expect(first?.[0]).toMatchObject({
      kind: 'symbol',
      href: expect.stringMatching(/^\/financial-summary\//) as unknown,
    });
    for (const cell of column(view, 'change')) {
      expect(cell).toMatchObject({
        kind: 'change',
        direction: 'up',
        text: expect.stringMatching(/^\+/) as unknown,
      });
    }
    for (const cell of column(await load('losers'), 'change')) {
      expect(cell).toMatchObject({
        kind: 'change',
        direction: 'down',
        text: expect.stringMatching(/^-/) as unknown,
      });
    }
  });

  it('sort on the server by the column a header link names, and say so in aria-sort', async () => {
    const opened = await load('gainers');
    const change = opened.table.columns.find((candidate) => candidate.key === 'change');
    expect(change?.sort).toBe('descending');
    expect(change?.sortHref).toBe('/top-stock-gainers?sort=change&dir=asc');
    expect(opened.table.columns.find((candidate) => candidate.key === 'trend')?.sortHref).toBeUndefined();

    const reversed = await load('gainers', 'sort=change&dir=asc');
    expect(symbols(reversed)).toEqual([...symbols(opened)].reverse());
    const changeNow = reversed.table.columns.find((candidate) => candidate.key === 'change');
    expect(changeNow?.sort).toBe('ascending');
    expect(changeNow?.sortHref).toBe('/top-stock-gainers?sort=change&dir=desc');
    expect(reversed.table.caption).toBe('Top gainers, sorted by Change, ascending');

    const bySymbol = await load('gainers', 'sort=symbol');
    expect(symbols(bySymbol)).toEqual([...symbols(opened)].sort());
    expect(bySymbol.table.columns.find((candidate) => candidate.key === 'change')?.sort).toBeUndefined();

    // An unknown column is the page's own order.
    expect(symbols(await load('gainers', 'sort=secret&dir=asc'))).toEqual(symbols(opened));
  });

  it('draw each row’s sparkline from its last 30 daily closes, ending at the day’s close', async () => {
    const view = await load('actives');
    const [symbol = ''] = symbols(view);
    const key = await h.keyFor('free');
    const history = await stableAnswer(h, 'historical-price-eod/light', { symbol, to: HARNESS_AS_OF }, key);
    const closes = history.rows.slice(0, 30).map((row) => Number(row.price));
    const [sparkline] = column(view, 'trend');
    if (sparkline?.kind !== 'sparkline' || sparkline.sparkline === null) throw new Error('no sparkline');
    expect(sparkline.sparkline.points.split(' ')).toHaveLength(30);
    expect(sparkline.sparkline.label).toContain(`${symbol}, 30 daily closes from`);
    expect(sparkline.sparkline.label).toContain(` to ${formatPrice(closes[0])}:`);
    expect(sparkline.sparkline.direction).toBe(
      (closes[0] ?? 0) > (closes.at(-1) ?? 0)
        ? 'up'
        : (closes[0] ?? 0) < (closes.at(-1) ?? 0)
          ? 'down'
          : 'flat',
    );
  });

  it('are from the close of the latest US session, labelled as demo data', async () => {
    const view = await load('losers');
    expect(view.asOf?.iso).toBe(`${HARNESS_AS_OF}T21:00:00.000Z`);
    expect(view.asOf?.text).toBe('Nov 20, 2026, 9:00 PM UTC');
    expect(view.source).toBe('demo');
  });
});

describe('the index, currency and cryptocurrency pages', () => {
  it('list every security the batch quote endpoint of the type answers, at its price, linked to the type’s page', async () => {
    const key = await h.keyFor('monthlyT3');
    const pages = [
      ['indexes', 'batch-index-quotes', 'index-summary'],
      ['currencies', 'batch-forex-quotes', 'forex'],
      ['cryptocurrencies', 'batch-crypto-quotes', 'cryptocurrency'],
    ] as const;
    for (const [id, path, page] of pages) {
      const api = await stableAnswer(h, path, {}, key);
      expect(api.status, path).toBe(200);
      const view = await load(id, 'sort=symbol&dir=asc');
      expect(symbols(view), id).toEqual(api.rows.map((row) => row.symbol));
      for (const [index, row] of view.table.rows.entries()) {
        const symbol = String(api.rows[index]?.symbol);
        expect(row[0]).toMatchObject({ kind: 'symbol', href: symbolPath(page, symbol) });
      }
    }
  });

  it('open cryptocurrencies by market capitalisation, and state when the newest quote is from', async () => {
    const view = await load('cryptocurrencies');
    const key = await h.keyFor('monthlyT3');
    const api = await stableAnswer(h, 'batch-crypto-quotes', {}, key);
    const byCap = [...api.rows]
      .sort((a, b) => Number(b.marketCap) - Number(a.marketCap))
      .map((row) => row.symbol);
    expect(symbols(view)).toEqual(byCap);
    expect(view.table.columns.find((candidate) => candidate.key === 'marketCap')?.sort).toBe('descending');
    expect(view.asOf).not.toBeNull();
    // Forex rates keep four decimals.
    const rates = column(await load('currencies'), 'price');
    for (const cell of rates)
      expect(cell).toMatchObject({ kind: 'number', text: expect.stringMatching(/\.\d{4,}$/) as unknown });
  });
});

describe('the sector performance page', () => {
  it('shows the sector-performance-snapshot of the latest session, one row per sector and exchange, with a trend', async () => {
    const key = await h.keyFor('starterT1');
    const api = await stableAnswer(h, 'sector-performance-snapshot', { date: HARNESS_AS_OF }, key);
    expect(api.status).toBe(200);
    const view = await load('sectors', 'sort=sector&dir=asc');
    const pairs = view.table.rows.map((row) =>
      row
        .slice(0, 2)
        .map((cell) => (cell.kind === 'text' ? cell.text : ''))
        .join('|'),
    );
    const expected = api.rows.map((row) => `${String(row.sector)}|${String(row.exchange)}`);
    expect([...pairs].sort()).toEqual([...expected].sort());
    const opened = await load('sectors');
    const changes = api.rows.map((row) => Number(row.averageChange)).sort((a, b) => b - a);
    expect(column(opened, 'change').map((cell) => (cell.kind === 'change' ? cell.text : ''))).toHaveLength(
      changes.length,
    );
    const trends = column(opened, 'trend');
    expect(trends.every((cell) => cell.kind === 'sparkline' && cell.sparkline !== null)).toBe(true);
  });
});

describe('the most searched page', () => {
  it('shows the most active stocks by volume, titled as such, before anyone has searched', async () => {
    const view = await load('most-searched');
    expect(view.heading).toBe('Most active stocks by volume');
    expect(view.note).toContain('No stock or fund was opened from the symbol search in the last 7 days');
    expect(symbols(view)).toEqual(symbols(await load('actives')));
    expect(view.options.map((option) => [option.label, option.href, option.current])).toEqual([
      ['Last 7 days', '/most-searched-stocks', true],
      ['Last 30 days', '/most-searched-stocks?days=30', false],
    ]);
  });

  it('ranks the stocks visitors opened from the search by their picks, with their quotes', async () => {
    for (const symbol of ['MSFT', 'MSFT', 'msft', 'AAPL']) expect((await pick(symbol)).status).toBe(200);
    // A coin is counted, but the stocks page does not list it.
    const coin = await pick('BTCUSD');
    expect(await coin.json()).toEqual({ counted: true, symbol: 'BTCUSD' });

    const view = await load('most-searched');
    expect(view.heading).toBe('Most searched over the last 7 days');
    expect(symbols(view)).toEqual(['MSFT', 'AAPL']);
    expect(column(view, 'searches').map((cell) => (cell.kind === 'number' ? cell.text : ''))).toEqual([
      '3',
      '1',
    ]);
    expect(view.table.rows[0]?.[0]).toMatchObject({ href: '/financial-summary/MSFT' });
    expect(column(view, 'price').every((cell) => cell.kind === 'number' && cell.text !== '–')).toBe(true);
    expect(symbols(await load('most-searched', 'days=30&sort=symbol&dir=asc'))).toEqual(['AAPL', 'MSFT']);
  });

  it('refuses a pick of a symbol no one lists, counting nothing', async () => {
    const res = await pick('NOPE123');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ field: 'symbol' });
    expect(symbols(await load('most-searched'))).not.toContain('NOPE123');
  });

  it('stops counting one address’s picks of one symbol after five an hour', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 6; index += 1) statuses.push((await pick('NVDA')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const searches = column(await load('most-searched'), 'searches');
    const nvda = symbols(await load('most-searched')).indexOf('NVDA');
    expect(searches[nvda]).toMatchObject({ text: '5' });
  });

  it('is kept by caches for a quarter of a minute, the other pages for a minute', () => {
    expect(marketPageCacheControl('most-searched')).toBe('public, max-age=15, stale-while-revalidate=60');
    expect(marketPageCacheControl('gainers')).toBe('public, max-age=60, stale-while-revalidate=300');
  });
});
