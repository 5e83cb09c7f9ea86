import { and, asc, between, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import { isoDay, shiftIsoMonths, shiftIsoYears } from '../../../lib/iso-date.ts';
import type { Db } from '../../db/client.ts';
import { companyProfiles, cotReports, esgDisclosures, priceTargetNews, securities } from '../../db/schema.ts';
import { formatTimestamp } from './news.ts';
import type { CalendarWindow } from './calendars.ts';

/** FMP's price-target-news row. */
export interface PriceTargetNewsRow {
  symbol: string;
  publishedDate: string;
  newsURL: string;
  newsTitle: string;
  analystName: string;
  priceTarget: number;
  adjPriceTarget: number;
  priceWhenPosted: number;
  newsPublisher: string;
  newsBaseURL: string;
  analystCompany: string;
}

/** Which price-target notes: one company's or everyone's, paged. */
export interface PriceTargetNewsQuery {
  symbol?: string | undefined;
  page: number;
  limit: number;
}

/** Analysts' price-target notes, newest first, never dated after today. */
export async function priceTargetNewsRows(
  db: Db,
  query: PriceTargetNewsQuery,
  now: Date,
): Promise<PriceTargetNewsRow[]> {
  const rows = await db
    .select()
    .from(priceTargetNews)
    .where(
      and(
        lte(priceTargetNews.publishedAt, `${isoDay(now)} 23:59:59`),
        ...(query.symbol === undefined ? [] : [eq(priceTargetNews.symbol, query.symbol)]),
      ),
    )
    .orderBy(desc(priceTargetNews.publishedAt), priceTargetNews.url)
    .limit(query.limit)
    .offset(query.page * query.limit);
  return rows.map((row) => ({
    symbol: row.symbol,
    publishedDate: `${formatTimestamp(row.publishedAt).replace(' ', 'T')}.000Z`,
    newsURL: row.url,
    newsTitle: row.title,
    analystName: row.analystName,
    priceTarget: row.priceTarget,
    adjPriceTarget: row.adjPriceTarget,
    priceWhenPosted: row.priceWhenPosted,
    newsPublisher: row.publisher,
    newsBaseURL: new URL(row.url).hostname,
    analystCompany: row.analystCompany,
  }));
}

/** FMP's price-target-summary row. */
export interface PriceTargetSummaryRow {
  symbol: string;
  lastMonthCount: number;
  lastMonthAvgPriceTarget: number;
  lastQuarterCount: number;
  lastQuarterAvgPriceTarget: number;
  lastYearCount: number;
  lastYearAvgPriceTarget: number;
  allTimeCount: number;
  allTimeAvgPriceTarget: number;
  publishers: string;
}

function countAndMean(targets: readonly number[]): [number, number] {
  if (targets.length === 0) return [0, 0];
  const mean = targets.reduce((sum, value) => sum + value, 0) / targets.length;
  return [targets.length, Math.round(mean * 100) / 100];
}

/**
 * How many price targets analysts published for a symbol in the last month, quarter (three months) and
 * year up to today and in all, and their mean in today's share terms (adjPriceTarget, rounded to the
 * cent), with the publishers of them all as a JSON list; no row when none was published.
 */
export async function priceTargetSummaryRows(
  db: Db,
  symbol: string,
  now: Date,
): Promise<PriceTargetSummaryRow[]> {
  return priceTargetSummaries(db, [symbol], now);
}

/**
 * The price-target summaries of several symbols, in the order given (those without a target left
 * out), from one read of their notes: what price-target-summary answers for each, and the bulk file
 * lists a batch at a time.
 */
export async function priceTargetSummaries(
  db: Db,
  symbols: readonly string[],
  now: Date,
): Promise<PriceTargetSummaryRow[]> {
  if (symbols.length === 0) return [];
  const today = isoDay(now);
  const notes = await db
    .select({
      symbol: priceTargetNews.symbol,
      publishedAt: priceTargetNews.publishedAt,
      target: priceTargetNews.adjPriceTarget,
      publisher: priceTargetNews.publisher,
    })
    .from(priceTargetNews)
    .where(
      and(
        inArray(priceTargetNews.symbol, [...symbols]),
        lte(priceTargetNews.publishedAt, `${today} 23:59:59`),
      ),
    )
    // One order for every caller, so the means add the same numbers in the same order.
    .orderBy(priceTargetNews.symbol, priceTargetNews.publishedAt, priceTargetNews.id);
  const bySymbol = new Map<string, TargetNote[]>();
  for (const note of notes) {
    const list = bySymbol.get(note.symbol);
    if (list === undefined) bySymbol.set(note.symbol, [note]);
    else list.push(note);
  }
  return symbols.flatMap((symbol) => {
    const list = bySymbol.get(symbol);
    return list === undefined ? [] : [targetSummaryOf(symbol, list, today)];
  });
}

/** A price-target note as the summary reads it. */
interface TargetNote {
  publishedAt: string;
  target: number;
  publisher: string;
}

function targetSummaryOf(symbol: string, notes: readonly TargetNote[], today: string): PriceTargetSummaryRow {
  const since = (start: string): number[] =>
    notes.filter((note) => formatTimestamp(note.publishedAt).slice(0, 10) > start).map((note) => note.target);
  const [lastMonthCount, lastMonthAvgPriceTarget] = countAndMean(since(shiftIsoMonths(today, -1)));
  const [lastQuarterCount, lastQuarterAvgPriceTarget] = countAndMean(since(shiftIsoMonths(today, -3)));
  const [lastYearCount, lastYearAvgPriceTarget] = countAndMean(since(shiftIsoYears(today, -1)));
  const [allTimeCount, allTimeAvgPriceTarget] = countAndMean(notes.map((note) => note.target));
  const publishers = [...new Set(notes.map((note) => note.publisher))].sort();
  return {
    symbol,
    lastMonthCount,
    lastMonthAvgPriceTarget,
    lastQuarterCount,
    lastQuarterAvgPriceTarget,
    lastYearCount,
    lastYearAvgPriceTarget,
    allTimeCount,
    allTimeAvgPriceTarget,
    publishers: JSON.stringify(publishers),
  };
}

/** FMP's esg-disclosures row. */
export interface EsgDisclosureRow {
  date: string;
  acceptedDate: string;
  symbol: string;
  cik: string;
  companyName: string;
  formType: string;
  environmentalScore: number;
  socialScore: number;
  governanceScore: number;
  ESGScore: number;
  url: string;
}

/** A company's ESG disclosures, newest fiscal year first. */
export async function esgDisclosureRows(db: Db, symbol: string): Promise<EsgDisclosureRow[]> {
  const rows = await db
    .select({ disclosure: esgDisclosures, companyName: securities.name, cik: companyProfiles.cik })
    .from(esgDisclosures)
    .innerJoin(securities, eq(securities.symbol, esgDisclosures.symbol))
    .leftJoin(companyProfiles, eq(companyProfiles.symbol, esgDisclosures.symbol))
    .where(eq(esgDisclosures.symbol, symbol))
    .orderBy(desc(esgDisclosures.fiscalYear));
  return rows.map(({ disclosure, companyName, cik }) => ({
    date: disclosure.date,
    acceptedDate: formatTimestamp(disclosure.acceptedDate),
    symbol,
    cik: cik ?? '',
    companyName,
    formType: disclosure.formType,
    environmentalScore: disclosure.environmentalScore,
    socialScore: disclosure.socialScore,
    governanceScore: disclosure.governanceScore,
    ESGScore: disclosure.esgScore,
    url: disclosure.url,
  }));
}

/** FMP's esg-benchmark row. */
export interface EsgBenchmarkRow {
  fiscalYear: number;
  sector: string;
  environmentalScore: number;
  socialScore: number;
  governanceScore: number;
  ESGScore: number;
}

const mean2 = (values: readonly number[]): number =>
  Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100;

/**
 * Each sector's mean scores of a fiscal year, by sector: every disclosing company counted once,
 * means rounded to two decimals.
 */
export async function esgBenchmarkRows(db: Db, fiscalYear: number): Promise<EsgBenchmarkRow[]> {
  const rows = await db
    .select({ disclosure: esgDisclosures, sector: securities.sector })
    .from(esgDisclosures)
    .innerJoin(securities, eq(securities.symbol, esgDisclosures.symbol))
    .where(eq(esgDisclosures.fiscalYear, fiscalYear));
  const bySector = new Map<string, (typeof esgDisclosures.$inferSelect)[]>();
  for (const row of rows) {
    if (row.sector === '') continue;
    bySector.set(row.sector, [...(bySector.get(row.sector) ?? []), row.disclosure]);
  }
  return [...bySector.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([sector, list]) => ({
      fiscalYear,
      sector,
      environmentalScore: mean2(list.map((item) => item.environmentalScore)),
      socialScore: mean2(list.map((item) => item.socialScore)),
      governanceScore: mean2(list.map((item) => item.governanceScore)),
      ESGScore: mean2(list.map((item) => item.esgScore)),
    }));
}

/** The stored reports of one market within the window, newest first, as FMP's JSON. */
export async function cotReportRows(
  db: Db,
  symbol: string,
  window: CalendarWindow,
): Promise<Record<string, string | number | null>[]> {
  const rows = await db
    .select({ data: cotReports.data })
    .from(cotReports)
    .where(and(eq(cotReports.symbol, symbol), between(cotReports.date, window.from, window.to)))
    .orderBy(desc(cotReports.date));
  return rows.map((row) => row.data);
}

/** FMP's commitment-of-traders-list row. */
export interface CotListRow {
  symbol: string;
  name: string;
}

/** The futures markets with reports, by symbol. */
export async function cotListRows(db: Db): Promise<CotListRow[]> {
  const rows = await db
    .selectDistinctOn([cotReports.symbol], { symbol: cotReports.symbol, name: securities.name })
    .from(cotReports)
    .innerJoin(securities, eq(securities.symbol, cotReports.symbol))
    .orderBy(asc(cotReports.symbol));
  return rows;
}

/** FMP's commitment-of-traders-analysis row. */
export interface CotAnalysisRow {
  symbol: string;
  date: string;
  name: string;
  sector: string;
  exchange: string;
  currentLongMarketSituation: number;
  currentShortMarketSituation: number;
  marketSituation: string;
  previousLongMarketSituation: number;
  previousShortMarketSituation: number;
  previousMarketSituation: string;
  netPostion: number;
  previousNetPosition: number;
  changeInNetPosition: number;
  marketSentiment: string;
  reversalTrend: boolean;
}

/** Speculators' long share of their positions, in percent (two decimals). */
function longShare(data: Record<string, string | number | null>): number {
  const long = Number(data.noncommPositionsLongAll ?? 0);
  const short = Number(data.noncommPositionsShortAll ?? 0);
  return long + short === 0 ? 50 : Math.round((long / (long + short)) * 10_000) / 100;
}

/** Bullish or bearish, increasing when the net position moved further that way, else decreasing. */
function sentiment(now: string, netChange: number): string {
  const bearish = now === 'Bearish';
  const further = bearish ? netChange < 0 : netChange > 0;
  return `${further ? 'Increasing' : 'Decreasing'} ${bearish ? 'Bearish' : 'Bullish'}`;
}

function situation(share: number): string {
  return share > 50 ? 'Bullish' : share < 50 ? 'Bearish' : 'Neutral';
}

/**
 * Each weekly report read against the week before, newest first: the speculators' (non-commercial)
 * long and short shares of their positions, whether that is bullish (mostly long) or bearish, their
 * net position and its change in percent of the previous one's size, the sentiment (bullish or bearish,
 * increasing or decreasing by the net change) and whether the situation turned since the week before.
 */
export async function cotAnalysisRows(
  db: Db,
  symbol: string,
  window: CalendarWindow,
): Promise<CotAnalysisRow[]> {
  const reports = await db
    .select({ date: cotReports.date, data: cotReports.data })
    .from(cotReports)
    .where(
      and(
        eq(cotReports.symbol, symbol),
        gte(cotReports.date, shiftIsoMonths(window.from, -1)),
        lte(cotReports.date, window.to),
      ),
    )
    .orderBy(asc(cotReports.date));
  const rows: CotAnalysisRow[] = [];
  reports.forEach((report, index) => {
    const before = reports[index - 1];
    if (before === undefined || report.date < window.from) return;
    const current = longShare(report.data);
    const previous = longShare(before.data);
    const net =
      Number(report.data.noncommPositionsLongAll ?? 0) - Number(report.data.noncommPositionsShortAll ?? 0);
    const previousNet =
      Number(before.data.noncommPositionsLongAll ?? 0) - Number(before.data.noncommPositionsShortAll ?? 0);
    const change =
      previousNet === 0 ? 0 : Math.round(((net - previousNet) / Math.abs(previousNet)) * 10_000) / 100;
    const now = situation(current);
    rows.push({
      symbol,
      date: String(report.data.date ?? `${report.date} 00:00:00`),
      name: String(report.data.name ?? ''),
      sector: String(report.data.sector ?? ''),
      exchange: String(report.data.marketAndExchangeNames ?? ''),
      currentLongMarketSituation: current,
      currentShortMarketSituation: Math.round((100 - current) * 100) / 100,
      marketSituation: now,
      previousLongMarketSituation: previous,
      previousShortMarketSituation: Math.round((100 - previous) * 100) / 100,
      previousMarketSituation: situation(previous),
      netPostion: net,
      previousNetPosition: previousNet,
      changeInNetPosition: change,
      marketSentiment: sentiment(now, net - previousNet),
      reversalTrend: now !== situation(previous),
    });
  });
  return rows.reverse();
}
