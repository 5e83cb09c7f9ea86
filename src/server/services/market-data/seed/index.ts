import { count, getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client.ts';
import {
  analystEstimates,
  companyProfiles,
  dailyPrices,
  datasetInfo,
  dividends,
  earningCallTranscripts,
  earnings,
  economicIndicators,
  esgRatings,
  financialStatements,
  grades,
  insiderTrades,
  institutionalOwnership,
  intradayPrices,
  keyExecutives,
  news,
  priceTargets,
  securities,
  senateTrades,
  splits,
  treasuryRates,
} from '../../../db/market-schema.ts';
import {
  etfHoldings,
  indexConstituentChanges,
  indexConstituents,
} from '../../../db/market-schema-markets.ts';
import { revenueSegments } from '../../../db/market-schema-stmts.ts';
import { cotReports, esgDisclosures, priceTargetNews } from '../../../db/market-schema-research.ts';
import { earningsRows, estimateRows, gradeRows, priceTargetRow } from './analysts.ts';
import { acceptsBinaryArrays, canSkipTriggers, inTransaction, suspendIndexes } from './bulk.ts';
import { fromDay, latestSettledWeekday, toDay } from './calendar.ts';
import { companyIds, executiveRows, profileRow, type ExecutiveRow, type ProfileRow } from './company.ts';
import { COMPANY_FACT_TABLES, seedCompanyFacts } from './company-facts.ts';
import { economicIndicatorRows, TREASURY_MATURITIES, treasuryCurve, type TreasuryCurve } from './economy.ts';
import {
  generateFundamentals,
  statementRow,
  type CompanyFundamentals,
  type PeriodStatements,
  type StatementHeader,
} from './fundamentals.ts';
import { intradayBars } from './intraday.ts';
import { moveArticles, resultsArticle, transcript, type NewsRow } from './news.ts';
import {
  FILINGS_SEED_TABLES,
  filingCells,
  pushCompanyFilings,
  pushCrossSymbolFilings,
  pushHoldings,
} from './filings.ts';
import { esgRows, insiderRows, institutionalRows, senateRows } from './ownership.ts';
import { seedResearchData } from './research.ts';
import {
  buildFactors,
  generateSeries,
  historyStart,
  type SeriesContext,
  type SymbolSeries,
} from './prices.ts';
import { fundReports, seedMarkets } from './markets.ts';
import { round } from './random.ts';
import { seedBuffers, type SeedBuffers } from './seed-tables.ts';
import { seedRevenueSegments } from './stmts.ts';
import { ANCHOR_DAY, buildUniverse, FAMILIAR_SYMBOLS, type Scale, type SecuritySpec } from './universe.ts';

export { FAMILIAR_SYMBOLS, type Scale };

const SCALES: readonly Scale[] = ['full', 'test'];

/**
 * The deterministic demo data set: a universe of instruments with prices, statements, events, news and macro
 * series, all synthetic. The same seed and "as of" date always give the same rows; a later "as of" date only
 * appends days. Nothing here is real market data except the familiar symbols' names and a few public facts.
 */

/** The seed of the demo data set that `npm start` and `npm run db:seed` create unless told otherwise. */
export const DEMO_SEED = 20_260_101;

/** The earliest "as of" date: a year after the short histories start, so every symbol has a year of prices. */
export const EARLIEST_AS_OF = '2025-06-30';
const EARLIEST_AS_OF_DAY = toDay(EARLIEST_AS_OF);

/** Years of daily prices for symbols outside the long-history core at the full scale. */
const TAIL_HISTORY_YEARS = 1;

export interface SeedOptions {
  scale?: Scale;
  seed?: number;
  /** YYYY-MM-DD; defaults to the latest weekday before today (UTC), whose sessions have all closed. */
  asOf?: string;
  /** Delete existing market data first (account data is never touched). */
  replace?: boolean;
  log?: (line: string) => void;
}

export interface SeedSummary {
  seed: number;
  scale: Scale;
  asOf: string;
  /** Rows written per table (SQL table names). */
  counts: Record<string, number>;
  elapsedMs: number;
}

/** The market tables, children before parents, so deletes never trip over references. */
const MARKET_TABLES: readonly PgTable[] = [
  ...COMPANY_FACT_TABLES,
  etfHoldings,
  indexConstituentChanges,
  indexConstituents,
  revenueSegments,
  priceTargetNews,
  esgDisclosures,
  cotReports,
  dailyPrices,
  intradayPrices,
  financialStatements,
  dividends,
  splits,
  keyExecutives,
  earningCallTranscripts,
  analystEstimates,
  priceTargets,
  grades,
  earnings,
  esgRatings,
  insiderTrades,
  senateTrades,
  institutionalOwnership,
  ...Object.values(FILINGS_SEED_TABLES).map(([table]) => table),
  companyProfiles,
  securities,
  news,
  treasuryRates,
  economicIndicators,
  datasetInfo,
];

/** True when no instrument is loaded (a fresh database, or one whose market data was deleted). */
export async function isMarketDataEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(securities);
  return (row?.n ?? 0) === 0;
}

