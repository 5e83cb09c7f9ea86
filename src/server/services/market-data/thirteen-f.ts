import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  companyProfiles,
  dailyPrices,
  institutionalHolders,
  institutionalHoldings,
  institutionalOwnership,
  secFilings,
  securities,
} from '../../db/schema.ts';
import { filingPageUrl, fullCik } from './sec-filings.ts';
import { sicForIndustry } from './sic-codes.ts';

/**
 * Form 13F analytics, all computed at request time from the stored holdings (shares per filer, stock and
 * quarter) and the stored prices (each quarter's last close): what a filer reported, how each position and
 * each portfolio changed and performed, and how the filers' money splits by industry. Values are shares
 * times the quarter-end close, as the stock's 13F summary values its 13F shares.
 */

/** One reported position with everything the analytics need. */
export interface Position {
  cik: string;
  investorName: string;
  symbol: string;
  securityName: string;
  cusip: string;
  industryTitle: string;
  year: number;
  quarter: number;
  /** Quarter end, YYYY-MM-DD. */
  date: string;
  filingId: string;
  filingDate: string;
  acceptedDate: string;
  shares: number;
  /** The stock's last close on or before the quarter end. */
  price: number;
  value: number;
  /** Shares outstanding at the quarter end, from the stock's 13F summary (0 when unknown). */
  outstanding: number;
}

/** The last day of a calendar quarter. */
export function quarterEnd(year: number, quarter: number): string {
  const end = new Date(Date.UTC(year, quarter * 3, 0));
  return end.toISOString().slice(0, 10);
}

