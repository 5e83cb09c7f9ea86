import { and, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import { shiftIsoDays } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import { earningCallTranscripts, news, type NewsCategory } from '../../db/schema.ts';

/** FMP's news row (stock, crypto and forex news share it). */
export interface NewsRow {
  symbol: string;
  publishedDate: string;
  publisher: string;
  title: string;
  image: string;
  site: string;
  text: string;
  url: string;
}

/** One shape for the three news categories, which FMP filters and pages alike. */
export interface NewsQuery {
  category: NewsCategory;
  /** Only articles about these symbols; all of the category when absent. */
  symbols?: readonly string[] | undefined;
  /** First and last day (YYYY-MM-DD, inclusive) of publication. */
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  limit: number;
}

/** A timestamp as FMP writes it: 'YYYY-MM-DD HH:mm:ss', whichever driver read it. */
export function formatTimestamp(value: string): string {
  return value.replace('T', ' ').slice(0, 19);
}

/** Articles of one category, newest first, paged; optionally about some symbols and within dates. */
export async function newsRows(db: Db, query: NewsQuery): Promise<NewsRow[]> {
  const conditions: SQL[] = [eq(news.category, query.category)];
  if (query.symbols !== undefined && query.symbols.length > 0)
    conditions.push(inArray(news.symbol, [...query.symbols]));
  if (query.from !== undefined) conditions.push(gte(news.publishedAt, `${query.from} 00:00:00`));
  if (query.to !== undefined) conditions.push(lt(news.publishedAt, `${shiftIsoDays(query.to, 1)} 00:00:00`));
  const rows = await db
    .select()
    .from(news)
    .where(and(...conditions))
    .orderBy(desc(news.publishedAt), news.url)
    .limit(query.limit)
    .offset(query.page * query.limit);
  return rows.map((row) => ({
    symbol: row.symbol ?? '',
    publishedDate: formatTimestamp(row.publishedAt),
    publisher: row.publisher,
    title: row.title,
    image: row.image,
    site: row.site,
    text: row.text,
    url: row.url,
  }));
}

/** FMP's earning-call-transcript row. */
export interface TranscriptRow {
  symbol: string;
  period: string;
  year: number;
  date: string;
  content: string;
}

/** The latest `limit` earnings calls of a symbol, newest first: the site's transcript list. */
export async function latestTranscripts(db: Db, symbol: string, limit: number): Promise<TranscriptRow[]> {
  const rows = await db
    .select()
    .from(earningCallTranscripts)
    .where(eq(earningCallTranscripts.symbol, symbol))
    .orderBy(
      desc(earningCallTranscripts.date),
      desc(earningCallTranscripts.fiscalYear),
      desc(earningCallTranscripts.quarter),
    )
    .limit(limit);
  return rows.map(transcriptRow);
}

function transcriptRow(row: typeof earningCallTranscripts.$inferSelect): TranscriptRow {
  return {
    symbol: row.symbol,
    period: `Q${row.quarter}`,
    year: row.fiscalYear,
    date: row.date,
    content: row.content,
  };
}

/** The transcript of one fiscal quarter's earnings call: one row, or none. */
export async function transcriptRows(
  db: Db,
  symbol: string,
  year: number,
  quarter: number,
): Promise<TranscriptRow[]> {
  const rows = await db
    .select()
    .from(earningCallTranscripts)
    .where(
      and(
        eq(earningCallTranscripts.symbol, symbol),
        eq(earningCallTranscripts.fiscalYear, year),
        eq(earningCallTranscripts.quarter, quarter),
      ),
    )
    .limit(1);
  return rows.map(transcriptRow);
}