/** Deletes every market table's rows in one statement (the account tables are not listed, so never touched). */
async function clearMarketData(db: Db): Promise<void> {
  const names = MARKET_TABLES.map((t) => `"${getTableName(t)}"`).join(', ');
  await db.execute(sql.raw(`truncate table ${names}`));
}

function resolveOptions(options: SeedOptions): { scale: Scale; seed: number; asOf: string; asOfDay: number } {
  const requested: string = options.scale ?? 'full';
  const scale = SCALES.find((s) => s === requested);
  if (!scale) throw new Error(`unknown scale "${requested}" (use full or test)`);
  const seed = options.seed ?? DEMO_SEED;
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new Error(`the seed must be a non-negative integer, got ${seed}`);
  const asOf = options.asOf ?? latestSettledWeekday(new Date());
  const asOfDay = toDay(asOf);
  if (asOfDay < EARLIEST_AS_OF_DAY)
    throw new Error(`the "as of" date must be ${EARLIEST_AS_OF} or later, got ${asOf}`);
  return { scale, seed, asOf, asOfDay };
}

function quarterCount(scale: Scale, spec: SecuritySpec): [quarters: number, years: number] {
  if (scale === 'test') return [8, 3];
  return spec.tier === 'core' ? [40, 10] : [8, 5];
}

/** The state one generation run shares between its steps. */
interface SeedRun {
  seed: number;
  scale: Scale;
  asOfDay: number;
  endDay: number;
  out: SeedBuffers;
  /** Executives of the core companies, by symbol: insider trades and transcripts name them. */
  executivesBySymbol: Map<string, ExecutiveRow[]>;
  /** News articles from every symbol, written together once all symbols are done. */
  articles: NewsRow[];
}

/** Deletes the existing market data when asked to, and refuses to write over it otherwise. */
async function makeRoom(db: Db, replace: boolean, log: (line: string) => void): Promise<void> {
  if (await isMarketDataEmpty(db)) return;
  if (!replace)
    throw new Error('the database already holds market data; run with --replace to regenerate it');
  log('deleting the existing market data');
  await clearMarketData(db);
}

/** Writes every buffered row, in the given transaction or in a new one. */
async function flushBuffers(db: Db, out: SeedBuffers, skipTriggers: boolean, tx?: Db): Promise<void> {
  if (tx) {
    for (const buffer of Object.values(out)) if (buffer.size > 0) await buffer.flush(tx);
    return;
  }
  await inTransaction(db, skipTriggers, async (t) => {
    for (const buffer of Object.values(out)) if (buffer.size > 0) await buffer.flush(t);
  });
}

