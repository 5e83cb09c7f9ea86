import { safeHttpUrl } from '../../lib/safe-url.ts';
/**
 * The news of a symbol (stock news for stocks, crypto or forex news for pairs, general market news
 * for indexes and commodities, which articles do not name) twenty to a page, and the earnings call
 * transcripts of a stock, newest first with the latest in full.
 */
import { formatDate, MISSING_VALUE } from '../../lib/format.ts';
import { symbolPath, type SymbolKind } from '../../lib/symbol-routes.ts';
import type { NewsCategory } from '../db/schema.ts';
import { latestTranscripts, newsRows } from '../services/market-data/news.ts';
import type { SymbolPageContext } from './resolver.ts';

/** One article of the list, ready to show. */
export interface NewsArticle {
  title: string;
  /** The article's address; undefined when the data holds no http(s) address (the title is then not a link). */
  url: string | undefined;
  /** Image address; '' for none (or one that is not http(s)). */
  image: string;
  /** Publisher and site, '' when neither is known. */
  source: string;
  /** ISO time for the time element; undefined when the stored date does not parse. */
  datetime: string | undefined;
  /** When it was published, relative to the page's time. */
  when: string;
  excerpt: string;
}

/** One page of a symbol's news. */
export interface NewsListView {
  kind: 'news';
  name: string;
  /** Stocks link on to their earnings call transcripts. */
  transcriptsHref: string | undefined;
  heading: string;
  /** The feed names the symbol (otherwise it is the general market news). */
  bySymbol: boolean;
  /** The page shown, from 1. */
  page: number;
  articles: NewsArticle[];
  latestHref: string;
  newerHref: string | undefined;
  olderHref: string | undefined;
}

/** One earnings call, its lines split into who spoke and what they said. */
export interface TranscriptView {
  id: string;
  period: string;
  year: number;
  /** The call's day, YYYY-MM-DD. */
  date: string;
  when: string;
  turns: { speaker: string; text: string }[];
}

/** The transcripts page: the latest call in full, the earlier ones folded. */
export interface TranscriptsView {
  kind: 'transcripts';
  name: string;
  newsHref: string;
  latest: TranscriptView | undefined;
  earlier: TranscriptView[];
}

export type NewsView = NewsListView | TranscriptsView;

const PAGE_SIZE = 20;
/** Pages past this are refused as out of range rather than read as huge offsets. */
const MAX_PAGE = 500;
const EXCERPT_CHARS = 320;
/** Earnings calls listed: the last three years of quarterly calls. */
const TRANSCRIPT_LIMIT = 12;
/** A speaker's name ends at the first colon of a transcript line, within this many characters. */
const SPEAKER_MAX_CHARS = 80;

/** Which news feed an asset type reads, and whether it is narrowed to the symbol. */
function newsSource(assetKind: SymbolKind): { category: NewsCategory; bySymbol: boolean } {
  switch (assetKind) {
    case 'stock':
      return { category: 'stock', bySymbol: true };
    case 'crypto':
      return { category: 'crypto', bySymbol: true };
    case 'forex':
      return { category: 'forex', bySymbol: true };
    default:
      return { category: 'general', bySymbol: false };
  }
}

/** Stored timestamps are UTC 'YYYY-MM-DD HH:mm:ss'. */
function publishedAt(value: string): Date {
  return new Date(`${value.replace(' ', 'T')}Z`);
}

function isoOrUndefined(date: Date): string | undefined {
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The article's opening, cut at a word boundary so the list stays scannable. */
function excerpt(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= EXCERPT_CHARS) return clean;
  const cut = clean.slice(0, EXCERPT_CHARS);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > EXCERPT_CHARS / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s.,;:]+$/, '')}…`;
}

function pageNumber(raw: string | null): number {
  const parsed = Number(raw ?? '1');
  if (!Number.isInteger(parsed) || parsed < 1) return 1;
  return Math.min(parsed, MAX_PAGE);
}

/** A news page's address: the first page has no query. */
function newsHref(symbol: string, page: number): string {
  const base = symbolPath('news', symbol);
  return page <= 1 ? base : `${base}?page=${page}`;
}

/** Splits a transcript into turns at each line's speaker ("Name: words"). */
function transcriptTurns(content: string): { speaker: string; text: string }[] {
  return content
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const colon = line.indexOf(': ');
      return colon > 0 && colon <= SPEAKER_MAX_CHARS
        ? { speaker: line.slice(0, colon), text: line.slice(colon + 2) }
        : { speaker: '', text: line };
    });
}

/** One page of news (`?page=`), from the feed the symbol's asset type reads. */
async function loadNewsList(context: SymbolPageContext): Promise<NewsListView> {
  const { db, header, kind, now } = context;
  const symbol = header.symbol;
  const source = newsSource(kind);
  const page = pageNumber(context.searchParams.get('page'));
  const query = {
    category: source.category,
    symbols: source.bySymbol ? [symbol] : undefined,
  };
  const [found, next] = await Promise.all([
    newsRows(db, { ...query, page: page - 1, limit: PAGE_SIZE }),
    // One row at the first offset past this page (offset = page × limit) says whether "Older" leads anywhere.
    newsRows(db, { ...query, page: page * PAGE_SIZE, limit: 1 }),
  ]);
  const hasOlder = next.length > 0;
  return {
    kind: 'news',
    name: header.name,
    transcriptsHref: kind === 'stock' ? symbolPath('transcripts', symbol) : undefined,
    heading: source.bySymbol ? `Latest news about ${header.name}` : 'Latest market news',
    bySymbol: source.bySymbol,
    page,
    articles: found.map((article) => {
      const date = publishedAt(article.publishedDate);
      const origin = [article.publisher, article.site].filter((part) => part !== '');
      return {
        title: article.title,
        url: safeHttpUrl(article.url),
        image: safeHttpUrl(article.image) ?? '',
        source: [...new Set(origin)].join(' · '),
        datetime: isoOrUndefined(date),
        when: isoOrUndefined(date) === undefined ? MISSING_VALUE : formatDate(date, now),
        excerpt: excerpt(article.text),
      };
    }),
    latestHref: newsHref(symbol, 1),
    newerHref: page > 1 ? newsHref(symbol, page - 1) : undefined,
    olderHref: hasOlder ? newsHref(symbol, page + 1) : undefined,
  };
}

/** The stock's latest earnings calls. */
async function loadTranscripts(context: SymbolPageContext): Promise<TranscriptsView> {
  const { db, header, now } = context;
  const symbol = header.symbol;
  const transcripts = (await latestTranscripts(db, symbol, TRANSCRIPT_LIMIT)).map((row) => ({
    id: `transcript-${row.year}-${row.period.toLowerCase()}`,
    period: row.period,
    year: row.year,
    date: row.date,
    when: formatDate(new Date(`${row.date}T00:00:00Z`), now),
    turns: transcriptTurns(row.content),
  }));
  const [latest, ...earlier] = transcripts;
  return { kind: 'transcripts', name: header.name, newsHref: symbolPath('news', symbol), latest, earlier };
}

/** Reads the news page or the transcripts page. */
export async function loadNews(context: SymbolPageContext): Promise<NewsView> {
  return context.page === 'transcripts' ? loadTranscripts(context) : loadNewsList(context);
}
