/**
 * The market news pages (`/market-news`, `/market-news/<id>`): the articles of the news tables (the
 * rows the data API's news endpoints answer), newest first, filtered by type and symbol and paged,
 * and one article with its symbol linked and the other news about it.
 */
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { MARKET_NEWS_PAGE_SIZE, marketNewsPath } from '../../lib/market-news.ts';
import { overviewPage, symbolKind, symbolPath } from '../../lib/symbol-routes.ts';
import { formatTextPost } from '../../lib/text-post.ts';
import type { Db } from '../db/client.ts';
import { news, NEWS_CATEGORIES, type NewsCategory } from '../db/schema.ts';
import type { SymbolDirectory } from '../services/market-data/directory.ts';

/** A symbol an article is about, linked to its page when the directory knows it. */
export interface NewsSymbol {
  symbol: string;
  name: string | null;
  href: string | null;
}

/** One article in a list. */
export interface NewsItemView {
  id: string;
  href: string;
  title: string;
  type: NewsCategory;
  /** ISO timestamp (UTC) and the same moment for people. */
  published: { iso: string; text: string };
  publisher: string;
  symbol: NewsSymbol | null;
  /** The first sentences of the text, plain. */
  excerpt: string;
}

/** The list page's view: the filters asked for, the page of articles and the links to the others. */
export interface NewsListView {
  type: NewsCategory | null;
  symbol: string | null;
  /** The symbol filter names a symbol the directory does not know. */
  unknownSymbol: boolean;
  page: number;
  pages: number;
  total: number;
  items: NewsItemView[];
  /** Links to the filters, keeping the other filter. */
  typeLinks: { label: string; href: string; current: boolean }[];
  previous: string | null;
  next: string | null;
  demo: boolean;
}

/** One article's page. */
export interface NewsArticleView extends NewsItemView {
  /** The text as safe HTML (links and images kept, nothing that runs). */
  html: string;
  site: string;
  /** The latest other articles about the same symbol (or of the same type). */
  related: NewsItemView[];
  moreHref: string;
  demo: boolean;
}

const TYPE_LABELS: Readonly<Record<NewsCategory, string>> = {
  stock: 'Stocks',
  crypto: 'Crypto',
  forex: 'Forex',
  general: 'General',
};

/** The moment an article was published, as the pages state it. */
function published(timestamp: string): { iso: string; text: string } {
  const iso = `${timestamp.replace(' ', 'T').slice(0, 19)}Z`;
  const text = new Date(iso).toLocaleString('en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return { iso, text: `${text} UTC` };
}

/** A plain excerpt: the first sentence or two, cut at a word near 220 characters. */
function excerptOf(text: string): string {
  const plain = text.replace(/\s+/g, ' ').trim();
  if (plain.length <= 220) return plain;
  const cut = plain.slice(0, 220);
  return `${cut.slice(0, cut.lastIndexOf(' '))}…`;
}

function symbolOf(directory: SymbolDirectory, symbol: string | null): NewsSymbol | null {
  if (symbol === null || symbol === '') return null;
  const security = directory.get(symbol);
  if (security === undefined) return { symbol, name: null, href: null };
  return {
    symbol: security.symbol,
    name: security.name,
    href: symbolPath(overviewPage(symbolKind(security.assetType)), security.symbol),
  };
}

function itemView(directory: SymbolDirectory, row: typeof news.$inferSelect): NewsItemView {
  return {
    id: row.id,
    href: marketNewsPath(row.id),
    title: row.title,
    type: row.category,
    published: published(row.publishedAt),
    publisher: row.publisher,
    symbol: symbolOf(directory, row.symbol),
    excerpt: excerptOf(row.text),
  };
}

/** The list's address with some filters and a page. */
export function newsListHref(filters: {
  type?: NewsCategory | null;
  symbol?: string | null;
  page?: number;
}): string {
  const query = new URLSearchParams();
  if (filters.type !== undefined && filters.type !== null) query.set('type', filters.type);
  if (filters.symbol !== undefined && filters.symbol !== null) query.set('symbol', filters.symbol);
  if (filters.page !== undefined && filters.page > 1) query.set('page', String(filters.page));
  const search = query.toString();
  return search === '' ? '/market-news' : `/market-news?${search}`;
}

function isNewsType(value: string | null): value is NewsCategory {
  return value !== null && (NEWS_CATEGORIES as readonly string[]).includes(value);
}

/** What the list page starts from. */
export interface NewsPageContext {
  db: Db;
  directory: SymbolDirectory;
  params: URLSearchParams;
}

/**
 * A page of the news, newest first: `?type=` one of the news types, `?symbol=` one symbol's
 * articles, `?page=` from 1. Unknown types are ignored; a page past the end shows the last one.
 */
export async function loadNewsList({ db, directory, params }: NewsPageContext): Promise<NewsListView> {
  const askedType = params.get('type');
  const type = isNewsType(askedType) ? askedType : null;
  const askedSymbol = params.get('symbol')?.trim().toUpperCase() ?? '';
  const symbol = askedSymbol === '' ? null : askedSymbol.slice(0, 20);
  const conditions: SQL[] = [];
  if (type !== null) conditions.push(eq(news.category, type));
  if (symbol !== null) conditions.push(eq(news.symbol, symbol));
  const where = conditions.length === 0 ? undefined : and(...conditions);
  const [counted] = await db.select({ total: count() }).from(news).where(where);
  const total = counted?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / MARKET_NEWS_PAGE_SIZE));
  const askedPage = Number.parseInt(params.get('page') ?? '1', 10);
  const page = Number.isSafeInteger(askedPage) && askedPage >= 1 ? Math.min(askedPage, pages) : 1;
  const rows = await db
    .select()
    .from(news)
    .where(where)
    .orderBy(desc(news.publishedAt), news.id)
    .limit(MARKET_NEWS_PAGE_SIZE)
    .offset((page - 1) * MARKET_NEWS_PAGE_SIZE);
  return {
    type,
    symbol,
    unknownSymbol: symbol !== null && directory.get(symbol) === undefined,
    page,
    pages,
    total,
    items: rows.map((row) => itemView(directory, row)),
    typeLinks: [
      { label: 'All', href: newsListHref({ symbol }), current: type === null },
      ...NEWS_CATEGORIES.map((option) => ({
        label: TYPE_LABELS[option],
        href: newsListHref({ type: option, symbol }),
        current: type === option,
      })),
    ],
    previous: page > 1 ? newsListHref({ type, symbol, page: page - 1 }) : null,
    next: page < pages ? newsListHref({ type, symbol, page: page + 1 }) : null,
    demo: directory.source === 'demo',
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One article with the latest other news about its symbol (or of its type); null when there is none. */
export async function loadNewsArticle(
  { db, directory }: Omit<NewsPageContext, 'params'>,
  id: string,
): Promise<NewsArticleView | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db.select().from(news).where(eq(news.id, id.toLowerCase())).limit(1);
  if (row === undefined) return null;
  const related = await db
    .select()
    .from(news)
    .where(row.symbol === null ? eq(news.category, row.category) : eq(news.symbol, row.symbol))
    .orderBy(desc(news.publishedAt), news.id)
    .limit(6);
  return {
    ...itemView(directory, row),
    html: formatTextPost(row.text),
    site: row.site,
    related: related.filter((other) => other.id !== row.id).map((other) => itemView(directory, other)),
    moreHref:
      row.symbol === null ? newsListHref({ type: row.category }) : newsListHref({ symbol: row.symbol }),
    demo: directory.source === 'demo',
  };
}

export { TYPE_LABELS as MARKET_NEWS_TYPE_LABELS };