/** Instruments, company facts and executives. */
function pushInstruments(run: SeedRun, universe: readonly SecuritySpec[]): void {
  const { seed, out } = run;
  for (const spec of universe) {
    out.securities.push([
      spec.symbol,
      spec.name,
      spec.assetType,
      spec.exchange,
      spec.exchangeFullName,
      spec.currency,
      spec.country,
      spec.sector,
      spec.industry,
      spec.sharesOutstanding,
      spec.sample,
      true,
      spec.details,
      'demo',
    ]);
    if (spec.assetType === 'stock' || spec.assetType === 'etf' || spec.assetType === 'fund')
      pushProfile(out, profileRow(seed, spec));
    if (spec.assetType === 'stock' && spec.tier === 'core') {
      const rows = executiveRows(seed, spec);
      run.executivesBySymbol.set(spec.symbol, rows);
      for (const e of rows) {
        out.executives.push([
          e.id,
          e.symbol,
          e.name,
          e.title,
          e.pay,
          e.currencyPay,
          e.gender,
          e.yearBorn,
          e.active,
          e.sortOrder,
        ]);
      }
    }
  }
}

function pushProfile(out: SeedBuffers, p: ProfileRow): void {
  out.profiles.push([
    p.symbol,
    p.description,
    p.ceo,
    p.website,
    p.phone,
    p.address,
    p.city,
    p.state,
    p.zip,
    p.cik,
    p.isin,
    p.cusip,
    p.fullTimeEmployees,
    p.ipoDate,
    p.image,
    p.beta,
    p.isAdr,
  ]);
}

/** Treasury rates and macro series up to the "as of" date. */
function pushRatesAndIndicators(run: SeedRun, curve: TreasuryCurve): void {
  const { seed, asOfDay, out } = run;
  curve.days.forEach((day, i) => {
    if (day > asOfDay) return;
    out.treasury.push([fromDay(day), ...TREASURY_MATURITIES.map(([key]) => curve.rates[key][i] ?? 0)]);
  });
  for (const row of economicIndicatorRows(seed, asOfDay, curve))
    out.indicators.push([row.name, row.date, row.value]);
}

/** A symbol's daily bars from its history start, its splits and its dividends; returns the bars pushed. */
function pushPrices(run: SeedRun, spec: SecuritySpec, series: SymbolSeries): number {
  const { out } = run;
  const first = historyStart(spec, run.scale, run.asOfDay, TAIL_HISTORY_YEARS);
  let bars = 0;
  for (let i = 0; i <= series.asOfIndex; i += 1) {
    const day = series.days[i] ?? 0;
    if (day < first) continue;
    out.daily.push([
      spec.symbol,
      day,
      series.open[i] ?? 0,
      series.high[i] ?? 0,
      series.low[i] ?? 0,
      series.close[i] ?? 0,
      series.adjClose[i] ?? 0,
      series.volume[i] ?? 0,
    ]);
    bars += 1;
  }
  for (const split of series.splits)
    out.splits.push([spec.symbol, fromDay(split.day), split.numerator, split.denominator]);
  for (const dv of series.dividends) {
    let later = 1;
    for (const split of series.splits) if (split.day > dv.day) later *= split.numerator / split.denominator;
    out.dividends.push([
      spec.symbol,
      fromDay(dv.day),
      fromDay(dv.recordDay),
      fromDay(dv.paymentDay),
      fromDay(dv.declarationDay),
      dv.dividend,
      round(dv.dividend / later, 8),
      dv.frequency,
    ]);
  }
  return bars;
}

/** Minute bars of the last five trading days, for the familiar stocks and the two large cryptocurrencies. */
function pushIntraday(run: SeedRun, spec: SecuritySpec, series: SymbolSeries): void {
  const intraday =
    (spec.familiar && spec.assetType === 'stock') || spec.symbol === 'BTCUSD' || spec.symbol === 'ETHUSD';
  if (!intraday) return;
  for (let i = Math.max(0, series.asOfIndex - 4); i <= series.asOfIndex; i += 1) {
    for (const bar of intradayBars(run.seed, series, i)) {
      run.out.intraday.push([spec.symbol, bar.time, bar.open, bar.high, bar.low, bar.close, bar.volume]);
    }
  }
}

