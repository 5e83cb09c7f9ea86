import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { news } from '../../src/server/db/market-schema.ts';
import { QUARTERLY_TIER, type SymbolPage } from '../../src/lib/symbol-routes.ts';
import {
  loadSymbolDirectory,
  type SymbolDirectory,
} from '../../src/server/services/market-data/directory.ts';
import { quotes } from '../../src/server/services/market-data/quotes.ts';
import { loadSymbolPage, type SymbolPageView } from '../../src/server/symbol-pages/panels.ts';
import { symbolHeader, type SymbolPageContext } from '../../src/server/symbol-pages/resolver.ts';
import { HARNESS_AS_OF, openDataApiHarness, type DataApiHarness } from './data-api-harness.ts';

let h: DataApiHarness;
let directory: SymbolDirectory;
const now = new Date(`${HARNESS_AS_OF}T21:00:00Z`);

beforeAll(async () => {
  h = await openDataApiHarness();
  directory = await loadSymbolDirectory(h.db);
});

afterAll(async () => {
  await h.close();
});

async function load(page: SymbolPage, symbol: string, query = ''): Promise<SymbolPageView> {
  const security = directory.get(symbol);
  if (security === undefined) throw new Error(`${symbol} is not in the test seed`);
  const [quote] = await quotes(h.db, directory, [symbol], now);
  const header = symbolHeader(security, quote, now);
  const context: SymbolPageContext = {
    db: h.db,
    directory,
    security,
    kind: header.kind,
    page,
    header,
    quote,
    now,
    searchParams: new URLSearchParams(query),
  };
  return loadSymbolPage(context);
}