/** Quarters counted from year 0, so consecutive quarters differ by one. */
export function quarterIndex(year: number, quarter: number): number {
  return year * 4 + quarter - 1;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;
const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;
/** A change in percent of the earlier value; 0 when there was nothing before. */
const percentChange = (now: number, before: number): number =>
  before === 0 ? 0 : round4(((now - before) / before) * 100);

/** Positions matching the condition, with prices, filings, company facts and shares outstanding. */
export async function loadPositions(db: Db, where: SQL | undefined): Promise<Position[]> {
  const end = sql`(make_date(${institutionalHoldings.year}, ${institutionalHoldings.quarter} * 3, 1) + interval '1 month' - interval '1 day')::date`;
  const rows = await db
    .select({
      cik: institutionalHoldings.cik,
      investorName: institutionalHolders.name,
      symbol: institutionalHoldings.symbol,
      securityName: securities.name,
      industry: securities.industry,
      cusip: companyProfiles.cusip,
      year: institutionalHoldings.year,
      quarter: institutionalHoldings.quarter,
      filingId: institutionalHoldings.filingId,
      filingDate: secFilings.filingDate,
      acceptedDate: secFilings.acceptedDate,
      shares: institutionalHoldings.shares,
      summary: institutionalOwnership.data,
      price: sql<
        string | number | null
      >`(select ${dailyPrices.close} from ${dailyPrices} where ${dailyPrices.symbol} = ${institutionalHoldings.symbol} and ${dailyPrices.date} <= ${end} order by ${dailyPrices.date} desc limit 1)`,
    })
    .from(institutionalHoldings)
    .innerJoin(institutionalHolders, eq(institutionalHolders.cik, institutionalHoldings.cik))
    .innerJoin(securities, eq(securities.symbol, institutionalHoldings.symbol))
    .leftJoin(companyProfiles, eq(companyProfiles.symbol, institutionalHoldings.symbol))
    .leftJoin(secFilings, eq(secFilings.id, institutionalHoldings.filingId))
    .leftJoin(
      institutionalOwnership,
      and(
        eq(institutionalOwnership.symbol, institutionalHoldings.symbol),
        eq(institutionalOwnership.year, institutionalHoldings.year),
        eq(institutionalOwnership.quarter, institutionalHoldings.quarter),
      ),
    )
    .where(where);
  return rows.map((row) => {
    const price = Number(row.price ?? 0);
    const held = Number(row.summary?.numberOf13Fshares ?? 0);
    const percent = Number(row.summary?.ownershipPercent ?? 0);
    return {
      cik: row.cik,
      investorName: row.investorName,
      symbol: row.symbol,
      securityName: row.securityName,
      cusip: row.cusip ?? '',
      industryTitle: sicForIndustry(row.industry).industryTitle,
      year: row.year,
      quarter: row.quarter,
      date: quarterEnd(row.year, row.quarter),
      filingId: row.filingId,
      filingDate: row.filingDate ?? '',
      acceptedDate: row.acceptedDate ?? '',
      shares: row.shares,
      price,
      value: Math.round(row.shares * price),
      outstanding: held > 0 && percent > 0 ? held / (percent / 100) : 0,
    };
  });
}

/** FMP's institutional-ownership/latest row. */
export interface LatestThirteenFRow {
  cik: string;
  name: string;
  date: string;
  filingDate: string;
  acceptedDate: string;
  formType: string;
  link: string;
  finalLink: string;
}

/** The latest 13F reports of all filers, newest filing first. */
export async function latestThirteenFRows(
  db: Db,
  page: { page: number; limit: number },
): Promise<LatestThirteenFRow[]> {
  const rows = await db
    .select()
    .from(secFilings)
    .where(eq(secFilings.formType, '13F-HR'))
    .orderBy(desc(secFilings.filingDate), desc(secFilings.acceptedDate), secFilings.id)
    .limit(page.limit)
    .offset(page.page * page.limit);
  return rows.map((row) => ({
    cik: row.cik,
    name: row.companyName,
    date: row.periodEnd ?? '',
    filingDate: `${row.filingDate} 00:00:00`,
    acceptedDate: row.acceptedDate,
    formType: row.formType,
    link: filingPageUrl(row.id),
    finalLink: `${filingPageUrl(row.id)}#document`,
  }));
}

/** FMP's institutional-ownership/extract row, in FMP's order. */
export interface ExtractRow {
  date: string;
  filingDate: string;
  acceptedDate: string;
  cik: string;
  securityCusip: string;
  symbol: string;
  nameOfIssuer: string;
  shares: number;
  titleOfClass: string;
  sharesType: string;
  putCallShare: string;
  value: number;
  link: string;
  finalLink: string;
}

/** What a filer reported for a quarter, largest position first. */
export async function extractRows(db: Db, cik: string, year: number, quarter: number): Promise<ExtractRow[]> {
  const positions = await loadPositions(
    db,
    and(
      eq(institutionalHoldings.cik, fullCik(cik)),
      eq(institutionalHoldings.year, year),
      eq(institutionalHoldings.quarter, quarter),
    ),
  );
  return positions
    .sort((a, b) => b.value - a.value || a.symbol.localeCompare(b.symbol))
    .map((p) => ({
      date: p.date,
      filingDate: p.filingDate,
      acceptedDate: p.acceptedDate,
      cik: p.cik,
      securityCusip: p.cusip,
      symbol: p.symbol,
      nameOfIssuer: p.securityName,
      shares: p.shares,
      titleOfClass: 'COM',
      sharesType: 'SH',
      putCallShare: 'Share',
      value: p.value,
      link: filingPageUrl(p.filingId),
      finalLink: `${filingPageUrl(p.filingId)}#document`,
    }));
}

/** The quarters a filer reported, newest first. */
export async function thirteenFDateRows(
  db: Db,
  cik: string,
): Promise<{ date: string; year: number; quarter: number }[]> {
  const rows = await db
    .select({ periodEnd: secFilings.periodEnd })
    .from(secFilings)
    .where(and(eq(secFilings.formType, '13F-HR'), eq(secFilings.cik, fullCik(cik))))
    .orderBy(desc(secFilings.periodEnd));
  return rows
    .filter((r): r is { periodEnd: string } => r.periodEnd !== null)
    .map((r) => ({
      date: r.periodEnd,
      year: Number(r.periodEnd.slice(0, 4)),
      quarter: Math.floor((Number(r.periodEnd.slice(5, 7)) - 1) / 3) + 1,
    }));
}

/** Positions keyed by quarter index and then by a second key. */
type ByQuarter = Map<number, Map<string, Position>>;

function byQuarter(positions: readonly Position[], key: (p: Position) => string): ByQuarter {
  const out: ByQuarter = new Map();
  for (const p of positions) {
    const index = quarterIndex(p.year, p.quarter);
    const map = out.get(index) ?? new Map<string, Position>();
    map.set(key(p), p);
    out.set(index, map);
  }
  return out;
}

function sumValues(map: Map<string, Position> | undefined): number {
  let total = 0;
  for (const p of map?.values() ?? []) total += p.value;
  return total;
}

/** Gain from price alone: the earlier quarter's shares times the change of the quarter-end price. */
function positionPerformance(now: Position | undefined, before: Position | undefined): number {
  if (!before) return 0;
  const price = now?.price ?? before.price;
  return Math.round(before.shares * (price - before.price));
}

/** How long a position has been held (quarters up to `index`, unbroken), and since when. */
function holdingSpan(
  history: Map<number, Position>,
  index: number,
): { quarters: number; first: Position | undefined } {
  let quarters = 0;
  let first: Position | undefined;
  for (let i = index; history.has(i); i -= 1) {
    quarters += 1;
    first = history.get(i);
  }
  return { quarters, first };
}

/** Average price paid: each quarter's added shares at that quarter's end price; sales keep the average. */
function averagePricePaid(history: Map<number, Position>, index: number, firstIndex: number): number {
  let shares = 0;
  let cost = 0;
  for (let i = firstIndex; i <= index; i += 1) {
    const p = history.get(i);
    if (!p) continue;
    if (p.shares > shares) cost += (p.shares - shares) * p.price;
    else if (shares > 0) cost *= p.shares / shares;
    shares = p.shares;
  }
  return shares === 0 ? 0 : round2(cost / shares);
}

/** FMP's extract-analytics/holder row, in FMP's order. */
export interface HolderAnalyticsRow {
  date: string;
  cik: string;
  filingDate: string;
  investorName: string;
  symbol: string;
  securityName: string;
  typeOfSecurity: string;
  securityCusip: string;
  sharesType: string;
  putCallShare: string;
  investmentDiscretion: string;
  industryTitle: string;
  weight: number;
  lastWeight: number;
  changeInWeight: number;
  changeInWeightPercentage: number;
  marketValue: number;
  lastMarketValue: number;
  changeInMarketValue: number;
  changeInMarketValuePercentage: number;
  sharesNumber: number;
  lastSharesNumber: number;
  changeInSharesNumber: number;
  changeInSharesNumberPercentage: number;
  quarterEndPrice: number;
  avgPricePaid: number;
  isNew: boolean;
  isSoldOut: boolean;
  ownership: number;
  lastOwnership: number;
  changeInOwnership: number;
  changeInOwnershipPercentage: number;
  holdingPeriod: number;
  firstAdded: string;
  performance: number;
  performancePercentage: number;
  lastPerformance: number;
  changeInPerformance: number;
  isCountedForPerformance: boolean;
}

/**
 * Every filer's position in a stock for a quarter, against the quarter before: weight in the filer's
 * portfolio, value, shares, ownership of the company, holding period, average price paid and the gain
 * from price; filers who sold out during the quarter are listed with zero shares. Largest value first.
 */
export async function holderAnalyticsRows(
  db: Db,
  query: { symbol: string; year: number; quarter: number; page: number; limit: number },
): Promise<HolderAnalyticsRow[]> {
  const index = quarterIndex(query.year, query.quarter);
  const previousYear = query.quarter === 1 ? query.year - 1 : query.year;
  const previousQuarter = query.quarter === 1 ? 4 : query.quarter - 1;
  const history = await loadPositions(db, eq(institutionalHoldings.symbol, query.symbol));
  const holders = new Set(
    history.filter((p) => [index, index - 1].includes(quarterIndex(p.year, p.quarter))).map((p) => p.cik),
  );
  if (holders.size === 0) return [];
  const portfolios = await loadPositions(
    db,
    sql`(${institutionalHoldings.year}, ${institutionalHoldings.quarter}) in ((${query.year}, ${query.quarter}), (${previousYear}, ${previousQuarter}))`,
  );
  const totals = new Map<string, number>();
  for (const p of portfolios) {
    const key = `${p.cik}|${quarterIndex(p.year, p.quarter)}`;
    totals.set(key, (totals.get(key) ?? 0) + p.value);
  }
  const rows: HolderAnalyticsRow[] = [];
  for (const cik of holders) {
    const own = new Map(
      history.filter((p) => p.cik === cik).map((p) => [quarterIndex(p.year, p.quarter), p]),
    );
    const now = own.get(index);
    const before = own.get(index - 1);
    const ref = now ?? before;
    if (!ref) continue;
    const price =
      now?.price ??
      history.find((p) => quarterIndex(p.year, p.quarter) === index)?.price ??
      before?.price ??
      0;
    const outstanding =
      now?.outstanding ?? history.find((p) => quarterIndex(p.year, p.quarter) === index)?.outstanding ?? 0;
    const shares = now?.shares ?? 0;
    const value = now?.value ?? 0;
    const lastShares = before?.shares ?? 0;
    const lastValue = before?.value ?? 0;
    const total = totals.get(`${cik}|${index}`) ?? 0;
    const lastTotal = totals.get(`${cik}|${index - 1}`) ?? 0;
    const weight = total === 0 ? 0 : round4((value / total) * 100);
    const lastWeight = lastTotal === 0 ? 0 : round4((lastValue / lastTotal) * 100);
    const ownership = outstanding === 0 ? 0 : round4((shares / outstanding) * 100);
    const lastOutstanding = before?.outstanding ?? 0;
    const lastOwnership = lastOutstanding === 0 ? 0 : round4((lastShares / lastOutstanding) * 100);
    const span = holdingSpan(own, index);
    const performance = before ? Math.round(before.shares * (price - before.price)) : 0;
    const lastPerformance = positionPerformance(before, own.get(index - 2));
    rows.push({
      date: quarterEnd(query.year, query.quarter),
      cik,
      filingDate: now?.filingDate ?? '',
      investorName: ref.investorName,
      symbol: query.symbol,
      securityName: ref.securityName,
      typeOfSecurity: 'COM',
      securityCusip: ref.cusip,
      sharesType: 'SH',
      putCallShare: 'Share',
      investmentDiscretion: 'SOLE',
      industryTitle: ref.industryTitle,
      weight,
      lastWeight,
      changeInWeight: round4(weight - lastWeight),
      changeInWeightPercentage: percentChange(weight, lastWeight),
      marketValue: value,
      lastMarketValue: lastValue,
      changeInMarketValue: value - lastValue,
      changeInMarketValuePercentage: percentChange(value, lastValue),
      sharesNumber: shares,
      lastSharesNumber: lastShares,
      changeInSharesNumber: shares - lastShares,
      changeInSharesNumberPercentage: percentChange(shares, lastShares),
      quarterEndPrice: round2(price),
      avgPricePaid:
        now && span.first
          ? averagePricePaid(own, index, quarterIndex(span.first.year, span.first.quarter))
          : 0,
      isNew: now !== undefined && before === undefined,
      isSoldOut: now === undefined,
      ownership,
      lastOwnership,
      changeInOwnership: round4(ownership - lastOwnership),
      changeInOwnershipPercentage: percentChange(ownership, lastOwnership),
      holdingPeriod: span.quarters,
      firstAdded: span.first?.date ?? '',
      performance,
      performancePercentage: lastValue === 0 ? 0 : round4((performance / lastValue) * 100),
      lastPerformance,
      changeInPerformance: performance - lastPerformance,
      isCountedForPerformance: before !== undefined,
    });
  }
  return rows
    .sort(
      (a, b) =>
        b.marketValue - a.marketValue || b.lastMarketValue - a.lastMarketValue || a.cik.localeCompare(b.cik),
    )
    .slice(query.page * query.limit, (query.page + 1) * query.limit);
}

/** One quarter of a portfolio: its positions by symbol and what they gained from price. */
interface PortfolioQuarter {
  index: number;
  positions: Map<string, Position>;
  value: number;
  performance: number;
  /** Performance over the value at the quarter's start, in percent. */
  performancePercentage: number;
}

function portfolioQuarters(positions: readonly Position[]): PortfolioQuarter[] {
  const quarters = byQuarter(positions, (p) => p.symbol);
  const indexes = [...quarters.keys()].sort((a, b) => a - b);
  return indexes.map((index) => {
    const now = quarters.get(index) ?? new Map<string, Position>();
    const before = quarters.get(index - 1);
    let performance = 0;
    for (const [symbol, p] of before ?? []) performance += positionPerformance(now.get(symbol), p);
    const start = sumValues(before);
    return {
      index,
      positions: now,
      value: sumValues(now),
      performance,
      performancePercentage: start === 0 ? 0 : round4((performance / start) * 100),
    };
  });
}

/** Compounded percent over the quarters (each in percent). */
function compounded(percentages: readonly number[]): number {
  return round4((percentages.reduce((acc, p) => acc * (1 + p / 100), 1) - 1) * 100);
}

/** Quarter-end closes of the S&P 500 (^GSPC), by quarter index. */
async function indexCloses(db: Db, indexes: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const index of indexes) {
    const end = quarterEnd(Math.floor(index / 4), (index % 4) + 1);
    const [row] = await db
      .select({ close: dailyPrices.close })
      .from(dailyPrices)
      .where(and(eq(dailyPrices.symbol, '^GSPC'), sql`${dailyPrices.date} <= ${end}`))
      .orderBy(desc(dailyPrices.date))
      .limit(1);
    if (row) out.set(index, row.close);
  }
  return out;
}

