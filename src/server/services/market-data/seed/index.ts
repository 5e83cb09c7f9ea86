import { count, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
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
import { earningsRows, estimateRows, gradeRows, priceTargetRow } from './analysts.ts';
import {
  acceptsBinaryArrays,
  canSkipTriggers,
  inTransaction,
  RowBuffer,
  suspendIndexes,
  type ColumnKind,
} from './bulk.ts';
import { fromDay, latestWeekday, toDay } from './calendar.ts';
import { companyIds, executiveRows, profileRow, type ExecutiveRow } from './company.ts';
import { economicIndicatorRows, TREASURY_MATURITIES, treasuryCurve } from './economy.ts';
import { generateFundamentals, statementRow, type PeriodStatements } from './fundamentals.ts';
import { intradayBars } from './intraday.ts';
import { moveArticles, resultsArticle, transcript, type NewsRow } from './news.ts';
import { esgRows, insiderRows, institutionalRows, senateRows } from './ownership.ts';
import { buildFactors, generateSeries, historyStart, type SeriesContext } from './prices.ts';
import { round } from './random.ts';
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
  /** YYYY-MM-DD; defaults to the latest weekday on or before today (UTC). */
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

function shape(
  table: PgTable,
  columns: readonly (readonly [PgColumn, ColumnKind])[],
  binary: boolean,
): RowBuffer {
  return new RowBuffer(
    { name: getTableName(table), columns: columns.map(([c, kind]) => [c.name, kind] as const) },
    binary,
  );
}

function buffers(binary: boolean) {
  return {
    securities: shape(
      securities,
      [
        [securities.symbol, 'text'],
        [securities.name, 'text'],
        [securities.assetType, 'text'],
        [securities.exchange, 'text'],
        [securities.exchangeFullName, 'text'],
        [securities.currency, 'text'],
        [securities.country, 'text'],
        [securities.sector, 'text'],
        [securities.industry, 'text'],
        [securities.sharesOutstanding, 'float'],
        [securities.sample, 'bool'],
        [securities.active, 'bool'],
        [securities.details, 'json'],
        [securities.source, 'text'],
      ],
      binary,
    ),
    profiles: shape(
      companyProfiles,
      [
        [companyProfiles.symbol, 'text'],
        [companyProfiles.description, 'text'],
        [companyProfiles.ceo, 'text'],
        [companyProfiles.website, 'text'],
        [companyProfiles.phone, 'text'],
        [companyProfiles.address, 'text'],
        [companyProfiles.city, 'text'],
        [companyProfiles.state, 'text'],
        [companyProfiles.zip, 'text'],
        [companyProfiles.cik, 'text'],
        [companyProfiles.isin, 'text'],
        [companyProfiles.cusip, 'text'],
        [companyProfiles.fullTimeEmployees, 'int'],
        [companyProfiles.ipoDate, 'date'],
        [companyProfiles.image, 'text'],
        [companyProfiles.beta, 'float'],
        [companyProfiles.isAdr, 'bool'],
      ],
      binary,
    ),
    executives: shape(
      keyExecutives,
      [
        [keyExecutives.id, 'uuid'],
        [keyExecutives.symbol, 'text'],
        [keyExecutives.name, 'text'],
        [keyExecutives.title, 'text'],
        [keyExecutives.pay, 'int'],
        [keyExecutives.currencyPay, 'text'],
        [keyExecutives.gender, 'text'],
        [keyExecutives.yearBorn, 'int'],
        [keyExecutives.active, 'bool'],
        [keyExecutives.sortOrder, 'int'],
      ],
      binary,
    ),
    daily: shape(
      dailyPrices,
      [
        [dailyPrices.symbol, 'text'],
        [dailyPrices.date, 'date'],
        [dailyPrices.open, 'price'],
        [dailyPrices.high, 'price'],
        [dailyPrices.low, 'price'],
        [dailyPrices.close, 'price'],
        [dailyPrices.adjClose, 'price'],
        [dailyPrices.volume, 'int'],
      ],
      binary,
    ),
    intraday: shape(
      intradayPrices,
      [
        [intradayPrices.symbol, 'text'],
        [intradayPrices.time, 'timestamp'],
        [intradayPrices.open, 'price'],
        [intradayPrices.high, 'price'],
        [intradayPrices.low, 'price'],
        [intradayPrices.close, 'price'],
        [intradayPrices.volume, 'int'],
      ],
      binary,
    ),
    statements: shape(
      financialStatements,
      [
        [financialStatements.symbol, 'text'],
        [financialStatements.statement, 'text'],
        [financialStatements.fiscalYear, 'int'],
        [financialStatements.period, 'text'],
        [financialStatements.date, 'date'],
        [financialStatements.data, 'json'],
      ],
      binary,
    ),
    dividends: shape(
      dividends,
      [
        [dividends.symbol, 'text'],
        [dividends.date, 'date'],
        [dividends.recordDate, 'date'],
        [dividends.paymentDate, 'date'],
        [dividends.declarationDate, 'date'],
        [dividends.dividend, 'price'],
        [dividends.adjDividend, 'price'],
        [dividends.frequency, 'text'],
      ],
      binary,
    ),
    splits: shape(
      splits,
      [
        [splits.symbol, 'text'],
        [splits.date, 'date'],
        [splits.numerator, 'float'],
        [splits.denominator, 'float'],
      ],
      binary,
    ),
    earnings: shape(
      earnings,
      [
        [earnings.symbol, 'text'],
        [earnings.date, 'date'],
        [earnings.epsActual, 'float'],
        [earnings.epsEstimated, 'float'],
        [earnings.revenueActual, 'float'],
        [earnings.revenueEstimated, 'float'],
        [earnings.lastUpdated, 'date'],
      ],
      binary,
    ),
    estimates: shape(
      analystEstimates,
      [
        [analystEstimates.symbol, 'text'],
        [analystEstimates.period, 'text'],
        [analystEstimates.date, 'date'],
        [analystEstimates.data, 'json'],
      ],
      binary,
    ),
    targets: shape(
      priceTargets,
      [
        [priceTargets.symbol, 'text'],
        [priceTargets.targetHigh, 'float'],
        [priceTargets.targetLow, 'float'],
        [priceTargets.targetConsensus, 'float'],
        [priceTargets.targetMedian, 'float'],
      ],
      binary,
    ),
    grades: shape(
      grades,
      [
        [grades.id, 'uuid'],
        [grades.symbol, 'text'],
        [grades.date, 'date'],
        [grades.gradingCompany, 'text'],
        [grades.previousGrade, 'text'],
        [grades.newGrade, 'text'],
        [grades.action, 'text'],
      ],
      binary,
    ),
    transcripts: shape(
      earningCallTranscripts,
      [
        [earningCallTranscripts.symbol, 'text'],
        [earningCallTranscripts.fiscalYear, 'int'],
        [earningCallTranscripts.quarter, 'int'],
        [earningCallTranscripts.date, 'date'],
        [earningCallTranscripts.content, 'text'],
      ],
      binary,
    ),
    insiders: shape(
      insiderTrades,
      [
        [insiderTrades.id, 'uuid'],
        [insiderTrades.symbol, 'text'],
        [insiderTrades.filingDate, 'date'],
        [insiderTrades.data, 'json'],
      ],
      binary,
    ),
    senate: shape(
      senateTrades,
      [
        [senateTrades.id, 'uuid'],
        [senateTrades.symbol, 'text'],
        [senateTrades.disclosureDate, 'date'],
        [senateTrades.data, 'json'],
      ],
      binary,
    ),
    institutions: shape(
      institutionalOwnership,
      [
        [institutionalOwnership.symbol, 'text'],
        [institutionalOwnership.year, 'int'],
        [institutionalOwnership.quarter, 'int'],
        [institutionalOwnership.data, 'json'],
      ],
      binary,
    ),
    esg: shape(
      esgRatings,
      [
        [esgRatings.symbol, 'text'],
        [esgRatings.fiscalYear, 'int'],
        [esgRatings.esgRiskRating, 'text'],
        [esgRatings.industryRank, 'text'],
      ],
      binary,
    ),
    news: shape(
      news,
      [
        [news.id, 'uuid'],
        [news.category, 'text'],
        [news.symbol, 'text'],
        [news.publishedAt, 'timestamp'],
        [news.publisher, 'text'],
        [news.title, 'text'],
        [news.image, 'text'],
        [news.site, 'text'],
        [news.text, 'text'],
        [news.url, 'text'],
      ],
      binary,
    ),
    treasury: shape(
      treasuryRates,
      [
        [treasuryRates.date, 'date'],
        ...TREASURY_MATURITIES.map(([key]) => [treasuryRates[key], 'float'] as const),
      ],
      binary,
    ),
    indicators: shape(
      economicIndicators,
      [
        [economicIndicators.name, 'text'],
        [economicIndicators.date, 'date'],
        [economicIndicators.value, 'float'],
      ],
      binary,
    ),
  };
}

function resolveOptions(options: SeedOptions): { scale: Scale; seed: number; asOf: string; asOfDay: number } {
  const requested: string = options.scale ?? 'full';
  const scale = SCALES.find((s) => s === requested);
  if (!scale) throw new Error(`unknown scale "${requested}" (use full or test)`);
  const seed = options.seed ?? DEMO_SEED;
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new Error(`the seed must be a non-negative integer, got ${seed}`);
  const asOf = options.asOf ?? latestWeekday(new Date());
  const asOfDay = toDay(asOf);
  if (asOfDay < EARLIEST_AS_OF_DAY)
    throw new Error(`the "as of" date must be ${EARLIEST_AS_OF} or later, got ${asOf}`);
  return { scale, seed, asOf, asOfDay };
}

function quarterCount(scale: Scale, spec: SecuritySpec): [quarters: number, years: number] {
  if (scale === 'test') return [8, 3];
  return spec.tier === 'core' ? [40, 10] : [8, 5];
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
  if (!(await isMarketDataEmpty(db))) {
    if (!options.replace)
      throw new Error('the database already holds market data; run with --replace to regenerate it');
    log('deleting the existing market data');
    await clearMarketData(db);
  }
  const skipTriggers = await canSkipTriggers(db);
  const out = buffers(await acceptsBinaryArrays(db));
  const flushAll = async (tx?: Db): Promise<void> => {
    if (tx) {
      for (const buffer of Object.values(out)) if (buffer.size > 0) await buffer.flush(tx);
      return;
    }
    await inTransaction(db, skipTriggers, async (t) => {
      for (const buffer of Object.values(out)) if (buffer.size > 0) await buffer.flush(t);
    });
  };

  const universe = buildUniverse(seed, scale);
  const endDay = Math.max(asOfDay, ANCHOR_DAY);
  const curve = treasuryCurve(seed, endDay);
  const ctx: SeriesContext = { seed, asOfDay, endDay, factors: buildFactors(seed, universe, endDay), curve };
  log(`demo data set: seed ${seed}, scale ${scale}, as of ${asOf}, ${universe.length} symbols`);

  // Instruments, company facts and executives.
  const executivesBySymbol = new Map<string, ExecutiveRow[]>();
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
    if (spec.assetType === 'stock' || spec.assetType === 'etf') {
      const p = profileRow(seed, spec);
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
    if (spec.assetType === 'stock' && spec.tier === 'core') {
      const rows = executiveRows(seed, spec);
      executivesBySymbol.set(spec.symbol, rows);
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
  await inTransaction(db, false, async (tx) => {
    await out.securities.flush(tx);
  });
  await flushAll();

  // Rates and macro series.
  curve.days.forEach((day, i) => {
    if (day > asOfDay) return;
    out.treasury.push([fromDay(day), ...TREASURY_MATURITIES.map(([key]) => curve.rates[key][i] ?? 0)]);
  });
  for (const row of economicIndicatorRows(seed, asOfDay, curve))
    out.indicators.push([row.name, row.date, row.value]);
  await flushAll();
  log(`treasury rates and economic indicators: ${out.treasury.written + out.indicators.written} rows`);

  // Prices and everything derived from them, symbol by symbol, in one transaction: the daily bars' indexes
  // are built once at the end instead of row by row.
  const articles: NewsRow[] = [];
  await inTransaction(db, skipTriggers, async (tx) => {
    const rebuildIndexes = await suspendIndexes(tx, getTableName(dailyPrices));
    let batchRows = 0;
    let done = 0;
    for (const spec of universe) {
      const series = generateSeries(spec, ctx);
      const first = historyStart(spec, scale, asOfDay, TAIL_HISTORY_YEARS);
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
        batchRows += 1;
      }
      for (const split of series.splits)
        out.splits.push([spec.symbol, fromDay(split.day), split.numerator, split.denominator]);
      for (const dv of series.dividends) {
        let later = 1;
        for (const split of series.splits)
          if (split.day > dv.day) later *= split.numerator / split.denominator;
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

      const intraday =
        (spec.familiar && spec.assetType === 'stock') || spec.symbol === 'BTCUSD' || spec.symbol === 'ETHUSD';
      if (intraday) {
        for (let i = Math.max(0, series.asOfIndex - 4); i <= series.asOfIndex; i += 1) {
          for (const bar of intradayBars(seed, series, i)) {
            out.intraday.push([spec.symbol, bar.time, bar.open, bar.high, bar.low, bar.close, bar.volume]);
          }
        }
      }

      const fundamentals = spec.assetType === 'stock' ? generateFundamentals(seed, series, endDay) : null;
      const ids = companyIds(seed, spec);
      if (fundamentals) {
        const [quarterLimit, yearLimit] = quarterCount(scale, spec);
        const header = {
          symbol: spec.symbol,
          reportedCurrency: spec.currency,
          cik: ids.cik === '' ? null : ids.cik,
        };
        const filedQuarters = fundamentals.quarters
          .filter((q) => q.filingDay <= asOfDay)
          .slice(-quarterLimit);
        const filedYears = fundamentals.years.filter((y) => y.filingDay <= asOfDay).slice(-yearLimit);
        for (const period of [...filedYears, ...filedQuarters]) {
          const label = period.quarter === 0 ? 'FY' : `Q${period.quarter}`;
          for (const kind of ['income', 'balance-sheet', 'cash-flow'] as const) {
            out.statements.push([
              spec.symbol,
              kind,
              period.fiscalYear,
              label,
              fromDay(period.endDay),
              statementRow(header, period, kind),
            ]);
          }
        }
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
        const executives = executivesBySymbol.get(spec.symbol) ?? [];
        const insiderRate = spec.tier === 'core' ? 0.55 : scale === 'test' ? 0.25 : 0.012;
        for (const row of insiderRows(seed, series, ids.cik, executives, asOfDay, insiderRate)) {
          out.insiders.push([row.id, row.symbol, row.filingDate, row.data]);
        }
        if (spec.tier === 'core') {
          for (const g of gradeRows(seed, spec, asOfDay)) {
            out.grades.push([
              g.id,
              g.symbol,
              g.date,
              g.gradingCompany,
              g.previousGrade,
              g.newGrade,
              g.action,
            ]);
          }
          for (const row of institutionalRows(seed, series, ids.cik, asOfDay, 8)) {
            out.institutions.push([row.symbol, row.year, row.quarter, row.data]);
          }
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
            if (q.announcementDay >= asOfDay - 120) articles.push(resultsArticle(seed, spec, q, yearAgo(q)));
          }
        }
        if (spec.tier !== 'tail') articles.push(...moveArticles(seed, series, asOfDay, 90, 3.8, 2));
      } else if (spec.assetType === 'crypto' || spec.assetType === 'forex') {
        articles.push(...moveArticles(seed, series, asOfDay, 90, spec.assetType === 'crypto' ? 2.4 : 2.2, 3));
      } else if (spec.familiar && spec.assetType === 'index') {
        articles.push(...moveArticles(seed, series, asOfDay, 120, 2.0, 6));
      }

      done += 1;
      if (batchRows >= 150_000) {
        await flushAll(tx);
        log(`${done}/${universe.length} symbols, ${out.daily.written} daily bars`);
        batchRows = 0;
      }
    }
    await flushAll(tx);
    log(`${done}/${universe.length} symbols, ${out.daily.written} daily bars; building indexes`);
    await rebuildIndexes();
  });

  // Cross-symbol tables.
  for (const row of esgRows(seed, universe, asOfDay))
    out.esg.push([row.symbol, row.fiscalYear, row.esgRiskRating, row.industryRank]);
  for (const row of senateRows(seed, universe, asOfDay))
    out.senate.push([row.id, row.symbol, row.disclosureDate, row.data]);
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
  await flushAll();

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

  const counts: Record<string, number> = {};
  for (const buffer of Object.values(out)) counts[buffer.shape.name] = buffer.written;
  counts[getTableName(datasetInfo)] = 1;
  const elapsedMs = Math.round(performance.now() - started);
  log(`done in ${(elapsedMs / 1000).toFixed(1)} s`);
  return { seed, scale, asOf, counts, elapsedMs };
}
