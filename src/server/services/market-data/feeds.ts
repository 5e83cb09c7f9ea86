import { and, count, desc, eq, isNotNull, lte, gte, inArray, type SQL } from 'drizzle-orm';
import { isoDay } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import { dividends, earningCallTranscripts, earnings, securities } from '../../db/schema.ts';
import type { NewsRow } from './news.ts';

/** FMP's earning-call-transcript-latest row. */
export interface LatestTranscriptRow {
  symbol: string;
  period: string;
  fiscalYear: number;
  date: string;
}

/** The newest earnings calls of every company, newest call first, paged. */
export async function latestTranscriptRows(
  db: Db,
  page: number,
  limit: number,
): Promise<LatestTranscriptRow[]> {
  const rows = await db
    .select({
      symbol: earningCallTranscripts.symbol,
      quarter: earningCallTranscripts.quarter,
      fiscalYear: earningCallTranscripts.fiscalYear,
      date: earningCallTranscripts.date,
    })
    .from(earningCallTranscripts)
    .orderBy(desc(earningCallTranscripts.date), earningCallTranscripts.symbol)
    .limit(limit)
    .offset(page * limit);
  return rows.map((row) => ({
    symbol: row.symbol,
    period: `Q${row.quarter}`,
    fiscalYear: row.fiscalYear,
    date: row.date,
  }));
}

/** FMP's earning-call-transcript-dates row. */
export interface TranscriptDateRow {
  quarter: number;
  fiscalYear: number;
  date: string;
}

/** The fiscal quarters of a company with a stored call transcript, newest first. */
export async function transcriptDateRows(db: Db, symbol: string): Promise<TranscriptDateRow[]> {
  return db
    .select({
      quarter: earningCallTranscripts.quarter,
      fiscalYear: earningCallTranscripts.fiscalYear,
      date: earningCallTranscripts.date,
    })
    .from(earningCallTranscripts)
    .where(eq(earningCallTranscripts.symbol, symbol))
    .orderBy(
      desc(earningCallTranscripts.fiscalYear),
      desc(earningCallTranscripts.quarter),
      desc(earningCallTranscripts.date),
    );
}

/** FMP's earnings-transcript-list row. */
export interface TranscriptListRow {
  symbol: string;
  companyName: string;
  noOfTranscripts: string;
}

/** Every company with call transcripts and how many, by symbol (FMP writes the count as a string). */
export async function transcriptListRows(db: Db): Promise<TranscriptListRow[]> {
  const rows = await db
    .select({ symbol: earningCallTranscripts.symbol, companyName: securities.name, n: count() })
    .from(earningCallTranscripts)
    .innerJoin(securities, eq(securities.symbol, earningCallTranscripts.symbol))
    .groupBy(earningCallTranscripts.symbol, securities.name)
    .orderBy(earningCallTranscripts.symbol);
  return rows.map((row) => ({
    symbol: row.symbol,
    companyName: row.companyName,
    noOfTranscripts: String(row.n),
  }));
}

/** Which press releases: some companies' or everyone's, within publication days, paged. */
export interface PressReleaseQuery {
  symbols?: readonly string[] | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  limit: number;
}

/** The wire the demo press releases are filed on, and the note each carries. */
const PRESS_PUBLISHER = 'Demo Press Wire';
const PRESS_SITE = 'example.com';
const DEMO_NOTE = 'This press release is demo content written from the demo data set.';