/** FMP's holder-performance-summary row, in FMP's order. */
export interface HolderPerformanceRow {
  date: string;
  cik: string;
  investorName: string;
  portfolioSize: number;
  securitiesAdded: number;
  securitiesRemoved: number;
  marketValue: number;
  previousMarketValue: number;
  changeInMarketValue: number;
  changeInMarketValuePercentage: number;
  averageHoldingPeriod: number;
  averageHoldingPeriodTop10: number;
  averageHoldingPeriodTop20: number;
  turnover: number;
  turnoverAlternateSell: number;
  turnoverAlternateBuy: number;
  performance: number;
  performancePercentage: number;
  lastPerformance: number;
  changeInPerformance: number;
  performance1year: number;
  performancePercentage1year: number;
  performance3year: number;
  performancePercentage3year: number;
  performance5year: number;
  performancePercentage5year: number;
  performanceSinceInception: number;
  performanceSinceInceptionPercentage: number;
  performanceRelativeToSP500Percentage: number;
  performance1yearRelativeToSP500Percentage: number;
  performance3yearRelativeToSP500Percentage: number;
  performance5yearRelativeToSP500Percentage: number;
  performanceSinceInceptionRelativeToSP500Percentage: number;
}

/** Mean of the holding periods (quarters) of the largest `top` positions (all with Infinity). */
function averageHolding(history: ByQuarter, quarter: PortfolioQuarter, top: number): number {
  const ranked = [...quarter.positions.values()].sort((a, b) => b.value - a.value).slice(0, top);
  if (ranked.length === 0) return 0;
  let total = 0;
  for (const p of ranked) {
    let held = 0;
    for (let i = quarter.index; history.get(i)?.has(p.symbol) === true; i -= 1) held += 1;
    total += held;
  }
  return round2(total / ranked.length);
}