/** The filed statements the scale keeps: the latest fiscal years and quarters, three statements each. */
function pushStatements(
  run: SeedRun,
  spec: SecuritySpec,
  fundamentals: CompanyFundamentals,
  header: StatementHeader,
): void {
  const [quarterLimit, yearLimit] = quarterCount(run.scale, spec);
  const filedQuarters = fundamentals.quarters.filter((q) => q.filingDay <= run.asOfDay).slice(-quarterLimit);
  const filedYears = fundamentals.years.filter((y) => y.filingDay <= run.asOfDay).slice(-yearLimit);
  for (const period of [...filedYears, ...filedQuarters]) {
    const label = period.quarter === 0 ? 'FY' : `Q${period.quarter}`;
    for (const kind of ['income', 'balance-sheet', 'cash-flow'] as const) {
      run.out.statements.push([
        spec.symbol,
        kind,
        period.fiscalYear,
        label,
        fromDay(period.endDay),
        statementRow(header, period, kind),
      ]);
    }
  }
}

/** Earnings, analyst estimates and the price target of a company with statements. */
function pushAnalystData(
  run: SeedRun,
  spec: SecuritySpec,
  series: SymbolSeries,
  fundamentals: CompanyFundamentals,
): void {
  const { seed, asOfDay, out } = run;
  const [quarterLimit] = quarterCount(run.scale, spec);
  for (const row of earningsRows(seed, spec, fundamentals, asOfDay, quarterLimit)) {
    out.earnings.push([
      row.symbol,
      row.date,
      row.epsActual,
      row.epsEstimated,
      row.revenueActual,
      row.revenueEstimated,
      row.lastUpdated,
    ]);
  }
  for (const row of estimateRows(seed, spec, fundamentals, asOfDay))
    out.estimates.push([row.symbol, row.period, row.date, row.data]);
  const lastClose = series.close[series.asOfIndex] ?? 0;
  const target = priceTargetRow(seed, spec, lastClose);
  out.targets.push([
    target.symbol,
    target.targetHigh,
    target.targetLow,
    target.targetConsensus,
    target.targetMedian,
  ]);
}

/** Grades, institutional ownership, call transcripts and results news of a core company. */
function pushCoreCompanyData(
  run: SeedRun,
  spec: SecuritySpec,
  series: SymbolSeries,
  fundamentals: CompanyFundamentals,
  cik: string,
  executives: readonly ExecutiveRow[],
): void {
  const { seed, asOfDay, out } = run;
  for (const g of gradeRows(seed, spec, asOfDay)) {
    out.grades.push([g.id, g.symbol, g.date, g.gradingCompany, g.previousGrade, g.newGrade, g.action]);
  }
  const summaries = institutionalRows(seed, series, cik, asOfDay, 8);
  for (const row of summaries) out.institutions.push([row.symbol, row.year, row.quarter, row.data]);
  pushHoldings(out, seed, spec, summaries, asOfDay);
  const announced = fundamentals.quarters.filter((q) => q.announcementDay <= asOfDay);
  const yearAgo = (q: PeriodStatements): PeriodStatements | undefined =>
    fundamentals.quarters.find((p) => p.fiscalYear === q.fiscalYear - 1 && p.quarter === q.quarter);
  for (const q of announced.slice(-4)) {
    out.transcripts.push([
      spec.symbol,
      q.fiscalYear,
      q.quarter,
      fromDay(q.announcementDay),
      transcript(seed, spec, q, yearAgo(q), executives),
    ]);
    if (q.announcementDay >= asOfDay - 120) run.articles.push(resultsArticle(seed, spec, q, yearAgo(q)));
  }
}