function money(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `$${(value / 1e9).toFixed(2)} billion`;
  if (abs >= 1e6) return `$${(value / 1e6).toFixed(1)} million`;
  return `$${value.toFixed(2)}`;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function publicationConditions(
  column: Parameters<typeof gte>[0],
  query: PressReleaseQuery,
  today: string,
): SQL[] {
  const conditions: SQL[] = [lte(column, query.to !== undefined && query.to < today ? query.to : today)];
  if (query.from !== undefined) conditions.push(gte(column, query.from));
  return conditions;
}

/**
 * Companies' own announcements, newest first: each dividend declaration (published before the open on
 * its declaration day) and each quarter's results (after the close on the report day), written from
 * the stored dividends and earnings, never dated after today. Both sources are read newest first up to
 * the page asked, so the merged page is exact.
 */
export async function pressReleaseRows(db: Db, query: PressReleaseQuery, now: Date): Promise<NewsRow[]> {
  const today = isoDay(now);
  const wanted = (query.page + 1) * query.limit;
  const bySymbol = (column: Parameters<typeof inArray>[0]): SQL[] =>
    query.symbols === undefined || query.symbols.length === 0 ? [] : [inArray(column, [...query.symbols])];
  const [declared, reported] = await Promise.all([
    db
      .select({
        symbol: dividends.symbol,
        name: securities.name,
        date: dividends.declarationDate,
        exDate: dividends.date,
        recordDate: dividends.recordDate,
        paymentDate: dividends.paymentDate,
        dividend: dividends.dividend,
        frequency: dividends.frequency,
      })
      .from(dividends)
      .innerJoin(securities, eq(securities.symbol, dividends.symbol))
      .where(
        and(
          isNotNull(dividends.declarationDate),
          ...publicationConditions(dividends.declarationDate, query, today),
          ...bySymbol(dividends.symbol),
        ),
      )
      .orderBy(desc(dividends.declarationDate), dividends.symbol)
      .limit(wanted),
    db
      .select({
        symbol: earnings.symbol,
        name: securities.name,
        date: earnings.date,
        epsActual: earnings.epsActual,
        epsEstimated: earnings.epsEstimated,
        revenueActual: earnings.revenueActual,
      })
      .from(earnings)
      .innerJoin(securities, eq(securities.symbol, earnings.symbol))
      .where(
        and(
          isNotNull(earnings.epsActual),
          ...publicationConditions(earnings.date, query, today),
          ...bySymbol(earnings.symbol),
        ),
      )
      .orderBy(desc(earnings.date), earnings.symbol)
      .limit(wanted),
  ]);
  const releases: NewsRow[] = [
    ...declared.map((row) => {
      const frequency = row.frequency.toLowerCase();
      const title = `${row.name} Declares ${row.frequency} Dividend of $${row.dividend.toFixed(4).replace(/0{1,2}$/, '')} per Share`;
      return {
        symbol: row.symbol,
        publishedDate: `${row.date ?? ''} 12:30:00`,
        publisher: PRESS_PUBLISHER,
        title,
        image: '',
        site: PRESS_SITE,
        text: `${row.name} (${row.symbol}) announced that its board declared a ${frequency} cash dividend of $${row.dividend} per share, payable on ${row.paymentDate ?? 'a date to be announced'} to shareholders of record on ${row.recordDate ?? 'the record date'}; the shares trade ex-dividend from ${row.exDate}. ${DEMO_NOTE}`,
        url: `https://${PRESS_SITE}/press/${row.symbol.toLowerCase()}/${row.date ?? ''}-${slug(title)}`,
      };
    }),
    ...reported.map((row) => {
      const title = `${row.name} Reports Quarterly Results`;
      const eps = row.epsActual ?? 0;
      const versus =
        row.epsEstimated === null ? '' : `, against a consensus estimate of $${row.epsEstimated.toFixed(2)}`;
      const revenue = row.revenueActual === null ? '' : ` Revenue was ${money(row.revenueActual)}.`;
      return {
        symbol: row.symbol,
        publishedDate: `${row.date} 20:05:00`,
        publisher: PRESS_PUBLISHER,
        title,
        image: '',
        site: PRESS_SITE,
        text: `${row.name} (${row.symbol}) reported diluted earnings per share of $${eps.toFixed(2)} for the quarter${versus}.${revenue} ${DEMO_NOTE}`,
        url: `https://${PRESS_SITE}/press/${row.symbol.toLowerCase()}/${row.date}-${slug(title)}`,
      };
    }),
  ];
  releases.sort((a, b) => b.publishedDate.localeCompare(a.publishedDate) || a.url.localeCompare(b.url));
  return releases.slice(query.page * query.limit, wanted);
}

/** FMP's fmp-articles row. */
export interface ArticleRow {
  title: string;
  date: string;
  content: string;
  tickers: string;
  image: string;
  link: string;
  author: string;
  site: string;
}

/** The desk the house articles are signed by. */
const ARTICLE_AUTHOR = 'Demo Research Desk';

/**
 * The house's own articles, newest first: one on each reported quarter, set against the analysts'
 * estimate (a beat, a miss or in line within 1 %), written from the stored earnings the evening of the
 * report, never dated after today.
 */
export async function articleRows(db: Db, page: number, limit: number, now: Date): Promise<ArticleRow[]> {
  const rows = await db
    .select({
      symbol: earnings.symbol,
      name: securities.name,
      exchange: securities.exchange,
      date: earnings.date,
      epsActual: earnings.epsActual,
      epsEstimated: earnings.epsEstimated,
      revenueActual: earnings.revenueActual,
      revenueEstimated: earnings.revenueEstimated,
    })
    .from(earnings)
    .innerJoin(securities, eq(securities.symbol, earnings.symbol))
    .where(and(isNotNull(earnings.epsActual), lte(earnings.date, isoDay(now))))
    .orderBy(desc(earnings.date), earnings.symbol)
    .limit(limit)
    .offset(page * limit);
  return rows.map((row) => {
    const eps = row.epsActual ?? 0;
    const surprise =
      row.epsEstimated === null || row.epsEstimated === 0
        ? 0
        : (eps - row.epsEstimated) / Math.abs(row.epsEstimated);
    const verdict = surprise > 0.01 ? 'beats' : surprise < -0.01 ? 'misses' : 'meets';
    const title = `${row.name} ${verdict} earnings expectations`;
    const estimate =
      row.epsEstimated === null
        ? ''
        : ` against the consensus of $${row.epsEstimated.toFixed(2)} (${(surprise * 100).toFixed(1)}% surprise)`;
    const revenue =
      row.revenueActual === null
        ? ''
        : `<p>Revenue came in at ${money(row.revenueActual)}${row.revenueEstimated === null ? '' : ` versus ${money(row.revenueEstimated)} expected`}.</p>`;
    return {
      title,
      date: `${row.date} 21:00:00`,
      content: `<p>${row.name} (${row.exchange}:${row.symbol}) reported diluted earnings per share of $${eps.toFixed(2)}${estimate}.</p>${revenue}<p><em>Demo article written from the demo data set.</em></p>`,
      tickers: `${row.exchange}:${row.symbol}`,
      image: '',
      link: `https://example.com/articles/${row.date}-${slug(`${row.symbol} ${title}`)}`,
      author: ARTICLE_AUTHOR,
      site: 'Demo Research',
    };
  });
}