/**
 * A filer's portfolio per quarter, newest first: size, positions added and removed, value and its change,
 * holding periods, turnover, the gain from price (quarter, one, three and five years, since the first
 * report, compounded) and the same against the S&P 500.
 */
export async function holderPerformanceRows(
  db: Db,
  cik: string,
  page: number,
): Promise<HolderPerformanceRow[]> {
  const positions = await loadPositions(db, eq(institutionalHoldings.cik, fullCik(cik)));
  if (positions.length === 0) return [];
  const history = byQuarter(positions, (p) => p.symbol);
  const quarters = portfolioQuarters(positions);
  const [firstQuarter] = quarters;
  const [first] = positions;
  if (!firstQuarter || !first) return [];
  const closes = await indexCloses(db, [firstQuarter.index - 1, ...quarters.map((q) => q.index)]);
  const indexReturn = (index: number): number => {
    const now = closes.get(index);
    const before = closes.get(index - 1);
    return now === undefined || before === undefined || before === 0 ? 0 : ((now - before) / before) * 100;
  };
  const rows: HolderPerformanceRow[] = quarters.map((q, i) => {
    const previous = quarters[i - 1]?.index === q.index - 1 ? quarters[i - 1] : undefined;
    const before = previous?.positions ?? new Map<string, Position>();
    let added = 0;
    let removed = 0;
    let bought = 0;
    let sold = 0;
    for (const [symbol, p] of q.positions) {
      const last = before.get(symbol);
      if (!last) added += 1;
      const change = p.shares - (last?.shares ?? 0);
      if (change > 0) bought += change * p.price;
      else sold += -change * p.price;
    }
    for (const [symbol, p] of before) {
      if (q.positions.has(symbol)) continue;
      removed += 1;
      sold += p.shares * p.price;
    }
    const previousValue = previous?.value ?? 0;
    const average = (q.value + previousValue) / 2;
    const window = (n: number): number[] =>
      quarters.slice(Math.max(0, i - n + 1), i + 1).map((x) => x.performancePercentage);
    const indexWindow = (n: number): number[] =>
      quarters.slice(Math.max(0, i - n + 1), i + 1).map((x) => indexReturn(x.index));
    const sum = (n: number): number =>
      quarters.slice(Math.max(0, i - n + 1), i + 1).reduce((acc, x) => acc + x.performance, 0);
    const lastPerformance = previous?.performance ?? 0;
    return {
      date: quarterEnd(Math.floor(q.index / 4), (q.index % 4) + 1),
      cik: first.cik,
      investorName: first.investorName,
      portfolioSize: q.positions.size,
      securitiesAdded: previous ? added : q.positions.size,
      securitiesRemoved: removed,
      marketValue: q.value,
      previousMarketValue: previousValue,
      changeInMarketValue: q.value - previousValue,
      changeInMarketValuePercentage: percentChange(q.value, previousValue),
      averageHoldingPeriod: averageHolding(history, q, Number.POSITIVE_INFINITY),
      averageHoldingPeriodTop10: averageHolding(history, q, 10),
      averageHoldingPeriodTop20: averageHolding(history, q, 20),
      turnover: average === 0 ? 0 : round4(Math.min(bought, sold) / average),
      turnoverAlternateSell: previousValue === 0 ? 0 : round4(sold / previousValue),
      turnoverAlternateBuy: previousValue === 0 ? 0 : round4(bought / previousValue),
      performance: q.performance,
      performancePercentage: q.performancePercentage,
      lastPerformance,
      changeInPerformance: q.performance - lastPerformance,
      performance1year: sum(4),
      performancePercentage1year: compounded(window(4)),
      performance3year: sum(12),
      performancePercentage3year: compounded(window(12)),
      performance5year: sum(20),
      performancePercentage5year: compounded(window(20)),
      performanceSinceInception: sum(quarters.length),
      performanceSinceInceptionPercentage: compounded(window(quarters.length)),
      performanceRelativeToSP500Percentage: round4(q.performancePercentage - indexReturn(q.index)),
      performance1yearRelativeToSP500Percentage: round4(compounded(window(4)) - compounded(indexWindow(4))),
      performance3yearRelativeToSP500Percentage: round4(compounded(window(12)) - compounded(indexWindow(12))),
      performance5yearRelativeToSP500Percentage: round4(compounded(window(20)) - compounded(indexWindow(20))),
      performanceSinceInceptionRelativeToSP500Percentage: round4(
        compounded(window(quarters.length)) - compounded(indexWindow(quarters.length)),
      ),
    };
  });
  return rows.reverse().slice(page * 100, (page + 1) * 100);
}