/** Everything a company with statements has: statements, analyst data, insider trades, core extras, news. */
function pushCompanyData(
  run: SeedRun,
  spec: SecuritySpec,
  series: SymbolSeries,
  fundamentals: CompanyFundamentals,
): void {
  const { seed, asOfDay } = run;
  const ids = companyIds(seed, spec);
  const header = {
    symbol: spec.symbol,
    reportedCurrency: spec.currency,
    cik: ids.cik === '' ? null : ids.cik,
  };
  pushStatements(run, spec, fundamentals, header);
  pushAnalystData(run, spec, series, fundamentals);
  const executives = run.executivesBySymbol.get(spec.symbol) ?? [];
  const insiderRate = spec.tier === 'core' ? 0.55 : run.scale === 'test' ? 0.25 : 0.012;
  const insiders = insiderRows(seed, series, ids.cik, executives, asOfDay, insiderRate);
  for (const row of insiders) run.out.insiders.push([row.id, row.symbol, row.filingDate, row.data]);
  pushCompanyFilings(run.out, seed, spec, fundamentals, quarterCount(run.scale, spec), insiders, asOfDay);
  if (spec.tier === 'core') pushCoreCompanyData(run, spec, series, fundamentals, ids.cik, executives);
  if (spec.tier !== 'tail') run.articles.push(...moveArticles(seed, series, asOfDay, 90, 3.8, 2));
}

/** One symbol's prices and everything derived from them; returns the daily bars pushed. */
function pushSymbol(run: SeedRun, ctx: SeriesContext, spec: SecuritySpec): number {
  const { seed, asOfDay } = run;
  const series = generateSeries(spec, ctx);
  const bars = pushPrices(run, spec, series);
  pushIntraday(run, spec, series);
  const fundamentals = spec.assetType === 'stock' ? generateFundamentals(seed, series, run.endDay) : null;
  if (fundamentals) {
    pushCompanyData(run, spec, series, fundamentals);
  } else if (spec.assetType === 'crypto' || spec.assetType === 'forex') {
    run.articles.push(...moveArticles(seed, series, asOfDay, 90, spec.assetType === 'crypto' ? 2.4 : 2.2, 3));
  } else if (spec.familiar && spec.assetType === 'index') {
    run.articles.push(...moveArticles(seed, series, asOfDay, 120, 2.0, 6));
  }
  return bars;
}

/**
 * Prices and everything derived from them, symbol by symbol, in one transaction: the daily bars' indexes
 * are built once at the end instead of row by row.
 */
async function writeSymbols(
  db: Db,
  run: SeedRun,
  ctx: SeriesContext,
  universe: readonly SecuritySpec[],
  skipTriggers: boolean,
  log: (line: string) => void,
): Promise<void> {
  const { out } = run;
  await inTransaction(db, skipTriggers, async (tx) => {
    const rebuildIndexes = await suspendIndexes(tx, getTableName(dailyPrices));
    let batchRows = 0;
    let done = 0;
    for (const spec of universe) {
      batchRows += pushSymbol(run, ctx, spec);
      done += 1;
      if (batchRows >= 150_000) {
        await flushBuffers(db, out, skipTriggers, tx);
        log(`${done}/${universe.length} symbols, ${out.daily.written} daily bars`);
        batchRows = 0;
      }
    }
    await flushBuffers(db, out, skipTriggers, tx);
    log(`${done}/${universe.length} symbols, ${out.daily.written} daily bars; building indexes`);
    await rebuildIndexes();
  });
}

/**
 * Cross-symbol tables: ESG ratings, senate trades, the SEC filings that span symbols (the funds' NPORT-P
 * among them) and the news of every symbol in publication order.
 */
