import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKET_NEWS_PAGE_SIZE } from '../../src/lib/market-news.ts';
import { loadNewsArticle, loadNewsList } from '../../src/server/market-news/news-pages.ts';
import {
  loadSymbolDirectory,
  type SymbolDirectory,
} from '../../src/server/services/market-data/directory.ts';
import { openDataApiHarness, stableAnswer, type DataApiHarness } from './data-api-harness.ts';

// The market news pages list what the data API's news endpoints answer, from the same table:
// newest first, by type and symbol, paged, each article linked to its symbol's page.

let h: DataApiHarness;
let directory: SymbolDirectory;
let key: string;

beforeAll(async () => {
  h = await openDataApiHarness();
  directory = await loadSymbolDirectory(h.db);
  key = await h.keyFor('free');
});

afterAll(async () => {
  await h.close();
});

function list(query = '') {
  return loadNewsList({ db: h.db, directory, params: new URLSearchParams(query) });
}

describe('the market news list', () => {
  it('lists stock news newest first with the headlines news/stock answers', async () => {
    const view = await list('type=stock&symbol=AAPL');
    const api = await stableAnswer(h, 'news/stock', { symbols: 'AAPL', page: '0', limit: '5' }, key);
    expect(api.status).toBe(200);
    const titles = api.rows.map((row) => String(row.title));
    expect(titles.length).toBeGreaterThan(0);
    expect(view.items.slice(0, titles.length).map((item) => item.title)).toEqual(titles);
    const times = view.items.map((item) => item.published.iso);
    expect([...times].sort().reverse()).toEqual(times);
    expect(view.items.every((item) => item.type === 'stock')).toBe(true);
    expect(view.demo).toBe(true);
  });

  it('filters by symbol and links each article to the symbol’s page', async () => {
    const view = await list('symbol=aapl');
    expect(view.symbol).toBe('AAPL');
    expect(view.items.length).toBeGreaterThan(0);
    for (const item of view.items) {
      expect(item.symbol).toMatchObject({ symbol: 'AAPL', href: '/financial-summary/AAPL' });
      expect(item.href).toMatch(/^\/market-news\/[0-9a-f-]{36}$/);
    }
  });

  it('pages by 20 with links to newer and older pages, and shows the last page for a page past the end', async () => {
    const first = await list();
    expect(first.items).toHaveLength(MARKET_NEWS_PAGE_SIZE);
    expect(first.previous).toBeNull();
    expect(first.next).toBe('/market-news?page=2');
    const second = await list('page=2');
    expect(second.items[0]?.id).not.toBe(first.items[0]?.id);
    expect(second.previous).toBe('/market-news');
    const beyond = await list('page=100000');
    expect(beyond.page).toBe(beyond.pages);
    expect(beyond.next).toBeNull();
  });

  it('keeps the symbol when the type changes, and says so when a symbol is not listed', async () => {
    const view = await list('symbol=MSFT');
    expect(view.typeLinks.find((link) => link.label === 'Stocks')?.href).toBe(
      '/market-news?type=stock&symbol=MSFT',
    );
    const unknown = await list('symbol=NOPE1');
    expect(unknown).toMatchObject({ total: 0, unknownSymbol: true, items: [] });
  });

  it('ignores a type it does not know and a page that is not a number', async () => {
    const view = await list('type=rumours&page=abc');
    expect(view).toMatchObject({ type: null, page: 1 });
    expect(view.items).toHaveLength(MARKET_NEWS_PAGE_SIZE);
  });
});

describe('a market news article', () => {
  it('shows the text as safe HTML with the symbol’s other news, and nothing for an unknown id', async () => {
    const [first] = (await list('symbol=AAPL')).items;
    if (first === undefined) throw new Error('no AAPL news in the demo data');
    const article = await loadNewsArticle({ db: h.db, directory }, first.id);
    expect(article?.title).toBe(first.title);
    expect(article?.html).toMatch(/^<p>/);
    expect(article?.html).toContain('demo content');
    expect(article?.related.every((item) => item.symbol?.symbol === 'AAPL' && item.id !== first.id)).toBe(
      true,
    );
    expect(article?.moreHref).toBe('/market-news?symbol=AAPL');
    expect(await loadNewsArticle({ db: h.db, directory }, '00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await loadNewsArticle({ db: h.db, directory }, 'not-an-id')).toBeNull();
  });
});