describe('symbol page loaders', () => {
  it('answer plain data that survives serialisation', async () => {
    const pages: [SymbolPage, string][] = [
      ['financial-statements', 'AAPL'],
      ['financial-ratios', 'AAPL'],
      ['news', 'AAPL'],
      ['cryptocurrency', 'BTCUSD'],
      ['financial-summary', 'AAPL'],
      ['stock-value', 'AAPL'],
      ['chart', 'AAPL'],
      ['historical-data', 'AAPL'],
    ];
    for (const [page, symbol] of pages) {
      const view = await load(page, symbol);
      expect(view.page).toBe(page);
      expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    }
  });

  it('shows on the analysis page the consensus the data API answers for the same day', async () => {
    const view = await load('analysis', 'MSFT');
    if (view.panel.panel !== 'company' || view.panel.view.section !== 'analysis')
      throw new Error('not the analysis');
    const stats = Object.fromEntries(
      view.panel.view.view.consensusStats.map((stat) => [stat.term, stat.value]),
    );
    const key = await h.keyFor('monthlyT2');
    const [api] = (await (
      await h.request('/stable/grades-consensus', { symbol: 'MSFT', apikey: key })
    ).json()) as {
      consensus: string;
      buy: number;
      hold: number;
    }[];
    expect(stats['Consensus rating']).toBe(api?.consensus);
    expect(stats.Buy).toBe(String(api?.buy));
    expect(stats.Hold).toBe(String(api?.hold));
  });

  it('lays out the statements overview as three tables of formatted cells', async () => {
    const { panel } = await load('financial-statements', 'AAPL');
    if (panel.panel !== 'statements') throw new Error(`unexpected panel ${panel.panel}`);
    expect(panel.view.empty).toBe(false);
    expect(panel.view.sections.map((section) => section.id)).toEqual([
      'income-statement-main',
      'balance-sheet-statement-main',
      'cash-flow-statement-main',
    ]);
    expect(panel.view.premium.tier).toBeUndefined();
    expect(panel.view.pages.filter((link) => link.current).map((link) => link.href)).toEqual([
      '/financial-statements/AAPL',
    ]);
  });

  it('gates quarterly figures behind the quarterly tier', async () => {
    const statements = await load('income-statement', 'AAPL', 'period=quarter');
    const ratios = await load('financial-ratios', 'AAPL', 'period=quarter');
    if (statements.panel.panel !== 'statements' || ratios.panel.panel !== 'ratios') {
      throw new Error('unexpected panels');
    }
    expect(statements.panel.view.premium.tier).toBe(QUARTERLY_TIER);
    expect(ratios.panel.view.kind).toBe('ratios');
    if (ratios.panel.view.kind === 'ratios') expect(ratios.panel.view.premium.tier).toBe(QUARTERLY_TIER);
  });

  it('tells the chart which plan each range needs: intraday ranges and symbols outside the sample, leaving history to the server', async () => {
    const sample = await load('chart', 'AAPL');
    if (sample.panel.panel !== 'chart') throw new Error(`unexpected panel ${sample.panel.panel}`);
    expect(sample.panel.view.tiers).toEqual({
      '1D': 2,
      '5D': 2,
      '1M': 0,
      '6M': 0,
      YTD: 0,
      '1Y': 0,
      '5Y': 0,
      Max: 0,
    });
    const outside = directory
      .all()
      .find((s) => s.assetType === 'stock' && s.exchange === 'NASDAQ' && !s.sample);
    if (outside === undefined) throw new Error('the test seed lacks a stock outside the sample');
    const other = await load('chart', outside.symbol);
    if (other.panel.panel !== 'chart') throw new Error(`unexpected panel ${other.panel.panel}`);
    expect(other.panel.view.tiers).toMatchObject({ '1D': 2, '1M': 1, '1Y': 1, Max: 1 });
  });

  it('renders a mutual fund’s pages like an ETF’s: fund facts, its net asset value history, no statements', async () => {
    for (const page of ['financial-summary', 'chart', 'financial-ratios'] as const) {
      const view = await load(page, 'VFIAX');
      expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    }
    const profile = await load('profile', 'VFIAX');
    if (profile.panel.panel !== 'company' || profile.panel.view.section !== 'profile')
      throw new Error('not the profile');
    expect(profile.panel.view.view.isFund).toBe(true);
    expect(profile.panel.view.view.identifiers).toContainEqual({ term: 'CIK', value: '0000736015' });
    const statements = await load('financial-statements', 'VFIAX');
    if (statements.panel.panel !== 'statements') throw new Error('not the statements');
    expect(statements.panel.view.empty).toBe(true);
    const history = await load('historical-data', 'VFIAX');
    if (history.panel.panel !== 'history') throw new Error('not the history');
    expect(history.panel.view.rows.length).toBeGreaterThan(0);
    // A mutual fund is priced once a day: each day's open, high, low and close are its NAV.
    for (const row of history.panel.view.rows) {
      expect([row.open, row.high, row.low], row.date).toEqual([row.close, row.close, row.close]);
    }
  });

  it('pages the price history 25 rows at a time', async () => {
    const { panel } = await load('historical-data', 'AAPL', 'page=2');
    if (panel.panel !== 'history') throw new Error(`unexpected panel ${panel.panel}`);
    expect(panel.view.current).toBe(2);
    expect(panel.view.first).toBe(25);
    expect(panel.view.rows.length).toBeLessThanOrEqual(25);
    expect(panel.view.newer).toBe(
      `/historical-data/AAPL?from=${panel.view.range.from}&to=${panel.view.range.to}&page=1`,
    );
  });
});

describe('addresses from data', () => {
  it('never hands a javascript: or data: address to the news list, as a link or as an image', async () => {
    await h.db.insert(news).values({
      id: randomUUID(),
      category: 'stock',
      symbol: 'AAPL',
      publishedAt: new Date(now.getTime() - 60_000).toISOString(),
      publisher: 'Wire',
      title: 'An article whose link would run code',
      image: 'data:image/svg+xml,<svg onload=alert(1)>',
      site: 'example.com',
      text: 'Text.',
      url: 'javascript:alert(1)',
    });
    const { panel } = await load('news', 'AAPL');
    if (panel.panel !== 'news' || panel.view.kind !== 'news') throw new Error('expected the news list');
    const article = panel.view.articles.find((a) => a.title === 'An article whose link would run code');
    expect(article).toBeDefined();
    expect(article?.url).toBeUndefined();
    expect(article?.image).toBe('');
    expect(JSON.stringify(panel.view)).not.toContain('javascript:');
  });
});
