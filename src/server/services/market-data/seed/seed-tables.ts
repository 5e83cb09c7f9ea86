import { getTableName } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  analystEstimates,
  companyProfiles,
  dailyPrices,
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
import { RowBuffer, type ColumnKind } from './bulk.ts';
import { TREASURY_MATURITIES } from './economy.ts';
import { FILINGS_SEED_TABLES } from './filings.ts';

/** A table the demo data set writes, with the columns of its rows in the order they are pushed. */
type SeedTable = readonly [table: PgTable, columns: readonly (readonly [PgColumn, ColumnKind])[]];

/** Every table the demo data set writes, in the order its rows are flushed. */
const SEED_TABLES = {
  securities: [
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
  ],
  profiles: [
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
  ],
  executives: [
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
  ],
  daily: [
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
  ],
  intraday: [
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
  ],
  statements: [
    financialStatements,
    [
      [financialStatements.symbol, 'text'],
      [financialStatements.statement, 'text'],
      [financialStatements.fiscalYear, 'int'],
      [financialStatements.period, 'text'],
      [financialStatements.date, 'date'],
      [financialStatements.data, 'json'],
    ],
  ],
  dividends: [
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
  ],
  splits: [
    splits,
    [
      [splits.symbol, 'text'],
      [splits.date, 'date'],
      [splits.numerator, 'float'],
      [splits.denominator, 'float'],
    ],
  ],
  earnings: [
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
  ],
  estimates: [
    analystEstimates,
    [
      [analystEstimates.symbol, 'text'],
      [analystEstimates.period, 'text'],
      [analystEstimates.date, 'date'],
      [analystEstimates.data, 'json'],
    ],
  ],
  targets: [
    priceTargets,
    [
      [priceTargets.symbol, 'text'],
      [priceTargets.targetHigh, 'float'],
      [priceTargets.targetLow, 'float'],
      [priceTargets.targetConsensus, 'float'],
      [priceTargets.targetMedian, 'float'],
    ],
  ],
  grades: [
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
  ],
  transcripts: [
    earningCallTranscripts,
    [
      [earningCallTranscripts.symbol, 'text'],
      [earningCallTranscripts.fiscalYear, 'int'],
      [earningCallTranscripts.quarter, 'int'],
      [earningCallTranscripts.date, 'date'],
      [earningCallTranscripts.content, 'text'],
    ],
  ],
  insiders: [
    insiderTrades,
    [
      [insiderTrades.id, 'uuid'],
      [insiderTrades.symbol, 'text'],
      [insiderTrades.filingDate, 'date'],
      [insiderTrades.data, 'json'],
    ],
  ],
  senate: [
    senateTrades,
    [
      [senateTrades.id, 'uuid'],
      [senateTrades.symbol, 'text'],
      [senateTrades.disclosureDate, 'date'],
      [senateTrades.data, 'json'],
    ],
  ],
  institutions: [
    institutionalOwnership,
    [
      [institutionalOwnership.symbol, 'text'],
      [institutionalOwnership.year, 'int'],
      [institutionalOwnership.quarter, 'int'],
      [institutionalOwnership.data, 'json'],
    ],
  ],
  esg: [
    esgRatings,
    [
      [esgRatings.symbol, 'text'],
      [esgRatings.fiscalYear, 'int'],
      [esgRatings.esgRiskRating, 'text'],
      [esgRatings.industryRank, 'text'],
    ],
  ],
  news: [
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
  ],
  treasury: [
    treasuryRates,
    [
      [treasuryRates.date, 'date'],
      ...TREASURY_MATURITIES.map(([key]) => [treasuryRates[key], 'float'] as const),
    ],
  ],
  indicators: [
    economicIndicators,
    [
      [economicIndicators.name, 'text'],
      [economicIndicators.date, 'date'],
      [economicIndicators.value, 'float'],
    ],
  ],
  ...FILINGS_SEED_TABLES,
} satisfies Record<string, SeedTable>;

/** The name a generator step pushes a table's rows under. */
export type SeedTableName = keyof typeof SEED_TABLES;

/** One row buffer per seeded table, keyed and ordered as SEED_TABLES. */
export type SeedBuffers = Record<SeedTableName, RowBuffer>;

function buffer([table, columns]: SeedTable, binary: boolean): RowBuffer {
  return new RowBuffer(
    { name: getTableName(table), columns: columns.map(([c, kind]) => [c.name, kind] as const) },
    binary,
  );
}

/** Fresh row buffers for every seeded table (binary arrays where the database accepts them). */
export function seedBuffers(binary: boolean): SeedBuffers {
  return Object.fromEntries(
    Object.entries(SEED_TABLES).map(([name, table]) => [name, buffer(table, binary)]),
  ) as SeedBuffers;
}