function pushCrossSymbolTables(run: SeedRun, universe: readonly SecuritySpec[]): void {
  const { seed, asOfDay, out, articles } = run;
  for (const row of esgRows(seed, universe, asOfDay))
    out.esg.push([row.symbol, row.fiscalYear, row.esgRiskRating, row.industryRank]);
  for (const row of senateRows(seed, universe, asOfDay))
    out.senate.push([row.id, row.symbol, row.disclosureDate, row.data]);
  pushCrossSymbolFilings(out, seed, universe, asOfDay);
  for (const report of fundReports(seed, universe, asOfDay))
    if (report.filing !== null) out.secFilings.push(filingCells(report.filing));
  articles.sort((a, b) => a.publishedAt.localeCompare(b.publishedAt) || a.url.localeCompare(b.url));
  for (const a of articles) {
    out.news.push([
      a.id,
      a.category,
      a.symbol,
      a.publishedAt,
      a.publisher,
      a.title,
      a.image,
      a.site,
      a.text,
      a.url,
    ]);
  }
}

/** Records which demo data set the database holds (dataset_info 'source'). */
async function recordDataset(db: Db, seed: number, scale: Scale, asOf: string): Promise<void> {
  await db
    .insert(datasetInfo)
    .values({
      key: 'source',
      value: { kind: 'demo', seed, scale, asOf, generatedAt: new Date().toISOString() },
    })
    .onConflictDoUpdate({
      target: datasetInfo.key,
      set: {
        value: { kind: 'demo', seed, scale, asOf, generatedAt: new Date().toISOString() },
        updatedAt: new Date(),
      },
    });
}

/** Rows written per SQL table. */
function rowCounts(out: SeedBuffers): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const buffer of Object.values(out)) counts[buffer.shape.name] = buffer.written;
  counts[getTableName(datasetInfo)] = 1;
  return counts;
}

/**
 * Fills every market table with the demo data set in one pass, symbol batch by symbol batch, and records
 * which data set it is in dataset_info ('source'). Refuses to write over existing market data unless
 * `replace` is set, which deletes the market tables' rows first.
 */
export async function seedDemoData(db: Db, options: SeedOptions = {}): Promise<SeedSummary> {
  const started = performance.now();
  const { scale, seed, asOf, asOfDay } = resolveOptions(options);
  const log = options.log ?? ((): void => undefined);
  await makeRoom(db, options.replace === true, log);
  const skipTriggers = await canSkipTriggers(db);
  const out = seedBuffers(await acceptsBinaryArrays(db));

  const universe = buildUniverse(seed, scale);
  const endDay = Math.max(asOfDay, ANCHOR_DAY);
  const curve = treasuryCurve(seed, endDay);
  const ctx: SeriesContext = { seed, asOfDay, endDay, factors: buildFactors(seed, universe, endDay), curve };
  log(`demo data set: seed ${seed}, scale ${scale}, as of ${asOf}, ${universe.length} symbols`);
  const run: SeedRun = { seed, scale, asOfDay, endDay, out, executivesBySymbol: new Map(), articles: [] };

  pushInstruments(run, universe);
  await inTransaction(db, false, async (tx) => {
    await out.securities.flush(tx);
  });
  await flushBuffers(db, out, skipTriggers);

  pushRatesAndIndicators(run, curve);
  await flushBuffers(db, out, skipTriggers);
  log(`treasury rates and economic indicators: ${out.treasury.written + out.indicators.written} rows`);

  await writeSymbols(db, run, ctx, universe, skipTriggers, log);

  pushCrossSymbolTables(run, universe);
  await flushBuffers(db, out, skipTriggers);
  const marketCounts = await seedMarkets(db, seed, universe, asOfDay);
  log(`revenue segments: ${String(await seedRevenueSegments(db, seed))} rows`);
  const research = await seedResearchData(db, seed, asOfDay);

  const facts = await seedCompanyFacts(db, {
    seed,
    scale,
    asOf,
    universe,
    binary: await acceptsBinaryArrays(db),
  });
  await recordDataset(db, seed, scale, asOf);
  const elapsedMs = Math.round(performance.now() - started);
  log(`done in ${(elapsedMs / 1000).toFixed(1)} s`);
  return {
    seed,
    scale,
    asOf,
    counts: { ...rowCounts(out), ...marketCounts, ...facts, ...research },
    elapsedMs,
  };
}