/** FMP's holder-industry-breakdown row, in FMP's order. */
export interface IndustryBreakdownRow {
  date: string;
  cik: string;
  investorName: string;
  industryTitle: string;
  weight: number;
  lastWeight: number;
  changeInWeight: number;
  changeInWeightPercentage: number;
  performance: number;
  performancePercentage: number;
  lastPerformance: number;
  changeInPerformance: number;
}

/** A filer's portfolio of a quarter split by the companies' SIC industry, largest weight first. */
export async function holderIndustryRows(
  db: Db,
  cik: string,
  year: number,
  quarter: number,
): Promise<IndustryBreakdownRow[]> {
  const positions = await loadPositions(db, eq(institutionalHoldings.cik, fullCik(cik)));
  const index = quarterIndex(year, quarter);
  const quarters = byQuarter(positions, (p) => p.symbol);
  const now = quarters.get(index);
  if (!now) return [];
  const at = (i: number): Map<string, Position> => quarters.get(i) ?? new Map<string, Position>();
  const total = (i: number): number => sumValues(quarters.get(i));
  const industries = new Set([...now.values(), ...at(index - 1).values()].map((p) => p.industryTitle));
  const industryValue = (i: number, industry: string): number =>
    [...at(i).values()].filter((p) => p.industryTitle === industry).reduce((acc, p) => acc + p.value, 0);
  const industryPerformance = (i: number, industry: string): number =>
    [...at(i - 1).entries()]
      .filter(([, p]) => p.industryTitle === industry)
      .reduce((acc, [symbol, p]) => acc + positionPerformance(at(i).get(symbol), p), 0);
  const [first] = [...now.values()];
  if (!first) return [];
  return [...industries]
    .map((industryTitle) => {
      const weight =
        total(index) === 0 ? 0 : round4((industryValue(index, industryTitle) / total(index)) * 100);
      const lastWeight =
        total(index - 1) === 0
          ? 0
          : round4((industryValue(index - 1, industryTitle) / total(index - 1)) * 100);
      const performance = industryPerformance(index, industryTitle);
      const lastPerformance = industryPerformance(index - 1, industryTitle);
      const start = industryValue(index - 1, industryTitle);
      return {
        date: quarterEnd(year, quarter),
        cik: first.cik,
        investorName: first.investorName,
        industryTitle,
        weight,
        lastWeight,
        changeInWeight: round4(weight - lastWeight),
        changeInWeightPercentage: percentChange(weight, lastWeight),
        performance,
        performancePercentage: start === 0 ? 0 : round4((performance / start) * 100),
        lastPerformance,
        changeInPerformance: performance - lastPerformance,
      };
    })
    .sort((a, b) => b.weight - a.weight || a.industryTitle.localeCompare(b.industryTitle));
}

/** FMP's industry-summary row. */
export interface IndustrySummaryRow {
  industryTitle: string;
  industryValue: number;
  date: string;
}

/** What all 13F filers held per SIC industry at a quarter's end, largest first. */
export async function industrySummaryRows(
  db: Db,
  year: number,
  quarter: number,
): Promise<IndustrySummaryRow[]> {
  const positions = await loadPositions(
    db,
    and(eq(institutionalHoldings.year, year), eq(institutionalHoldings.quarter, quarter)),
  );
  const totals = new Map<string, number>();
  for (const p of positions) totals.set(p.industryTitle, (totals.get(p.industryTitle) ?? 0) + p.value);
  return [...totals.entries()]
    .map(([industryTitle, industryValue]) => ({
      industryTitle,
      industryValue,
      date: quarterEnd(year, quarter),
    }))
    .sort((a, b) => b.industryValue - a.industryValue || a.industryTitle.localeCompare(b.industryTitle));
}
